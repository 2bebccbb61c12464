"""The WCXB benchmark: exact arithmetic of the metric, the runner's error handling, a smoke run."""

from __future__ import annotations

import gzip
import json
import re
import time
from pathlib import Path

import pytest

from benchmarks import bench

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "wcxb"


def _unchrome_extract_importable() -> bool:
    try:
        from unchrome import extract  # noqa: F401
    except Exception:
        return False
    return True


# --------------------------------------------------------------------------- score_text


def test_identical_texts_score_one() -> None:
    assert bench.score_text("The cat sat.", "the CAT sat") == (1.0, 1.0, 1.0)


def test_partial_overlap_exact_values() -> None:
    # predicted: a b c d (4 tokens), truth: a b e (3 tokens), overlap a b = 2
    f1, precision, recall = bench.score_text("a b c d", "a b e")
    assert precision == pytest.approx(2 / 4)
    assert recall == pytest.approx(2 / 3)
    assert f1 == pytest.approx(2 * (1 / 2) * (2 / 3) / (1 / 2 + 2 / 3))  # 4/7
    assert f1 == pytest.approx(4 / 7)


def test_multiset_overlap_counts_repeats_once_each() -> None:
    # truth has "the" twice, prediction three times: only two of them match
    f1, precision, recall = bench.score_text("the the the end", "the the end")
    assert precision == pytest.approx(3 / 4)
    assert recall == pytest.approx(3 / 3)
    assert f1 == pytest.approx(6 / 7)


def test_no_overlap_scores_zero() -> None:
    assert bench.score_text("alpha beta", "gamma delta") == (0.0, 0.0, 0.0)


def test_both_empty_is_perfect() -> None:
    assert bench.score_text("", "") == (1.0, 1.0, 1.0)
    # "empty" means no \w+ tokens, so punctuation-only texts are empty too
    assert bench.score_text(" — ... ", "\n\n") == (1.0, 1.0, 1.0)


def test_one_side_empty_scores_zero() -> None:
    assert bench.score_text("", "some truth") == (0.0, 0.0, 0.0)
    assert bench.score_text("some output", "") == (0.0, 0.0, 0.0)
    assert bench.score_text("!!!", "some truth") == (0.0, 0.0, 0.0)


def test_tokens_are_word_runs_of_lowercased_text() -> None:
    assert bench.tokenize("Don't STOP—now_ok 3.14 Grüße") == [
        "don",
        "t",
        "stop",
        "now_ok",
        "3",
        "14",
        "grüße",
    ]
    # hyphen and apostrophe split words the same way on both sides, so they still match
    assert bench.score_text("state-of-the-art", "state of the art") == (1.0, 1.0, 1.0)


# --------------------------------------------------------------------------- snippets


def test_snippet_found_normalises_case_and_whitespace() -> None:
    text = "Intro.\n\nThe  Quick\u00a0brown\tfox jumps."
    assert bench.snippet_found("the quick brown FOX", text)
    assert bench.snippet_found("  quick\nbrown ", text)
    assert not bench.snippet_found("quick red fox", text)


def test_snippet_found_is_a_plain_substring_test() -> None:
    assert bench.snippet_found("home", "Homework help")  # by definition, no word boundary
    assert not bench.snippet_found("quick brown", "quickbrown")  # a space must match a space


def _page(truth: str, with_: tuple[str, ...] = (), without: tuple[str, ...] = ()) -> bench.Page:
    return bench.Page(
        file_id="0001",
        page_type="article",
        url=None,
        html_path=Path("unused.html.gz"),
        truth=truth,
        with_snippets=with_,
        without_snippets=without,
    )


def test_evaluate_output_snippet_rates() -> None:
    page = _page(
        "one two three four",
        with_=("one two", "three four", "five six", "seven"),
        without=("Home", "Login"),
    )
    result = bench.evaluate_output(page, "One two three four. Login")
    assert result.with_rate == pytest.approx(2 / 4)
    assert result.without_hit is True
    assert result.without_rate == pytest.approx(1 / 2)
    assert result.precision == pytest.approx(4 / 5)
    assert result.recall == 1.0
    assert result.words == 5


