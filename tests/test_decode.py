"""decode(): bytes to text, with the charset precedence browsers use.

Every document here is real text in its language, encoded with the codec a real page of
that kind would use. Assertions check what a user of the library sees: the original
sentence comes back intact, and the reported encoding names what the bytes really were.
"""

from __future__ import annotations

import codecs
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unchrome.pipeline.decode import Decoded, decode

# --- real text ------------------------------------------------------------------------

JA = (
    "東京は日本の首都であり、世界有数の大都市です。多くの人々が毎日電車で通勤しています。"
    "春には桜が咲き、公園は花見を楽しむ家族連れでにぎわいます。"
)
KO = (
    "서울은 대한민국의 수도이며 가장 큰 도시입니다. 한강이 도시를 가로질러 흐르고, "
    "봄이 되면 많은 시민들이 강변 공원에서 산책을 즐깁니다."
)
ZH_HANS = (
    "北京是中华人民共和国的首都，也是全国的政治和文化中心。这座城市有着三千多年的历史，"
    "故宫和长城每年吸引着数以百万计的游客。"
)
ZH_HANT = (
    "臺北是臺灣最大的都會區之一，這座城市擁有豐富的文化與美食。"
    "夜市裡的小吃攤販每天晚上都吸引許多觀光客前來品嚐。"
)
RU = (
    "Москва - столица России, крупнейший по численности населения город страны и её "
    "политический, экономический и культурный центр. Город расположен на реке Москве в "
    "центре Восточно-Европейской равнины. В городе работают сотни музеев, театров и "
    "библиотек, а метрополитен ежедневно перевозит миллионы пассажиров. Первое упоминание "
    "о Москве в летописи относится к тысяча сто сорок седьмому году."
)
CS = (
    "Šumava je rozsáhlé pohoří na jihozápadě Čech, které se táhne podél hranic s "
    "Německem a Rakouskem. Většinu území pokrývají husté smrkové lesy, rašeliniště a "
    "horské louky, kde žije řada vzácných živočichů. Nejvyšším vrcholem české části je "
    "Plechý. Turisté sem jezdí po celý rok: v létě na kolech a pěšky, v zimě na běžkách. "
    "Ještě před třiceti lety byla velká část hor nepřístupná, protože tudy vedla železná "
    "opona. Dnes je zde národní park a chráněná krajinná oblast."
)
PL = (
    "Kraków jest jednym z najstarszych i największych miast w Polsce. Przez wieki był "
    "stolicą kraju i siedzibą królów. Zabytkowe Stare Miasto, Wawel oraz dzielnica "
    "Kazimierz przyciągają każdego roku miliony turystów. Źródła podają, że pierwsze "
    "wzmianki o grodzie pochodzą z dziesiątego wieku, a uniwersytet założono w roku "
    "tysiąc trzysta sześćdziesiątym czwartym. Ślady dawnej świetności widać wszędzie: "
    "w kościołach, kamienicach i na dziedzińcach, gdzie wieczorem spotykają się studenci."
)
# French with œ and €: windows-1252 and ISO-8859-15 have both (at different bytes),
# ISO-8859-1 has neither.
FR = (
    "Le château se dresse au cœur de la forêt, où les promeneurs s'arrêtent souvent pour "
    "admirer la façade. À l'intérieur, une élégante galerie présente des œuvres du "
    "dix-huitième siècle, et l'entrée coûte douze €. « C'est très beau », déclare "
    "une visiteuse âgée, émue devant les tableaux. Les enfants préfèrent le jardin, "
    "où l'on peut goûter des crêpes et des gâteaux près de la fontaine."
)
DE = (
    "Die Straße führt über die Brücke zum Schloss. Für Besucher gibt es Führungen, die "
    "ungefähr zwei Stunden dauern und für Gruppen auch außerhalb der Öffnungszeiten "
    "möglich sind. Größere Taschen müssen an der Kasse abgegeben werden. Im Café "
    "gegenüber gibt es Kuchen, Kaffee und Spätzle; die Preise sind mäßig."
)


