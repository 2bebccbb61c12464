from array import array

def raw_scores(
    xt: array,
    blocks: int,
    rows: array,
    borders: array,
    leaves: array,
    depth: int,
    scale: float = 1.0,
    bias: float = 0.0,
) -> array: ...
def sigmoid(raw: array) -> array: ...
