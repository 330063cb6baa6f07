# bash completion for rpgdice: generated from the app by `rpgdice completion bash`.
# Do not edit; regenerate with `python -m rpgdice.cli.completion --write`.
# Pure shell: pressing TAB starts no Python.

_rpgdice_node()
{
    case $1 in
        "") subs="crytures seyruun reglas cypher roll odds char alias paths encounter log again play serve seat table completion rulesets @aliases @rulesets" opts="--version -h --help" vopts="" ;;
        "crytures") subs="roll odds" opts="-h --help" vopts="" ;;
        "crytures roll") subs="" opts="--die-mod --roll-mod -d --difficulty -c --complexity --attack --crit-hits --spend --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="--die-mod --roll-mod -d --difficulty -c --complexity --crit-hits --spend --dice --seed -n --times --compare --as" ;;
        "crytures odds") subs="" opts="--die-mod --roll-mod -d --difficulty -c --complexity --attack --crit-hits --spend --json --compare --as -h --help" vopts="--die-mod --roll-mod -d --difficulty -c --complexity --crit-hits --spend --compare --as" ;;
        "seyruun") subs="roll odds contest extended team reroll initiative attack" opts="-h --help" vopts="" ;;
        "seyruun roll") subs="" opts="--bonus --penalty --wound --actions --willpower --reroll -d --difficulty --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="--bonus --penalty --wound --actions -d --difficulty --dice --seed -n --times --compare --as" ;;
        "seyruun odds") subs="" opts="--bonus --penalty --wound --actions --willpower --reroll -d --difficulty --json --compare --as -h --help" vopts="--bonus --penalty --wound --actions -d --difficulty --compare --as" ;;
        "seyruun contest") subs="" opts="--attacker-willpower --defender-willpower --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="--dice --seed -n --times --compare --as" ;;
        "seyruun extended") subs="" opts="--target --max-rolls --bonus --penalty --wound --actions --willpower --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="--target --max-rolls --bonus --penalty --wound --actions --dice --seed -n --times --compare --as" ;;
        "seyruun team") subs="" opts="--assists --bonus --penalty --wound --actions --willpower --reroll -d --difficulty --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="--assists --bonus --penalty --wound --actions -d --difficulty --dice --seed -n --times --compare --as" ;;
        "seyruun reroll") subs="" opts="--dice --seed --json --log --no-log --short --secret --blind -h --help" vopts="--dice --seed" ;;
        "seyruun initiative") subs="" opts="--dice --seed -n --times --json --log --no-log --short --secret --blind --as -h --help" vopts="--dice --seed -n --times --as" ;;
        "seyruun attack") subs="" opts="--defense --damage --soak --vs --attacker-willpower --defender-willpower --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="--defense --damage --soak --vs --dice --seed -n --times --compare --as" ;;
        "reglas") subs="roll odds multi contest team extended retry" opts="-h --help" vopts="" ;;
        "reglas roll") subs="" opts="-d --dificultad --difficulty --niveles --raise --mod --intento --attempt --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="-d --dificultad --difficulty --niveles --raise --mod --intento --attempt --dice --seed -n --times --compare --as" ;;
        "reglas odds") subs="" opts="-d --dificultad --difficulty --niveles --raise --mod --intento --attempt --json --compare --as -h --help" vopts="-d --dificultad --difficulty --niveles --raise --mod --intento --attempt --compare --as" ;;
        "reglas multi") subs="" opts="-d --dificultad --difficulty --niveles --raise --mod --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="-d --dificultad --difficulty --niveles --raise --mod --dice --seed -n --times --compare --as" ;;
        "reglas contest") subs="" opts="-d --dificultad --difficulty --niveles --raise --mod --mod-defensor --defender-mod --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="-d --dificultad --difficulty --niveles --raise --mod --mod-defensor --defender-mod --dice --seed -n --times --compare --as" ;;
        "reglas team") subs="" opts="-d --dificultad --difficulty --niveles --raise --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="-d --dificultad --difficulty --niveles --raise --dice --seed -n --times --compare --as" ;;
        "reglas extended") subs="" opts="--objetivo --target --inicio --start --max-tiradas --max-rolls --mod --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="--objetivo --target --inicio --start --max-tiradas --max-rolls --mod --dice --seed -n --times --compare --as" ;;
        "reglas retry") subs="" opts="-d --dificultad --difficulty --niveles --raise --mod --max-intentos --max-attempts --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="-d --dificultad --difficulty --niveles --raise --mod --max-intentos --max-attempts --dice --seed -n --times --compare --as" ;;
        "cypher") subs="roll odds task recover" opts="-h --help" vopts="" ;;
        "cypher roll") subs="" opts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --attack --damage --vs --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as --pool -h --help" vopts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --damage --vs --dice --seed -n --times --compare --as --pool" ;;
        "cypher odds") subs="" opts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --attack --damage --vs --json --compare --as --pool -h --help" vopts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --damage --vs --compare --as --pool" ;;
        "cypher task") subs="" opts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --attack --damage --vs --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as --pool -h --help" vopts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --damage --vs --dice --seed -n --times --compare --as --pool" ;;
        "cypher recover") subs="" opts="--to --reset --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --as -h --help" vopts="--to --dice --seed -n --times --as" ;;
        "roll") subs="" opts="--dice --seed -n --times --json --odds --breakdown --log --no-log --short --secret --blind --compare -h --help" vopts="--dice --seed -n --times --compare" ;;
        "odds") subs="" opts="--json --compare -h --help" vopts="--compare" ;;
        "char") subs="new set show list rm" opts="-h --help" vopts="" ;;
        "char new") subs="" opts="--ruleset -h --help" vopts="--ruleset" ;;
        "char set") subs="" opts="-h --help" vopts="" ;;
        "char show") subs="" opts="--json --here -h --help" vopts="" ;;
        "char list") subs="" opts="--json --here -h --help" vopts="" ;;
        "char rm") subs="" opts="--yes -h --help" vopts="" ;;
        "alias") subs="" opts="--rm --json -h --help" vopts="--rm" ;;
        "paths") subs="" opts="--json -h --help" vopts="" ;;
        "encounter") subs="start next add rm delay out back mark unmark end" opts="--json -h --help" vopts="" ;;
        "encounter start") subs="" opts="--ruleset --health --dice --seed --json --log --no-log --short --secret --blind -h --help" vopts="--ruleset --health --dice --seed" ;;
        "encounter next") subs="" opts="--json --log --no-log -h --help" vopts="" ;;
        "encounter add") subs="" opts="--health --dice --json --log --no-log --blind -h --help" vopts="--health --dice" ;;
        "encounter rm") subs="" opts="--json --log --no-log -h --help" vopts="" ;;
        "encounter delay") subs="" opts="--after --json --log --no-log -h --help" vopts="--after" ;;
        "encounter out") subs="" opts="--json --log --no-log -h --help" vopts="" ;;
        "encounter back") subs="" opts="--json --log --no-log -h --help" vopts="" ;;
        "encounter mark") subs="" opts="--rounds --json --log --no-log -h --help" vopts="--rounds" ;;
        "encounter unmark") subs="" opts="--json --log --no-log -h --help" vopts="" ;;
        "encounter end") subs="" opts="--log --no-log -h --help" vopts="" ;;
        "log") subs="show reveal clear stats" opts="--last --as --ruleset --since --until --json -h --help" vopts="--last --as --ruleset --since --until" ;;
        "log show") subs="" opts="--json --replay --since --until -h --help" vopts="--since --until" ;;
        "log reveal") subs="" opts="-h --help" vopts="" ;;
        "log clear") subs="" opts="--yes -h --help" vopts="" ;;
        "log stats") subs="" opts="--as --ruleset --since --until --json -h --help" vopts="--as --ruleset --since --until" ;;
        "again") subs="" opts="-h --help" vopts="" ;;
        "play") subs="" opts="--ruleset --as --json -h --help" vopts="--ruleset --as" ;;
        "serve") subs="" opts="--host --port --token --discord -h --help" vopts="--host --port --token --discord" ;;
        "seat") subs="add list link rm" opts="-h --help" vopts="" ;;
        "seat add") subs="" opts="--as -h --help" vopts="--as" ;;
        "seat list") subs="" opts="--json -h --help" vopts="" ;;
        "seat link") subs="" opts="--new --gm -h --help" vopts="" ;;
        "seat rm") subs="" opts="--yes -h --help" vopts="" ;;
        "table") subs="join leave" opts="--json -h --help" vopts="" ;;
        "table join") subs="" opts="-h --help" vopts="" ;;
        "table leave") subs="" opts="-h --help" vopts="" ;;
        "completion") subs="" opts="-h --help" vopts="" ;;
        "rulesets") subs="check" opts="--json -h --help" vopts="" ;;
        "rulesets check") subs="" opts="-h --help" vopts="" ;;
        "@ruleset") subs="roll odds" opts="" vopts="" ;;
        "@ruleset roll") subs="" opts="-d --difficulty --target --dice --seed -n --times --json --odds --log --no-log --short --secret --blind --compare --as -h --help" vopts="-d --difficulty --target --dice --seed -n --times --compare --as" ;;
        "@ruleset odds") subs="" opts="-d --difficulty --target --json --compare --as -h --help" vopts="-d --difficulty --target --compare --as" ;;
        *) subs= opts= vopts= ;;
    esac
}

