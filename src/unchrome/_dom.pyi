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
def tagged(root: LexborNode, ids: frozenset[int]) -> list[LexborNode]: ...
def named(root: LexborNode) -> list[tuple[LexborNode, str]]: ...