def page(body: str, head: str = "", title: str = "Artikel") -> str:
    """A small but realistic HTML document around ``body``."""
    return (
        "<!DOCTYPE html>\n<html>\n<head>\n"
        f"{head}\n<title>{title}</title>\n"
        '<link rel="stylesheet" href="/static/site.css">\n'
        '</head>\n<body>\n<nav><a href="/">Home</a> | <a href="/news">News</a></nav>\n'
        f"<article>\n<h1>{title}</h1>\n<p>{body}</p>\n</article>\n"
        "<footer>(c) 2024</footer>\n</body>\n</html>\n"
    )


# (text, Python codec that writes the bytes, the encoding decode() should report)
ENCODED = [
    pytest.param(JA, "utf-8", "utf-8", id="utf-8-japanese"),
    pytest.param(RU, "utf-8", "utf-8", id="utf-8-russian"),
    pytest.param(JA, "cp932", "shift_jis", id="shift_jis"),
    pytest.param(JA, "euc_jp", "euc-jp", id="euc-jp"),
    pytest.param(JA, "iso2022_jp", "iso-2022-jp", id="iso-2022-jp"),
    pytest.param(KO, "euc_kr", "euc-kr", id="euc-kr"),
    pytest.param(ZH_HANS, "gbk", "gb18030", id="gbk"),
    pytest.param(ZH_HANS, "gb18030", "gb18030", id="gb18030"),
    pytest.param(ZH_HANT, "big5", "big5", id="big5"),
    pytest.param(CS, "cp1250", "windows-1250", id="windows-1250-czech"),
    pytest.param(PL, "cp1250", "windows-1250", id="windows-1250-polish"),
    pytest.param(CS, "iso8859_2", "iso-8859-2", id="iso-8859-2-czech"),
    pytest.param(PL, "iso8859_2", "iso-8859-2", id="iso-8859-2-polish"),
    pytest.param(RU, "cp1251", "windows-1251", id="windows-1251"),
    pytest.param(RU, "koi8_r", "koi8-r", id="koi8-r"),
    pytest.param(FR, "cp1252", "windows-1252", id="windows-1252-french"),
    pytest.param(DE, "cp1252", "windows-1252", id="windows-1252-german"),
    pytest.param(FR, "iso8859_15", "iso-8859-15", id="iso-8859-15"),
]


# --- declared via the Content-Type header -----------------------------------------------

HEADER_LABELS = [
    ("Shift_JIS", JA, "cp932", "shift_jis"),
    ("EUC-JP", JA, "euc_jp", "euc-jp"),
    ("ISO-2022-JP", JA, "iso2022_jp", "iso-2022-jp"),
    ("EUC-KR", KO, "euc_kr", "euc-kr"),
    ("GB2312", ZH_HANS, "gb2312", "gb18030"),
    ("GBK", ZH_HANS, "gbk", "gb18030"),
    ("GB18030", ZH_HANS, "gb18030", "gb18030"),
    ("Big5", ZH_HANT, "big5", "big5"),
    ("windows-1250", PL, "cp1250", "windows-1250"),
    ("ISO-8859-2", CS, "iso8859_2", "iso-8859-2"),
    ("windows-1251", RU, "cp1251", "windows-1251"),
    ("KOI8-R", RU, "koi8_r", "koi8-r"),
    ("windows-1252", FR, "cp1252", "windows-1252"),
    ("ISO-8859-1", DE, "latin-1", "windows-1252"),
    ("ISO-8859-15", FR, "iso8859_15", "iso-8859-15"),
    ("UTF-8", JA, "utf-8", "utf-8"),
]


@pytest.mark.parametrize(("label", "text", "codec", "expected"), HEADER_LABELS)
def test_header_charset(label: str, text: str, codec: str, expected: str) -> None:
    data = page(text).encode(codec)
    got = decode(data, content_type=f"text/html; charset={label}")
    assert text in got.text
    assert got.encoding == expected


def test_header_charset_tolerates_quotes_case_and_spaces() -> None:
    data = page(RU).encode("koi8_r")
    got = decode(data, content_type='Text/HTML;  Charset = "KOI8-R" ')
    assert RU in got.text
    assert got.encoding == "koi8-r"


