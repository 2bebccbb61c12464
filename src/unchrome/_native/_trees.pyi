import numpy as np

def raw_scores(
    xt: np.ndarray, rows: np.ndarray, borders: np.ndarray, leaves: np.ndarray
) -> np.ndarray: ...
