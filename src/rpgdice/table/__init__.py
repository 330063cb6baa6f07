"""What the user keeps: where files live, character sheets, aliases and the roll log.

The engine never sees this package; the CLI turns what is kept here into the numbers
a roll needs. Nothing here is imported on a roll that does not use it.
"""