def test_evaluate_output_without_snippets_is_none_not_zero() -> None:
    result = bench.evaluate_output(_page("x y"), "x y")
    assert result.with_rate is None
    assert result.without_hit is None
    assert result.without_rate is None


def test_summarise_averages_rates_only_over_pages_with_snippets() -> None:
    pages = [_page("a", with_=("a",), without=("z",)), _page("b"), _page("c", without=("q",))]
    results = [
        bench.evaluate_output(pages[0], "a z"),  # f1 = 2/3, with 1.0, without hit
        bench.evaluate_output(pages[1], "b"),  # f1 = 1, no snippets
        bench.evaluate_output(pages[2], ""),  # f1 = 0, without not hit
    ]
    summary = bench.summarise("x", results)
    assert summary.pages == 3
    assert summary.f1 == pytest.approx((2 / 3 + 1 + 0) / 3)
    assert summary.with_rate == 1.0
    assert summary.without_pages == pytest.approx(1 / 2)
    assert summary.without_rate == pytest.approx((1 + 0) / 2)


# --------------------------------------------------------------------------- runner


class _NamedFailure(Exception):
    code = "EXTRACT_FAILED"


def _write_dataset(root: Path) -> None:
    """A two-page WCXB-shaped dataset, plus one page whose ground truth lacks main_content."""
    html_dir = root / "dev" / "html"
    truth_dir = root / "dev" / "ground-truth"
    html_dir.mkdir(parents=True)
    truth_dir.mkdir(parents=True)
    pages = {
        "0001": ("article", "<p>hello world</p>", {"main_content": "hello world"}),
        "0002": ("forum", "<p>boom</p>", {"main_content": "a reply", "with": ["a reply", ""]}),
        "0003": ("article", "<p>x</p>", {"with": ["x"]}),
    }
    for file_id, (page_type, html, truth) in pages.items():
        (html_dir / f"{file_id}.html.gz").write_bytes(gzip.compress(html.encode()))
        record = {
            "url": f"https://example.com/{file_id}",
            "_internal": {"page_type": {"primary": page_type}},
            "ground_truth": truth,
        }
        (truth_dir / f"{file_id}.json").write_text(json.dumps(record), encoding="utf-8")


def test_load_pages_filters_and_skips(tmp_path: Path) -> None:
    _write_dataset(tmp_path)
    pages, skipped = bench.load_pages(tmp_path, "dev")
    assert [p.file_id for p in pages] == ["0001", "0002"]
    assert skipped == ["0003"]
    assert pages[1].with_snippets == ("a reply",)  # the empty snippet is dropped
    assert pages[0].read_html() == b"<p>hello world</p>"
    forum, _ = bench.load_pages(tmp_path, "dev", types=["forum"])
    assert [p.file_id for p in forum] == ["0002"]
    first, _ = bench.load_pages(tmp_path, "dev", limit=1)
    assert [p.file_id for p in first] == ["0001"]


def test_named_failure_is_empty_output_and_other_errors_are_crashes(tmp_path: Path) -> None:
    _write_dataset(tmp_path)
    pages, _ = bench.load_pages(tmp_path, "dev")

    def failing(raw: bytes, url: str | None, content_type: str | None) -> str:
        raise _NamedFailure("nothing here")

    def crashing(raw: bytes, url: str | None, content_type: str | None) -> str:
        if b"boom" in raw:
            raise ValueError("bad page")
        return raw.decode()

    systems = [
        bench.System("failing", failing, (_NamedFailure,)),
        bench.System("crashing", crashing, (_NamedFailure,)),
    ]
    results = bench.run_benchmark(pages, systems, progress=None)
    assert [r.error for r in results["failing"]] == ["EXTRACT_FAILED", "EXTRACT_FAILED"]
    assert [r.crash for r in results["failing"]] == [None, None]
    assert [r.f1 for r in results["failing"]] == [0.0, 0.0]
    # the echoed "<p>hello world</p>" has tokens p hello world p against "hello world"
    assert results["crashing"][0].precision == pytest.approx(2 / 4)
    assert results["crashing"][0].f1 == pytest.approx(2 / 3)
    assert results["crashing"][1].crash == "ValueError: bad page"
    summary = bench.summarise("crashing", results["crashing"])
    assert (summary.crashes, summary.failures) == (1, 0)


