# fish completion for rpgdice: generated from the app by `rpgdice completion fish`.
# Do not edit; regenerate with `python -m rpgdice.cli.completion --write`.
# Pure shell: pressing TAB starts no Python.

# The user's own names, read from their files by fish itself (no Python):
# RPGDICE_HOME, else the platform's config folder, as rpgdice paths says.
function __rpgdice_dir
    if test -n (string trim -- "$RPGDICE_HOME")
        string replace -r '^~' -- $HOME $RPGDICE_HOME
    else if test -d "$HOME/Library/Application Support"; and not set -q XDG_CONFIG_HOME
        echo "$HOME/Library/Application Support/rpgdice"
    else if test -n "$XDG_CONFIG_HOME"
        echo $XDG_CONFIG_HOME/rpgdice
    else
        echo $HOME/.config/rpgdice
    end
end

# Each ruleset's title, which describes its characters.
function __rpgdice_title
    switch $argv[1]
        case crytures
            echo 'Crytures'
        case seyruun
            echo 'Seyruun'
        case reglas
            echo 'Reglas Básicas'
        case cypher
            echo 'Cypher System'
        case '*'
            echo 'a saved character'
    end
end

# The characters' names, each with its ruleset's title: every sheet's, or (given RULESET)
# those whose sheet says ruleset = "RULESET".
function __rpgdice_characters
    set -l dir (__rpgdice_dir)
    for f in $dir/characters/*.toml
        test -f $f; or continue
        set -l ruleset (string replace -rf '^\s*ruleset\s*=\s*["\']?([A-Za-z0-9_-]+).*$' '$1' < $f)[1]
        if test -n "$argv[1]"; and test "$ruleset" != "$argv[1]"
            continue
        end
        string replace -r '^.*/' '' -- $f | string replace -r '\.toml$' "\t"(__rpgdice_title $ruleset)
    end
end

# The extras of the current encounter: encounter.toml's [[order]] tables that say
# character = false (names match ignoring spaces and hyphens: a space is offered as -).
function __rpgdice_extras
    set -l file (__rpgdice_dir)/encounter.toml
    test -r $file; or return 0
    set -l name
    set -l extra
    for line in (cat $file) '['
        if string match -qr '^\s*\[' -- $line
            test -n "$extra"; and test -n "$name"; and echo (string replace -a ' ' - -- $name)\t'an extra of the encounter'
            set name
            set extra
        else if string match -qr '^\s*name\s*=' -- $line
            set name (string replace -r '^\s*name\s*=\s*["\']([^"\']*).*$' '$1' -- $line)
        else if string match -qr '^\s*character\s*=\s*false' -- $line
            set extra 1
        end
    end
end

# The words typed after `encounter mark` or `unmark` that are no option: NAME, CONDITION.
function __rpgdice_marked
    set -l tokens (commandline -opc)
    set -l after
    for i in (seq 2 (count $tokens))
        set -l before (math $i - 1)
        if contains -- $tokens[$i] mark unmark; and test "$tokens[$before]" = encounter
            set after
            for w in $tokens[(math $i + 1)..-1]
                string match -q -- '-*' $w; or set -a after $w
            end
        end
    end
    for w in $after
        echo $w
    end
end

# Every combatant of the current encounter (encounter.toml's [[order]] names; a space
# is offered as -) while NAME is typed, or (given `conditions`) the conditions of the
# combatant NAME names while CONDITION is typed (names match ignoring case, spaces and
# hyphens).
function __rpgdice_combatants
    set -l file (__rpgdice_dir)/encounter.toml
    test -r $file; or return 0
    set -l typed (__rpgdice_marked)
    if test "$argv[1]" = conditions
        test (count $typed) -eq 1; or return 0
    else
        test (count $typed) -eq 0; or return 0
    end
    set -l key (string lower -- "$typed[1]" | string replace -ra '[\s_-]' '')
    set -l name
    set -l conds
    for line in (cat $file) '['
        if string match -qr '^\s*\[' -- $line
            if test -n "$name"; and test "$argv[1]" != conditions
                echo (string replace -a ' ' - -- $name)\t'a combatant of the encounter'
            else if test -n "$name"; and test (string lower -- $name | string replace -ra '[\s_-]' '') = "$key"
                for c in (string match -agr 'name\s*=\s*"([^"]*)"' -- $conds)
                    echo (string replace -a ' ' - -- $c)\t'a condition of NAME'
                end
            end
            set name
            set conds
        else if string match -qr '^\s*name\s*=' -- $line
            set name (string replace -r '^\s*name\s*=\s*["\']([^"\']*).*$' '$1' -- $line)
        else if string match -qr '^\s*conditions\s*=' -- $line
            set conds $line
        end
    end
end

# The character rolling: --as NAME on the command line, else RPGDICE_AS.
function __rpgdice_as
    set -l tokens (commandline -opc)
    set -l name $RPGDICE_AS
    for i in (seq (count $tokens))
        if test "$tokens[$i]" = --as; and test $i -lt (count $tokens)
            set name $tokens[(math $i + 1)]
        else if string match -q -- '--as=*' $tokens[$i]
            set name (string replace -- '--as=' '' $tokens[$i])
        end
    end
    string lower -- $name | string replace -ra '[\s_]' -
end

# The traits of the character rolling, each with its value, from its sheet's [traits]:
# those with a number, or (given `skills`) its skills.
function __rpgdice_traits
    set -l key (__rpgdice_as)
    test -n "$key"; or return 0
    set -l file (__rpgdice_dir)/characters/$key.toml
    test -r $file; or return 0
    set -l in
    set -l rs
    set -l want '^[+-]?[0-9]+$'
    test "$argv[1]" = skills; and set want '^(trained|specialized|inability)$'
    while read -l line
        set line (string trim -- $line)
        if string match -qr '^\[' -- $line
            set in (string match -r '^\[\s*traits\s*\]' -- $line)
        else if string match -qr '^[^#=]+=' -- $line
            set -l name (string replace -r '\s*=.*$' '' -- $line | string trim -c "\"'")
            set -l value (string replace -r '^[^=]*=\s*' '' -- $line | string replace -r '\s*#.*$' '' | string trim -c "\"'")
            if test -z "$in"
                test "$name" = ruleset; and set rs $value
                continue
            end
            string match -qr -- $want $value; or continue
            set name (string lower -- $name | string replace -ra '[\s_]' -)
            # The sheet's resources and their maxima are no traits a pool is made of.
            contains -- $rs:$name crytures:stamina crytures:mana crytures:initiative crytures:stamina-max crytures:mana-max seyruun:willpower seyruun:wound seyruun:health seyruun:damage seyruun:willpower-max reglas:initiative reglas:iniciativa cypher:might cypher:speed cypher:intellect cypher:might-edge cypher:speed-edge cypher:intellect-edge cypher:effort cypher:initiative cypher:tier cypher:armor cypher:recoveries cypher:might-max cypher:speed-max cypher:intellect-max; and continue
            echo $name\t$value
        end
    end < $file
end

