import numpy as np

from .segment import Block

def block_columns(
    blocks: list[Block], kind_ids: dict[str, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
def element_sums(
    blocks: list[Block], elements: int, card_flag: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
