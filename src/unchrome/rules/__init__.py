"""The tables of rules: what more than one part of unchrome reads, or what is data rather
than code, written once. ``formats``: media types, the schema.org types of an article,
the markers of embedded formats (which the compiled walk's matches are built from);
``names``: the class and id words of widgets, consent managers, comment sections,
in-story chrome, sidebars and post bodies (prune and segmentation compile their
predicates from them); ``phrases``: the phrases of bot walls and dead-page screens;
``tags``: the tag sets (block elements, headings, cards, media with fallback, what is
never content)."""