# The aliases' names (config.toml [alias]); given NAME, what that alias runs.
function __rpgdice_aliases
    set -l dir (__rpgdice_dir)
    test -r $dir/config.toml; or return 1
    set -l in
    while read -l line
        set line (string trim -- $line)
        if string match -qr '^\[' -- $line
            set in (string match -r '^\[\s*alias\s*\]' -- $line)
        else if test -n "$in"; and string match -qr '^[^#=]+=' -- $line
            set -l name (string replace -r '\s*=.*$' '' -- $line | string trim -c "\"'")
            if test -z "$argv[1]"
                echo $name
            else if test "$name" = "$argv[1]"
                string replace -r '^[^=]*=\s*' '' -- $line | string trim -c "\"'"
                return 0
            end
        end
    end < $dir/config.toml
    test -z "$argv[1]"
end

# After an alias (rpgdice NAME ...): complete as the command it runs.
function __rpgdice_aliased
    set -l tokens (commandline -opc)
    test (count $tokens) -ge 2; or return 1
    __rpgdice_aliases $tokens[2] >/dev/null
end

function __rpgdice_expand
    set -l tokens (commandline -opc)
    set -l run (__rpgdice_aliases $tokens[2])
    complete -C "rpgdice $run $tokens[3..-1] "(commandline -ct)
end

