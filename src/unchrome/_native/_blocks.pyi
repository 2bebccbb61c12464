import numpy as np

from unchrome.pipeline.segmentation import Block

def element_sums(
    blocks: list[Block], elements: int, card_flag: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
def paragraph_points(
    blocks: list[Block],
    parents: list[int],
    tags: list[str],
    kinds: frozenset[str],
    min_chars: int,
    dividers: tuple[float, ...],
    tag_scores: dict[str, float],
) -> tuple[np.ndarray, np.ndarray]: ...
