"""`python -m rulings_anon.models`: the models stage's subcommands."""

from rulings_anon.cli import stage_main

stage_main("rulings_anon.models")
