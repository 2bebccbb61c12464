import numpy as np

STOPWORDS: frozenset[str]
STATS_SAMPLE_CHARS: int
WORD_PUNCT: str
SHARE_PUNCT: str
SENTENCE_ENDS: str
CJK_RANGES: tuple[tuple[int, int], ...]
TEXT_STATS: tuple[str, ...]

def ends_sentence(text: str) -> bool: ...
def words(text: str) -> list[str]: ...
def text_stats(texts: list[str], title: str) -> np.ndarray: ...