def test_per_type_table_has_a_row_per_type_and_all(tmp_path: Path) -> None:
    _write_dataset(tmp_path)
    pages, _ = bench.load_pages(tmp_path, "dev")
    system = bench.System("echo", lambda raw, url, content_type: "hello world")
    results = bench.run_benchmark(pages, [system], progress=None)
    headers, rows = bench.per_type_table(pages, results)
    assert headers == ["type", "pages", "echo F1", "P", "R"]
    assert [row[:3] for row in rows] == [
        ["article", "1", "1.000"],
        ["forum", "1", "0.000"],
        ["all", "2", "0.500"],
    ]


def test_resolve_data_dir_prefers_explicit_then_cwd(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "shared" / "data" / "wcxb"
    data.mkdir(parents=True)
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    assert bench.resolve_data_dir() == data.resolve()
    assert bench.resolve_data_dir(str(data)) == data.resolve()
    with pytest.raises(FileNotFoundError):
        bench.resolve_data_dir(tmp_path / "missing")


# --------------------------------------------------------------------------- end to end


needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="WCXB data not present")
needs_unchrome = pytest.mark.skipif(
    not _unchrome_extract_importable(), reason="unchrome.extract not importable yet"
)


@needs_data
@needs_unchrome
def test_main_runs_end_to_end(monkeypatch) -> None:
    monkeypatch.chdir(REPO)  # the default data location is resolved from the cwd first
    assert bench.main(["--limit", "5"]) == 0


