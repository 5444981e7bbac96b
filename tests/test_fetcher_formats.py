"""rulings_anon.formats: the portals' XML, ZIP and HTML files as documents (recorded responses)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from rulings_anon.errors import InputError
from rulings_anon.formats import open_zip, parse_xml, parse_zip, read_portal_file
from rulings_anon.inputs import read_documents
from rulings_anon.placeholders.paragraphs import extract_paragraphs

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "portal"
BAYERN_XML = FIXTURES / "bayern_ruling_Y-300-Z-BECKRS-B-2018-N-29496.xml"
RII_XML = FIXTURES / "rii_ruling_KVRE427811801.xml"
JUNK_ZIP = FIXTURES / "bayern_zip_with_trailing_junk.zip"
HTML_PAGE = FIXTURES / "bayern_document_page_synthetic.html"


@pytest.fixture(scope="module")
def bayern():
    return next(read_portal_file(BAYERN_XML))


def test_bayern_xml_metadata(bayern):
    assert bayern.id == "Y-300-Z-BECKRS-B-2018-N-29496"
    assert bayern.meta == {
        "court": "OLG München",
        "date": "2018-11-21",
        "file_number": "34 Wx 105/18",
        "doc_type": "Beschluss",
        "source": "gesetze-bayern.de",
        "url": "https://www.gesetze-bayern.de/Content/Document/Y-300-Z-BECKRS-B-2018-N-29496",
        "title": "Grundbuchberichtigung - Nachträgliche Dokumentation eines mittlerweile überholten "
        "Rechtszustands im Grundbuch kein zulässiger Antragsgegenstand",
        "chamber": "34. Zivilsenat",
        "jurisdiction": "Ordentliche Gerichtsbarkeit",
        "keywords": [
            "Unrichtigkeit des Grundbuchs", "Antrag auf Grundbuchberichtigung", "Beschwerdebefugnis",
            "Erbengemeinschaft", "überholter Rechtszustand", "Buchersitzung",
        ],
        "norms": [
            "BGB § 894, § 900 Abs. 1, § 1192 Abs. 1, § 1168 Abs. 1, § 2032",
            "GBO § 22 Abs. 1, § 71",
            "ZVG § 90 Abs. 1",
        ],
        "citation": "BeckRS 2018, 29496",
    }


def test_bayern_xml_text_sections_paragraphs_and_margin_numbers(bayern):
    paragraphs = bayern.text.split("\n\n")
    assert [p for p in paragraphs if p in ("Leitsätze", "Tenor", "Gründe")] == ["Leitsätze", "Tenor", "Gründe"]
    assert paragraphs[1].startswith("1. Sind im Grundbuch als Eigentümer")  # "1." span joined to its text
    tenor = paragraphs.index("Tenor")
    assert paragraphs[tenor + 1:tenor + 3] == [
        "I. Die Beschwerde des Beteiligten gegen den Beschluss des Amtsgerichts Aichach - Grundbuchamt - "
        "vom 2. Februar 2018 wird verworfen.",
        "II. Der Geschäftswert des Beschwerdeverfahrens wird auf 5.000 € festgesetzt.",
    ]
    gruende = paragraphs.index("Gründe")
    assert paragraphs[gruende + 1] == "I."
    assert paragraphs[gruende + 2].startswith("1\nGegenstand des Verfahrens ist der Antrag des Beteiligten auf „Berichtigung“")
    margins = [int(p.split("\n", 1)[0]) for p in paragraphs if p.split("\n", 1)[0].isdigit()]
    assert margins == list(range(1, 31))
    assert "§ 900 BGB meint er" in bayern.text  # inline markup (verweis.norm) flattened in place
    assert "\xa0" not in bayern.text and "  " not in bayern.text


def test_margin_number_lines_vanish_in_paragraph_extraction(bayern):
    texts = [p.text for p in extract_paragraphs(bayern.text)]
    assert any(t.startswith("Gegenstand des Verfahrens ist der Antrag") for t in texts)
    assert not any(t.strip().isdigit() for t in texts)


def test_iso_8859_1_bytes_and_the_utf8_copy_declaring_iso_8859_1_read_the_same(bayern):
    latin1 = BAYERN_XML.read_text("utf-8").encode("iso-8859-1")
    with pytest.raises(UnicodeDecodeError):
        latin1.decode("utf-8")
    again = parse_xml(latin1, "latin1.xml")
    assert (again.id, again.text, again.meta) == (bayern.id, bayern.text, bayern.meta)


def test_rii_xml():
    document = next(read_portal_file(RII_XML))
    assert document.id == "KVRE427811801"
    assert document.meta["court"] == "BVerfG"
    assert document.meta["chamber"] == "2. Senat"
    assert document.meta["date"] == "2018-08-22"
    assert document.meta["doc_type"] == "Ablehnung einstweilige Anordnung"
    assert document.meta["ecli"] == "ECLI:DE:BVerfG:2018:qs20180822.2bvq005318"
    assert document.meta["norms"] == [
        "Art 19 Abs 4 GG", "Art 38 Abs 1 S 1 GG", "Art 41 GG", "§ 32 Abs 1 BVerfGG", "§ 48 BVerfGG",
    ]
    assert document.meta["file_number"].startswith("2 BvQ 53/18, 2 BvQ 54/18")
    assert document.text.startswith(
        "Tenor\n\nDie Verfahren werden zur gemeinsamen Entscheidung verbunden.\n\n"
        "Die Anträge auf Erlass einstweiliger Anordnungen werden abgelehnt.\n\nGründe\n\nI.\n\n"
        "1\n1. Die Antragsteller haben gegen die Wahl zum Deutschen Bundestag"
    )
    assert "\n\nII.\n\n4\nDie Anträge auf Erlass einstweiliger Anordnungen sind abzulehnen.\n\n" in document.text
    assert "(vgl. BVerfGE 11, 339 <442>; 27, 152 <156>" in document.text


def test_zip_with_junk_after_the_archive():
    data = JUNK_ZIP.read_bytes()
    with pytest.raises(zipfile.BadZipFile):
        zipfile.ZipFile(io.BytesIO(data))  # what a plain reader makes of it
    assert open_zip(data, "junk.zip").namelist() == [
        "bayportalrsp/Y-300-Z-BECKRS-B-2022-N-15750.xml", "META-INF/manifest.xml", "mimetype",
    ]
    [document] = read_portal_file(JUNK_ZIP)
    assert document.id == "Y-300-Z-BECKRS-B-2022-N-15750"
    assert (document.meta["court"], document.meta["date"], document.meta["file_number"]) == (
        "ArbG Nürnberg", "2022-02-23", "8 BV 40/21",
    )
    assert "Tenor\n\nDer Wert des Gegenstands der anwaltlichen Tätigkeit wird auf 10.000,00 € festgesetzt" in document.text


def test_html_document_page():
    [document] = read_portal_file(HTML_PAGE)
    assert document.id == "Y-300-Z-BECKRS-B-2019-N-90001"
    assert document.meta == {
        "court": "LG München I",
        "date": "2019-03-12",
        "file_number": "9 O 1234/18",
        "doc_type": "Endurteil",
        "source": "gesetze-bayern.de",
        "url": "https://www.gesetze-bayern.de/Content/Document/Y-300-Z-BECKRS-B-2019-N-90001",
        "title": "Anspruch auf Rückzahlung eines Darlehens",
        "keywords": ["Darlehen", "Kündigung", "Rückzahlung"],
        "norms": ["BGB § 488 Abs. 1", "ZPO § 91"],
        "citation": "BeckRS 2019, 90001",
    }
    assert document.text == (
        "Leitsätze\n\nEin Darlehen ist zurückzuzahlen, wenn es gekündigt wurde. (Rn. 2)\n\n"
        "Tenor\n\n1. Die Beklagte wird verurteilt, an den Kläger 5.000,00 € zu zahlen.\n\n"
        "2. Die Beklagte trägt die Kosten des Rechtsstreits.\n\n"
        "Tatbestand\n\n1\nDer Kläger K. gewährte der Beklagten, der M-GmbH, im Jahr 2017 ein Darlehen.\n\n"
        "Entscheidungsgründe\n\n2\nDie Klage ist begründet. Die Geschäftsführerin der Beklagten, Frau S., "
        "hat den Empfang bestätigt.\n\n3\nDie Kostenentscheidung beruht auf § 91 ZPO."
    )


def test_read_documents_takes_portal_files_and_directories(tmp_path):
    for source in (BAYERN_XML, RII_XML, JUNK_ZIP, HTML_PAGE):
        (tmp_path / source.name).write_bytes(source.read_bytes())
    found = [d.id for d in read_documents([tmp_path])]
    assert found == [
        "Y-300-Z-BECKRS-B-2019-N-90001", "Y-300-Z-BECKRS-B-2018-N-29496",
        "Y-300-Z-BECKRS-B-2022-N-15750", "KVRE427811801",
    ]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("cut.xml", BAYERN_XML.read_bytes()[:3000], "malformed XML"),
        ("other.xml", b"<?xml version='1.0'?><rss><channel/></rss>", "not a court ruling: root element <rss>"),
        ("empty.xml", b"<dokument><doknr>X</doknr></dokument>", "holds no text sections"),
        ("blank.xml", b"  \n", "the file is empty"),
        ("notzip.zip", b"PK\x03\x04 this is no archive", "not a readable ZIP archive"),
        ("page.html", b"<html><body><p>Impressum</p></body></html>", "no ruling text on this HTML page"),
        ("split.tar.gz", b"\x1f\x8b\x08\x00 broken", "not a readable tar archive"),
    ],
)
def test_bad_files_raise_input_error_naming_the_file(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError, match=message) as caught:
        list(read_portal_file(path))
    assert str(caught.value).startswith(f"{path}")


def test_zip_without_ruling_xml(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("META-INF/manifest.xml", "<manifest/>")
    with pytest.raises(InputError, match="no ruling XML"):
        parse_zip(buffer.getvalue(), "x.zip")