def test_header_beats_sniffing() -> None:
    # Four non-ASCII bytes say little; a sniffer could call them anything. The server's
    # word is what a browser would follow.
    data = "<p>Привет</p>".encode("cp1251")
    got = decode(data, content_type="text/html; charset=windows-1251")
    assert got == Decoded("<p>Привет</p>", "windows-1251")


def test_header_unknown_label_falls_through_to_meta() -> None:
    data = page(RU, head='<meta charset="windows-1251">').encode("cp1251")
    got = decode(data, content_type="text/html; charset=x-klingon")
    assert RU in got.text
    assert got.encoding == "windows-1251"


def test_header_without_charset_is_ignored() -> None:
    data = page(JA, head='<meta charset="EUC-JP">').encode("euc_jp")
    got = decode(data, content_type="text/html")
    assert JA in got.text
    assert got.encoding == "euc-jp"


def test_header_accepts_raw_bytes() -> None:
    data = page(KO).encode("euc_kr")
    got = decode(data, content_type=b"text/html; charset=euc-kr")  # type: ignore[arg-type]
    assert KO in got.text
    assert got.encoding == "euc-kr"


# --- declared in the document -----------------------------------------------------------


@pytest.mark.parametrize(
    ("meta", "text", "codec", "expected"),
    [
        ('<meta charset="Shift_JIS">', JA, "cp932", "shift_jis"),
        ("<meta charset=euc-kr>", KO, "euc_kr", "euc-kr"),
        ("<META CHARSET='windows-1251'>", RU, "cp1251", "windows-1251"),
        ('<meta charset = "gb2312" />', ZH_HANS, "gb2312", "gb18030"),
        ("<meta charset=big5/>", ZH_HANT, "big5", "big5"),
        ('<meta charset="iso-8859-2">', PL, "iso8859_2", "iso-8859-2"),
    ],
)
def test_meta_charset(meta: str, text: str, codec: str, expected: str) -> None:
    got = decode(page(text, head=meta).encode(codec))
    assert text in got.text
    assert got.encoding == expected


@pytest.mark.parametrize(
    ("meta", "text", "codec", "expected"),
    [
        (
            '<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">',
            JA,
            "euc_jp",
            "euc-jp",
        ),
        (
            # Attribute order reversed, upper case, no space after the semicolon.
            '<META CONTENT="text/html;charset=windows-1250" HTTP-EQUIV="Content-Type">',
            CS,
            "cp1250",
            "windows-1250",
        ),
        (
            # Single-quoted attribute with a double-quoted charset inside.
            "<meta http-equiv='content-type' content='text/html; charset=\"koi8-r\"'>",
            RU,
            "koi8_r",
            "koi8-r",
        ),
        (
            "<meta http-equiv=Content-Type content=text/html;charset=x-sjis>",
            JA,
            "cp932",
            "shift_jis",
        ),
    ],
)
def test_meta_http_equiv(meta: str, text: str, codec: str, expected: str) -> None:
    got = decode(page(text, head=meta).encode(codec))
    assert text in got.text
    assert got.encoding == expected


def test_meta_description_mentioning_charset_is_not_a_declaration() -> None:
    head = (
        '<meta name="description" content="How to set charset=koi8-r on old servers">\n'
        '<meta charset="windows-1251">'
    )
    got = decode(page(RU, head=head).encode("cp1251"))
    assert RU in got.text
    assert got.encoding == "windows-1251"


def test_commented_out_meta_is_ignored() -> None:
    head = '<!-- old template: <meta charset="koi8-r"> -->\n<meta charset="windows-1251">'
    got = decode(page(RU, head=head).encode("cp1251"))
    assert RU in got.text
    assert got.encoding == "windows-1251"


def test_first_meta_with_a_known_label_wins() -> None:
    head = '<meta charset="no-such-charset">\n<meta charset="EUC-KR">'
    got = decode(page(KO, head=head).encode("euc_kr"))
    assert KO in got.text
    assert got.encoding == "euc-kr"


def test_meta_utf16_in_an_ascii_document_means_utf8() -> None:
    # WHATWG: a meta tag readable as ASCII cannot be in UTF-16, so the page is UTF-8.
    got = decode(page(JA, head='<meta charset="utf-16">').encode("utf-8"))
    assert JA in got.text
    assert got.encoding == "utf-8"


