"""`python -m rpgdice`."""

from rpgdice.cli import main

raise SystemExit(main())
