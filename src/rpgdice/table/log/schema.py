"""The roll log's schema: the steps (:data:`MIGRATIONS`) that take a log from each
version (``PRAGMA user_version``) to the next, and the columns of an entry. Plain data: no
sqlite3 here."""

from __future__ import annotations

_COUNTED = "count = 1 AND command IN ('roll', 'task')"
"""What schema 2 counted; from schema 3 on, ``log stats`` keeps every one-result entry
and picks its ruleset's single-roll commands (their records' ``stats``) itself."""
_KEY = "coalesce({row}.spec, 'argv ' || {row}.argv)"
"""What ``stats_rolls`` groups an entry's rolls by: its odds spec as stored data (an entry
of an older rpgdice has none: its arguments, which ``log stats`` only ever runs when they
are a roll of a known kind)."""

_STATS_ADD = f"""BEGIN
                INSERT INTO stats_rolls (ruleset, who, command, spec, outcome, n)
                VALUES (NEW.ruleset, coalesce(NEW.character, ''), NEW.command,
                        {_KEY.format(row='NEW')}, coalesce(NEW.outcome, ''), 1)
                ON CONFLICT (ruleset, who, command, spec, outcome) DO UPDATE SET n = n + 1;
                INSERT INTO stats_faces (ruleset, who, command, die, face, n)
                SELECT NEW.ruleset, coalesce(NEW.character, ''), NEW.command, d.key, f.value,
                       count(*)
                FROM json_each(NEW.rolled) d, json_each(d.value) f WHERE true
                GROUP BY d.key, f.value
                ON CONFLICT (ruleset, who, command, die, face) DO UPDATE SET n = n + excluded.n;
            END"""
"""What the trigger on a new counted entry does (schema 3 on): its roll and faces counted."""
_STATS_REMOVE = f"""BEGIN
                UPDATE stats_rolls SET n = n - 1
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND command = OLD.command AND spec = {_KEY.format(row='OLD')}
                  AND outcome = coalesce(OLD.outcome, '');
                DELETE FROM stats_rolls WHERE n <= 0;
                UPDATE stats_faces SET n = n - (
                    SELECT count(*) FROM json_each(OLD.rolled) d, json_each(d.value) f
                    WHERE d.key = stats_faces.die AND f.value = stats_faces.face)
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND command = OLD.command;
            END"""
"""What the trigger on a removed counted entry does (schema 3 on): the counts taken back."""

