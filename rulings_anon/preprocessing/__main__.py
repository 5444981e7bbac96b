"""`python -m rulings_anon.preprocessing`: the preprocessing stage's subcommands."""

from rulings_anon.cli import stage_main

stage_main("rulings_anon.preprocessing")
