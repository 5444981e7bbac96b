"""`python -m rulings_anon.interactive`: the interactive stage's subcommands."""

from rulings_anon.cli import stage_main

stage_main("rulings_anon.interactive")
