# bash completion for rpgdice: generated from the app by `rpgdice completion bash`.
# Do not edit; regenerate with `python -m rpgdice.cli.completion --write`.
# Pure shell: pressing TAB starts no Python.

_rpgdice_node()
{
    case $1 in
        "") subs="crytures seyruun reglas cypher completion" opts="--version -h --help" vopts="" ;;
        "crytures") subs="roll odds" opts="-h --help" vopts="" ;;
        "crytures roll") subs="" opts="--die-mod --roll-mod -d --difficulty -c --complexity --attack --crit-hits --dice --seed -n --times --json --odds -h --help" vopts="--die-mod --roll-mod -d --difficulty -c --complexity --crit-hits --dice --seed -n --times" ;;
        "crytures odds") subs="" opts="--die-mod --roll-mod -d --difficulty -c --complexity --attack --crit-hits --json -h --help" vopts="--die-mod --roll-mod -d --difficulty -c --complexity --crit-hits" ;;
        "seyruun") subs="roll odds contest extended team" opts="-h --help" vopts="" ;;
        "seyruun roll") subs="" opts="--bonus --penalty --wound --actions --willpower --reroll -d --difficulty --dice --seed -n --times --json --odds -h --help" vopts="--bonus --penalty --wound --actions -d --difficulty --dice --seed -n --times" ;;
        "seyruun odds") subs="" opts="--bonus --penalty --wound --actions --willpower --reroll -d --difficulty --json -h --help" vopts="--bonus --penalty --wound --actions -d --difficulty" ;;
        "seyruun contest") subs="" opts="--attacker-willpower --defender-willpower --dice --seed -n --times --json -h --help" vopts="--dice --seed -n --times" ;;
        "seyruun extended") subs="" opts="--target --max-rolls --bonus --penalty --wound --actions --willpower --dice --seed -n --times --json -h --help" vopts="--target --max-rolls --bonus --penalty --wound --actions --dice --seed -n --times" ;;
        "seyruun team") subs="" opts="--assists --bonus --penalty --wound --actions --willpower --reroll -d --difficulty --dice --seed -n --times --json -h --help" vopts="--assists --bonus --penalty --wound --actions -d --difficulty --dice --seed -n --times" ;;
        "reglas") subs="roll odds multi contest team extended retry" opts="-h --help" vopts="" ;;
        "reglas roll") subs="" opts="-d --difficulty --dificultad --raise --niveles --mod --attempt --intento --dice --seed -n --times --json --odds -h --help" vopts="-d --difficulty --dificultad --raise --niveles --mod --attempt --intento --dice --seed -n --times" ;;
        "reglas odds") subs="" opts="-d --difficulty --dificultad --raise --niveles --mod --attempt --intento --json -h --help" vopts="-d --difficulty --dificultad --raise --niveles --mod --attempt --intento" ;;
        "reglas multi") subs="" opts="-d --difficulty --dificultad --raise --niveles --mod --dice --seed -n --times --json -h --help" vopts="-d --difficulty --dificultad --raise --niveles --mod --dice --seed -n --times" ;;
        "reglas contest") subs="" opts="-d --difficulty --dificultad --raise --niveles --mod --defender-mod --dice --seed -n --times --json -h --help" vopts="-d --difficulty --dificultad --raise --niveles --mod --defender-mod --dice --seed -n --times" ;;
        "reglas team") subs="" opts="-d --difficulty --dificultad --raise --niveles --dice --seed -n --times --json -h --help" vopts="-d --difficulty --dificultad --raise --niveles --dice --seed -n --times" ;;
        "reglas extended") subs="" opts="--target --start --max-rolls --mod --dice --seed -n --times --json -h --help" vopts="--target --start --max-rolls --mod --dice --seed -n --times" ;;
        "reglas retry") subs="" opts="-d --difficulty --dificultad --raise --niveles --mod --max-attempts --dice --seed -n --times --json -h --help" vopts="-d --difficulty --dificultad --raise --niveles --mod --max-attempts --dice --seed -n --times" ;;
        "cypher") subs="task odds" opts="-h --help" vopts="" ;;
        "cypher task") subs="" opts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --attack --dice --seed -n --times --json --odds -h --help" vopts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --dice --seed -n --times" ;;
        "cypher odds") subs="" opts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus --attack --json -h --help" vopts="-d --difficulty --ease --hinder --skill --asset --effort --edge --bonus" ;;
        "completion") subs="" opts="-h --help" vopts="" ;;
        *) subs= opts= vopts= ;;
    esac
}

