from array import array
from collections.abc import Callable

from unchrome.pipeline.segmentation import Block

STOPWORDS: frozenset[str]
STATS_SAMPLE_CHARS: int
WORD_PUNCT: str
SHARE_PUNCT: str
SENTENCE_ENDS: str
CJK_RANGES: tuple[tuple[int, int], ...]
TEXT_STATS: tuple[str, ...]
SAYS_MAX_CHARS: int
SAYS_MAX_WORDS: int

PROSE_CHARS: int
PROSE_LINK_SHARE: float

def ends_sentence(text: str) -> bool: ...
def is_prose(block: Block) -> bool: ...
def prose_chars(blocks: list[Block]) -> array: ...
def words(text: str) -> list[str]: ...
def text_stats(texts: list[str], title: str) -> array: ...
def word_hits(
    texts: list[str],
    headings: bytes | bytearray,
    index: dict[str, int],
    wanted: bytes | bytearray | None = None,
) -> tuple[list[int], list[int], list[tuple[int, int, list[int]]]]: ...
def mask_bits(
    blocks: list[Block],
    rows: array | None,
    size: int,
    tested: array,
    out: array,
    first_row: int = 0,
) -> None: ...
def word_count(text: str) -> tuple[int, int]: ...
def name_token_bits(
    lowered: str, tokens: dict[str, int], token_bits: Callable[[str], int]
) -> int: ...

class StemIndex:
    def __init__(self, stems: list[str], bits: list[int]) -> None: ...
    def bits(self, token: str) -> int: ...