def test_header_beats_meta() -> None:
    data = page(RU, head='<meta charset="koi8-r">').encode("cp1251")
    got = decode(data, content_type="text/html; charset=windows-1251")
    assert RU in got.text
    assert got.encoding == "windows-1251"


# --- byte order marks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bom", "codec", "expected"),
    [
        (codecs.BOM_UTF8, "utf-8", "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16le"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16be"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32le"),
        (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32be"),
    ],
)
def test_bom(bom: bytes, codec: str, expected: str) -> None:
    html = page(JA + RU)
    got = decode(bom + html.encode(codec))
    assert got.text == html  # the BOM itself is not content
    assert got.encoding == expected


def test_bom_beats_header_and_meta() -> None:
    data = codecs.BOM_UTF8 + page(KO, head='<meta charset="euc-kr">').encode("utf-8")
    got = decode(data, content_type="text/html; charset=windows-1252")
    assert KO in got.text
    assert got.encoding == "utf-8"


# --- sniffed (nothing declared) -----------------------------------------------------------


@pytest.mark.parametrize(("text", "codec", "expected"), ENCODED)
def test_undeclared_is_sniffed(text: str, codec: str, expected: str) -> None:
    got = decode(page(text).encode(codec))
    assert text in got.text
    assert got.encoding == expected


def test_undeclared_latin1_reads_as_windows_1252() -> None:
    got = decode(page(DE).encode("latin-1"))
    assert DE in got.text
    # Same text either way; windows-1252 is the name browsers give Latin-1 pages.
    assert got.encoding in {"windows-1252", "iso-8859-15"}


@pytest.mark.parametrize(
    ("codec", "expected"), [("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be")]
)
def test_undeclared_utf16_without_bom(codec: str, expected: str) -> None:
    html = page(JA + RU)
    got = decode(html.encode(codec))
    assert got.text == html
    assert got.encoding == expected


def test_header_utf16_byte_order_comes_from_the_bytes() -> None:
    html = page(ZH_HANS)
    got = decode(html.encode("utf-16-be"), content_type="text/html; charset=UTF-16")
    assert got.text == html
    assert got.encoding == "utf-16be"


def test_undeclared_text_in_attributes_and_scripts_only() -> None:
    # No text node holds non-ASCII: the sniffer has to work from attribute values.
    html = (
        f'<html><head><meta name="description" content="{RU}"></head>'
        f'<body><img alt="{RU}" src="/a.png"></body></html>'
    )
    got = decode(html.encode("cp1251"))
    assert RU in got.text
    assert got.encoding == "windows-1251"


def test_utf8_with_a_few_stray_bytes_stays_utf8() -> None:
    # One mangled byte must not turn a whole Japanese page into mojibake.
    data = page(JA).encode("utf-8").replace("。".encode(), b"\xff", 1)
    got = decode(data)
    assert got.encoding == "utf-8"
    assert JA.split("。")[1] in got.text
    assert "\ufffd" in got.text


def test_truncated_utf8_is_still_utf8() -> None:
    # Inputs are cut at a size limit, possibly in the middle of a character.
    data = page(JA).encode("utf-8")
    cut = data[: data.index("通勤".encode()) + 1]
    got = decode(cut)
    assert got.encoding == "utf-8"
    assert got.text.endswith("毎日電車で")


# --- override -----------------------------------------------------------------------------


def test_override_beats_everything() -> None:
    # Header, meta and BOM all lie; the caller knows the page is KOI8-R.
    data = codecs.BOM_UTF8 + page(RU, head='<meta charset="utf-8">').encode("koi8_r")
    got = decode(data, content_type="text/html; charset=windows-1251", override="koi8-r")
    assert got.encoding == "koi8-r"
    assert RU in got.text


def test_override_is_not_second_guessed() -> None:
    # Valid UTF-8 read as windows-1252 on purpose: the caller gets exactly that.
    got = decode("café".encode(), override="windows-1252")
    assert got == Decoded("cafÃ©", "windows-1252")


