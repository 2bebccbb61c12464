"""Segment: cut the pruned page into text blocks in one walk, and note where each sits.

A block is what a reader sees as one paragraph: the inline text between two block-level
boundaries (a <p>, a heading, a list item, a table row, a <pre>). Each block keeps its
path: the ids of the block-level elements that hold it, outermost first. Every later
stage works from the blocks and their paths with array arithmetic instead of walking
the tree again: the density score of every container (score.aggregate), the winner and
its siblings, the link lists inside it (select), the block model's features
(blockmodel), and all three renderings (render): each block also keeps the nodes its
text came from, so the HTML and the Markdown hold exactly the words of the chosen
blocks. The page is segmented once; the comment sections, the caller's selector and
the short paragraphs are flags on the blocks, not other walks.
"""

from __future__ import annotations

# The walk is compiled (_dom.pyx: it reads lexbor's node structs, not the selectolax
# attributes); what it makes and the tables it reads are in segmentation.
from unchrome._native._dom import segment

__all__ = ["segment"]