@needs_data
@needs_unchrome
def test_main_with_every_report_option(tmp_path: Path, capsys) -> None:
    pytest.importorskip("trafilatura")
    out = tmp_path / "pages.json"
    argv = ["--data", str(DATA), "--limit", "3", "--vs", "trafilatura", "--worst", "2"]
    assert bench.main([*argv, "--markdown", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"^time ratio trafilatura / unchrome: p50 \d+\.\d\d, p99 \d", printed, re.M)
    assert re.search(r"^system .* p50 ms\s+p99 ms\s+mean ms\s+pages/s$", printed, re.M)
    assert "| p50 ms | p99 ms | mean ms | pages/s |" in printed  # the Markdown overall table
    header = (
        "| type | pages | unchrome F1 | unchrome P | unchrome R "
        "| unchrome md F1 | unchrome md P | unchrome md R | trafilatura F1 |"
    )
    assert header in printed
    assert "text and Markdown of one selection" in printed
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert len(payload["pages"]) == 3
    summary = payload["meta"]["summary"][0]
    assert {"median_ms", "mean_ms", "p99_ms", "pages_per_s"} <= set(summary)
    assert {"unchrome", "unchrome md", "trafilatura"} <= set(payload["pages"][0])


# ------------------------------------------------------------------------ timings


def test_p99_interpolates_between_the_two_slowest_pages_never_past_the_slowest() -> None:
    # Ten pages of 1..10 ms: rank 0.99 * 9 = 8.91 lies 91% of the way from 9 to 10 ms.
    # (quantiles' default "exclusive" method would give 10.89, slower than any page.)
    assert bench.p99([float(t) for t in range(10, 0, -1)]) == pytest.approx(9.91)
    assert bench.p99([float(t) for t in range(1, 102)]) == pytest.approx(100.0)
    assert bench.p99([4.0]) == 4.0  # one page: its time
    assert bench.p99([]) == 0.0


def test_summary_times_p50_p99_and_pages_per_second() -> None:
    page = _page("x")
    results = [bench.evaluate_output(page, "x", ms) for ms in (2.0, 4.0, 6.0, 8.0)]
    summary = bench.summarise("s", results)
    assert summary.median_ms == 5.0
    assert summary.p99_ms == pytest.approx(6.0 + 0.97 * 2.0)  # rank 0.99 * 3 = 2.97
    assert summary.pages_per_s == pytest.approx(1000 / 5.0)  # mean 5 ms a page
    row = bench.overall_rows([summary])[0]
    assert row[-4:] == ["5.0", "7.9", "5.0", "200.0"]  # p50, p99, mean ms, pages/s


def test_time_ratio_lines_are_each_other_system_over_unchrome() -> None:
    page = _page("x")

    def summary(name: str, times: tuple[float, ...]) -> bench.Summary:
        return bench.summarise(name, [bench.evaluate_output(page, "x", t) for t in times])

    lines = bench.time_ratios(
        [
            summary("unchrome", (2.0, 2.0, 10.0)),
            summary("unchrome md", (3.0, 3.0, 3.0)),
            summary("trafilatura", (12.0, 12.0, 40.0)),
            summary("resiliparse", (1.0, 1.0, 5.0)),
        ]
    )
    # p99 of (2, 2, 10) is 2 + 0.98 * 8 = 9.84; of (12, 12, 40) 12 + 0.98 * 28 = 39.44.
    assert lines == [
        f"time ratio trafilatura / unchrome: p50 6.00, p99 {39.44 / 9.84:.2f}",
        f"time ratio resiliparse / unchrome: p50 0.50, p99 {4.92 / 9.84:.2f}",
    ]


def test_vs_takes_one_or_more_systems() -> None:
    parser = bench.build_parser()
    assert parser.parse_args(["--vs", "trafilatura"]).vs == ["trafilatura"]
    both = parser.parse_args(["--vs", "trafilatura", "resiliparse", "--limit", "3"])
    assert both.vs == ["trafilatura", "resiliparse"]
    assert both.limit == 3
    assert parser.parse_args([]).vs is None
    assert parser.parse_args(["--vs", "readability"]).vs == ["readability"]
    with pytest.raises(SystemExit):
        parser.parse_args(["--vs", "boilerpipe"])


def test_suite_all_names_every_suite_and_classic_is_one() -> None:
    parser = bench.build_parser()
    assert parser.parse_args(["--suite", "classic"]).suite == "classic"
    assert bench.SUITE_GROUPS["all"] == ("wcxb", "news", "classic", "readability", "fundus")
    with pytest.raises(SystemExit):
        parser.parse_args(["--suite", "cleaneval"])


def test_classic_rows_become_pages_grouped_by_source_with_their_charset(tmp_path: Path) -> None:
    rows = [
        {"id": "d-1", "source": "dragnet", "type": "article", "url": "http://a.example/x",
         "lang": "en", "expected": "Story text"},
        {"id": "z-1", "source": "chinese-hand", "type": "forum", "url": "http://b.example/t",
         "lang": "zh", "charset": "gb2312", "author": "王", "expected": "帖子"},
    ]  # fmt: skip
    (tmp_path / "index.json").write_text(json.dumps(rows), encoding="utf-8")
    pages = bench.load_classic(tmp_path)
    assert [p.page_type for p in pages] == ["dragnet", "chinese-hand forum"]
    assert [p.content_type for p in pages] == [None, "text/html; charset=gb2312"]
    assert pages[1].metadata == {"author": "王"}
    assert all(p.cjk_tokens for p in pages)


def test_readability_system_keeps_the_article_words_apart() -> None:
    pytest.importorskip("readability")
    system = bench.readability_system()
    assert system is not None
    story = "".join(
        f"<p>Paragraph {i} of the story tells of rivers, bridges and the town.</p>"
        for i in range(8)
    )
    page = f"<html><body><nav><a href='/'>Home</a></nav><article>{story}</article></body></html>"
    text = system.extract(page.encode(), None, None)
    assert "Paragraph 0 of the story" in text
    assert "town.\nParagraph 1" in text  # blocks stay apart: "town.Paragraph" would be one word


def test_resiliparse_system_extracts_the_paragraphs() -> None:
    pytest.importorskip("resiliparse")
    system = bench.resiliparse_system()
    assert system is not None and system.name == "resiliparse"
    paragraphs = [
        "The harbour ferry returns on Monday after the winter break, the operator said.",
        "Six crossings a day are planned until the end of March, weather permitting.",
        "Tickets bought for the cancelled December sailings remain valid until summer.",
    ]
    html = (
        "<html><head><title>Ferry</title></head><body>"
        "<nav><ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li></ul></nav>"
        "<main><article><h1>The ferry is back</h1>"
        + "".join(f"<p>{p}</p>" for p in paragraphs)
        + "</article></main></body></html>"
    )
    text = system.extract(html.encode(), "https://news.example/ferry")
    for paragraph in paragraphs:
        assert paragraph in text


def test_repeat_keeps_each_pages_fastest_run_and_its_first_output(tmp_path: Path) -> None:
    _write_dataset(tmp_path)
    pages, _ = bench.load_pages(tmp_path, "dev")
    calls: list[int] = []

    def slow_first(raw: bytes, url: str | None, content_type: str | None) -> str:
        calls.append(1)
        if len(calls) % 3 == 2:  # the first timed run of every page is slow
            time.sleep(0.05)
            return "hello world"
        return "something else"

    system = bench.System("flaky", slow_first)
    results = bench.run_benchmark(pages, [system], progress=None, repeat=3)
    assert len(calls) == 1 + 3 * len(pages)  # one warm-up, then three runs a page
    assert all(r.ms < 50 for r in results["flaky"])  # the slow run is not the time
    assert results["flaky"][0].f1 == 1.0  # the first run's output is the one scored


# ------------------------------------------------------------------------ news set

_NEWS_STORY = (
    "The harbour ferry returns on Monday after the winter break, the operator said, "
    "with six crossings a day until the end of March."
)
_NEWS_ZH = "渡轮周一恢复运营，运营方表示每天六个班次。"


def _write_news(root: Path) -> None:
    """A news-set-shaped directory: index.json and two gzipped pages."""
    (root / "pages").mkdir(parents=True)
    rows = [
        {"id": "spider-1", "source": "news-spiders", "type": "article", "lang": "en",
         "url": "https://news.example/ferry", "label": "site-selector",
         "expected": _NEWS_STORY},
        {"id": "magic-1", "source": "magic-html", "type": "article", "lang": "zh",
         "url": "https://news.example/zh/ferry", "label": "human", "expected": _NEWS_ZH},
    ]  # fmt: skip
    for row in rows:
        body = f"<html><body><article><p>{row['expected']}</p></article></body></html>"
        (root / "pages" / f"{row['id']}.html.gz").write_bytes(gzip.compress(body.encode()))
    (root / "index.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def test_cjk_tokens_count_each_han_character() -> None:
    assert bench.tokenize("渡轮周一 ok", cjk=True) == ["渡", "轮", "周", "一", "ok"]
    assert bench.tokenize("渡轮周一 ok") == ["渡轮周一", "ok"]
    # Half the characters right is half the recall, not zero (a \w+ run would be one
    # token, and any difference in it a miss).
    _, precision, recall = bench.score_text("渡轮周一", "渡轮周一恢复运营", cjk=True)
    assert precision == 1.0 and recall == 0.5


def test_load_news_groups_by_source_and_type(tmp_path: Path) -> None:
    _write_news(tmp_path)
    pages = bench.load_news(tmp_path)
    assert [(p.page_type, p.lang, p.cjk_tokens) for p in pages] == [
        ("news-spiders article", "en", True),
        ("magic-html article", "zh", True),
    ]
    assert _NEWS_STORY.encode() in pages[0].read_html()
    assert len(bench.load_news(tmp_path, limit=1)) == 1


def test_news_suite_prints_groups_and_the_chinese_row(tmp_path: Path, capsys) -> None:
    _write_news(tmp_path)
    assert bench.main(["--suite", "news", "--data", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "news: 2 pages" in printed
    for row in ("news-spiders article", "magic-html article", "Chinese pages", "all"):
        assert re.search(rf"^{row}\s+\d", printed, re.M), row


def test_a_vs_system_not_installed_is_left_out_and_the_rest_runs(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    _write_news(tmp_path)
    echo = bench.System("echo", lambda raw, url: _NEWS_STORY)
    monkeypatch.setitem(bench.OTHER_SYSTEMS, "trafilatura", lambda favor: echo)
    monkeypatch.setitem(bench.OTHER_SYSTEMS, "resiliparse", lambda favor: None)
    argv = ["--suite", "news", "--data", str(tmp_path), "--vs", "trafilatura", "resiliparse"]
    assert bench.main(argv) == 0
    captured = capsys.readouterr()
    assert "bench: resiliparse is not installed; running without it" in captured.err
    assert re.search(r"^echo\s+2\s", captured.out, re.M)
    assert "time ratio echo / unchrome: p50" in captured.out
    assert "resiliparse" not in captured.out


def test_both_suites_refuse_one_data_directory(tmp_path: Path) -> None:
    assert bench.main(["--suite", "both", "--data", str(tmp_path)]) == 2


# ------------------------------------------------------------------------ metadata


def test_metadata_agreement_is_per_field_over_the_pages_that_have_it(tmp_path: Path) -> None:
    assert bench._same_metadata("title", "  Harbour  Ferry ", "harbour ferry")
    assert bench._same_metadata("date", "2025-11-12T08:00:00+01:00", "2025-11-12")
    assert not bench._same_metadata("date", "2025-11-13", "2025-11-12")
    assert not bench._same_metadata("author", None, "Ada")
    pages = [
        bench.Page("1", "article", None, tmp_path / "1.html.gz", "", (), (),
                   metadata={"title": "Ferry", "date": "2025-11-12"}),
        bench.Page("2", "article", None, tmp_path / "2.html.gz", "", (), (),
                   metadata={"title": "Bridge"}),
    ]  # fmt: skip
    for page_ in pages:
        page_.html_path.write_bytes(gzip.compress(b"<p>x</p>"))
    answers = iter([{"title": "Ferry", "date": "2025-11-12"}, {"title": "Tunnel"}])
    table = bench.format_metadata_agreement(pages, {"sys": lambda *_: next(answers)})
    row = next(line for line in table.splitlines() if line.split()[:1] == ["sys"])
    # title contains and is the headline 1 of 2, no author, date 1 of 1
    assert row.split()[1:] == ["0.500", "0.500", "-", "1.000"]
    ceiling = next(line for line in table.splitlines() if line.startswith("page ceiling"))
    assert ceiling.split()[2:] == ["0.000", "0.000", "-", "0.000"]  # "<p>x</p>" holds none


def test_title_contains_the_headline_forgives_the_site_name_around_it() -> None:
    assert bench._same_metadata("contains", "Harbour Ferry - The Courier", "harbour  ferry")
    assert not bench._same_metadata("title", "Harbour Ferry - The Courier", "harbour ferry")
    assert not bench._same_metadata("contains", "Harbour", "Harbour Ferry")


def test_authors_agree_as_the_same_set_of_names() -> None:
    assert bench._same_metadata("author", "Ada Lovelace; Alan  Turing", "alan turing, Ada Lovelace")
    assert bench._same_metadata(
        "author", "Ada Lovelace and Alan Turing", "Ada Lovelace, Alan Turing"
    )
    assert bench._same_metadata("author", "Ana Sandoiu", "By Ana Sandoiu")
    assert not bench._same_metadata("author", "Ada Lovelace", "Ada Lovelace, Alan Turing")
    assert not bench._same_metadata("author", "Ada Lovelace, AP", "Ada Lovelace")


def test_page_ceiling_finds_a_value_in_the_markup_or_its_text() -> None:
    html = (
        "<title>Harbour &amp; Ferry | Courier</title><p>By <b>Ada</b> Lovelace</p>"
        "<p>12 November 2025</p>"
    )
    assert bench.on_page("title", html, "Harbour & Ferry")
    assert bench.on_page("author", html, "Ada Lovelace")
    assert bench.on_page("date", html, "2025-11-12T08:00:00")
    assert not bench.on_page("title", html, "Harbour Bridge")
    assert not bench.on_page("author", html, "Ada Lovelace, Alan Turing")
    assert not bench.on_page("date", html, "2025-11-13")


def test_loco_system_extracts_each_page_with_the_model_trained_without_its_source(
    tmp_path: Path,
) -> None:
    import dataclasses

    from unchrome.model import blockmodel, trees

    # A "model" for one source that is sure of every block, none for the other: the
    # pages of the first source come out with the sidebar that the model adds, the
    # others with the packaged model's choice.
    packaged = blockmodel.load_model()
    assert packaged is not None
    sure = dataclasses.replace(
        packaged,
        trees=trees.ObliviousTrees(
            packaged.trees.feature,
            packaged.trees.border,
            packaged.trees.leaves,
            packaged.trees.depth,
            packaged.trees.bias + 100.0,
            packaged.trees.scale,
        ),
    )
    model_file = tmp_path / "without-alpha.npz"
    _write_model(sure, model_file)
    cards = "".join(
        f"<li><h3>Product {i}</h3><span>Warm wool socks {i}</span></li>" for i in range(12)
    )
    html = (
        "<html><body><div class='side'><h4>Opening hours</h4><span>Monday to Friday</span>"
        f"</div><main><ul>{cards}</ul></main></body></html>"
    ).encode()
    page_file = tmp_path / "page.html"
    page_file.write_bytes(html)
    pages = [
        bench.Page(f"{source}-1", "article", None, page_file, "x", (), (), source=source)
        for source in ("alpha", "beta")
    ]
    system = bench.unchrome_loco_system(tmp_path)
    assert system.per_page is not None
    texts = [system.per_page(page)(html, None, None) for page in pages]
    assert "Opening hours" in texts[0]
    assert "Opening hours" not in texts[1]


def _write_model(model, path: Path) -> None:  # type: ignore[no-untyped-def]
    import json as json_module

    import numpy as np

    trees = model.trees
    meta = {
        "words": model.vocab.words, "stems": model.vocab.stems, "tags": model.vocab.tags,
        "text_words": model.vocab.text_words, "bias": trees.bias, "scale": trees.scale,
        "drop_below": model.drop_below, "drop_structured_below": model.drop_structured_below,
        "add_above": model.add_above, "names": model.names,
    }  # fmt: skip
    shape = (trees.trees, trees.depth)
    np.savez(
        path,
        feature=np.array(trees.feature, dtype=np.int32).reshape(shape),
        border=np.array(trees.border, dtype=np.float32).reshape(shape),
        leaves=np.array(trees.leaves, dtype=np.float32).reshape(trees.trees, 1 << trees.depth),
        meta=np.frombuffer(json_module.dumps(meta).encode(), dtype=np.uint8),
    )


def test_markdown_words_reduce_a_link_whose_title_holds_escaped_quotes() -> None:
    # html-to-markdown writes a title attribute's quotes escaped; a reader sees the
    # anchor text alone.
    markdown = '[Day 1 (in pictures)](http://example.com/day-1 "Link to \\"Day 1\\"")'
    assert bench.markdown_words(markdown) == "Day 1 (in pictures)"


def test_the_profile_accounts_for_every_stage_of_an_extraction() -> None:
    from benchmarks import bench_profile

    class OnePage:
        url = "https://news.example/2024/05/story/"
        content_type = None

        def read_html(self) -> bytes:
            story = "<p>A paragraph of the story, long enough to be read as prose.</p>" * 8
            body = f"<article><h1>Story</h1>{story}</article>"
            return f"<html><head><title>Story</title></head><body>{body}</body></html>".encode()

    import unchrome

    extractor = unchrome.Extractor()
    started = time.perf_counter()
    laps, sizes = bench_profile.profile_pages([OnePage()], extractor)
    elapsed = time.perf_counter() - started
    stages = laps[0]
    for stage in ("parse", "metadata", "prune", "segment", "score", "model", "markdown"):
        assert stages[stage] > 0, stage
    # The stages add up to the page's time, and no more.
    assert sum(stages.values()) <= elapsed
    assert sizes == [len(OnePage().read_html())]
    _headers, rows = bench_profile.format_profile(laps, sizes)
    assert rows[-1][0] == "total" and rows[-1][1] == "100.0%"