_rpgdice_values()
{
    case "$1|$2" in
        "crytures roll|--as") vals="@characters:crytures" ;;
        "crytures roll|#1") vals="@traits" ;;
        "crytures odds|--as") vals="@characters:crytures" ;;
        "crytures odds|#1") vals="@traits" ;;
        "seyruun roll|--wound") vals="none light moderate severe crippled" ;;
        "seyruun roll|-d"|"seyruun roll|--difficulty") vals="simple moderate complex epic legendary" ;;
        "seyruun roll|--as") vals="@characters:seyruun" ;;
        "seyruun roll|#1") vals="@traits" ;;
        "seyruun roll|#2") vals="@traits" ;;
        "seyruun odds|--wound") vals="none light moderate severe crippled" ;;
        "seyruun odds|-d"|"seyruun odds|--difficulty") vals="simple moderate complex epic legendary" ;;
        "seyruun odds|--as") vals="@characters:seyruun" ;;
        "seyruun odds|#1") vals="@traits" ;;
        "seyruun odds|#2") vals="@traits" ;;
        "seyruun contest|--as") vals="@characters:seyruun" ;;
        "seyruun contest|#1") vals="@traits" ;;
        "seyruun contest|#2") vals="@traits" ;;
        "seyruun extended|--wound") vals="none light moderate severe crippled" ;;
        "seyruun extended|--as") vals="@characters:seyruun" ;;
        "seyruun extended|#1") vals="@traits" ;;
        "seyruun extended|#2") vals="@traits" ;;
        "seyruun team|--wound") vals="none light moderate severe crippled" ;;
        "seyruun team|-d"|"seyruun team|--difficulty") vals="simple moderate complex epic legendary" ;;
        "seyruun team|--as") vals="@characters:seyruun" ;;
        "seyruun team|#1") vals="@traits" ;;
        "seyruun team|#2") vals="@traits" ;;
        "seyruun initiative|--as") vals="@characters:seyruun" ;;
        "seyruun initiative|#1") vals="@characters:seyruun" ;;
        "seyruun initiative|#"*) vals="@characters:seyruun" ;;
        "seyruun attack|--damage") vals="@traits" ;;
        "seyruun attack|--vs") vals="@characters:seyruun @extras" ;;
        "seyruun attack|--as") vals="@characters:seyruun" ;;
        "seyruun attack|#1") vals="@traits" ;;
        "reglas roll|-d"|"reglas roll|--dificultad"|"reglas roll|--difficulty") vals="ninguna none normal dificil hard muy-dificil very-hard imposible impossible" ;;
        "reglas roll|--as") vals="@characters:reglas" ;;
        "reglas roll|#1") vals="@traits" ;;
        "reglas odds|-d"|"reglas odds|--dificultad"|"reglas odds|--difficulty") vals="ninguna none normal dificil hard muy-dificil very-hard imposible impossible" ;;
        "reglas odds|--as") vals="@characters:reglas" ;;
        "reglas odds|#1") vals="@traits" ;;
        "reglas multi|-d"|"reglas multi|--dificultad"|"reglas multi|--difficulty") vals="ninguna none normal dificil hard muy-dificil very-hard imposible impossible" ;;
        "reglas multi|--as") vals="@characters:reglas" ;;
        "reglas multi|#2") vals="@traits" ;;
        "reglas contest|-d"|"reglas contest|--dificultad"|"reglas contest|--difficulty") vals="ninguna none normal dificil hard muy-dificil very-hard imposible impossible" ;;
        "reglas contest|--as") vals="@characters:reglas" ;;
        "reglas contest|#1") vals="@traits" ;;
        "reglas contest|#2") vals="@traits" ;;
        "reglas team|-d"|"reglas team|--dificultad"|"reglas team|--difficulty") vals="ninguna none normal dificil hard muy-dificil very-hard imposible impossible" ;;
        "reglas team|--as") vals="@characters:reglas" ;;
        "reglas team|#1") vals="@traits" ;;
        "reglas team|#"*) vals="@traits" ;;
        "reglas extended|--as") vals="@characters:reglas" ;;
        "reglas extended|#1") vals="@traits" ;;
        "reglas retry|-d"|"reglas retry|--dificultad"|"reglas retry|--difficulty") vals="ninguna none normal dificil hard muy-dificil very-hard imposible impossible" ;;
        "reglas retry|--as") vals="@characters:reglas" ;;
        "reglas retry|#1") vals="@traits" ;;
        "cypher roll|-d"|"cypher roll|--difficulty") vals="routine simple standard demanding difficult challenging intimidating formidable heroic immortal impossible" ;;
        "cypher roll|--skill") vals="trained specialized inability @skills" ;;
        "cypher roll|--vs") vals="@characters:cypher @extras" ;;
        "cypher roll|--as") vals="@characters:cypher" ;;
        "cypher roll|--pool") vals="might speed intellect" ;;
        "cypher odds|-d"|"cypher odds|--difficulty") vals="routine simple standard demanding difficult challenging intimidating formidable heroic immortal impossible" ;;
        "cypher odds|--skill") vals="trained specialized inability @skills" ;;
        "cypher odds|--vs") vals="@characters:cypher @extras" ;;
        "cypher odds|--as") vals="@characters:cypher" ;;
        "cypher odds|--pool") vals="might speed intellect" ;;
        "cypher task|-d"|"cypher task|--difficulty") vals="routine simple standard demanding difficult challenging intimidating formidable heroic immortal impossible" ;;
        "cypher task|--skill") vals="trained specialized inability @skills" ;;
        "cypher task|--vs") vals="@characters:cypher @extras" ;;
        "cypher task|--as") vals="@characters:cypher" ;;
        "cypher task|--pool") vals="might speed intellect" ;;
        "cypher recover|--as") vals="@characters:cypher" ;;
        "char new|--ruleset") vals="crytures seyruun reglas cypher" ;;
        "char set|#1") vals="@characters" ;;
        "char show|#1") vals="@characters" ;;
        "char rm|#1") vals="@characters" ;;
        "alias|--rm") vals="@aliases" ;;
        "encounter start|--ruleset") vals="crytures seyruun reglas cypher" ;;
        "encounter start|#1") vals="@characters" ;;
        "encounter start|#"*) vals="@characters" ;;
        "encounter add|#1") vals="@characters" ;;
        "encounter add|#"*) vals="@characters" ;;
        "encounter rm|#1") vals="@characters @extras" ;;
        "encounter delay|--after") vals="@characters @extras" ;;
        "encounter out|#1") vals="@characters @extras" ;;
        "encounter back|#1") vals="@characters @extras" ;;
        "encounter mark|#1") vals="@combatants" ;;
        "encounter unmark|#1") vals="@combatants" ;;
        "encounter unmark|#2") vals="@conditions" ;;
        "log|--as") vals="@characters" ;;
        "log|--ruleset") vals="crytures seyruun reglas cypher dice" ;;
        "log stats|--as") vals="@characters" ;;
        "log stats|--ruleset") vals="crytures seyruun reglas cypher dice" ;;
        "play|--ruleset") vals="crytures seyruun reglas cypher dice" ;;
        "play|--as") vals="@characters" ;;
        "seat add|--as") vals="@characters" ;;
        "completion|#1") vals="bash zsh fish" ;;
        "@ruleset roll|--target") vals="@traits" ;;
        "@ruleset roll|--as") vals="@characters" ;;
        "@ruleset roll|#1") vals="@traits" ;;
        "@ruleset odds|--target") vals="@traits" ;;
        "@ruleset odds|--as") vals="@characters" ;;
        "@ruleset odds|#1") vals="@traits" ;;
        *) vals= ;;
    esac
}

