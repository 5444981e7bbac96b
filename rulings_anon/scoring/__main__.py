"""`python -m rulings_anon.scoring`: the scoring stage's subcommand."""

from rulings_anon.cli import stage_main

stage_main("rulings_anon.scoring")
