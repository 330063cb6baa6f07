"""nox: the pure tests on every Python version rpgdice declares.

    nox                      # every declared version: the pure tests (-m "not process")
    nox -p 3.10 3.13         # some of them
    nox -p 3.12 -- -m ""     # arguments replace the selection: here the whole suite
    python noxfile.py others # the declared versions other than this Python's (for .ci/run)

The pure tests start no process, pseudo-terminal, real shell, server or browser (the
``process`` marker, which tests/conftest.py holds to what each test does): what differs
between Python versions is the code, and .ci/run runs the whole suite once, on its python3.

The declared versions are pyproject.toml's "Programming Language :: Python :: 3.X"
classifiers (tests/test_packaging.py keeps them in step with requires-python). An
interpreter is looked for on PATH as pythonX.Y and, where that is missing or a pyenv
shim that does not run it, under pyenv's versions (~/.pyenv/versions/X.Y.*/bin). A
declared version that cannot be found is an error, never a skip.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def declared_versions() -> list[str]:
    """The Python versions pyproject.toml declares, oldest first."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.findall(r'"Programming Language :: Python :: (3\.\d+)"', text)
    return sorted(set(found), key=lambda v: tuple(map(int, v.split("."))))


def _runs(path: str, version: str) -> bool:
    try:
        out = subprocess.run([path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and out.stdout.strip() == version


def find_interpreter(version: str) -> str | None:
    """A working ``pythonX.Y`` for ``version``: on PATH, else the newest pyenv build."""
    on_path = shutil.which(f"python{version}")
    if on_path and _runs(on_path, version):
        return on_path
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    builds = glob.glob(os.path.join(pyenv, "versions", f"{version}.*", "bin", f"python{version}"))

    def patch(path: str) -> int:
        match = re.search(rf"/{re.escape(version)}\.(\d+)/", path)
        return int(match.group(1)) if match else -1

    for path in sorted(builds, key=patch, reverse=True):
        if _runs(path, version):
            return path
    return None


def others() -> list[str]:
    """The declared versions other than the running Python's."""
    mine = "{}.{}".format(*sys.version_info[:2])
    return [v for v in declared_versions() if v != mine]


if __name__ == "__main__":
    if sys.argv[1:] == ["others"]:
        print(" ".join(others()))
        sys.exit(0)
    sys.exit("usage: python noxfile.py others")

import nox  # noqa: E402  (the helpers above run without nox, from .ci/run's shell)

nox.options.sessions = ["tests"]
nox.options.error_on_missing_interpreters = True
nox.options.download_python = "never"
nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True

# Sessions ask for "3.10"; nox finds pythonX.Y on PATH. Make the interpreters found above
# the ones it finds, through links in a folder of their own put first on PATH (a pyenv
# shim there would refuse to run a version that is not pyenv's global one).
_LINKS = ROOT / ".nox" / "interpreters"
for _version in declared_versions():
    _found = find_interpreter(_version)
    _link = _LINKS / f"python{_version}"
    if _found is not None:  # made anew (never a link left from another machine's run) and
        _LINKS.mkdir(parents=True, exist_ok=True)  # put in place at once: sessions started
        _new = _LINKS / f".python{_version}.{os.getpid()}"  # side by side never miss it
        _new.unlink(missing_ok=True)
        _new.symlink_to(_found)
        os.replace(_new, _link)
    elif _link.is_symlink() or _link.exists():
        _link.unlink()
os.environ["PATH"] = f"{_LINKS}{os.pathsep}{os.environ.get('PATH', '')}"


PURE = ["-m", "not process and not slow"]
"""The tests each session runs unless arguments say otherwise: the pure tests (no process,
shell, server or browser) of the quick run; the long ones (the fuzzing, the big odds and
simulations) run once, on the README's Python, with the whole suite (.ci/run)."""


@nox.session(python=declared_versions())
def tests(session: nox.Session) -> None:
    """The pure quick tests on one Python version (arguments, ``nox -- ARGS``, replace ``-m
    "not process and not slow"``), against rpgdice installed editable, or from the wheel
    ``RPGDICE_WHEEL`` names (.ci/run builds it from a copy of the tree, so that installing
    writes nothing in ``src/`` while the README's tests run there)."""
    wheel = os.environ.get("RPGDICE_WHEEL")
    if wheel:  # .ci/run: the package as built once, from a copy of the tree, installed
        session.install(f"rpgdice[test] @ {Path(wheel).resolve().as_uri()}")
    else:
        session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                *(session.posargs or PURE))
