"""The tables of rules: what more than one part of unchrome reads, or what is data rather
than code, written once. ``formats``: media types, the schema.org types of an article,
the markers of embedded formats (which the compiled walk's matches are built from);
``phrases``: the phrases of bot walls and dead-page screens."""
