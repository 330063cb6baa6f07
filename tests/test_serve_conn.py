"""The server's connections under a slowloris (issue #45 point 9): at the usual 1024 open
files, a wave of connections that send their headers a byte at a time (no token needed)
took the page down for about 40 s and wrote 290 MB of tracebacks to stderr. Now headers
and bodies have deadlines, one address holds at most 64 connections, the file limit is
raised to the hard one, and each kind of error is one line (rpgdice.serve.conn)."""

from __future__ import annotations

import resource
import socket
import time

import pytest

from test_serve import serving


def _limits(pid: int) -> tuple[str, str]:
    with open(f"/proc/{pid}/limits") as limits:
        for line in limits:
            if line.startswith("Max open files"):
                soft, hard = line.split()[3:5]
                return soft, hard
    raise AssertionError("no open files limit")


def _connect(port: int, source: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    return sock


def _closed(sock: socket.socket, wait: float) -> bool:
    """Whether the server closed ``sock`` (within ``wait`` seconds)."""
    deadline = time.monotonic() + wait
    try:
        while True:  # what the server answered first (a 403), then its end
            sock.settimeout(max(0.001, deadline - time.monotonic()))
            if sock.recv(65536) == b"":
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


@pytest.mark.slow
@pytest.mark.process
def test_a_slowloris_wave_leaves_the_page_up_and_says_one_line_per_kind(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))  # the usual limit
    try:
        context = serving(tmp=tmp_path)
        server = context.__enter__()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        limit = _limits(server.process.pid)
        assert limit[0] == limit[1], limit  # raised to the hard limit at start
        port = int(server.base.rsplit(":", 1)[1])
        wave = []
        for _ in range(min(1100, soft - 100)):  # one address, more files than 1024
            sock = _connect(port, "127.0.0.2")
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")  # never ends
            wave.append(sock)
        slow_body = _connect(port, "127.0.0.3")
        slow_body.sendall(b"POST /api/roll HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Length: 100\r\n\r\n{\"line\"")
        started = time.monotonic()
        status, page = server.get("/")  # another address: served at once
        assert status == 200 and b"<html" in page.lower()
        assert time.monotonic() - started < 5
        closed = sum(_closed(sock, 0.01) for sock in wave[-100:])
        assert closed == 100, f"{closed} of the last 100 closed: one address holds 64"
        time.sleep(max(0.0, started + 11 - time.monotonic()))
        assert all(_closed(sock, 1) for sock in wave[:64]), "headers past their deadline"
        assert _closed(slow_body, 1), "a body past its deadline"
        for sock in wave:
            sock.close()
        assert server.get("/")[0] == 200
        err = server.stderr()
        assert "Traceback" not in err and len(err.splitlines()) <= 4, err[:2000]
        assert "holds 64 connections already" in err and "headers took over 10 s" in err
    finally:
        context.__exit__(None, None, None)
