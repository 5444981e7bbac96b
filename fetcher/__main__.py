"""`python -m fetcher`: the fetcher stage's subcommands."""

from rulings_anon.cli import stage_main

stage_main("fetcher")
