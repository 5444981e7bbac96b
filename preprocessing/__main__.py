"""`python -m preprocessing`: the preprocessing stage's subcommands."""

from rulings_anon.cli import stage_main

stage_main("preprocessing")