MIGRATIONS: list[tuple[str, ...]] = [
    # 1: the first release.
    (
        """CREATE TABLE entries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            time TEXT NOT NULL,
            argv TEXT NOT NULL,
            character TEXT,
            ruleset TEXT NOT NULL,
            command TEXT NOT NULL,
            seed TEXT,
            faces TEXT,
            count INTEGER NOT NULL,
            outcome TEXT,
            results TEXT NOT NULL,
            rolled TEXT,
            rerolled_at TEXT,
            rerolled_by INTEGER
        )""",
        "CREATE INDEX entries_by_ruleset ON entries (ruleset, id)",
        "CREATE INDEX entries_by_character ON entries (character, id)",
    ),
    # 2: what `log stats` reads, kept up to date by triggers as entries come and go (so
    # stats read a few hundred rows, not the whole log), and the exact odds it computed.
    (
        "CREATE TABLE odds_cache (key TEXT PRIMARY KEY, outcomes TEXT NOT NULL) WITHOUT ROWID",
        """CREATE TABLE stats_rolls (ruleset TEXT NOT NULL, who TEXT NOT NULL, argv TEXT NOT NULL,
            outcome TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, argv, outcome)) WITHOUT ROWID""",
        """CREATE TABLE stats_faces (ruleset TEXT NOT NULL, who TEXT NOT NULL, die TEXT NOT NULL,
            face INTEGER NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, die, face)) WITHOUT ROWID""",
        f"""INSERT INTO stats_rolls (ruleset, who, argv, outcome, n)
            SELECT ruleset, coalesce(character, ''), argv, coalesce(outcome, ''), count(*)
            FROM entries WHERE {_COUNTED} GROUP BY 1, 2, 3, 4""",
        f"""INSERT INTO stats_faces (ruleset, who, die, face, n)
            SELECT e.ruleset, coalesce(e.character, ''), d.key, f.value, count(*)
            FROM entries e, json_each(e.rolled) d, json_each(d.value) f
            WHERE e.{_COUNTED.replace(' AND ', ' AND e.')} GROUP BY 1, 2, 3, 4""",
        f"""CREATE TRIGGER entries_stats_add AFTER INSERT ON entries
            WHEN NEW.{_COUNTED.replace(' AND ', ' AND NEW.')}
            BEGIN
                INSERT INTO stats_rolls (ruleset, who, argv, outcome, n)
                VALUES (NEW.ruleset, coalesce(NEW.character, ''), NEW.argv,
                        coalesce(NEW.outcome, ''), 1)
                ON CONFLICT (ruleset, who, argv, outcome) DO UPDATE SET n = n + 1;
                INSERT INTO stats_faces (ruleset, who, die, face, n)
                SELECT NEW.ruleset, coalesce(NEW.character, ''), d.key, f.value, count(*)
                FROM json_each(NEW.rolled) d, json_each(d.value) f WHERE true
                GROUP BY d.key, f.value
                ON CONFLICT (ruleset, who, die, face) DO UPDATE SET n = n + excluded.n;
            END""",
        f"""CREATE TRIGGER entries_stats_remove AFTER DELETE ON entries
            WHEN OLD.{_COUNTED.replace(' AND ', ' AND OLD.')}
            BEGIN
                UPDATE stats_rolls SET n = n - 1
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND argv = OLD.argv AND outcome = coalesce(OLD.outcome, '');
                DELETE FROM stats_rolls
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND argv = OLD.argv AND outcome = coalesce(OLD.outcome, '') AND n <= 0;
                UPDATE stats_faces SET n = n - (
                    SELECT count(*) FROM json_each(OLD.rolled) d, json_each(d.value) f
                    WHERE d.key = stats_faces.die AND f.value = stats_faces.face)
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '');
            END""",
    ),
    # 3, "results as data": an entry stores which record class each result is (``kinds``),
    # the exact odds spec of its roll as data (``spec``), and what its view showed beside
    # the results (``shown``: the --odds spec, the character envelopes), so that `log show`
    # and `log stats` rebuild from the log and never run a stored command line. The stats
    # tables now group by command and spec.
    (
        "ALTER TABLE entries ADD COLUMN kinds TEXT",
        "ALTER TABLE entries ADD COLUMN spec TEXT",
        "ALTER TABLE entries ADD COLUMN shown TEXT",
        "DROP TRIGGER entries_stats_add",
        "DROP TRIGGER entries_stats_remove",
        "DROP TABLE stats_rolls",
        "DROP TABLE stats_faces",
        """CREATE TABLE stats_rolls (ruleset TEXT NOT NULL, who TEXT NOT NULL,
            command TEXT NOT NULL, spec TEXT NOT NULL, outcome TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, command, spec, outcome)) WITHOUT ROWID""",
        """CREATE TABLE stats_faces (ruleset TEXT NOT NULL, who TEXT NOT NULL,
            command TEXT NOT NULL, die TEXT NOT NULL, face INTEGER NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, command, die, face)) WITHOUT ROWID""",
        f"""INSERT INTO stats_rolls (ruleset, who, command, spec, outcome, n)
            SELECT ruleset, coalesce(character, ''), command, {_KEY.format(row='entries')},
                   coalesce(outcome, ''), count(*)
            FROM entries WHERE count = 1 GROUP BY 1, 2, 3, 4, 5""",
        """INSERT INTO stats_faces (ruleset, who, command, die, face, n)
            SELECT e.ruleset, coalesce(e.character, ''), e.command, d.key, f.value, count(*)
            FROM entries e, json_each(e.rolled) d, json_each(d.value) f
            WHERE e.count = 1 GROUP BY 1, 2, 3, 4, 5""",
        """CREATE TRIGGER entries_stats_add AFTER INSERT ON entries WHEN NEW.count = 1
            """ + _STATS_ADD,
        """CREATE TRIGGER entries_stats_remove AFTER DELETE ON entries WHEN OLD.count = 1
            """ + _STATS_REMOVE,
    ),
    # 4, "hand-rolled apart": `log stats` leaves out the rolls made with --dice (dice
    # rolled by hand are no test of the random source), and counts them in stats_hand.
    (
        "DROP TRIGGER entries_stats_add",
        "DROP TRIGGER entries_stats_remove",
        "DELETE FROM stats_rolls",
        "DELETE FROM stats_faces",
        """CREATE TABLE stats_hand (ruleset TEXT NOT NULL, who TEXT NOT NULL,
            command TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, command)) WITHOUT ROWID""",
        f"""INSERT INTO stats_rolls (ruleset, who, command, spec, outcome, n)
            SELECT ruleset, coalesce(character, ''), command, {_KEY.format(row='entries')},
                   coalesce(outcome, ''), count(*)
            FROM entries WHERE count = 1 AND faces IS NULL GROUP BY 1, 2, 3, 4, 5""",
        """INSERT INTO stats_faces (ruleset, who, command, die, face, n)
            SELECT e.ruleset, coalesce(e.character, ''), e.command, d.key, f.value, count(*)
            FROM entries e, json_each(e.rolled) d, json_each(d.value) f
            WHERE e.count = 1 AND e.faces IS NULL AND json_valid(e.rolled)
            GROUP BY 1, 2, 3, 4, 5""",
        """INSERT INTO stats_hand (ruleset, who, command, n)
            SELECT ruleset, coalesce(character, ''), command, count(*)
            FROM entries WHERE count = 1 AND faces IS NOT NULL GROUP BY 1, 2, 3""",
        """CREATE TRIGGER entries_stats_add AFTER INSERT ON entries
            WHEN NEW.count = 1 AND NEW.faces IS NULL
            """ + _STATS_ADD,
        """CREATE TRIGGER entries_hand_add AFTER INSERT ON entries
            WHEN NEW.count = 1 AND NEW.faces IS NOT NULL
            BEGIN
                INSERT INTO stats_hand (ruleset, who, command, n)
                VALUES (NEW.ruleset, coalesce(NEW.character, ''), NEW.command, 1)
                ON CONFLICT (ruleset, who, command) DO UPDATE SET n = n + 1;
            END""",
        """CREATE TRIGGER entries_stats_remove AFTER DELETE ON entries
            WHEN OLD.count = 1 AND OLD.faces IS NULL
            """ + _STATS_REMOVE,
        """CREATE TRIGGER entries_hand_remove AFTER DELETE ON entries
            WHEN OLD.count = 1 AND OLD.faces IS NOT NULL
            BEGIN
                UPDATE stats_hand SET n = n - 1 WHERE ruleset = OLD.ruleset
                  AND who = coalesce(OLD.character, '') AND command = OLD.command;
                DELETE FROM stats_hand WHERE n <= 0;
            END""",
    ),
    # 5, "secret rolls": a ``--secret`` roll is kept from the table's page and feed until
    # ``log reveal`` makes it public; each reveal is a row of ``reveals`` (``seq`` only
    # grows), which ``rpgdice serve`` follows as it follows the entries, by ID.
    (
        "ALTER TABLE entries ADD COLUMN secret INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE entries ADD COLUMN revealed_at TEXT",
        """CREATE TABLE reveals (seq INTEGER PRIMARY KEY AUTOINCREMENT,
            entry INTEGER NOT NULL, time TEXT NOT NULL)""",
    ),
    # 6, "roll as data": an entry stores its roll's value as data (``roll``, a JSON object
    # the command makes; NULL for an entry of an older rpgdice, or one too large to keep).
    (
        "ALTER TABLE entries ADD COLUMN roll TEXT",
    ),
    # 7, "secrets indexed": the unrevealed secret entries and the re-rolls, each by an index
    # of its own (partial: it holds those rows alone), so that ``rpgdice serve`` finds what
    # secret rolls still hold back without reading every entry after each roll (5.7 ms a
    # roll at 20,000 entries, measured; a full log took five times that).
    (
        "CREATE INDEX entries_unrevealed ON entries (id) WHERE secret = 1 AND revealed_at IS NULL",
        "CREATE INDEX entries_rerolled ON entries (rerolled_by) WHERE rerolled_by IS NOT NULL",
    ),
]
"""Schema steps: entry ``k`` takes a log from version ``k`` to ``k + 1``. Add, never edit."""
VERSION = len(MIGRATIONS)

MIGRATION_NAMES = ("first release", "stats tables", "results as data", "hand-rolled apart",
                   "secret rolls", "roll as data", "secrets indexed")
"""Each step of :data:`MIGRATIONS` by name."""

COLUMNS = ("id", "time", "argv", "character", "ruleset", "command", "seed", "faces", "count",
           "outcome", "results", "rerolled_at", "rerolled_by", "kinds", "spec", "shown", "secret",
           "revealed_at", "roll")
