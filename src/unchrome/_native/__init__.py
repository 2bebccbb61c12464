"""The compiled hot paths (Cython; built by setup.py): the walks over lexbor's DOM
(``_dom``), the raw page's scanners (``_markup``), the density score's sums
(``_blocks``), the block model's text statistics, features and trees (``_blocktext``,
``_features``, ``_trees``) and the selection's loops (``_select``). Each one's Python
signature is in its ``.pyi``."""
