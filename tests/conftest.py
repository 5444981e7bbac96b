"""Shared test setup."""

import os
import tempfile

import pytest


@pytest.fixture(autouse=True, scope="session")
def _temporary_files_in_pytests_own_folder(tmp_path_factory):
    """Temporary files of the run, the CLI's subprocesses included, go to a folder of pytest's
    (which it rotates): Beam's job server leaves an empty ``beam-temp*`` folder per pipeline in the
    temporary directory, hundreds of them in /tmp after a few runs of the suite."""
    folder = str(tmp_path_factory.mktemp("tmp"))
    before_env, before = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = folder, folder
    yield
    tempfile.tempdir = before
    if before_env is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = before_env
