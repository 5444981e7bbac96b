"""Lists shipped so that score need not import their source at start are still their source's."""

import json

from rulings_anon.analyzer.exemptions import countries
from rulings_anon.analyzer.faker_lists import faker_lists, main, shipped_lists


def test_the_shipped_faker_lists_are_the_installed_fakers(tmp_path):
    shipped = shipped_lists()
    assert {key: sorted(values) for key, values in shipped.items()} == faker_lists()
    assert {"Russische Föderation", "Österreich"} <= shipped["countries"] and {"Kevin", "Petra"} <= shipped["first_names"]
    assert {"Russland", "Österreichs", "Rumäniens"} <= countries()
    out = tmp_path / "faker_de.json"
    assert main(["--out", str(out)]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["countries"] == faker_lists()["countries"] and "faker" in written["_source"]
