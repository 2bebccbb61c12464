"""The extraction pipeline, one module per stage, in the order ``extractor`` (the
orchestrator) runs them: sniff (the input's size and format) → decode → parse →
metadata (``unchrome.metadata``, read before pruning) → prune → segment
(``segmentation``: the blocks it makes) → score → select (with the block model,
``unchrome.model``; ``kinds`` says when the comments are the content) → fallbacks →
classify → render (``markdown``: the Markdown made from the rendered HTML). ``feed``
reads RSS and Atom inputs. The compiled walks these stages call are in
``unchrome._native``."""
