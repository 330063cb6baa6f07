# fish completion for rpgdice: generated from the app by `rpgdice completion fish`.
# Do not edit; regenerate with `python -m rpgdice.cli.completion --write`.
# Pure shell: pressing TAB starts no Python.

complete -c rpgdice -f

# rpgdice
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher completion' -a crytures -d 'Crytures: d10 pool against a per-die Difficulty'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher completion' -a seyruun -d 'Seyruun: World of Darkness style d10 pool'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher completion' -a reglas -d 'Reglas Básicas: índice de éxito menos 1d10'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher completion' -a cypher -d 'Cypher System: d20 against 3 × difficulty'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher completion' -a completion -d 'Print the TAB-completion script for bash, zsh or fish'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher completion' -l version -d 'Print the version and exit'
complete -c rpgdice -n 'not __fish_seen_subcommand_from crytures seyruun reglas cypher completion' -s h -l help -d 'Show this message and exit'

# rpgdice crytures
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and not __fish_seen_subcommand_from roll' -a roll -d 'Roll a Crytures dice pool'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and not __fish_seen_subcommand_from roll' -s h -l help -d 'Show this message and exit'

# rpgdice crytures roll
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l die-mod -x -d 'Dice added (or removed, negative) from the pool; repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l roll-mod -x -d 'Added to every die\'s result; repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -s d -l difficulty -x -d 'Target number per die (at least 1)'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -s c -l complexity -x -d 'Successes needed (at least 1)'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l attack -d 'An attack: every natural 10 is a critical hit'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l dice -x -d 'Evaluate these faces (e.g. 4,7,2) instead of rolling; consumed in order, and th…'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l seed -x -d 'Seed the dice: the same seed and command give the same dice'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -s n -l times -x -d 'Repeat the whole command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -l json -d 'JSON Lines: one object per repetition, nothing else on stdout'
complete -c rpgdice -n '__fish_seen_subcommand_from crytures; and __fish_seen_subcommand_from roll' -s h -l help -d 'Show this message and exit'

# rpgdice seyruun
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll' -a roll -d 'Roll a Seyruun dice pool: Attribute + Skill, bonuses (max +5), Willpower, penal…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and not __fish_seen_subcommand_from roll' -s h -l help -d 'Show this message and exit'

# rpgdice seyruun roll
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l bonus -x -d 'External bonus dice (merits, allies, equipment); repeatable; at most +5 count'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l penalty -x -d 'Dice removed (terrain, visibility, distraction, duress); repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l wound -x -a 'light moderate severe crippled' -d 'Wound penalty: light −1, moderate −2, severe −3, crippled −5'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l actions -x -d 'Actions this turn: −2 dice for each beyond the first'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l willpower -d 'Spend 1 Willpower for +3 dice (not capped)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l reroll -d 'Spend 1 Willpower to re-roll a failed or botched roll once'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -s d -l difficulty -x -a 'simple moderate complex epic legendary' -d 'Successes needed: simple 1, moderate 2, complex 3, epic 4, legendary 5, or a nu…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l dice -x -d 'Evaluate these faces (e.g. 4,7,2) instead of rolling; consumed in order, and th…'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l seed -x -d 'Seed the dice: the same seed and command give the same dice'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -s n -l times -x -d 'Repeat the whole command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -l json -d 'JSON Lines: one object per repetition, nothing else on stdout'
complete -c rpgdice -n '__fish_seen_subcommand_from seyruun; and __fish_seen_subcommand_from roll' -s h -l help -d 'Show this message and exit'

# rpgdice reglas
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll' -a roll -d 'Tirada simple: resultado = iE − 1d10'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and not __fish_seen_subcommand_from roll' -s h -l help -d 'Show this message and exit'

# rpgdice reglas roll
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -s d -l difficulty -l dificultad -x -a 'none normal dificil muy-dificil imposible' -d 'Successes needed: none 0, normal 2, dificil 4, muy-dificil 6, imposible 8, or a…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l raise -l niveles -x -d 'Raise the difficulty N levels, +2 each (past imposible too)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l mod -x -d 'Signed modifier to the índice; repeatable'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l attempt -l intento -x -d 'Which try this is (inténtalo de nuevo): −2 per earlier failed try'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l dice -x -d 'Evaluate these faces (e.g. 4,7,2) instead of rolling; consumed in order, and th…'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l seed -x -d 'Seed the dice: the same seed and command give the same dice'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -s n -l times -x -d 'Repeat the whole command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -l json -d 'JSON Lines: one object per repetition, nothing else on stdout'
complete -c rpgdice -n '__fish_seen_subcommand_from reglas; and __fish_seen_subcommand_from roll' -s h -l help -d 'Show this message and exit'

# rpgdice cypher
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and not __fish_seen_subcommand_from task' -a task -d 'Attempt a task: d20 against 3 × (difficulty − easing + hindering)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and not __fish_seen_subcommand_from task' -s h -l help -d 'Show this message and exit'

# rpgdice cypher task
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -s d -l difficulty -x -a 'routine simple standard demanding difficult challenging intimidating formidable heroic immortal impossible' -d 'Task difficulty 0-10 or its name: routine, simple, standard, demanding, difficu…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l ease -x -d 'Steps the task is eased'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l hinder -x -d 'Steps the task is hindered'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l skill -x -a 'trained specialized inability' -d 'Trained eases 1 step, specialized 2, an inability hinders 1'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l asset -x -d 'Assets: 0 to 2 steps'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l effort -x -d 'Levels of Effort: 0 to 6, one step each'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l edge -x -d 'Edge, taken off the Effort cost'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l bonus -x -d 'Flat bonus added to the d20'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l attack -d 'An attack: 17 and 18 add damage, 19/20 may add more'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l dice -x -d 'Evaluate these faces (e.g. 4,7,2) instead of rolling; consumed in order, and th…'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l seed -x -d 'Seed the dice: the same seed and command give the same dice'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -s n -l times -x -d 'Repeat the whole command N times (1 to 100000)'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -l json -d 'JSON Lines: one object per repetition, nothing else on stdout'
complete -c rpgdice -n '__fish_seen_subcommand_from cypher; and __fish_seen_subcommand_from task' -s h -l help -d 'Show this message and exit'

# rpgdice completion
complete -c rpgdice -n '__fish_seen_subcommand_from completion' -s h -l help -d 'Show this message and exit'
complete -c rpgdice -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'
