"""`python -m models`: the models stage's subcommands."""

from rulings_anon.cli import stage_main

stage_main("models")
