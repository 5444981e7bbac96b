"""The cluster table builder: capitalized words with a cluster, from the wheel or the JSON file."""

from __future__ import annotations

import gzip
import json
import zipfile

from rulings_anon.analyzer.clusters_builder import MEMBER, main
from rulings_anon.lexicon import SortedLexicon


def test_when_built_from_a_wheel_then_only_capitalized_words_with_a_cluster_remain(tmp_path, capsys):
    clusters = {"Müller": 40, "Zwickau": 80, "und": 5, "Ärzte": 189, "Leer": 0, "Bad\tName": 3}
    wheel = tmp_path / "spacy_lookups_data-1.0.5-py2.py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(MEMBER, gzip.compress(json.dumps(clusters).encode("utf-8")))
    out = tmp_path / "clusters.tsv.gz"
    assert main([str(wheel), "--out", str(out)]) == 0
    lines = gzip.decompress(out.read_bytes()).decode("utf-8").splitlines()
    assert lines == ["Müller\t40", "Zwickau\t80", "Ärzte\t189"]  # sorted by code point, as bisection needs
    table = SortedLexicon(gzip.decompress(out.read_bytes()))
    assert (table.get("Ärzte"), table.get("Zwickau"), table.get("und")) == (189, 80, None)
    assert "3 capitalized words" in capsys.readouterr().err


def test_when_the_source_is_no_cluster_file_then_one_line_names_it(tmp_path, capsys):
    junk = tmp_path / "junk.whl"
    junk.write_bytes(b"not a zip")
    assert main([str(junk), "--out", str(tmp_path / "c.tsv.gz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "junk.whl" in err
    assert not (tmp_path / "c.tsv.gz").exists()
