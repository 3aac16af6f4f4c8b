"""One module per DailyClue domain (Daily Commonsense, the largest, in two): each function draws
one scene and adds its item, with clue boxes computed from what it drew."""
