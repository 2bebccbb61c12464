import numpy as np

from unchrome.pipeline.score import Aggregate
from unchrome.pipeline.segmentation import Block
from unchrome.pipeline.select import Selection

BLOCK_FEATURES: tuple[str, ...]
NEIGHBOUR_FEATURES: tuple[str, ...]

class Layout:
    width: int
    group: np.ndarray
    local: np.ndarray
    mask_first: int
    mask_count: int
    mask_size: int
    words_first: int
    page_width: int
    mask_tested: np.ndarray
    says_row: np.ndarray
    under_row: np.ndarray
    index: dict[str, int]
    kind_ids: dict[str, int]
    heading: np.ndarray
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
        columns: np.ndarray | None,
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
    rows: np.ndarray | None,
    agg: Aggregate,
    sel: Selection,
    title: str,
    page_row: list[float] | None,
) -> np.ndarray: ...
