"""What a seat reached that it should not, and what a joined terminal or ``log show``
printed that it should not (issue #45, items 5, 6, 8, 11, 12, 13), each attack made again
against the real server on a free port where it needs one (docs/serve.md, "What a seat
can and cannot do")."""

from __future__ import annotations

import pytest

from conftest import character, ok, proc
from test_seats import seat_token
from test_serve import serving

GM = "the-gms-own-token-0123456789"


# 13. A joined terminal prints whatever the table rolled, labelled dice too ---------------


@pytest.mark.slow
@pytest.mark.process
def test_a_joined_terminal_prints_labelled_dice_as_the_same_local_roll_does(tmp_path):
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    lines = [["roll", "2d6 # fire", "--seed", "4"], ["roll", "2d6+1d4[fire]", "--seed", "4"],
             ["roll", "2d6+1d4[fire]", "2d8 # cold", "--seed", "5"]]
    with serving("--token", GM, tmp=tmp_path) as server:
        assert proc("table", "join", f"{server.base}/?seat={GM}").returncode == 0
        for words in lines:
            run = proc(*words)
            assert run.returncode == 0, (words, run.stderr)
            here = proc(*words, "--here")
            assert here.returncode == 0 and run.stdout == here.stdout, words
        assert "fire" in run.stdout and "cold" in run.stdout
        assert proc("table", "join", f"{server.base}/?seat={seat_token('ana')}").returncode == 0
        for words in (["roll", "2d6 # fire"], ["roll", "2d6+1d4[fire]"]):
            run = proc(*words)  # a seat's own: the table rolls, the terminal prints it
            assert run.returncode == 0 and "fire" in run.stdout, (words, run.stderr)
    logged = ok("log", "--json").stdout.splitlines()
    assert len(logged) == 5