# The user's own rulesets: rulesets/NAME.toml whose name is NAME and whose kind is one
# rpgdice knows (a misnamed or broken file is left out); given NAME, whether it is one.
function __rpgdice_rulesets
    set -l dir (__rpgdice_dir)
    set -l files $dir/rulesets/*.toml
    if test -n "$argv[1]"
        string match -qr '^[a-z0-9][a-z0-9-]*$' -- $argv[1]; or return 1
        set files $dir/rulesets/$argv[1].toml
    end
    for f in $files
        test -f $f -a -r $f; or continue
        set -l stem (string replace -r '\.toml$' '' -- (basename -- $f))
        set -l name
        set -l kind
        while read -l line
            string match -qr '^\[' -- $line; and break
            set -l m (string match -r '^\s*name\s*=\s*["\']([a-z0-9-]+)["\']' -- $line)
            and set name $m[2]
            string match -qr '^\s*kind\s*=\s*["\'](pool|total|highest|custom)["\']' -- $line
            and set kind 1
        end < $f
        test "$name" = "$stem" -a -n "$kind"; or continue
        test -n "$argv[1]"; and return 0
        echo $stem
    end
    test -z "$argv[1]"
end

# After a user's ruleset file's name (rpgdice NAME ...): complete as every file's group.
function __rpgdice_own
    set -l tokens (commandline -opc)
    test (count $tokens) -ge 2; or return 1
    __rpgdice_rulesets $tokens[2]
end

# A custom ruleset file's own options (its [[args]]' flags, one a line) and its step after
# a roll (its [push]'s command, as +push).
function __rpgdice_own_words
    set -l dir (__rpgdice_dir)
    set -l table
    test -f $dir/rulesets/$argv[1].toml -a -r $dir/rulesets/$argv[1].toml; or return 0
    while read -l line
        set -l h (string match -r '^\s*\[\[?\s*([a-z]+)' -- $line)
        if test -n "$h"
            set table $h[2]
            test "$table" = push; and echo +push
        else if test "$table" = args
            set -l m (string match -r '^\s*flags\s*=\s*\[(.*)\]' -- $line)
            and for w in (string split ' ' -- (string replace -ra '["\',]' ' ' -- $m[2]))
                string match -q -- '-*' $w; and echo $w
            end
        else if test "$table" = push
            set -l m (string match -r '^\s*command\s*=\s*["\']([a-z][a-z0-9_]*)["\']' -- $line)
            and echo +$m[2]
        end
    end < $dir/rulesets/$argv[1].toml
end

function __rpgdice_own_expand
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l words (__rpgdice_own_words $tokens[2])
    set -l push (string replace -r '^\+' '' -- (string match -r '^\+.*' -- $words))[-1]
    set -l offered (complete -C "rpgdice @ruleset $tokens[3..-1] $cur")
    printf '%s\n' $offered
    set -l own
    if test (count $tokens) -eq 2
        set own $push
    else if test "$tokens[3]" != "$push"; and string match -q -- '-*' $cur
        set own (string match -v -- '+*' $words)
    end
    for w in $own
        string match -q -- "$cur*" $w; or continue
        contains -- $w (string replace -r '\t.*' '' -- $offered); or echo $w
    end
end

complete -c rpgdice -f
complete -c rpgdice -n __rpgdice_aliased -a '(__rpgdice_expand)'
complete -c rpgdice -n __rpgdice_own -a '(__rpgdice_own_expand)'

# rpgdice
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a crytures -d 'Crytures: d10 pool against a per-die Difficulty'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a seyruun -d 'Seyruun: World of Darkness style d10 pool'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a reglas -d 'Reglas Básicas: índice de éxito menos 1d10'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a cypher -d 'Cypher System: d20 against 3 × difficulty'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a roll -d 'Roll ordinary dice: damage, random tables, percentiles'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a odds -d 'Exact odds of an ordinary dice expression: the chance of every total,…'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a char -d 'Character sheets: one TOML file per character, rolled with --as NAME'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a alias -d 'Set, list or remove aliases (config.toml [alias], as git has them)'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a paths -d 'Print where rpgdice keeps your files: config.toml (aliases), characte…'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a encounter -d 'The encounter, in every ruleset: the order kept round by round, w…'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a log -d 'The roll log: what was rolled, replayed exactly; luck against the exact…'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a again -d 'Repeat the last logged command with fresh dice'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a play -d 'A session: rpgdice commands without the word rpgdice, one a line'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a serve -d 'Show the table: a live web page of the roll log (every rpgdice proces…'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a seat -d 'The players\' seats: each a link that rolls at the table as its charact…'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a table -d 'The table you roll at: join a seat\'s link, show it, leave it'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a completion -d 'Print the TAB-completion script for bash, zsh or fish'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a rulesets -d 'Every ruleset, built in and your own (rulesets/NAME.toml in the co…'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a '(__rpgdice_aliases)' -d 'your alias'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -a '(__rpgdice_rulesets)' -d 'your own ruleset'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -l version -d 'Print the version and exit'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @ruleset; and not __rpgdice_aliased; and not __rpgdice_own' -s h -l help -d 'Show this message and exit'

# rpgdice crytures
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and not __fish_seen_subcommand_from roll odds' -a roll -d 'Roll a Crytures dice pool'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and not __fish_seen_subcommand_from roll odds' -a odds -d 'Exact odds of a Crytures roll, without rolling: success and failure, t…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and not __fish_seen_subcommand_from roll odds' -s h -l help -d 'Show this message and exit'

# rpgdice crytures roll
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l die-mod -x -d 'Dice added (or removed, negative) from the pool; repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l roll-mod -x -d 'Added to every die\'s result; repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -s d -l difficulty -x -d 'Target number per die, at least 1; default 6 (the rules set no…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -s c -l complexity -x -d 'Successes needed, at least 1; default 1'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l attack -d 'An attack: every natural 10 is a critical hit, adding --crit-hits…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l crit-hits -x -d 'With --attack: successes each critical hit adds before the Comp…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l spend -x -d 'With --as: pay N Stamina or Mana from the sheet to try again (the t…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l as -x -a '(__rpgdice_characters crytures)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -a '(__rpgdice_traits)'

# rpgdice crytures odds
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -l die-mod -x -d 'Dice added (or removed, negative) from the pool; repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -l roll-mod -x -d 'Added to every die\'s result; repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -s d -l difficulty -x -d 'Target number per die, at least 1; default 6 (the rules set no…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -s c -l complexity -x -d 'Successes needed, at least 1; default 1'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -l attack -d 'An attack: every natural 10 is a critical hit, adding --crit-hits…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -l crit-hits -x -d 'With --attack: successes each critical hit adds before the Comp…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -l spend -x -d 'With --as: pay N Stamina or Mana from the sheet to try again (the t…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -l as -x -a '(__rpgdice_characters crytures)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from odds' -a '(__rpgdice_traits)'

# rpgdice seyruun
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -a roll -d 'Roll a Seyruun dice pool: Attribute + Skill, bonuses (max +5), Willpow…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -a odds -d 'Exact odds of a Seyruun roll, without rolling: success, failure and bo…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -a contest -d 'Contested or resisted roll: both sides roll; more successes wins'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -a extended -d 'Extended roll: accumulate successes roll after roll up to a target'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -a team -d 'Team roll: the leader rolls, +1 die per assisting member'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -a reroll -d 'Willpower re-roll after the fact: a failed or botched roll, already…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -a initiative -d 'Initiative: every combatant rolls Wits + Dexterity; the order to…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -a attack -d 'Attack: the attack against a defense (a contest), then damage agains…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll odds contest extended team reroll initiative attack' -s h -l help -d 'Show this message and exit'

# rpgdice seyruun roll
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l bonus -x -d 'External bonus dice, repeatable; at most +5 count'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l penalty -x -d 'Dice removed (terrain, visibility, ...); repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l wound -x -a 'none\\t\'no wound, even with --as NAME\' light\\t\'−1 die\' moderate\\t\'−2 dice\' severe\\t\'−3 dice\' crippled\\t\'−5 dice\'' -d 'Wound: light −1, moderate −2, severe −3, crippled −5; none override…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l actions -x -d 'Actions this turn: −2 dice each beyond the first'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l willpower -d 'Spend 1 Willpower: +3 dice (not capped)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l reroll -d 'Spend 1 Willpower: re-roll a failure or botch once'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -s d -l difficulty -x -a 'simple\\t\'1 success needed\' moderate\\t\'2 successes needed\' complex\\t\'3 successes needed\' epic\\t\'4 successes needed\' legendary\\t\'5 successes needed\'' -d 'Successes needed: simple 1, moderate 2, complex 3, epic 4, leg…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l as -x -a '(__rpgdice_characters seyruun)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -a '(__rpgdice_traits)'

# rpgdice seyruun odds
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l bonus -x -d 'External bonus dice, repeatable; at most +5 count'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l penalty -x -d 'Dice removed (terrain, visibility, ...); repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l wound -x -a 'none\\t\'no wound, even with --as NAME\' light\\t\'−1 die\' moderate\\t\'−2 dice\' severe\\t\'−3 dice\' crippled\\t\'−5 dice\'' -d 'Wound: light −1, moderate −2, severe −3, crippled −5; none override…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l actions -x -d 'Actions this turn: −2 dice each beyond the first'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l willpower -d 'Spend 1 Willpower: +3 dice (not capped)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l reroll -d 'Spend 1 Willpower: re-roll a failure or botch once'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -s d -l difficulty -x -a 'simple\\t\'1 success needed\' moderate\\t\'2 successes needed\' complex\\t\'3 successes needed\' epic\\t\'4 successes needed\' legendary\\t\'5 successes needed\'' -d 'Successes needed: simple 1, moderate 2, complex 3, epic 4, leg…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -l as -x -a '(__rpgdice_characters seyruun)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from odds' -a '(__rpgdice_traits)'

# rpgdice seyruun contest
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l attacker-willpower -d 'The attacker spends 1 Willpower for +3 dice'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l defender-willpower -d 'The defender spends 1 Willpower for +3 dice'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -l as -x -a '(__rpgdice_characters seyruun)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from contest' -a '(__rpgdice_traits)'

# rpgdice seyruun extended
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l target -x -d 'Successes to accumulate (required)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l max-rolls -x -d 'Stop after N rolls (1 to 1000)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l bonus -x -d 'External bonus dice, repeatable; at most +5 count'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l penalty -x -d 'Dice removed (terrain, visibility, ...); repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l wound -x -a 'none\\t\'no wound, even with --as NAME\' light\\t\'−1 die\' moderate\\t\'−2 dice\' severe\\t\'−3 dice\' crippled\\t\'−5 dice\'' -d 'Wound: light −1, moderate −2, severe −3, crippled −5; none override…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l actions -x -d 'Actions this turn: −2 dice each beyond the first'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l willpower -d 'Spend 1 Willpower: +3 dice (not capped)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -l as -x -a '(__rpgdice_characters seyruun)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from extended' -a '(__rpgdice_traits)'

# rpgdice seyruun team
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l assists -x -d 'Members helping the leader: +1 die each, an external bonus inside…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l bonus -x -d 'External bonus dice, repeatable; at most +5 count'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l penalty -x -d 'Dice removed (terrain, visibility, ...); repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l wound -x -a 'none\\t\'no wound, even with --as NAME\' light\\t\'−1 die\' moderate\\t\'−2 dice\' severe\\t\'−3 dice\' crippled\\t\'−5 dice\'' -d 'Wound: light −1, moderate −2, severe −3, crippled −5; none override…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l actions -x -d 'Actions this turn: −2 dice each beyond the first'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l willpower -d 'Spend 1 Willpower: +3 dice (not capped)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l reroll -d 'Spend 1 Willpower: re-roll a failure or botch once'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -s d -l difficulty -x -a 'simple\\t\'1 success needed\' moderate\\t\'2 successes needed\' complex\\t\'3 successes needed\' epic\\t\'4 successes needed\' legendary\\t\'5 successes needed\'' -d 'Successes needed: simple 1, moderate 2, complex 3, epic 4, leg…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -l as -x -a '(__rpgdice_characters seyruun)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from team' -a '(__rpgdice_traits)'

# rpgdice seyruun reroll
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from reroll' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from reroll' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from reroll' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from reroll' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from reroll' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from reroll' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from reroll' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from reroll' -s h -l help -d 'Show this help and exit'

# rpgdice seyruun initiative
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -l as -x -a '(__rpgdice_characters seyruun)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from initiative' -a '(__rpgdice_characters seyruun)'

# rpgdice seyruun attack
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l defense -x -d 'The defense pool, a contest side: Dodge (Dexterity+Athletics) or…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l damage -x -a '(__rpgdice_traits)' -d 'Base damage, a plain sum: WEAPON+STRENGTH'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l soak -x -d 'Soak, a plain sum: CONSTITUTION+ENDURANCE[+ARMOR]'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l vs -x -a '(__rpgdice_characters seyruun) (__rpgdice_extras)' -d 'The target, a saved character: --defense and --soak may name its trait…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l attacker-willpower -d '+3 attack dice for 1 Willpower'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l defender-willpower -d '+3 defense dice for 1 Willpower'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l odds -d 'Add the exact chance to hit and of each damage dealt'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -l as -x -a '(__rpgdice_characters seyruun)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from attack' -a '(__rpgdice_traits)'

# rpgdice reglas
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll odds multi contest team extended retry' -a roll -d 'Tirada simple: resultado = iE − 1d10'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll odds multi contest team extended retry' -a odds -d 'Probabilidades exactas de una tirada, sin tirar: éxito, fallo y fracas…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll odds multi contest team extended retry' -a multi -d 'Acciones múltiples: una tirada por acción, −N, −N−2, …'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll odds multi contest team extended retry' -a contest -d 'Acciones enfrentadas: tiran los dos; gana quien saca más éxitos'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll odds multi contest team extended retry' -a team -d 'Trabajo en equipo: tira cada miembro y se suman los resultados'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll odds multi contest team extended retry' -a extended -d 'Acciones extendidas: acumula éxitos tirada tras tirada hasta un ob…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll odds multi contest team extended retry' -a retry -d 'Inténtalo de nuevo: otro intento tras un fallo, −2 por intento fallido'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll odds multi contest team extended retry' -s h -l help -d 'Muestra esta ayuda y sale'

# rpgdice reglas roll
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -s d -l dificultad -l difficulty -x -a 'ninguna\\t\'0 éxitos necesarios\' none\\t\'0 éxitos necesarios\' normal\\t\'2 éxitos necesarios\' dificil\\t\'4 éxitos necesarios\' hard\\t\'4 éxitos necesarios\' muy-dificil\\t\'6 éxitos necesarios\' very-hard\\t\'6 éxitos necesarios\' imposible\\t\'8 éxitos necesarios\' impossible\\t\'8 éxitos necesarios\'' -d 'Éxitos necesarios: ninguna 0 (por defecto), normal 2, dificil…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l niveles -l raise -x -d 'Sube la dificultad N niveles, +2 cada uno'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l mod -x -d 'Modificador al índice (+2, −2); repetible'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l intento -l attempt -x -d 'Qué intento es (inténtalo de nuevo): −2 por intento fallido'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l dice -x -d 'Caras tiradas a mano (4,7,2) en vez de tirar'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l seed -x -d 'Semilla (0 a 2^64-1, o RPGDICE_SEED): repite los mismos dados; sin e…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -s n -l times -x -d 'Repite la orden N veces (1 a 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l json -d 'JSON Lines: un objeto por tirada'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l odds -d 'Añade la probabilidad exacta del resultado'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l log -l no-log -d 'Al registro de tiradas o no (o RPGDICE_LOG)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l short -d 'Una línea por tirada (un mensaje)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l secret -d 'Secreta: solo aquí hasta log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l blind -d 'Secreta; en la mesa, solo para el DJ'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l compare -x -d 'Compara las probabilidades con estos argumentos añadidos (repetib…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l as -x -a '(__rpgdice_characters reglas)' -d 'Tira por un personaje guardado: rasgos por nombre, costes de su hoja'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -s h -l help -d 'Muestra esta ayuda y sale'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -a '(__rpgdice_traits)'

# rpgdice reglas odds
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -s d -l dificultad -l difficulty -x -a 'ninguna\\t\'0 éxitos necesarios\' none\\t\'0 éxitos necesarios\' normal\\t\'2 éxitos necesarios\' dificil\\t\'4 éxitos necesarios\' hard\\t\'4 éxitos necesarios\' muy-dificil\\t\'6 éxitos necesarios\' very-hard\\t\'6 éxitos necesarios\' imposible\\t\'8 éxitos necesarios\' impossible\\t\'8 éxitos necesarios\'' -d 'Éxitos necesarios: ninguna 0 (por defecto), normal 2, dificil…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -l niveles -l raise -x -d 'Sube la dificultad N niveles, +2 cada uno'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -l mod -x -d 'Modificador al índice (+2, −2); repetible'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -l intento -l attempt -x -d 'Qué intento es (inténtalo de nuevo): −2 por intento fallido'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -l json -d 'JSON Lines: un objeto por tirada'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -l compare -x -d 'Compara las probabilidades con estos argumentos añadidos (repetib…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -l as -x -a '(__rpgdice_characters reglas)' -d 'Tira por un personaje guardado: rasgos por nombre, costes de su hoja'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -s h -l help -d 'Muestra esta ayuda y sale'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from odds' -a '(__rpgdice_traits)'

# rpgdice reglas multi
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -s d -l dificultad -l difficulty -x -a 'ninguna\\t\'0 éxitos necesarios\' none\\t\'0 éxitos necesarios\' normal\\t\'2 éxitos necesarios\' dificil\\t\'4 éxitos necesarios\' hard\\t\'4 éxitos necesarios\' muy-dificil\\t\'6 éxitos necesarios\' very-hard\\t\'6 éxitos necesarios\' imposible\\t\'8 éxitos necesarios\' impossible\\t\'8 éxitos necesarios\'' -d 'Éxitos necesarios: ninguna 0 (por defecto), normal 2, dificil…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l niveles -l raise -x -d 'Sube la dificultad N niveles, +2 cada uno'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l mod -x -d 'Modificador al índice (+2, −2); repetible'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l dice -x -d 'Caras tiradas a mano (4,7,2) en vez de tirar'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l seed -x -d 'Semilla (0 a 2^64-1, o RPGDICE_SEED): repite los mismos dados; sin e…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -s n -l times -x -d 'Repite la orden N veces (1 a 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l json -d 'JSON Lines: un objeto por tirada'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l odds -d 'Añade la probabilidad exacta del resultado'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l log -l no-log -d 'Al registro de tiradas o no (o RPGDICE_LOG)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l short -d 'Una línea por tirada (un mensaje)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l secret -d 'Secreta: solo aquí hasta log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l blind -d 'Secreta; en la mesa, solo para el DJ'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l compare -x -d 'Compara las probabilidades con estos argumentos añadidos (repetib…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -l as -x -a '(__rpgdice_characters reglas)' -d 'Tira por un personaje guardado: rasgos por nombre, costes de su hoja'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -s h -l help -d 'Muestra esta ayuda y sale'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from multi' -a '(__rpgdice_traits)'

# rpgdice reglas contest
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -s d -l dificultad -l difficulty -x -a 'ninguna\\t\'0 éxitos necesarios\' none\\t\'0 éxitos necesarios\' normal\\t\'2 éxitos necesarios\' dificil\\t\'4 éxitos necesarios\' hard\\t\'4 éxitos necesarios\' muy-dificil\\t\'6 éxitos necesarios\' very-hard\\t\'6 éxitos necesarios\' imposible\\t\'8 éxitos necesarios\' impossible\\t\'8 éxitos necesarios\'' -d 'Éxitos necesarios: ninguna 0 (por defecto), normal 2, dificil…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l niveles -l raise -x -d 'Sube la dificultad N niveles, +2 cada uno'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l mod -x -d 'Modificador al índice (+2, −2); repetible'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l mod-defensor -l defender-mod -x -d 'Modificador al índice del defensor; repetible'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l dice -x -d 'Caras tiradas a mano (4,7,2) en vez de tirar'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l seed -x -d 'Semilla (0 a 2^64-1, o RPGDICE_SEED): repite los mismos dados; sin e…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -s n -l times -x -d 'Repite la orden N veces (1 a 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l json -d 'JSON Lines: un objeto por tirada'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l odds -d 'Añade la probabilidad exacta del resultado'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l log -l no-log -d 'Al registro de tiradas o no (o RPGDICE_LOG)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l short -d 'Una línea por tirada (un mensaje)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l secret -d 'Secreta: solo aquí hasta log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l blind -d 'Secreta; en la mesa, solo para el DJ'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l compare -x -d 'Compara las probabilidades con estos argumentos añadidos (repetib…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -l as -x -a '(__rpgdice_characters reglas)' -d 'Tira por un personaje guardado: rasgos por nombre, costes de su hoja'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -s h -l help -d 'Muestra esta ayuda y sale'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from contest' -a '(__rpgdice_traits)'

# rpgdice reglas team
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -s d -l dificultad -l difficulty -x -a 'ninguna\\t\'0 éxitos necesarios\' none\\t\'0 éxitos necesarios\' normal\\t\'2 éxitos necesarios\' dificil\\t\'4 éxitos necesarios\' hard\\t\'4 éxitos necesarios\' muy-dificil\\t\'6 éxitos necesarios\' very-hard\\t\'6 éxitos necesarios\' imposible\\t\'8 éxitos necesarios\' impossible\\t\'8 éxitos necesarios\'' -d 'Éxitos necesarios: ninguna 0 (por defecto), normal 2, dificil…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l niveles -l raise -x -d 'Sube la dificultad N niveles, +2 cada uno'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l dice -x -d 'Caras tiradas a mano (4,7,2) en vez de tirar'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l seed -x -d 'Semilla (0 a 2^64-1, o RPGDICE_SEED): repite los mismos dados; sin e…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -s n -l times -x -d 'Repite la orden N veces (1 a 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l json -d 'JSON Lines: un objeto por tirada'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l odds -d 'Añade la probabilidad exacta del resultado'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l log -l no-log -d 'Al registro de tiradas o no (o RPGDICE_LOG)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l short -d 'Una línea por tirada (un mensaje)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l secret -d 'Secreta: solo aquí hasta log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l blind -d 'Secreta; en la mesa, solo para el DJ'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l compare -x -d 'Compara las probabilidades con estos argumentos añadidos (repetib…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -l as -x -a '(__rpgdice_characters reglas)' -d 'Tira por un personaje guardado: rasgos por nombre, costes de su hoja'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -s h -l help -d 'Muestra esta ayuda y sale'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from team' -a '(__rpgdice_traits)'

# rpgdice reglas extended
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l objetivo -l target -x -d 'Éxitos que acumular (obligatorio)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l inicio -l start -x -d 'Éxitos ya acumulados (el Director los baja tras un descanso)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l max-tiradas -l max-rolls -x -d 'Para tras N tiradas (1 a 1000; 100 por defecto: las reglas no…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l mod -x -d 'Modificador al índice (+2, −2); repetible'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l dice -x -d 'Caras tiradas a mano (4,7,2) en vez de tirar'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l seed -x -d 'Semilla (0 a 2^64-1, o RPGDICE_SEED): repite los mismos dados; sin e…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -s n -l times -x -d 'Repite la orden N veces (1 a 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l json -d 'JSON Lines: un objeto por tirada'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l odds -d 'Añade la probabilidad exacta del resultado'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l log -l no-log -d 'Al registro de tiradas o no (o RPGDICE_LOG)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l short -d 'Una línea por tirada (un mensaje)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l secret -d 'Secreta: solo aquí hasta log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l blind -d 'Secreta; en la mesa, solo para el DJ'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l compare -x -d 'Compara las probabilidades con estos argumentos añadidos (repetib…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -l as -x -a '(__rpgdice_characters reglas)' -d 'Tira por un personaje guardado: rasgos por nombre, costes de su hoja'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -s h -l help -d 'Muestra esta ayuda y sale'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from extended' -a '(__rpgdice_traits)'

# rpgdice reglas retry
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -s d -l dificultad -l difficulty -x -a 'ninguna\\t\'0 éxitos necesarios\' none\\t\'0 éxitos necesarios\' normal\\t\'2 éxitos necesarios\' dificil\\t\'4 éxitos necesarios\' hard\\t\'4 éxitos necesarios\' muy-dificil\\t\'6 éxitos necesarios\' very-hard\\t\'6 éxitos necesarios\' imposible\\t\'8 éxitos necesarios\' impossible\\t\'8 éxitos necesarios\'' -d 'Éxitos necesarios: ninguna 0 (por defecto), normal 2, dificil…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l niveles -l raise -x -d 'Sube la dificultad N niveles, +2 cada uno'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l mod -x -d 'Modificador al índice (+2, −2); repetible'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l max-intentos -l max-attempts -x -d 'Para tras N intentos (1 a 1000; 100 por defecto)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l dice -x -d 'Caras tiradas a mano (4,7,2) en vez de tirar'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l seed -x -d 'Semilla (0 a 2^64-1, o RPGDICE_SEED): repite los mismos dados; sin e…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -s n -l times -x -d 'Repite la orden N veces (1 a 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l json -d 'JSON Lines: un objeto por tirada'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l odds -d 'Añade la probabilidad exacta del resultado'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l log -l no-log -d 'Al registro de tiradas o no (o RPGDICE_LOG)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l short -d 'Una línea por tirada (un mensaje)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l secret -d 'Secreta: solo aquí hasta log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l blind -d 'Secreta; en la mesa, solo para el DJ'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l compare -x -d 'Compara las probabilidades con estos argumentos añadidos (repetib…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -l as -x -a '(__rpgdice_characters reglas)' -d 'Tira por un personaje guardado: rasgos por nombre, costes de su hoja'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -s h -l help -d 'Muestra esta ayuda y sale'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from retry' -a '(__rpgdice_traits)'

# rpgdice cypher
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and not __fish_seen_subcommand_from roll odds task recover' -a roll -d 'The same command as task: attempt a task, d20 against 3 × (difficulty…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and not __fish_seen_subcommand_from roll odds task recover' -a odds -d 'Exact odds of a task, without rolling: success and failure (routine an…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and not __fish_seen_subcommand_from roll odds task recover' -a task -d 'Attempt a task: d20 against 3 × (difficulty − easing + hindering)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and not __fish_seen_subcommand_from roll odds task recover' -a recover -d 'A recovery roll: 1d6 + the sheet\'s tier (default 1) back into the P…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and not __fish_seen_subcommand_from roll odds task recover' -s h -l help -d 'Show this message and exit'

# rpgdice cypher roll
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -s d -l difficulty -x -a 'routine\\t\'difficulty 0, target 0\' simple\\t\'difficulty 1, target 3\' standard\\t\'difficulty 2, target 6\' demanding\\t\'difficulty 3, target 9\' difficult\\t\'difficulty 4, target 12\' challenging\\t\'difficulty 5, target 15\' intimidating\\t\'difficulty 6, target 18\' formidable\\t\'difficulty 7, target 21\' heroic\\t\'difficulty 8, target 24\' immortal\\t\'difficulty 9, target 27\' impossible\\t\'difficulty 10, target 30\'' -d 'Difficulty 0-10 or its name: routine, simple, standard, demand…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l ease -x -d 'Steps the task is eased'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l hinder -x -d 'Steps the task is hindered'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l skill -x -a 'trained\\t\'eases 1 step\' specialized\\t\'eases 2 steps\' inability\\t\'hinders 1 step\' (__rpgdice_traits skills)' -d 'trained eases 1 step, specialized 2; inability hinders 1'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l asset -x -d 'Assets: 0 to 2 steps'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l effort -x -d 'Levels of Effort: 0 to 6, one step each'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l edge -x -d 'Edge, taken off the Effort cost'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l bonus -x -d 'Flat bonus added to the d20'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l attack -d 'An attack: 17 and 18 add damage, 19/20 may add more'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l damage -x -d 'With --attack and --vs: the damage a success deals, plus 17 +1, 18…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l vs -x -a '(__rpgdice_characters cypher) (__rpgdice_extras)' -d 'The target: a saved character (its Pools: Might, then Speed, then Inte…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l as -x -a '(__rpgdice_characters cypher)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -l pool -x -a 'might\\t\'the Might Pool and its Edge\' speed\\t\'the Speed Pool and its Edge\' intellect\\t\'the Intellect Pool and its Edge\'' -d 'With --as: the Pool that pays the Effort (might, speed or intellect)…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from roll' -s h -l help -d 'Show this help and exit'

# rpgdice cypher odds
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -s d -l difficulty -x -a 'routine\\t\'difficulty 0, target 0\' simple\\t\'difficulty 1, target 3\' standard\\t\'difficulty 2, target 6\' demanding\\t\'difficulty 3, target 9\' difficult\\t\'difficulty 4, target 12\' challenging\\t\'difficulty 5, target 15\' intimidating\\t\'difficulty 6, target 18\' formidable\\t\'difficulty 7, target 21\' heroic\\t\'difficulty 8, target 24\' immortal\\t\'difficulty 9, target 27\' impossible\\t\'difficulty 10, target 30\'' -d 'Difficulty 0-10 or its name: routine, simple, standard, demand…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l ease -x -d 'Steps the task is eased'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l hinder -x -d 'Steps the task is hindered'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l skill -x -a 'trained\\t\'eases 1 step\' specialized\\t\'eases 2 steps\' inability\\t\'hinders 1 step\' (__rpgdice_traits skills)' -d 'trained eases 1 step, specialized 2; inability hinders 1'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l asset -x -d 'Assets: 0 to 2 steps'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l effort -x -d 'Levels of Effort: 0 to 6, one step each'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l edge -x -d 'Edge, taken off the Effort cost'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l bonus -x -d 'Flat bonus added to the d20'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l attack -d 'An attack: 17 and 18 add damage, 19/20 may add more'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l damage -x -d 'With --attack and --vs: the damage a success deals, plus 17 +1, 18…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l vs -x -a '(__rpgdice_characters cypher) (__rpgdice_extras)' -d 'The target: a saved character (its Pools: Might, then Speed, then Inte…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l as -x -a '(__rpgdice_characters cypher)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -l pool -x -a 'might\\t\'the Might Pool and its Edge\' speed\\t\'the Speed Pool and its Edge\' intellect\\t\'the Intellect Pool and its Edge\'' -d 'With --as: the Pool that pays the Effort (might, speed or intellect)…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from odds' -s h -l help -d 'Show this help and exit'

# rpgdice cypher task
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -s d -l difficulty -x -a 'routine\\t\'difficulty 0, target 0\' simple\\t\'difficulty 1, target 3\' standard\\t\'difficulty 2, target 6\' demanding\\t\'difficulty 3, target 9\' difficult\\t\'difficulty 4, target 12\' challenging\\t\'difficulty 5, target 15\' intimidating\\t\'difficulty 6, target 18\' formidable\\t\'difficulty 7, target 21\' heroic\\t\'difficulty 8, target 24\' immortal\\t\'difficulty 9, target 27\' impossible\\t\'difficulty 10, target 30\'' -d 'Difficulty 0-10 or its name: routine, simple, standard, demand…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l ease -x -d 'Steps the task is eased'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l hinder -x -d 'Steps the task is hindered'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l skill -x -a 'trained\\t\'eases 1 step\' specialized\\t\'eases 2 steps\' inability\\t\'hinders 1 step\' (__rpgdice_traits skills)' -d 'trained eases 1 step, specialized 2; inability hinders 1'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l asset -x -d 'Assets: 0 to 2 steps'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l effort -x -d 'Levels of Effort: 0 to 6, one step each'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l edge -x -d 'Edge, taken off the Effort cost'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l bonus -x -d 'Flat bonus added to the d20'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l attack -d 'An attack: 17 and 18 add damage, 19/20 may add more'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l damage -x -d 'With --attack and --vs: the damage a success deals, plus 17 +1, 18…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l vs -x -a '(__rpgdice_characters cypher) (__rpgdice_extras)' -d 'The target: a saved character (its Pools: Might, then Speed, then Inte…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l as -x -a '(__rpgdice_characters cypher)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l pool -x -a 'might\\t\'the Might Pool and its Edge\' speed\\t\'the Speed Pool and its Edge\' intellect\\t\'the Intellect Pool and its Edge\'' -d 'With --as: the Pool that pays the Effort (might, speed or intellect)…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -s h -l help -d 'Show this help and exit'

# rpgdice cypher recover
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l to -x -d 'Split the points: N to each Pool named, in that order, as far as the r…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l reset -d 'A new day: the four recoveries start over'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l odds -d 'Add the exact chance of each total of 1d6 + tier'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -l as -x -a '(__rpgdice_characters cypher)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from recover' -s h -l help -d 'Show this help and exit'

# rpgdice roll
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l breakdown -d 'With -n, show every roll\'s dice; without it, repeats of rolls o…'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from roll' -s h -l help -d 'Show this help and exit'

# rpgdice odds
complete -c rpgdice -n '__fish_seen_subcommand_from odds' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from odds' -l compare -x -d 'Compare the odds with ARGS added'
complete -c rpgdice -n '__fish_seen_subcommand_from odds' -s h -l help -d 'Show this help and exit'

# rpgdice char
complete -c rpgdice -n '__fish_seen_subcommand_from char; and not __fish_seen_subcommand_from new set show list rm' -a new -d 'Create a character sheet (characters/NAME.toml)'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and not __fish_seen_subcommand_from new set show list rm' -a set -d 'Set or remove traits of a character; the rest of the file (comments, yo…'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and not __fish_seen_subcommand_from new set show list rm' -a show -d 'Show a character sheet: attributes, skills, Willpower, wound, Pools an…'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and not __fish_seen_subcommand_from new set show list rm' -a list -d 'List the characters: name, ruleset and file'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and not __fish_seen_subcommand_from new set show list rm' -a rm -d 'Remove a character\'s sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and not __fish_seen_subcommand_from new set show list rm' -s h -l help -d 'Show this message and exit'

# rpgdice char new
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from new' -l ruleset -x -a 'crytures\\t\'a Crytures character\' seyruun\\t\'a Seyruun character\' reglas\\t\'a Reglas Básicas character\' cypher\\t\'a Cypher character\'' -d 'The character\'s ruleset: crytures, seyruun, reglas, cypher'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from new' -s h -l help -d 'Show this message and exit'

# rpgdice char set
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from set' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from set' -a '(__rpgdice_characters)'

# rpgdice char show
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from show' -l json -d 'JSON: one object per line'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from show' -l here -d 'While joined to a table: this machine\'s files, not the table\'s'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from show' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from show' -a '(__rpgdice_characters)'

# rpgdice char list
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from list' -l json -d 'JSON: one object per line'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from list' -l here -d 'While joined to a table: this machine\'s files, not the table\'s'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from list' -s h -l help -d 'Show this message and exit'

# rpgdice char rm
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from rm' -l yes -d 'Really delete the sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from rm' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from char; and __fish_seen_subcommand_from rm' -a '(__rpgdice_characters)'

# rpgdice alias
complete -c rpgdice -n '__fish_seen_subcommand_from alias' -l rm -x -a '(__rpgdice_aliases)' -d 'Remove this alias'
complete -c rpgdice -n '__fish_seen_subcommand_from alias' -l json -d 'JSON: one object per line'
complete -c rpgdice -n '__fish_seen_subcommand_from alias' -s h -l help -d 'Show this message and exit'

# rpgdice paths
complete -c rpgdice -n '__fish_seen_subcommand_from paths' -l json -d 'JSON: one object per line'
complete -c rpgdice -n '__fish_seen_subcommand_from paths' -s h -l help -d 'Show this message and exit'

# rpgdice encounter
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a start -d 'Start an encounter: initiative rolled once, the order kept in encount…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a next -d 'The next turn: the next in the order, or a new round after the last'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a add -d 'Combatants join the fight, each at the place its initiative gives (roll…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a rm -d 'A combatant leaves the fight: the order closes up (its turn, if it was i…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a delay -d 'The current combatant waits: it acts after NAME (or last) this round…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a out -d 'A combatant is out of the fight: shown as out, skipped by next (its tur…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a back -d 'A combatant put out (encounter out) is back in the fight'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a mark -d 'NAME has a condition, for N of its turns or until unmarked (marked aga…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a unmark -d 'A condition of NAME ends, or all of NAME\'s'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -a end -d 'End the encounter (encounter.toml is removed)'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and not __fish_seen_subcommand_from start next add rm delay out back mark unmark end' -s h -l help -d 'Show this message and exit'

# rpgdice encounter start
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l ruleset -x -a 'crytures\\t\'None\' seyruun\\t\'None\' reglas\\t\'None\' cypher\\t\'None\'' -d 'The encounter\'s ruleset: crytures, seyruun, reglas, cypher (defau…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l health -x -d 'The health of the extras named in this command (Seyruun boxes, Cyp…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from start' -a '(__rpgdice_characters)'

# rpgdice encounter next
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from next' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from next' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from next' -s h -l help -d 'Show this message and exit'

# rpgdice encounter add
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from add' -l health -x -d 'The health of the extras named in this command (Seyruun boxes, Cyp…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from add' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from add' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from add' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from add' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from add' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from add' -a '(__rpgdice_characters)'

# rpgdice encounter rm
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from rm' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from rm' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from rm' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from rm' -a '(__rpgdice_characters) (__rpgdice_extras)'

# rpgdice encounter delay
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from delay' -l after -x -a '(__rpgdice_characters) (__rpgdice_extras)' -d 'Act after NAME (default: last)'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from delay' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from delay' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from delay' -s h -l help -d 'Show this message and exit'

# rpgdice encounter out
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from out' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from out' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from out' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from out' -a '(__rpgdice_characters) (__rpgdice_extras)'

# rpgdice encounter back
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from back' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from back' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from back' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from back' -a '(__rpgdice_characters) (__rpgdice_extras)'

# rpgdice encounter mark
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from mark' -l rounds -x -d 'It lasts N of NAME\'s turns (its turn under way counts): each next…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from mark' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from mark' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from mark' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from mark' -a '(__rpgdice_combatants)'

# rpgdice encounter unmark
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from unmark' -l json -d 'The encounter as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from unmark' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from unmark' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from unmark' -a '(__rpgdice_combatants) (__rpgdice_combatants conditions)'

# rpgdice encounter end
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from end' -l log -l no-log -d 'Log this change, or not (default: as RPGDICE_LOG says, as for a ro…'
complete -c rpgdice -n '__fish_seen_subcommand_from encounter; and __fish_seen_subcommand_from end' -s h -l help -d 'Show this message and exit'

# rpgdice log
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -a show -d 'Re-show an entry as it was rolled, from what the log stored, whatever…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -a reveal -d 'Make a secret roll (--secret) public: the table\'s page and feed show…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -a clear -d 'Delete every entry of the roll log (IDs are not reused)'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -a stats -d 'Luck against the exact odds: per ruleset, each outcome seen against t…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -l last -x -d 'How many entries (the newest N, shown oldest first)'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -l as -x -a '(__rpgdice_characters)' -d 'Only this character\'s rolls (names match ignoring case, accents, space…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -l ruleset -x -a 'crytures\\t\'Crytures rolls\' seyruun\\t\'Seyruun rolls\' reglas\\t\'Reglas Básicas rolls\' cypher\\t\'Cypher rolls\' dice\\t\'ordinary dice (rpgdice roll)\'' -d 'Only this ruleset\'s rolls: crytures, seyruun, reglas, cypher, dic…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -l since -x -d 'Only entries from WHEN on: an ISO 8601 date or time, today, yesterd…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -l until -x -d 'Only entries up to WHEN (as --since; a date includes that whole day)'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -l json -d 'JSON Lines: one object per entry'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and not __fish_seen_subcommand_from show reveal clear stats' -s h -l help -d 'Show this message and exit'

# rpgdice log show
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from show' -l json -d 'The entry as one JSON object'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from show' -l replay -d 'Roll the stored seed (or faces) again and report any difference (e…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from show' -l since -x -d 'Only entries from WHEN on: an ISO 8601 date or time, today, yesterd…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from show' -l until -x -d 'Only entries up to WHEN (as --since; a date includes that whole day)'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from show' -s h -l help -d 'Show this message and exit'

# rpgdice log reveal
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from reveal' -s h -l help -d 'Show this message and exit'

# rpgdice log clear
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from clear' -l yes -d 'Really delete every entry'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from clear' -s h -l help -d 'Show this message and exit'

# rpgdice log stats
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from stats' -l as -x -a '(__rpgdice_characters)' -d 'Only this character\'s rolls (names match ignoring case, accents, space…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from stats' -l ruleset -x -a 'crytures\\t\'Crytures rolls\' seyruun\\t\'Seyruun rolls\' reglas\\t\'Reglas Básicas rolls\' cypher\\t\'Cypher rolls\' dice\\t\'ordinary dice (rpgdice roll)\'' -d 'Only this ruleset\'s rolls: crytures, seyruun, reglas, cypher, dic…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from stats' -l since -x -d 'Only entries from WHEN on: an ISO 8601 date or time, today, yesterd…'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from stats' -l until -x -d 'Only entries up to WHEN (as --since; a date includes that whole day)'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from stats' -l json -d 'One JSON object per ruleset'
complete -c rpgdice -n '__fish_seen_subcommand_from log; and __fish_seen_subcommand_from stats' -s h -l help -d 'Show this message and exit'

# rpgdice again
complete -c rpgdice -n '__fish_seen_subcommand_from again' -s h -l help -d 'Show this message and exit'

# rpgdice play
complete -c rpgdice -n '__fish_seen_subcommand_from play' -l ruleset -x -a 'crytures\\t\'None\' seyruun\\t\'None\' reglas\\t\'None\' cypher\\t\'None\' dice\\t\'None\'' -d 'Start with this ruleset in use (as the line \'use RULESET\')'
complete -c rpgdice -n '__fish_seen_subcommand_from play' -l as -x -a '(__rpgdice_characters)' -d 'Start rolling for this saved character (as the line \'as NAME\')'
complete -c rpgdice -n '__fish_seen_subcommand_from play' -l json -d 'JSON Lines: every command that has a JSON form gives it; an error is…'
complete -c rpgdice -n '__fish_seen_subcommand_from play' -s h -l help -d 'Show this message and exit'

# rpgdice serve
complete -c rpgdice -n '__fish_seen_subcommand_from serve' -l host -x -d 'Where to listen: 127.0.0.1 (this machine) unless told (or [serve] ho…'
complete -c rpgdice -n '__fish_seen_subcommand_from serve' -l port -x -d 'The port (0: any free one; else [serve] port in config.toml, else 87…'
complete -c rpgdice -n '__fish_seen_subcommand_from serve' -l token -x -d 'The token every request must carry (?token=); made and printed when…'
complete -c rpgdice -n '__fish_seen_subcommand_from serve' -l discord -x -d 'Post each public roll to this Discord webhook (or [serve] discord…'
complete -c rpgdice -n '__fish_seen_subcommand_from serve' -s h -l help -d 'Show this message and exit'

# rpgdice seat
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and not __fish_seen_subcommand_from add list link rm' -a add -d 'Add a player\'s seat and print its link (open it on their phone, or rpgd…'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and not __fish_seen_subcommand_from add list link rm' -a list -d 'List the seats: name, characters and link'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and not __fish_seen_subcommand_from add list link rm' -a link -d 'Print a seat\'s link again (--new: make a new one); --gm: the GM\'s scre…'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and not __fish_seen_subcommand_from add list link rm' -a rm -d 'Remove a seat (its link stops at once)'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and not __fish_seen_subcommand_from add list link rm' -s h -l help -d 'Show this message and exit'

# rpgdice seat add
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from add' -l as -x -a '(__rpgdice_characters)' -d 'A saved character the seat rolls as (again for more)'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from add' -s h -l help -d 'Show this message and exit'

# rpgdice seat list
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from list' -l json -d 'JSON: a list'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from list' -s h -l help -d 'Show this message and exit'

# rpgdice seat link
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from link' -l new -d 'A new link; the old one stops at once (a running serve too)'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from link' -l gm -d 'The GM\'s screen\'s link (?gm=): every roll whole, Reveal, the encounter…'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from link' -s h -l help -d 'Show this message and exit'

# rpgdice seat rm
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from rm' -l yes -d 'Really remove the seat'
complete -c rpgdice -n '__fish_seen_subcommand_from seat; and __fish_seen_subcommand_from rm' -s h -l help -d 'Show this message and exit'

# rpgdice table
complete -c rpgdice -n '__fish_seen_subcommand_from table; and not __fish_seen_subcommand_from join leave' -a join -d 'Roll at the table whose seat\'s link URL is: your rolls are rolled by t…'
complete -c rpgdice -n '__fish_seen_subcommand_from table; and not __fish_seen_subcommand_from join leave' -a leave -d 'Leave the table: rolls are rolled here again'
complete -c rpgdice -n '__fish_seen_subcommand_from table; and not __fish_seen_subcommand_from join leave' -l json -d 'One JSON object (null when not joined)'
complete -c rpgdice -n '__fish_seen_subcommand_from table; and not __fish_seen_subcommand_from join leave' -s h -l help -d 'Show this message and exit'

# rpgdice table join
complete -c rpgdice -n '__fish_seen_subcommand_from table; and __fish_seen_subcommand_from join' -s h -l help -d 'Show this message and exit'

# rpgdice table leave
complete -c rpgdice -n '__fish_seen_subcommand_from table; and __fish_seen_subcommand_from leave' -s h -l help -d 'Show this message and exit'

# rpgdice completion
complete -c rpgdice -n '__fish_seen_subcommand_from completion' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from completion' -a 'bash\\t\'the bash script\' zsh\\t\'the zsh script\' fish\\t\'the fish script\''

# rpgdice rulesets
complete -c rpgdice -n '__fish_seen_subcommand_from rulesets; and not __fish_seen_subcommand_from check' -a check -d 'Check a ruleset file: `ok`, or every problem on its own line (FILE: K…'
complete -c rpgdice -n '__fish_seen_subcommand_from rulesets; and not __fish_seen_subcommand_from check' -l json -d 'JSON: a list of {name, title, kind, file}'
complete -c rpgdice -n '__fish_seen_subcommand_from rulesets; and not __fish_seen_subcommand_from check' -s h -l help -d 'Show this message and exit'

# rpgdice rulesets check
complete -c rpgdice -n '__fish_seen_subcommand_from rulesets; and __fish_seen_subcommand_from check' -s h -l help -d 'Show this message and exit'

# rpgdice @ruleset
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and not __fish_seen_subcommand_from roll odds' -a roll -d 'Roll your own ruleset'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and not __fish_seen_subcommand_from roll odds' -a odds -d 'Exact odds of a roll of your own ruleset'

# rpgdice @ruleset roll
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -s d -l difficulty -x -d 'Successes needed'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l target -x -a '(__rpgdice_traits)' -d 'The target the rules compare with'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l dice -x -d 'Faces rolled by hand (4,7,2) instead of rolling'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l seed -x -d 'Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; e…'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -s n -l times -x -d 'Repeat the command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l odds -d 'Add the exact chance of the outcome rolled'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l log -l no-log -d 'Log it or not (else RPGDICE_LOG decides)'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l short -d 'One line per roll (a chat message)'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l secret -d 'Logged, shown here only until log reveal'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l blind -d 'Secret; at the table, the GM\'s alone'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l compare -x -d 'Compare the odds with these arguments added (repeatable): --compa…'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -l as -x -a '(__rpgdice_characters)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from roll' -a '(__rpgdice_traits)'

# rpgdice @ruleset odds
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from odds' -s d -l difficulty -x -d 'Successes needed'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from odds' -l target -x -a '(__rpgdice_traits)' -d 'The target the rules compare with'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from odds' -l json -d 'JSON Lines: one object per repetition'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from odds' -l compare -x -d 'Compare the odds with these arguments added (repeatable): --compa…'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from odds' -l as -x -a '(__rpgdice_characters)' -d 'Roll for a saved character: traits by name, costs paid from its sheet'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from odds' -s h -l help -d 'Show this help and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from @ruleset; and __fish_seen_subcommand_from odds' -a '(__rpgdice_traits)'