# The user's own names, read from their files by the shell itself (no Python):
# RPGDICE_HOME, else the platform's config folder, as rpgdice paths says.
_rpgdice_dir()
{
    if [[ -n ${RPGDICE_HOME//[[:space:]]/} ]]; then
        dir=${RPGDICE_HOME/#\~/$HOME}
    elif [[ $OSTYPE == darwin* ]]; then
        dir="$HOME/Library/Application Support/rpgdice"
    else
        dir=${XDG_CONFIG_HOME:-$HOME/.config}/rpgdice
    fi
}

# The characters' names: every sheet's, or (given RULESET) those whose sheet says
# ruleset = "RULESET".
_rpgdice_characters()
{
    local dir f line rs re='^[[:space:]]*ruleset[[:space:]]*=[[:space:]]*["'\'']?([A-Za-z0-9_-]+)'
    _rpgdice_dir
    for f in "$dir"/characters/*.toml; do
        [[ -f $f ]] || continue
        if [[ -n $1 ]]; then
            rs=
            while IFS= read -r line || [[ -n $line ]]; do
                [[ $line == \[* ]] && break
                [[ $line =~ $re ]] && rs=${BASH_REMATCH[1]} && break
            done < "$f"
            [[ $rs == "$1" ]] || continue
        fi
        f=${f##*/}
        _rpgdice_words+=("${f%.toml}")
    done
}

# The extras of the current encounter: encounter.toml's [[order]] tables that say
# character = false (names match ignoring spaces and hyphens: a space is offered as -).
_rpgdice_extras()
{
    local dir line name= extra= re='^[[:space:]]*name[[:space:]]*=[[:space:]]*["'\'']([^"'\'']*)'
    _rpgdice_dir
    [[ -r $dir/encounter.toml ]] || return 0
    while IFS= read -r line || [[ -n $line ]]; do
        if [[ $line =~ ^[[:space:]]*\[ ]]; then
            [[ -n $extra && -n $name ]] && _rpgdice_words+=("${name// /-}")
            name= extra=
        elif [[ $line =~ $re ]]; then
            name=${BASH_REMATCH[1]}
        elif [[ $line =~ ^[[:space:]]*character[[:space:]]*=[[:space:]]*false ]]; then
            extra=1
        fi
    done < "$dir/encounter.toml"
    [[ -n $extra && -n $name ]] && _rpgdice_words+=("${name// /-}")
}

# Every combatant of the current encounter (encounter.toml's [[order]] names; a space
# is offered as -), or (given NAME) the conditions of the combatant NAME names (its
# conditions = [{name = "..."}, ...]; names match ignoring case, spaces and hyphens).
_rpgdice_combatants()
{
    local dir line name= conds= key=${1,,} re='^[[:space:]]*name[[:space:]]*=[[:space:]]*["'\'']([^"'\'']*)'
    local cre='name[[:space:]]*=[[:space:]]*"([^"]*)"(.*)$'
    key=${key//[[:space:]_-]/}
    _rpgdice_dir
    [[ -r $dir/encounter.toml ]] || return 0
    while IFS= read -r line || [[ -n $line ]]; do
        if [[ $line =~ ^[[:space:]]*\[ ]]; then
            _rpgdice_combatant "$1"
            name= conds=
        elif [[ $line =~ $re ]]; then
            name=${BASH_REMATCH[1]}
        elif [[ $line =~ ^[[:space:]]*conditions[[:space:]]*= ]]; then
            conds=${line#*=}
        fi
    done < "$dir/encounter.toml"
    _rpgdice_combatant "$1"
}

_rpgdice_combatant()
{
    local folded=${name,,} rest=$conds
    [[ -n $name ]] || return 0
    if [[ -z $1 ]]; then
        _rpgdice_words+=("${name// /-}")
        return 0
    fi
    [[ ${folded//[[:space:]_-]/} == "$key" ]] || return 0
    while [[ $rest =~ $cre ]]; do
        _rpgdice_words+=("${BASH_REMATCH[1]// /-}")
        rest=${BASH_REMATCH[2]}
    done
}

# The traits of the character rolling (--as NAME, else RPGDICE_AS), from its sheet's
# [traits]: those with a number, or (given `skills`) its skills.
_rpgdice_traits()
{
    local dir line name value in= rs= key=${as:-$RPGDICE_AS}
    [[ -n $key ]] || return 0
    key=${key,,} key=${key//[[:space:]_]/-}
    _rpgdice_dir
    [[ -r $dir/characters/$key.toml ]] || return 0
    while IFS= read -r line || [[ -n $line ]]; do
        line=${line#"${line%%[![:space:]]*}"}
        case $line in
            \[*) [[ $line =~ ^\[[[:space:]]*traits[[:space:]]*\] ]] && in=1 || in= ;;
            \#*) ;;
            *=*)
                name=${line%%=*} value=${line#*=}
                name=${name%"${name##*[![:space:]]}"} name=${name//[\"\']/}
                value=${value%%#*} value=${value//[\"\'[:space:]]/}
                if [[ -z $in ]]; then
                    [[ $name == ruleset ]] && rs=$value
                    continue
                fi
                if [[ $1 == skills ]]; then
                    [[ $value =~ ^(trained|specialized|inability)$ ]] || continue
                else
                    [[ $value =~ ^[+-]?[0-9]+$ ]] || continue
                fi
                name=${name,,} name=${name//[[:space:]_]/-}
                # The sheet's resources and their maxima are no traits a pool is made of.
                case "$rs:$name" in
                    crytures:stamina|crytures:mana|crytures:initiative|crytures:stamina-max|crytures:mana-max|seyruun:willpower|seyruun:wound|seyruun:health|seyruun:damage|seyruun:willpower-max|reglas:initiative|reglas:iniciativa|cypher:might|cypher:speed|cypher:intellect|cypher:might-edge|cypher:speed-edge|cypher:intellect-edge|cypher:effort|cypher:initiative|cypher:tier|cypher:armor|cypher:recoveries|cypher:might-max|cypher:speed-max|cypher:intellect-max) continue ;;
                esac
                _rpgdice_words+=("$name")
                ;;
        esac
    done < "$dir/characters/$key.toml"
}

# The aliases' names (config.toml [alias]); given NAME, alias_value is what it runs.
_rpgdice_aliases()
{
    local dir line name in=
    _rpgdice_dir
    [[ -r $dir/config.toml ]] || return 1
    while IFS= read -r line || [[ -n $line ]]; do
        line=${line#"${line%%[![:space:]]*}"}
        case $line in
            \[*) [[ $line =~ ^\[[[:space:]]*alias[[:space:]]*\] ]] && in=1 || in= ;;
            \#*) ;;  # a comment, such as an alias put aside
            *=*)
                if [[ -n $in ]]; then
                    name=${line%%=*}
                    name=${name%"${name##*[![:space:]]}"}
                    name=${name//[\"\']/}
                    if [[ -z $1 ]]; then
                        _rpgdice_words+=("$name")
                    elif [[ $name == "$1" ]]; then
                        alias_value=${line#*=}
                        alias_value=${alias_value//[\"\']/}
                        return 0
                    fi
                fi
                ;;
        esac
    done < "$dir/config.toml"
    [[ -z $1 ]]
}

# The user's own rulesets: rulesets/NAME.toml whose name is NAME and whose kind is one
# rpgdice knows (a misnamed or broken file is left out); given NAME, whether it is one.
_rpgdice_rulesets()
{
    local dir f stem line name kind
    local nre='^[[:space:]]*name[[:space:]]*=[[:space:]]*["'\'']([a-z0-9-]+)["'\'']'
    local kre='^[[:space:]]*kind[[:space:]]*=[[:space:]]*["'\''](pool|total|highest)["'\'']'
    [[ -z $1 || $1 =~ ^[a-z0-9][a-z0-9-]*$ ]] || return 1
    _rpgdice_dir
    for f in "$dir"/rulesets/${1:-*}.toml; do
        [[ -f $f ]] || continue
        stem=${f##*/} stem=${stem%.toml} name= kind=
        while IFS= read -r line || [[ -n $line ]]; do
            [[ $line == \[* ]] && break
            [[ $line =~ $nre ]] && name=${BASH_REMATCH[1]}
            [[ $line =~ $kre ]] && kind=1
        done < "$f"
        [[ $name == "$stem" && -n $kind ]] || continue
        [[ -n $1 ]] && return 0
        _rpgdice_words+=("$stem")
    done
    [[ -z $1 ]]
}

_rpgdice_offer()
{
    local w _rpgdice_words=()
    for w in $1; do
        case $w in
            @characters) _rpgdice_characters ;;
            @characters:*) _rpgdice_characters "${w#*:}" ;;
            @aliases) _rpgdice_aliases ;;
            @rulesets) _rpgdice_rulesets ;;
            @extras) _rpgdice_extras ;;
            @combatants) _rpgdice_combatants ;;
            @conditions) [[ -n $last ]] && _rpgdice_combatants "$last" ;;
            @traits) _rpgdice_traits ;;
            @skills) _rpgdice_traits skills ;;
            *) _rpgdice_words+=("$w") ;;
        esac
    done
    for w in "${_rpgdice_words[@]}"; do
        [[ $w == "$cur"* ]] && COMPREPLY+=("$2$w")
    done
}

_rpgdice()
{
    local cur=${COMP_WORDS[COMP_CWORD]} path= w i n=0 skip= opt= as= alias_value= aliased= last= subs opts vopts vals
    local -a ws=("${COMP_WORDS[@]:0:COMP_CWORD}") expansion
    COMPREPLY=()
    _rpgdice_node ""
    # Walk the words before the cursor: commands, options (and their values), arguments;
    # an alias as the command it runs, a user's ruleset file as every file's group.
    for (( i = 1; i < ${#ws[@]}; i++ )); do
        w=${ws[i]}
        if [[ -n $skip ]]; then
            skip=
            [[ $w == = ]] && skip=1 && continue
            [[ $opt == --as ]] && as=$w
            continue
        fi
        case $w in
            --as=*) as=${w#--as=} ;;
            -*=*) ;;
            -*) [[ " $vopts " == *" $w "* ]] && skip=1 opt=$w ;;
            *)
                if [[ " $subs " == *" $w "* ]]; then
                    path=${path:+$path }$w n=0 last=
                    _rpgdice_node "$path"
                elif [[ -z $path ]] && _rpgdice_rulesets "$w"; then
                    path=@ruleset n=0  # a user's ruleset file: every file's commands
                    _rpgdice_node "$path"
                elif [[ -z $path$aliased ]] && _rpgdice_aliases "$w"; then
                    aliased=1
                    read -ra expansion <<< "$alias_value"
                    ws=("${ws[@]:0:i}" "${expansion[@]}" "${ws[@]:i+1}")
                    i=$((i - 1))
                else
                    n=$((n + 1)) last=$w
                fi
                ;;
        esac
    done
    if [[ -n $skip ]]; then
        # The value of an option: `--wound `, `--wound=` or `--wound = `.
        [[ $cur == = ]] && cur=
        _rpgdice_values "$path" "$opt"
        _rpgdice_offer "$vals"
    elif [[ $cur == -*=* ]]; then
        opt=${cur%%=*} cur=${cur#*=}
        _rpgdice_values "$path" "$opt"
        _rpgdice_offer "$vals" "$opt="
    elif [[ $cur == -* ]]; then
        _rpgdice_offer "$opts"
    elif [[ -n $subs ]]; then
        _rpgdice_offer "$subs"
    else
        _rpgdice_values "$path" "#$((n + 1))"
        _rpgdice_offer "$vals"
    fi
    return 0
}

complete -F _rpgdice rpgdice
