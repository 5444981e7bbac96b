"""`python -m rulings_anon.fetcher`: the fetcher stage's subcommands."""

from rulings_anon.cli import stage_main

stage_main("rulings_anon.fetcher")