_rpgdice_values()
{
    case "$1|$2" in
        "seyruun roll|--wound") vals="light moderate severe crippled" ;;
        "seyruun roll|-d"|"seyruun roll|--difficulty") vals="simple moderate complex epic legendary" ;;
        "seyruun odds|--wound") vals="light moderate severe crippled" ;;
        "seyruun odds|-d"|"seyruun odds|--difficulty") vals="simple moderate complex epic legendary" ;;
        "seyruun extended|--wound") vals="light moderate severe crippled" ;;
        "seyruun team|--wound") vals="light moderate severe crippled" ;;
        "seyruun team|-d"|"seyruun team|--difficulty") vals="simple moderate complex epic legendary" ;;
        "reglas roll|-d"|"reglas roll|--difficulty"|"reglas roll|--dificultad") vals="none normal dificil muy-dificil imposible" ;;
        "reglas odds|-d"|"reglas odds|--difficulty"|"reglas odds|--dificultad") vals="none normal dificil muy-dificil imposible" ;;
        "reglas multi|-d"|"reglas multi|--difficulty"|"reglas multi|--dificultad") vals="none normal dificil muy-dificil imposible" ;;
        "reglas contest|-d"|"reglas contest|--difficulty"|"reglas contest|--dificultad") vals="none normal dificil muy-dificil imposible" ;;
        "reglas team|-d"|"reglas team|--difficulty"|"reglas team|--dificultad") vals="none normal dificil muy-dificil imposible" ;;
        "reglas retry|-d"|"reglas retry|--difficulty"|"reglas retry|--dificultad") vals="none normal dificil muy-dificil imposible" ;;
        "cypher task|-d"|"cypher task|--difficulty") vals="routine simple standard demanding difficult challenging intimidating formidable heroic immortal impossible" ;;
        "cypher task|--skill") vals="trained specialized inability" ;;
        "cypher odds|-d"|"cypher odds|--difficulty") vals="routine simple standard demanding difficult challenging intimidating formidable heroic immortal impossible" ;;
        "cypher odds|--skill") vals="trained specialized inability" ;;
        "completion|#1") vals="bash zsh fish" ;;
        *) vals= ;;
    esac
}

_rpgdice_offer()
{
    local w
    for w in $1; do
        [[ $w == "$cur"* ]] && COMPREPLY+=("$2$w")
    done
}

_rpgdice()
{
    local cur=${COMP_WORDS[COMP_CWORD]} path= w i n=0 skip= opt= subs opts vopts vals
    COMPREPLY=()
    _rpgdice_node ""
    # Walk the words before the cursor: commands, options (and their values), arguments.
    for (( i = 1; i < COMP_CWORD; i++ )); do
        w=${COMP_WORDS[i]}
        if [[ -n $skip ]]; then
            skip=
            [[ $w == = ]] && skip=1
            continue
        fi
        case $w in
            -*=*) ;;
            -*) [[ " $vopts " == *" $w "* ]] && skip=1 ;;
            *)
                if [[ " $subs " == *" $w "* ]]; then
                    path=${path:+$path }$w n=0
                    _rpgdice_node "$path"
                else
                    n=$((n + 1))
                fi
                ;;
        esac
    done
    if [[ -n $skip ]]; then
        # The value of an option: `--wound `, `--wound=` or `--wound = `.
        opt=${COMP_WORDS[COMP_CWORD-1]}
        [[ $opt == = ]] && opt=${COMP_WORDS[COMP_CWORD-2]}
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