def test_unknown_override_is_ignored() -> None:
    data = page(JA).encode("cp932")
    got = decode(data, content_type="text/html; charset=Shift_JIS", override="bogus-42")
    assert JA in got.text
    assert got.encoding == "shift_jis"


# --- label normalisation and decoder choice -----------------------------------------------


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("iso-8859-1", "windows-1252"),
        ("latin1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("US-ASCII", "windows-1252"),
        ("gb2312", "gb18030"),
        ("GBK", "gb18030"),
        ("x-sjis", "shift_jis"),
        ("sjis", "shift_jis"),
        ("shift-jis", "shift_jis"),
        ("ks_c_5601-1987", "euc-kr"),
        ("euc-kr", "euc-kr"),
        ("big5", "big5"),
        (' "UTF8" ', "utf-8"),
        ("Windows_1251", "windows-1251"),
        ("cp1250", "windows-1250"),
        ("latin2", "iso-8859-2"),
        ("koi8", "koi8-r"),
    ],
)
def test_label_normalisation(label: str, expected: str) -> None:
    got = decode(b"<p>plain ASCII</p>", content_type=f"text/html; charset={label}")
    assert got == Decoded("<p>plain ASCII</p>", expected)


@pytest.mark.parametrize("label", ["utf-7", "rot13", "base64", "unicode_escape", "undefined"])
def test_dangerous_or_non_text_labels_are_ignored(label: str) -> None:
    # codecs.lookup() knows these, but no page means them; UTF-7 is an XSS vector.
    data = page(RU).encode("utf-8")
    got = decode(data, content_type=f"text/html; charset={label}", override=label)
    assert RU in got.text
    assert got.encoding == "utf-8"


def test_latin1_label_decodes_windows_1252_punctuation() -> None:
    # Pages labelled ISO-8859-1 are written on Windows: 0x93/0x94 are curly quotes.
    data = "<p>\u201cQuoted\u201d \u2013 caf\u00e9 \u2026</p>".encode("cp1252")
    got = decode(data, content_type="text/html; charset=ISO-8859-1")
    assert got.text == "<p>\u201cQuoted\u201d \u2013 caf\u00e9 \u2026</p>"


def test_windows_1252_undefined_byte_keeps_the_declaration() -> None:
    # 0x81 is undefined in Python's cp1252 but a C1 control for browsers: one such byte
    # must not make decode() distrust the header and re-sniff the page.
    data = page(FR).encode("cp1252").replace(b"<footer>", b"<footer>\x81", 1)
    got = decode(data, content_type="text/html; charset=windows-1252")
    assert got.encoding == "windows-1252"
    assert FR in got.text
    assert "\ufffd" not in got.text


def test_shift_jis_label_decodes_cp932_extensions() -> None:
    # Circled digits and the NEC/IBM kanji exist only in Microsoft's Shift_JIS (cp932).
    text = "手順①から③まで。髙橋さんと﨑田さんが担当します。"
    data = page(text).encode("cp932")
    got = decode(data, content_type="text/html; charset=Shift_JIS")
    assert text in got.text
    assert got.encoding == "shift_jis"


def test_euc_jp_label_decodes_nec_row_13() -> None:
    text = "会議は①本館と②別館で行います。"
    data = page(text).encode("euc_jis_2004")
    got = decode(data, content_type="text/html; charset=EUC-JP")
    assert text in got.text
    assert got.encoding == "euc-jp"


def test_euc_kr_label_decodes_unified_hangul() -> None:
    # "똠" is not in KS X 1001 (strict EUC-KR); Korean pages get it through cp949.
    text = "똠방각하와 샾 그리고 뷁은 확장 완성형 글자입니다."
    data = page(text).encode("cp949")
    got = decode(data, content_type="text/html; charset=EUC-KR")
    assert text in got.text
    assert got.encoding == "euc-kr"


