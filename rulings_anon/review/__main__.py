"""``python -m rulings_anon.review``: the review command on its own."""

from rulings_anon.cli import stage_main

stage_main("rulings_anon.review")
