"""The learned block model: its features, its trees, the keep/drop policy over the
density selection, and its weights (``blockmodel.npz``, written by
``tools/train_blockmodel.py``)."""
