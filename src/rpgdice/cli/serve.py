"""`rpgdice serve`: the table's live page (rpgdice.serve). Starlette and uvicorn, the
optional extra ``rpgdice[serve]``, are imported here only once the command runs."""

from __future__ import annotations

import socket
import sys
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.core.errors import RulesError

if TYPE_CHECKING:
    from types import ModuleType

    from rpgdice.serve.app import Table
    from rpgdice.table.seats import Watched

app = RulesetTyper(add_completion=False, rich_markup_mode="markdown", command_cls=Command)

HINT = "rpgdice serve needs its extra: pip install 'rpgdice[serve]'"
def loopback(host: str) -> bool:
    """Whether ``host`` is this machine alone (no token needed): rpgdice.serve.hosts says,
    loaded only when the command runs (``rpgdice --help`` lists serve without loading it)."""
    from rpgdice.serve.hosts import loopback as this_machine

    return this_machine(host)


MIN_TOKEN = 16
"""The fewest characters a token given with --token may have."""


def discord_url(given: Optional[str]) -> Optional[str]:
    """``--discord URL``, else ``[serve] discord`` in config.toml; checked to be http(s)."""
    url = given
    if url is None:
        from rpgdice.table import files, paths

        where = paths.config_file()
        data = files.read_toml(where) or {}
        section = data.get("serve", {})
        url = section.get("discord") if isinstance(section, dict) else None
        if url is not None and not isinstance(url, str):
            raise files.broken(where, "[serve] discord is not a text (a webhook URL)")
    if url is None:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or not url.isprintable():
        raise RulesError("--discord", f"{url[:80]!r} is not a webhook URL (https://...)")
    return url


@app.command("serve")
def serve_cmd(
    host: Annotated[Optional[str], typer.Option(
        "--host", metavar="HOST", help="Where to listen: 127.0.0.1 (this machine) unless "
        "told (or [serve] host in config.toml); any other host needs a token.")] = None,
    port: Annotated[Optional[int], typer.Option(
        "--port", parser=params.integer(0, 65535), metavar="PORT",
        help="The port (0: any free one; else [serve] port in config.toml, else 8737).")
    ] = None,
    token: Annotated[Optional[str], typer.Option(
        "--token", metavar="TOKEN", help="The token every request must carry (?token=); "
        "made and printed when the host is not loopback and none is given.")] = None,
    discord: Annotated[Optional[str], typer.Option(
        "--discord", metavar="WEBHOOK_URL", help="Post each public roll to this Discord "
        "webhook (or [serve] discord in config.toml).")] = None,
) -> None:
    """Show the table: a live web page of the roll log (every rpgdice process's rolls,
    newest first, secret ones as "a secret roll"), the current encounter, /api/rolls and
    /events; the players roll at it with their seats' links (POST /api/roll, rpgdice seat).
    Needs pip install 'rpgdice[serve]'.

    Example: rpgdice serve --host 0.0.0.0
    """
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise RulesError("", HINT) from None
    from rpgdice.cli.seat import DEFAULT_HOST, DEFAULT_PORT, configured

    if host is None or port is None:
        conf_host, conf_port = configured()
        host = host if host is not None else conf_host or DEFAULT_HOST
        port = port if port is not None else conf_port if conf_port is not None else DEFAULT_PORT
    if token is not None and (len(token) < MIN_TOKEN or not token.isprintable()
                              or any(c.isspace() for c in token)):
        raise RulesError("--token", f"a token is at least {MIN_TOKEN} printable characters, "
                         "no spaces")
    if token is None and not loopback(host):
        import secrets

        token = secrets.token_urlsafe(24)
    url = discord_url(discord)
    _run(uvicorn, host, port, token, url)


def _run(uvicorn: ModuleType, host: str, port: int, token: Optional[str], url: Optional[str]) -> None:
    from rpgdice.cli.encounter import control
    from rpgdice.cli.output import warning
    from rpgdice.cli.seated import odds_line, roll_line, routed
    from rpgdice.serve import hosts as names
    from rpgdice.serve.app import Guard, Table, make_app
    from rpgdice.table import seats
    from rpgdice.table.paths import log_file

    poster = None
    if url is not None:
        from rpgdice.serve.discord import Poster

        table_ref: list[Table] = []
        poster = Poster(url, lambda t: table_ref[0].hub.notice("discord", t), warning)
    table = Table(log_file(), token, poster, roller=roll_line, odds_line=odds_line)
    if poster is not None:
        table_ref.append(table)
    table.control = control  # the GM's screen's encounter controls
    seats.load()  # a broken seats.toml is said before serving
    seats.gm_link_token()  # the GM's screen's token: made once, kept in seats.toml
    watched = seats.Watched(seats.path())
    table.seats = watched  # a removed or renewed seat's streams end at once
    allowed = names.addresses() | {host.strip("[]").lower()}
    guard = Guard(make_app(table), token, watched, allowed, open_reads=loopback(host) and not token)
    routed(), routed("stderr")  # each seat's roll prints to its own answer
    import os

    os.environ.pop("RPGDICE_AS", None)  # the GM's own default is no seat's character
    from rpgdice.serve import conn

    conn.more_files()  # as many open files as the system lets it (1024 is a few waves)
    config = uvicorn.Config(guard, host=host, port=port, http=conn.Bounded,
                            log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=2)
    conn.quiet_logs()  # one line per kind of error, never a traceback per connection
    server = uvicorn.Server(config)
    sock = _bound(host, port)
    _announce(server, host, token, watched)
    server.run(sockets=[sock])


def _bound(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (a usage error, exit 2, when it cannot be)."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as e:
        raise RulesError("--host", f"{host!r} is no address of this machine "
                         f"({getattr(e, 'strerror', None) or e})") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise RulesError("--port", f"cannot listen on {host}:{port}: "
                         f"{e.strerror or e}") from None
    return sock


def _announce(server: Any, host: str, token: Optional[str], watched: Watched) -> None:
    """Print the page's URL (with its token) once the server listens, each seat's link,
    then the GM's screen's: the machine's own address for a host that is not loopback
    (never 0.0.0.0)."""
    from rpgdice.serve.hosts import shown_host

    startup = server.startup

    async def announced(sockets: list[socket.socket] | None = None) -> None:
        await startup(sockets=sockets)
        if not server.started:
            return
        port = server.servers[0].sockets[0].getsockname()[1] if server.servers else "?"
        base = f"http://{shown_host(host)}:{port}"
        query = f"/?token={token}" if token else "/"
        lines = [f"rpgdice serve: the table is at {base}{query}\n"]
        lines += [f"rpgdice serve: seat {s.name}: {base}/?seat={s.token}\n"
                  for s in watched.current()]
        if watched.gm is not None:  # last: the GM's own
            lines.append(f"rpgdice serve: the GM's screen: {base}/?gm={watched.gm}\n")
        sys.stdout.write("".join(lines))
        sys.stdout.flush()

    server.startup = announced
