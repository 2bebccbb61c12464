from array import array

from unchrome.pipeline.segmentation import Block

def element_sums(
    blocks: list[Block], elements: int, card_flag: int
) -> tuple[array, array, array, array, array, array, array]: ...
def paragraph_points(
    blocks: list[Block],
    parents: list[int],
    tags: list[str],
    kinds: frozenset[str],
    min_chars: int,
    dividers: tuple[float, ...],
    tag_scores: dict[str, float],
) -> tuple[array, bytearray]: ...
def density(
    chars: array,
    p_chars: array,
    a_chars: array,
    p_base: float,
    p_weight: float,
    link_penalty: float,
) -> array: ...
