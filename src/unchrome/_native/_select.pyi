import numpy as np

def candidates(tags: list[str], names: frozenset[str]) -> np.ndarray: ...
def root_owners(parents: list[int], roots: set[int]) -> np.ndarray: ...
def noise_elements(
    tags: list[str],
    chrome: list[bool],
    chars: np.ndarray,
    a_chars: np.ndarray,
    card_chars: np.ndarray,
    root_of: np.ndarray,
    roots: set[int],
    link_block_tags: frozenset[str],
    drop_tags: frozenset[str],
    *,
    link_list_share: float,
    link_list_max_fraction: float,
    cards_max_share: float,
    named_link_share: float,
    named_max_chars: float,
) -> np.ndarray: ...
def blocks_inside(
    block_of: np.ndarray, element_of: np.ndarray, marked: np.ndarray, blocks: int
) -> np.ndarray: ...
def innermost(tags: list[str], path: tuple[int, ...], names: frozenset[str]) -> int: ...
def children(parents: list[int], parent: int) -> list[int]: ...
