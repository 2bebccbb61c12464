from array import array

from unchrome.pipeline.score import Aggregate
from unchrome.pipeline.segmentation import Block
from unchrome.pipeline.select import Selection

BLOCK_FEATURES: tuple[str, ...]
NEIGHBOUR_FEATURES: tuple[str, ...]

class Layout:
    width: int
    group: array
    local: array
    mask_first: int
    mask_count: int
    mask_size: int
    words_first: int
    page_width: int
    mask_tested: array
    says_row: array
    under_row: array
    index: dict[str, int]
    kind_ids: dict[str, int]
    heading: bytearray
    page: bool
    neighbours: bool
    words: bool
    text: bool
    log_words: bool
    shapes: bool
    repeats: bool
    path_best: bool
    elements: bool
    scores: bool
    def __init__(
        self,
        columns: array | None,
        widths: tuple[int, int, int, int, int, int, int],
        kind_ids: dict[str, int],
        headings: frozenset[str] | set[str] | tuple[str, ...],
        text_index: dict[str, int],
        in_link: int,
        row: int,
    ) -> None: ...

def assemble(
    layout: Layout,
    blocks: list[Block],
    rows: list[int] | None,
    agg: Aggregate,
    sel: Selection,
    title: str,
    page_row: list[float] | None,
) -> array: ...
