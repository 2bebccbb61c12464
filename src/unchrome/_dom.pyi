from collections.abc import Callable
from typing import Any

from .parse import LexborNode
from .segment import Segmentation, Vocabulary

SELECTOLAX_VERSION: str

def _check_selectolax() -> None: ...
def segment(
    root: LexborNode,
    vocab: Vocabulary = ...,
    *,
    include_tables: bool = True,
    max_depth: int = ...,
    marks: dict[int, int] | None = None,
) -> Segmentation: ...
def bylines(root: LexborNode, limit: int) -> list[LexborNode]: ...
def itemprop(root: LexborNode, word: str) -> LexborNode | None: ...
def prune_census(
    root: LexborNode, ids: frozenset[int], verdicts: dict[str, int] | None = None
) -> tuple[
    list[LexborNode],
    list[LexborNode],
    list[LexborNode],
    list[LexborNode],
    list[LexborNode],
    list[tuple[LexborNode, str]],
]: ...
def attached(items: list[Any]) -> list[Any]: ...
def texts_after(
    node: LexborNode, limit: int, steps: int, ids: frozenset[int], line_chars: int
) -> list[str]: ...
def texts_before(
    node: LexborNode, limit: int, steps: int, ids: frozenset[int], line_chars: int
) -> list[str]: ...
def page_elements(
    root: LexborNode,
) -> tuple[list[LexborNode], list[LexborNode], list[LexborNode]]: ...
def read_meta(
    nodes: list[LexborNode], clean: Callable[[str | None], str | None]
) -> tuple[dict[str, str], dict[str, str]]: ...
def read_links(nodes: list[LexborNode]) -> dict[str, str]: ...
def metadata_groups(
    elements: list[LexborNode],
) -> tuple[dict[str, list[LexborNode]], list[LexborNode], list[LexborNode], list[LexborNode]]: ...
def collapse(raw: str) -> str: ...