def test_gb2312_label_decodes_gb18030_characters() -> None:
    # "€" and "𠀀" are outside GB2312; pages labelled gb2312 contain them anyway.
    text = "价格：100€，罕见字：𠀀。北京欢迎你。"
    data = page(text).encode("gb18030")
    got = decode(data, content_type="text/html; charset=gb2312")
    assert text in got.text
    assert got.encoding == "gb18030"


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("香港的茶餐廳好好食，呢度嘅奶茶最出名。", "big5hkscs"),  # HKSCS Cantonese
        ("這本書的價格是€25，歡迎選購。", "cp950"),  # Microsoft-only euro sign
    ],
)
def test_big5_label_decodes_hkscs_and_cp950(text: str, codec: str) -> None:
    data = page(text).encode(codec)
    got = decode(data, content_type="text/html; charset=Big5")
    assert text in got.text
    assert got.encoding == "big5"


@pytest.mark.parametrize(("text", "codec", "expected"), ENCODED)
def test_reported_encoding_can_be_passed_back_as_override(
    text: str, codec: str, expected: str
) -> None:
    # A caller that stores the reported name and re-decodes later gets the same text.
    data = page(text).encode(codec)
    assert decode(data, override=expected) == decode(data)


# --- wrong declarations ----------------------------------------------------------------


def test_header_utf8_over_windows_1251_bytes_is_sniffed() -> None:
    got = decode(page(RU).encode("cp1251"), content_type="text/html; charset=utf-8")
    assert RU in got.text
    assert got.encoding == "windows-1251"


def test_header_wrong_meta_right() -> None:
    data = page(RU, head='<meta charset="windows-1251">').encode("cp1251")
    got = decode(data, content_type="text/html; charset=UTF-8")
    assert RU in got.text
    assert got.encoding == "windows-1251"


@pytest.mark.parametrize("label", ["iso-8859-1", "windows-1251", "Shift_JIS", "EUC-KR"])
def test_legacy_declaration_over_utf8_bytes_reads_utf8(label: str) -> None:
    # Old templates keep their charset line after the site moved to UTF-8.
    data = page(JA + RU, head=f'<meta charset="{label}">').encode("utf-8")
    got = decode(data)
    assert JA + RU in got.text
    assert got.encoding == "utf-8"


def test_iso_2022_jp_mislabelled_as_ascii_compatible() -> None:
    data = page(JA, head='<meta charset="Shift_JIS">').encode("iso2022_jp")
    got = decode(data)
    assert JA in got.text
    assert got.encoding == "iso-2022-jp"


def test_header_utf16_over_ascii_bytes_is_ignored() -> None:
    # UTF-16 markup would be full of zero bytes; a page without any is not UTF-16.
    got = decode(page(DE).encode("utf-8"), content_type="text/html; charset=utf-16")
    assert DE in got.text
    assert got.encoding == "utf-8"


def test_declared_utf8_with_a_few_bad_bytes_keeps_utf8() -> None:
    data = page(KO).encode("utf-8").replace(b"</footer>", b"\xe9</footer>", 1)
    got = decode(data, content_type="text/html; charset=utf-8")
    assert KO in got.text
    assert got.encoding == "utf-8"


# --- odd inputs -------------------------------------------------------------------------


def test_empty() -> None:
    assert decode(b"") == Decoded("", "utf-8")
    assert decode(b"", content_type="text/html; charset=Shift_JIS").text == ""


def test_nul_characters_are_removed() -> None:
    got = decode(b"<p>ab\x00c</p>\x00")
    assert got.text == "<p>abc</p>"
    got = decode(page("a\x00b" + JA).encode("utf-16-le"))
    assert "ab" + JA in got.text
    assert "\x00" not in got.text


def test_bytes_like_inputs() -> None:
    data = page(KO).encode("euc_kr")
    assert decode(bytearray(data)) == decode(data)
    assert decode(memoryview(data)) == decode(data)  # type: ignore[arg-type]


