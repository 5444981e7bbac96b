"""The pipeline runner on top of the stages: ``rulings-anon pipeline --config FILE`` (``make demo``).

:mod:`pipeline.runner` runs the stages a config lists, skipping those that are up to date, and
:mod:`pipeline.run_report` writes the run's report. It is the one package that may import every stage.
"""
