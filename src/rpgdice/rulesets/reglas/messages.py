"""Reglas Básicas speaks Spanish, its error lines too: the one place where a reason that the
shared code (the parameters, the budget, the dice source, Click) words in English is said in
Spanish. The command line's error printer hands every reason of a ``reglas`` command to
:func:`spanish`; names as typed (options, values in quotes, commands) are kept as they are.

Pure: text in, text out. Each entry is a pattern of the English wording and its Spanish,
applied in order, longest phrases first, so a whole sentence is translated before its words.
"""

from __future__ import annotations

import re

_N = r"(-?[\d,]+)"
PHRASES: tuple[tuple[str, str], ...] = (
    # A command named after odds (rpgdice.cli, "odds TYPE").
    (r"'(\w+)' is a command of its own, not an odds type; its odds are '([^']+)' itself "
     r"\(leave out '\w+'\)",
     r"'\1' es una orden propia, no un tipo de tirada de odds; sus probabilidades las da '\2' "
     r"(quita '\1')"),
    (r"'(\w+)' is a command of its own, not an odds type; for its odds, add --odds to the "
     r"roll: (.+)",
     r"'\1' es una orden propia, no un tipo de tirada de odds; para sus probabilidades, "
     r"añade --odds a la tirada: \2"),
    # The work budget (rpgdice.core.budget.check_work).
    (rf"{_N} repetitions of up to {_N} dice in {_N} rolls? is {_N} dice of work, over the "
     rf"budget of {_N} a command \(a die counts 1, a roll {_N}\); accepts at most {_N} "
     r"repetitions of this command",
     r"\1 repeticiones de hasta \2 dados en \3 tiradas son \4 dados de trabajo, más que el "
     r"presupuesto de \5 por orden (un dado cuenta 1, una tirada \6); acepta como mucho \7 "
     r"repeticiones de esta orden"),
    # Odds (rpgdice.core.budget.check_odds, rpgdice.cli.edit).
    (r"the exact odds of this (extended action|team) take up to ([\d,]+) steps, over the odds "
     r"budget of ([\d,]+) \(shared by the (\d+) computations --compare asks for: ([\d,]+) "
     r"each\); ask for fewer rolls or a lower target",
     r"las probabilidades exactas de esta tirada llevan hasta \2 pasos, más que el presupuesto "
     r"de \3 (repartido entre los \4 cálculos que pide --compare: \5 cada uno); pide menos "
     r"tiradas o un objetivo menor"),
    (r"the exact odds of this (extended action|team) take up to ([\d,]+) steps, over the odds "
     r"budget of ([\d,]+); ask for fewer rolls or a lower target",
     r"las probabilidades exactas de esta tirada llevan hasta \2 pasos, más que el presupuesto "
     r"de \3; pide menos tiradas o un objetivo menor"),
    (r"the odds are computed, not rolled: an odds command takes no --dice, --seed or --times",
     r"las probabilidades se calculan, no se tiran: una orden de probabilidades no toma --dice, "
     r"--seed ni --times"),
    (r"an alternative cannot compare again", r"una alternativa no puede comparar otra vez"),
    (r"computes no odds", r"no calcula probabilidades"),
    # The dice given by hand (rpgdice.core.dice).
    (rf"too few faces: {_N} given, the roll needs at least {_N}; give a face for every die "
     r"rolled, in order \(repeats and re-rolls too\), or leave out --dice to roll them",
     r"faltan caras: se dieron \1, la tirada necesita al menos \2; da una cara por cada dado "
     r"tirado, en orden (repeticiones y nuevas tiradas incluidas), o quita --dice para tirarlos"),
    (rf"too many faces: {_N} given, the roll used {_N}; give just the {_N} it rolls, in order",
     r"sobran caras: se dieron \1 y la tirada usó \2; da solo las que tira, en orden"),
    (rf"face {_N} is not on a d10 \(1 to 10\)", r"la cara \1 no está en un d10 (de 1 a 10)"),
    (r"faces such as 4,7,2 \(commas or spaces\), each on the die rolled",
     r"caras como 4,7,2 (con comas o espacios), cada una del dado tirado"),
    (r"has an empty face \(nothing between commas\)", r"tiene una cara vacía (nada entre comas)"),
    (r"is not a face", r"no es una cara"),
    (r"cannot be combined with --seed \(given faces are not rolled\)",
     r"no se combina con --seed (las caras dadas no se tiran)"),
    # The roll log and the home folder (rpgdice.table): a logged roll's warning.
    (r"the roll was not logged: ", r"la tirada no quedó en el registro: "),
    (r"the roll log cannot be opened: ", r"el registro de tiradas no se puede abrir: "),
    (r"the roll log (\S+) cannot be (written|read): ",
     r"el registro de tiradas \1 no se puede \2: "),
    (r"no se puede written", r"no se puede escribir"),
    (r"no se puede read", r"no se puede leer"),
    (r"the roll log (\S+) is not a regular file; move it away",
     r"el registro de tiradas \1 no es un archivo normal; apártalo"),
    (r"the roll log (\S+) is corrupt and cannot be set aside: ",
     r"el registro de tiradas \1 está dañado y no se puede apartar: "),
    (r"the roll log (\S+) is being repaired by another program",
     r"el registro de tiradas \1 lo está reparando otro programa"),
    (r"the roll log's folder (\S+) cannot be made: ",
     r"la carpeta del registro de tiradas \1 no se puede crear: "),
    (r"(RPGDICE_HOME: '[^']*') is not a folder; set it to a folder \(or unset it\)",
     r"\1 no es una carpeta; pon una carpeta (o quítala)"),
    # Arguments and options (rpgdice.cli.params, rpgdice.cli, Click).
    (rf"given {_N} times, adding up to {_N}, which is more than {_N} in size; accepts values "
     rf"whose sum is at most {_N} in size",
     r"dada \1 veces, suma \2, más que \3 en valor absoluto; acepta valores cuya suma sea "
     r"como mucho \4 en valor absoluto"),
    (r"is no number but looks like (a trait name|trait names), which only a character's roll "
     r"reads from its sheet: add --as NAME \(a saved character: rpgdice char list\), or give "
     r"numbers such as 3\+2",
     r"no es un número sino \1, que solo lee de su hoja la tirada de un personaje: añade --as "
     r"NOMBRE (un personaje guardado: rpgdice char list), o da números como 3+2"),
    (r"no es un número sino a trait name", r"no es un número sino el nombre de un rasgo"),
    (r"no es un número sino trait names", r"no es un número sino nombres de rasgos"),
    (r"^Got unexpected extra argument(?:\(s\)|s)? \((.*)\); usage: (.*)$",
     r"sobran argumentos (\1); uso: \2"),
    (r"\[OPTIONS\]", r"[OPCIONES]"),
    (r"^COMMAND:", r"ORDEN:"),
    (r"('rpgdice [^']*') accepts", r"\1 acepta"),
    (r" in ('[^']*') is more than", r" en \1 is more than"),
    (r"a negative number is not an option, and (\S+) cannot be negative",
     r"un número negativo no es una opción, y \1 no puede ser negativo"),
    (r"is not a command of", r"no es una orden de"),
    (r"\((rpgdice [^()]*?) --help says what each does\)", r"(\1 --help dice qué hace cada una)"),
    (r"no such option", r"no existe esa opción"),
    (r"\(did you mean (.*?)\?\)", r"(¿quisiste decir \1?)"),
    (r"\(the closest is (.*?)\)", r"(el más parecido es \1)"),
    (r"is not a whole number", r"no es un número entero"),
    (r"a whole number from (-?[\d,]+) to (-?[\d,]+)", r"un número entero de \1 a \2"),
    (r"is out of range", r"está fuera de rango"),
    (r"is not one of", r"no es uno de"),
    (r"has more than (\d+) terms", r"tiene más de \1 términos"),
    (r"is not a number or a sum", r"no es un número ni una suma"),
    (r"is (-?\d+), below 0", r"da \1, menos de 0"),
    (r"is more than (\d+)", r"es más que \1"),
    (r"is negative", r"es negativo"),
    (r"needs a value", r"necesita un valor"),
    (r" \(a number or a sum\)", r""),
    (r"^INDEX:", r"ÍNDICE:"),
    (r"^missing", r"falta"),
    (r": missing", r": falta"),
    (r"(\S+) has no trait (\S+)", r"\1 no tiene el rasgo \2"),
    (r"(\S+) is an? (\w+) character, and ('[^']*') rolls (\w+)",
     r"\1 es un personaje de \2, y \3 tira \4"),
    (r"no character (\S+) in (\S+); create one with rpgdice char new",
     r"no hay ningún personaje \1 en \2; crea uno con rpgdice char new"),
    (r"; accepts at most", r"; acepta como mucho"),
    (r"; accepts one of", r"; acepta uno de"),
    (r"; accepts", r"; acepta"),
    (r", or (un número entero|una suma)", r", o \1"),
    (r" or (--\S+)", r" o \1"),
)
_COMPILED = tuple((re.compile(p), s) for p, s in PHRASES)


def spanish(reason: str) -> str:
    """``reason`` (an error line's text after ``rpgdice: error:``) said in Spanish."""
    for pattern, said in _COMPILED:
        reason = pattern.sub(said, reason)
    return reason


translate = spanish
"""What the record's ``messages`` names: an error or warning line said in Spanish."""
