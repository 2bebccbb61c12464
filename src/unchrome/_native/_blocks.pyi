import numpy as np

from unchrome.pipeline.segment import Block

def element_sums(
    blocks: list[Block], elements: int, card_flag: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
