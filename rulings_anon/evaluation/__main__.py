"""`python -m rulings_anon.evaluation`: the evaluation stage's subcommands."""

from rulings_anon.cli import stage_main

stage_main("rulings_anon.evaluation")
