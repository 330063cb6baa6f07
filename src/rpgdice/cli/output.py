"""The command line's output: the names of :mod:`rpgdice.render.output` (the one place that
writes to the user), where the command line has always found them."""

from rpgdice.render.output import JSON_EXTRA as JSON_EXTRA
from rpgdice.render.output import LONG_LINE as LONG_LINE
from rpgdice.render.output import LONG_WORD as LONG_WORD
from rpgdice.render.output import PROG as PROG
from rpgdice.render.output import SPOKEN as SPOKEN
from rpgdice.render.output import emit as emit
from rpgdice.render.output import emit_odds as emit_odds
from rpgdice.render.output import error as error
from rpgdice.render.output import odds_key as odds_key
from rpgdice.render.output import one_line as one_line
from rpgdice.render.output import spoken as spoken
from rpgdice.render.output import warning as warning
