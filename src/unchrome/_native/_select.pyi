from array import array

def candidates(tags: list[str], names: frozenset[str], chars: array) -> bytearray: ...
def root_owners(parents: list[int], roots: set[int]) -> array: ...
def owned(root_of: array) -> bytearray: ...
def noise_elements(
    tags: list[str],
    chrome: list[int],
    chars: array,
    a_chars: array,
    card_chars: array,
    root_of: array,
    roots: set[int],
    link_block_tags: frozenset[str],
    drop_tags: frozenset[str],
    *,
    link_list_share: float,
    link_list_max_fraction: float,
    cards_max_share: float,
    named_link_share: float,
    named_max_chars: float,
) -> bytearray: ...
def blocks_inside(
    block_of: array, element_of: array, marked: bytes | bytearray, blocks: int
) -> bytearray: ...
def innermost(tags: list[str], path: tuple[int, ...], names: frozenset[str]) -> int: ...
def children(parents: list[int], parent: int) -> list[int]: ...