def test_random_binary_does_not_raise() -> None:
    rng = random.Random(1234)
    for size in (1, 2, 3, 4, 7, 100, 4096, 70_000):
        data = rng.randbytes(size)
        for kwargs in ({}, {"content_type": "text/html; charset=utf-8"}, {"override": "big5"}):
            got = decode(data, **kwargs)
            assert isinstance(got.text, str)
            assert "\x00" not in got.text
            assert len(got.text) <= size  # at most one character per byte


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.binary(max_size=2048),
    label=st.sampled_from(
        [None, "utf-8", "utf-16", "shift_jis", "iso-2022-jp", "big5", "koi8-r", "bogus"]
    ),
    meta=st.booleans(),
)
def test_never_raises(data: bytes, label: str | None, meta: bool) -> None:
    if meta:
        data = b'<meta charset="euc-jp">' + data
    content_type = f"text/html; charset={label}" if label else None
    got = decode(data, content_type=content_type)
    assert isinstance(got.text, str)
    assert "\x00" not in got.text
    # Whatever was picked is a name decode() itself accepts.
    assert decode(data, override=got.encoding).encoding == got.encoding


# --- big inputs -------------------------------------------------------------------------

MiB = 1024 * 1024


def _big(text: str, codec: str, size: int = 4 * MiB) -> bytes:
    chunk = page(text).encode(codec)
    return (chunk * (size // len(chunk) + 1))[:size]


def test_4mib_utf8_page() -> None:
    data = _big(JA + RU, "utf-8")
    got = decode(data)
    assert got.encoding == "utf-8"
    assert got.text.count(JA + RU) >= 4 * MiB // len(page(JA + RU).encode()) - 1


def test_4mib_undeclared_legacy_page() -> None:
    data = _big(RU, "cp1251")
    got = decode(data)
    assert got.encoding == "windows-1251"
    assert len(got.text) == len(data)  # single-byte: one character per byte
    assert got.text.count(RU) >= 4 * MiB // len(page(RU)) - 1


def test_4mib_declared_shift_jis_page() -> None:
    data = _big(JA, "cp932")
    got = decode(data, content_type="text/html; charset=Shift_JIS")
    assert got.encoding == "shift_jis"
    assert JA in got.text
    assert "\ufffd" not in got.text  # a character cut at the end is dropped, not mangled


def test_4mib_binary() -> None:
    data = random.Random(7).randbytes(4 * MiB)
    got = decode(data)
    assert isinstance(got.text, str)
    assert "\x00" not in got.text


# --------------------------------------------------------------------------- UTF-8 bytes


def test_valid_utf8_input_serves_as_the_texts_utf8() -> None:
    data = "<p>Grüße, 世界 😀</p>".encode()
    decoded = decode(data)
    assert decoded.utf8 is data and decoded.text.encode("utf-8") == data
    # Pure ASCII under another ASCII-compatible declaration reads the same.
    ascii_page = b'<meta charset="iso-8859-1"><p>plain</p>'
    assert decode(ascii_page).utf8 is ascii_page


@pytest.mark.parametrize(
    "data",
    [
        "<p>Grüße</p>".encode()[:-5] + "ü".encode()[:1],  # cut inside a character
        b"<p>a\x00b</p>",  # the NUL is removed from the text
        codecs.BOM_UTF8 + b"<p>bom</p>",  # the BOM is not text
        "<p>Grüße</p>".encode("windows-1252"),  # not UTF-8
        "<p>Grüße</p>".encode("utf-16"),
    ],
)
def test_input_that_is_not_the_texts_utf8_is_not_passed_on(data: bytes) -> None:
    decoded = decode(data)
    assert decoded.utf8 is None or decoded.utf8 == decoded.text.encode("utf-8")
    assert decoded.utf8 is None


@given(st.binary(max_size=64) | st.text(max_size=32).map(str.encode))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_passed_on_bytes_are_always_the_texts_utf8(data: bytes) -> None:
    decoded = decode(data)
    if decoded.utf8 is not None:
        assert decoded.utf8 == decoded.text.encode("utf-8")


def test_the_text_of_utf8_input_is_made_when_first_read() -> None:
    data = ("<p>Grüße, 世界</p>" * 100).encode()
    decoded = decode(data)
    assert decoded._text is None  # nothing decoded yet
    assert decoded.head(5) == "<p>Gr"
    assert decoded._text is None
    assert decoded.text == data.decode("utf-8") and decoded._text is not None
    assert decoded == Decoded(data.decode("utf-8"), "utf-8")
    # A head cut inside a character drops it rather than failing.
    assert decode("€€€€".encode()).head(3) == "€€€"
    with pytest.raises(ValueError):
        Decoded(None, "utf-8")
