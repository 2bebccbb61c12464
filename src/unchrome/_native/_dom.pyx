# cython: language_level=3
"""The walks over the DOM and the readings of its nodes, compiled: segment.segment's
walk (and a block's text collapsed, ``collapse``), prune's census of what it judges
and what it reads of each (text length, role, id, hidden attributes, the heading an id
names), metadata's search for its elements, its sorting of them and its reading of
<meta> and <link>. They read lexbor's node structs directly instead of through
selectolax's Python attributes.

Through the Python API every node visited costs several attribute reads, each a new
Python object (``node.child``, ``node.next``, ``node.tag_id``, ``node.text_content``,
``node.attrs``). Here a node is a C pointer; a Python object is made only where the
walk keeps one (the element table, the text nodes of a block) or hands the node to a
helper written against the selectolax API (tables, permalinks, elements past the depth
cap). segment took 1.37 ms a page before, 0.95 ms after (mean over 699 pages of both
sets, the same blocks). What is left is mostly the Python objects the pipeline keeps,
and memory: a walk over a whole body's text nodes costs about as much in C as through
selectolax (0.22 against 0.27 ms for a WCXB page), so the text lengths prune reads gain
little from it (see text_length).

The readings of an element's attributes take an element: each checks the node's type.

lexbor's structs are declared from lexbor's own headers (third_party/lexbor: lexbor
3.1.0; Apache-2.0, Copyright Alexander Borisov), so the compiler checks every field read;
selectolax's LexborNode object is declared by its C layout, which Cython checks by size
at import. Both hold for the selectolax versions that bundle lexbor 3.1.0 with that
object layout, 1.0.1 and 1.0.2 (their sources compared): ``_check_selectolax`` refuses
any other at import.
"""

from cpython.unicode cimport Py_UNICODE_ISSPACE, PyUnicode_DecodeASCII, PyUnicode_DecodeUTF8
from libc.stdlib cimport free, malloc
from libc.stdint cimport uint64_t, uintptr_t
from libc.string cimport memcmp, memcpy, strlen

from unchrome._native._utf8 cimport ascii_word, utf8_width

import selectolax
from selectolax.lexbor import LexborHTMLParser

from unchrome.rules.formats import (
    ARC_METADATA_ID,
    DISCOURSE_STORE,
    NEXT_DATA_ID,
    PROFILE_USERNAME,
    TWITTER_CARD,
)
from unchrome.pipeline.segmentation import (
    BR,
    FLAG_IN_LINK,
    FLAG_ROW,
    FLAG_SHORT,
    SHORT_PARAGRAPH_CHARS,
    Block,
    EMPTY_VOCABULARY,
    Segmentation,
    _action,
    _BR,
    _INLINE,
    _is_permalink,
    _PRE,
    _SKIP,
    _TABLE,
    _TEXT,
)
from unchrome.rules.tags import BLOCK_TAGS, CARD_BLOCKS, HEADINGS, LENGTH_FILTERED
from unchrome._native._markup import RAW_TEXT_NAMES

# The selectolax versions whose bundled lexbor is the one third_party/lexbor holds (3.1.0,
# the same sources in both) and whose LexborNode has the layout declared below.
SELECTOLAX_VERSIONS = ("1.0.1", "1.0.2")

# What the walk reads per node, as C variables: a module global is a dict lookup each
# time it is named, and the loop names these for every node of the page.
cdef int TEXT_ACTION = _TEXT, BR_ACTION = _BR, PRE_ACTION = _PRE, TABLE_ACTION = _TABLE
cdef int SKIP_ACTION = _SKIP, INLINE_ACTION = _INLINE
cdef frozenset BLOCK_TAG_SET = BLOCK_TAGS, HEADING_SET = HEADINGS, CARD_SET = CARD_BLOCKS
cdef frozenset LENGTH_FILTERED_SET = LENGTH_FILTERED
cdef str LINE_BREAK = BR
cdef Py_UCS4 LINE_BREAK_CHAR = ord(BR)


def _check_selectolax() -> None:
    if selectolax.__version__ not in SELECTOLAX_VERSIONS:
        raise ImportError(
            f"unchrome's compiled walk reads the DOM of selectolax "
            f"{' or '.join(SELECTOLAX_VERSIONS)}; selectolax {selectolax.__version__} is "
            f"installed (pip install 'selectolax=={SELECTOLAX_VERSIONS[-1]}')"
        )


_check_selectolax()

cdef extern from "Python.h":
    void PyObject_GC_UnTrack(object op)
    int PyUnicode_KIND(object text)
    void *PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index) nogil
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND

# lexbor's structs, declared from lexbor's own headers (third_party/lexbor: lexbor
# 3.1.0, as selectolax 1.0.1 and 1.0.2 bundle it). Only the fields read are named here:
# the C compiler takes their offsets and types from the headers, so a field that moves
# or changes type in another lexbor fails the build instead of being read as garbage.
cdef extern from "lexbor/dom/interfaces/element.h":
    ctypedef struct lexbor_str_t:
        unsigned char *data
        size_t length
    ctypedef struct lxb_dom_document_t
    ctypedef enum lxb_dom_node_type_t:
        LXB_DOM_NODE_TYPE_ELEMENT
        LXB_DOM_NODE_TYPE_TEXT
    ctypedef struct lxb_dom_node_t:
        uintptr_t local_name
        uintptr_t prefix
        lxb_dom_document_t *owner_document
        lxb_dom_node_t *next
        lxb_dom_node_t *prev
        lxb_dom_node_t *parent
        lxb_dom_node_t *first_child
        lxb_dom_node_t *last_child
        lxb_dom_node_type_t type
    ctypedef struct lxb_dom_attr_t:
        lxb_dom_node_t node  # node.local_name: the lowered name's id
        lexbor_str_t *value
        lxb_dom_attr_t *next
    ctypedef struct lxb_dom_element_t:
        lxb_dom_attr_t *first_attr
        lxb_dom_attr_t *attr_id
        lxb_dom_attr_t *attr_class

cdef extern from "lexbor/dom/interfaces/character_data.h":
    ctypedef struct lxb_dom_character_data_t:
        lexbor_str_t data

cdef extern from "lexbor/dom/interfaces/document.h":
    ctypedef struct lxb_dom_document_t:
        int compat_mode  # lxb_dom_document_cmode_t: 1 for quirks

cdef extern from "lexbor/core/hash.h":
    # Where an attribute id that is not one of lexbor's static ones points: the name,
    # lowered, inline up to LEXBOR_HASH_SHORT_SIZE bytes.
    enum: LEXBOR_HASH_SHORT_SIZE
    ctypedef union lexbor_hash_name:  # the entry's anonymous union, never named in C
        unsigned char *long_str
        unsigned char short_str[1]
    ctypedef struct lexbor_hash_entry_t:
        lexbor_hash_name u
        size_t length

ctypedef lexbor_str_t uc_str_t
ctypedef lxb_dom_document_t uc_document_t
ctypedef lxb_dom_node_t uc_node_t
ctypedef lxb_dom_attr_t uc_attr_t
ctypedef lxb_dom_element_t uc_element_t
ctypedef lxb_dom_character_data_t uc_chardata_t
ctypedef lexbor_hash_entry_t uc_hash_entry_t

cdef extern from *:
    """
    typedef struct {                     /* selectolax.lexbor.LexborNode (1.0.1, 1.0.2) */
        PyObject_HEAD
        void *vtab;
        lxb_dom_node_t *node;
        PyObject *parser;
        int _is_fragment_root;
        int _is_template_content;
    } uc_LexborNodeObject;
    """

cdef extern from *:
    ctypedef class selectolax.lexbor.LexborNode [object uc_LexborNodeObject, check_size error]:
        cdef uc_node_t *node
        cdef object parser
        cdef int _is_fragment_root
        cdef int _is_template_content



cdef inline LexborNode _wrap(uc_node_t *node, object parser):
    """A selectolax node for ``node``, as selectolax's own LexborNode.new makes one, but
    not tracked by Python's cyclic collector. A page's extraction makes one for every
    text node and block element it keeps, and they live as long as its Result:
    tracked, the collector walked them at each of its runs, about 20 ms on the 4 MiB
    page of bench --profile. A node holds only its parser, whose
    one way back to a node (its selector's ``current_node``) is cleared when each css()
    call returns, so no cycle runs through one and none is left for the collector."""
    cdef LexborNode obj = LexborNode.__new__(LexborNode)
    obj.node = node
    obj.parser = parser
    obj._is_fragment_root = 0
    obj._is_template_content = 0
    PyObject_GC_UnTrack(obj)
    return obj


cdef inline object _text(uc_node_t *node):
    """A text node's text, bytes lexbor could not decode replaced (as text_content)."""
    cdef uc_chardata_t *chars = <uc_chardata_t *> node
    if chars.data.data == NULL:
        return ""
    return PyUnicode_DecodeUTF8(<char *> chars.data.data, chars.data.length, "replace")


cdef inline bint _ascii_space(unsigned char c) noexcept:
    """Whether an ASCII character is whitespace to str.strip (and str.isspace)."""
    return c == 0x20 or 0x09 <= c <= 0x0D or 0x1C <= c <= 0x1F


cdef inline bint _blank_only(uc_node_t *node) noexcept:
    """Whether a text node holds only whitespace that str.isspace() calls whitespace
    among the ASCII characters (and at least one): the indentation between tags,
    about half the text nodes, need not be decoded to be left out."""
    cdef uc_chardata_t *chars = <uc_chardata_t *> node
    cdef size_t k
    if chars.data.data == NULL or chars.data.length == 0:
        return False
    for k in range(chars.data.length):
        if not _ascii_space(chars.data.data[k]):
            return False
    return True


cdef inline object _value(uc_attr_t *attr):
    """An attribute's value as attrs.get reads it: None when absent or empty."""
    if attr == NULL or attr.value == NULL or attr.value.data == NULL or attr.value.length == 0:
        return None
    return PyUnicode_DecodeUTF8(<char *> attr.value.data, attr.value.length, "replace")


cdef inline object _class_id(uc_node_t *node):
    """An element's "class id" string (an empty value reading as ""), the key of the
    class/id verdicts of segment and prune; None without either attribute."""
    cdef uc_element_t *element = <uc_element_t *> node
    if element.attr_class == NULL and element.attr_id == NULL:
        return None
    cls = _value(element.attr_class)
    ident = _value(element.attr_id)
    return f"{cls or ''} {ident or ''}"


cpdef str collapse(str raw):
    """A block's buffered text as its text: the whitespace runs of each line (lines end
    at LINE_BREAK) made one space, each line stripped, the lines that keep anything
    joined with newlines, as ``"\\n".join(line for line in (" ".join(part.split())
    for part in raw.split(LINE_BREAK)) if line)`` makes it (whitespace: str.split's).
    In one pass into one buffer: the split and join made a string of every word,
    0.057 ms a page at the median news pages."""
    cdef Py_ssize_t n = len(raw), i, out = 0
    cdef int kind = PyUnicode_KIND(raw)
    cdef void *data = PyUnicode_DATA(raw)
    cdef Py_UCS4 c
    cdef Py_UCS4 *buffer
    cdef bint space = False, line = False, newline = False
    if n == 0:
        return ""
    buffer = <Py_UCS4 *> malloc(n * sizeof(Py_UCS4))
    if buffer == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if c == LINE_BREAK_CHAR:
                newline = newline or line
                line = space = False
            elif Py_UNICODE_ISSPACE(c):
                space = line
            else:
                if newline:
                    buffer[out] = 0x0A
                    out += 1
                elif space:
                    buffer[out] = 0x20
                    out += 1
                newline = space = False
                buffer[out] = c
                out += 1
                line = True
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buffer, out)
    finally:
        free(buffer)


cdef inline Py_ssize_t _stripped_chars(str text) noexcept:
    """len(text.strip()), without the stripped copy."""
    cdef Py_ssize_t start = 0, end = len(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    while start < end and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, start)):
        start += 1
    while end > start and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1)):
        end -= 1
    return end - start


cdef inline object _block_text(uc_node_t *node, bint buffered):
    """The text a text node adds to the block being read, or None: whitespace before
    a block's first words is dropped by flush() anyway (and counts no link
    characters), so it stays out of the empty buffer, sparing the flushes of the
    indentation between block tags; ASCII whitespace is not even decoded."""
    if buffered:
        return _text(node)
    if _blank_only(node):
        return None
    content = _text(node)
    return None if content.isspace() else content


# How many nodes segment() walks between two looks at the deadline: about 1 ms of
# walk on the small-element pages of tools/bench_worst_case.py, and nothing to measure
# on a real page (a counter and a test per node).
cdef Py_ssize_t DEADLINE_EVERY = 4096


def segment(
    LexborNode root,
    vocab=EMPTY_VOCABULARY,
    *,
    bint include_tables=True,
    Py_ssize_t max_depth=1 << 30,
    marks=None,
    deadline=None,
):
    """The blocks under ``root`` in document order, with their element table.

    The walk keeps an explicit stack and is the depth guard of the pipeline: an element
    at ``max_depth`` is read as plain text, one block node. ``marks`` maps element
    ``mem_id``s to FLAG_* bits that every block inside the element carries (comment
    sections, the caller's selector). ``deadline.check("segment")`` (the extractor's
    processing deadline) is called every DEADLINE_EVERY nodes: on a 4 MiB page of
    small elements the walk is the longest stage (0.4-0.9 s), and Config.timeout
    must hold inside it.
    """
    seg = Segmentation()
    cdef list blocks = seg.blocks
    cdef list nodes = seg.nodes
    cdef list tags = seg.tags
    cdef list parents = seg.parents
    cdef list named = seg.named
    cdef list class_ids = seg.class_ids
    cdef dict tag_bits = vocab.tag_bits
    names_of = vocab.names
    # Vocabulary.names caches its verdicts by the "class id" string; a page repeats its
    # class strings, so the cache is looked up here and the method called on a miss.
    cdef dict verdicts = vocab._cache
    parser = root.parser
    cdef list buf = []
    cdef list buf_nodes = []
    cdef dict marked = marks or {}
    cdef bint has_marks = bool(marked)
    sticky = 0

    # Per open element: (node address, kind, owner, near, far, flags, in_a, parent_own,
    # path length)
    cdef list stack = []
    cdef list path = []
    kind = "div"
    cdef Py_ssize_t owner = -1
    near = 0
    far = 0
    parent_own = 0
    flags = 0
    cdef Py_ssize_t in_a = 0
    cdef Py_ssize_t link_chars = 0
    cdef dict tag_actions = {}
    cdef uc_node_t *start = root.node
    cdef uc_node_t *node = start
    cdef uc_node_t *child
    cdef int action
    cdef bint entered, is_block
    cdef Py_ssize_t element, depth
    cdef Py_ssize_t visits = 0
    cdef LexborNode wrapped

    def flush():
        # The buffered text becomes a block.
        nonlocal link_chars, sticky
        raw = "".join(buf)
        buf.clear()
        sources = tuple(buf_nodes)
        buf_nodes.clear()
        chars = link_chars
        link_chars = 0
        block_flags = flags | sticky
        sticky = 0
        text = collapse(raw)
        if not text:
            return
        if kind in LENGTH_FILTERED_SET and len(text) < SHORT_PARAGRAPH_CHARS:
            block_flags |= FLAG_SHORT
        block_path = tuple(path)
        block = Block(kind, text, owner, chars, near, far, block_flags, block_path, sources)
        # Not tracked either (see _wrap): a block holds text, numbers and nodes, and so
        # do its two tuples.
        PyObject_GC_UnTrack(block)
        PyObject_GC_UnTrack(block_path)
        PyObject_GC_UnTrack(sources)
        blocks.append(block)

    def open_element(LexborNode opened, tag, parent):
        # Register a block element; return (its id, its own mask).
        mask = tag_bits.get(tag, 0)
        said = 0  # segmentation.NAMED_NOTHING
        names = _class_id(opened.node)
        if names is not None:
            verdict = verdicts.get(names)
            if verdict is None:
                verdict = names_of(names)
            words, said = verdict
            mask |= words
        nodes.append(opened)
        tags.append(tag)
        parents.append(parent)
        named.append(said)
        class_ids.append(names)
        return len(nodes) - 1, mask

    # The walk starts at the root itself (a caller's selector may match a <table> or a
    # <pre>) and never leaves it. Tag names and what the walk does with them
    # (segmentation._action) are kept by lexbor tag id (the node's local_name), filled as
    # the walk meets them: within one document an id names one tag.
    while node != NULL:
        visits += 1
        if deadline is not None and visits % DEADLINE_EVERY == 0:
            deadline.check("segment")
        known = tag_actions.get(node.local_name)
        if known is None:
            name = _wrap(node, parser).tag or ""
            known = tag_actions[node.local_name] = (name, _action(name))
        tag, action = known
        entered = False
        if action == TEXT_ACTION:
            content = _block_text(node, bool(buf))
            if content is not None:
                buf.append(content)
                buf_nodes.append(_wrap(node, parser))
                if in_a:
                    link_chars += _stripped_chars(content)
        elif action == BR_ACTION:
            buf.append(LINE_BREAK)
        elif action == PRE_ACTION or (
            action == TABLE_ACTION and _is_data_table(node)
        ):
            if buf:
                flush()
            wrapped = _wrap(node, parser)
            element, own = open_element(wrapped, tag, path[-1] if path else -1)
            block_near = own | parent_own
            block_far = far | own
            block_path = (*path, element)
            block_flags = flags | (marked.get(<size_t> node, 0) if has_marks else 0)
            if tag == "pre":
                text = wrapped.text(deep=True).strip("\n")
                if text.strip():
                    blocks.append(
                        Block(
                            "pre",
                            text,
                            element,
                            0,
                            block_near,
                            block_far,
                            block_flags,
                            block_path,
                            (wrapped,),
                        )
                    )
            elif include_tables:
                for row, row_links, row_node in _table_rows(node, parser, deadline):
                    blocks.append(
                        Block(
                            "table",
                            row,
                            element,
                            row_links,
                            block_near,
                            block_far,
                            block_flags | FLAG_ROW,
                            block_path,
                            (row_node,),
                        )
                    )
        elif action == SKIP_ACTION:
            if buf and tag == "img":
                # A picture between two runs of text stands between their words (an
                # icon before each label of a size picker): it parts them, as a
                # reader sees it and as the Markdown writes it.
                buf.append(" ")
        else:
            is_block = action != INLINE_ACTION
            if is_block and buf:
                flush()
            child = node.first_child
            mark = marked.get(<size_t> node, 0) if has_marks else 0
            if child != NULL and len(stack) + 2 >= max_depth:
                # Too deep to walk: its text joins the current block as it is (lexbor
                # reads it without recursion), and the renderings take it whole.
                wrapped = _wrap(node, parser)
                buf.append(wrapped.text(deep=True, separator=" "))
                buf_nodes.append(wrapped)
                if mark:
                    sticky |= mark
            elif child == NULL or (
                (tag == "a" or tag == "span")
                and kind in HEADING_SET
                and _is_permalink(_wrap(node, parser))
            ):
                pass
            elif not is_block and child.type == LXB_DOM_NODE_TYPE_TEXT and child.next == NULL:
                # An inline element around one text node (a link, <b>, <span>): what the
                # walk would do inside it and on leaving it, done here, without the push,
                # the visit of the text node and the pop. Nothing is flushed inside an
                # inline element, so of its state (in_a, far) only the link characters
                # of the text count.
                content = _block_text(child, bool(buf))
                if content is not None:
                    buf.append(content)
                    buf_nodes.append(_wrap(child, parser))
                    if in_a or tag == "a":
                        link_chars += _stripped_chars(content)
                if mark:
                    sticky |= mark
            else:
                stack.append(
                    (<size_t> node, kind, owner, near, far, flags, in_a, parent_own, len(path))
                )
                if tag == "a":
                    in_a += 1
                if mark:
                    flags |= mark
                    if not is_block:
                        sticky |= mark
                if is_block:
                    element, own = open_element(
                        _wrap(node, parser), tag, path[-1] if path else -1
                    )
                    path.append(element)
                    kind = tag
                    owner = element
                    near = own | parent_own
                    far |= own
                    parent_own = own
                    if in_a and tag in CARD_SET:
                        flags |= FLAG_IN_LINK
                else:
                    far |= tag_bits.get(tag, 0)
                node = child
                entered = True
        if entered:
            continue
        while node != NULL:
            if node == start:
                node = NULL
                break
            if node.next != NULL:
                node = node.next
                break
            if not stack:
                node = NULL
                break
            outer = stack.pop()
            node = <uc_node_t *> <size_t> outer[0]
            if buf and (kind != outer[1] or tag_actions[node.local_name][0] in BLOCK_TAG_SET):
                flush()
            kind, owner, near, far, flags, in_a, parent_own, depth = outer[1:]
            del path[depth:]
    if buf:
        flush()
    return seg


def write_html(LexborNode root, writer, blank):
    """The walk of render's HTML writer (``render._Writer``) from ``root``, its text
    nodes written here and its elements by ``writer._visit`` and ``writer._close``;
    the HTML written, joined.

    A text node of a kept block (or inside an element read whole, the innermost open
    element's ``unit``) is written escaped as ``html.escape(value, quote=False)`` does,
    and counted in ``writer.kept`` unless ``blank(value)``; whitespace is written as it
    is; other text (a dropped block's) only counted in ``writer.dropped``. Comments and
    the like write nothing. Walked through selectolax's attributes, each step to a
    child, a sibling or a parent made a node object, and each text node cost a method
    call: the HTML (and with it the Markdown) of the median WCXB page took 1.8 ms in
    Python."""
    cdef uc_node_t *node = root.node
    cdef list out = writer.out
    cdef set kept_ids = writer.kept_ids
    cdef list stack = []
    cdef bint pushed, descend
    visit = writer._visit
    close = writer._close
    parser = root.parser
    while True:
        pushed = descend = False
        if node.type == LXB_DOM_NODE_TYPE_TEXT:
            value = _text(node)
            if (stack and stack[len(stack) - 1].unit) or (<size_t> node) in kept_ids:
                out.append(value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
                if not blank(value):
                    writer.kept += 1
            elif value.isspace():
                out.append(value)
            else:
                # A dropped block's text, or text no block holds (a table left out by
                # include_tables=False).
                writer.dropped += 1
        elif node.type == LXB_DOM_NODE_TYPE_ELEMENT:
            pushed, descend = visit(_wrap(node, parser), stack)
        if descend and node.first_child != NULL:
            node = node.first_child
            continue
        if pushed:
            close(stack.pop(), stack)
        # Close the finished elements until one has a next sibling; the root's siblings
        # are never reached: the stack is empty there.
        while True:
            if not stack:
                return "".join(out)
            if node.next != NULL:
                node = node.next
                break
            node = node.parent
            close(stack.pop(), stack)


cdef inline uc_node_t *_next_in_order(uc_node_t *node, uc_node_t *start) noexcept:
    """The node after ``node`` in document order, within ``start``'s subtree (NULL at
    its end)."""
    if node.first_child != NULL:
        return node.first_child
    while node != start:
        if node.next != NULL:
            return node.next
        node = node.parent
    return NULL


# ------------------------------------------------------- metadata's and prune's walks
#
# metadata read its elements with two lexbor selector lists, one of 12 selectors (the
# head's tags, JSON-LD, dated elements) and one of 6 (bylines). lexbor tests every
# element against every selector of a list; the list of 12 took 0.28 ms a page (mean
# over 699 pages of both sets), the byline search 0.14 ms on the pages that need it.
# The walks below test the same conditions in one pass and return each element once
# (the selector list returned an element once per selector it matched).

# lexbor's tag ids (static for the HTML tags) of the tags the walks name.
cdef uintptr_t META_TAG, TITLE_TAG, H1_TAG, H2_TAG, LINK_TAG, SCRIPT_TAG, BASE_TAG
cdef uintptr_t TIME_TAG, HEAD_TAG, FORM_TAG, BODY_TAG, NOSCRIPT_TAG
cdef uintptr_t PRE_TAG, CODE_TAG, HTML_TAG, ARTICLE_TAG, MAIN_TAG, A_TAG
cdef uintptr_t H3_TAG, H4_TAG, H5_TAG, H6_TAG, TEXT_TAG
_probe = LexborHTMLParser("<p>text</p>")
(
    META_TAG, TITLE_TAG, H1_TAG, H2_TAG, LINK_TAG, SCRIPT_TAG, BASE_TAG, TIME_TAG, HEAD_TAG,
    FORM_TAG, BODY_TAG, NOSCRIPT_TAG, PRE_TAG, CODE_TAG, HTML_TAG, ARTICLE_TAG, MAIN_TAG, A_TAG,
    H3_TAG, H4_TAG, H5_TAG, H6_TAG,
) = [
    _probe.create_node(name).tag_id
    for name in (
        "meta", "title", "h1", "h2", "link", "script", "base", "time", "head", "form", "body",
        "noscript", "pre", "code", "html", "article", "main", "a", "h3", "h4", "h5", "h6",
    )
]
TEXT_TAG = _probe.css_first("p").child.tag_id  # lexbor's id for "-text"


# ------------------------------------------------------------------- parse's check

cdef frozenset RAW_TEXT_TAG_IDS = frozenset(
    _probe.create_node(name).tag_id for name in RAW_TEXT_NAMES
)


def swallowed_by_noscript(LexborNode root) -> bool:
    """Whether a raw-text element (RAW_TEXT_NAMES) inside a <noscript> under ``root``
    holds the noscript's end tag (its text contains "</noscript"; see
    parse._swallowed_by_noscript). Nested noscripts are read with their outermost.
    A walk of the tree in C: lexbor's search for the noscript elements alone took 4.6
    ms on the 4 MiB page of bench --profile, which has none."""
    cdef uc_node_t *start = root.node
    cdef uc_node_t *node = start
    cdef uc_node_t *inner
    cdef uc_node_t *after
    while node != NULL:
        if node.local_name == NOSCRIPT_TAG and node.type == LXB_DOM_NODE_TYPE_ELEMENT:
            inner = _next_in_order(node, node) if node.first_child != NULL else NULL
            while inner != NULL:
                if (
                    inner.type == LXB_DOM_NODE_TYPE_ELEMENT
                    and inner.local_name in RAW_TEXT_TAG_IDS
                    and "</noscript" in "".join(_texts_under(inner))
                ):
                    return True
                inner = _next_in_order(inner, node)
            # On past the noscript's subtree.
            after = node
            node = NULL
            while after != start and after != NULL:
                if after.next != NULL:
                    node = after.next
                    break
                after = after.parent
        else:
            node = _next_in_order(node, start)
    return False


cdef list _texts_under(uc_node_t *node):
    """The text nodes' texts under ``node``, in document order (what ``node.text()``
    joins)."""
    cdef uc_node_t *current = _next_in_order(node, node) if node.first_child != NULL else NULL
    cdef list parts = []
    while current != NULL:
        if current.local_name == TEXT_TAG:
            parts.append(_text(current))
        current = _next_in_order(current, node)
    return parts


# ---------------------------------------------------------------------------- tables
#
# segment reads a data table row by row and walks a layout table like any container.
# Both tests were selector queries through selectolax (a css() per table, one per row,
# one per cell and a text() per cell), 40 ms on the 4 MiB page of bench --profile (608
# tables); here they are walks over the table's nodes that give the same answers.

cdef uintptr_t TABLE_TAG, TR_TAG, TD_TAG, TH_TAG, CAPTION_TAG
TABLE_TAG, TR_TAG, TD_TAG, TH_TAG, CAPTION_TAG = [
    _probe.create_node(name).tag_id for name in ("table", "tr", "td", "th", "caption")
]
# A table whose cells hold paragraphs, headings, lists or other tables lays out the
# page (old sites, e-mail-style templates): its cells are walked like any container.
# Otherwise it is data, read row by row.
LAYOUT_CONTENT = (
    "p", "div", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "article",
    "section",
)  # fmt: skip
cdef frozenset LAYOUT_TAG_IDS = frozenset(_probe.create_node(name).tag_id for name in LAYOUT_CONTENT)


cdef inline bint _is_cell(uc_node_t *node) noexcept:
    return node.local_name == TD_TAG or node.local_name == TH_TAG


cdef bint _in_row(uc_node_t *node, uc_node_t *stop) noexcept:
    """Whether a <tr> holds ``node``, looking up to ``stop`` (excluded; NULL: the root)."""
    node = node.parent
    while node != NULL and node != stop:
        if node.local_name == TR_TAG:
            return True
        node = node.parent
    return False


cdef bint _is_data_table(uc_node_t *table):
    """Whether a table holds data: no layout content (LAYOUT_CONTENT) under it, a row of
    two cells or more (one cell per row is a box drawn with a table: an admonition, a
    framed note, whose cells are paragraphs), and no other table inside one of its rows
    or of any row around it (what the selector "tr table" matched under the table)."""
    cdef uc_node_t *node = _next_in_order(table, table) if table.first_child != NULL else NULL
    cdef uc_node_t *row = NULL
    cdef uc_node_t *cell_row
    cdef Py_ssize_t cells = 0
    cdef bint wide = False
    cdef int table_in_row = -1  # whether a row holds the table itself: read once, if asked
    while node != NULL:
        if node.type == LXB_DOM_NODE_TYPE_ELEMENT:
            if node.local_name in LAYOUT_TAG_IDS:
                return False
            if _is_cell(node) and not wide:
                # Its row: the nearest <tr> above it (the parser puts cells in rows).
                cell_row = node.parent
                while cell_row != NULL and cell_row != table and cell_row.local_name != TR_TAG:
                    cell_row = cell_row.parent
                if cell_row != NULL and cell_row != table:
                    if cell_row == row:
                        cells += 1
                    else:
                        row, cells = cell_row, 1
                    wide = cells > 1
            elif node.local_name == TABLE_TAG:
                if _in_row(node, table):
                    return False
                if table_in_row < 0:
                    table_in_row = _in_row(table, NULL)
                if table_in_row:
                    return False
        node = _next_in_order(node, table)
    return wide


cdef str _words(uc_node_t *node):
    """The text under ``node``, each text node's words parted from the next's, its
    whitespace runs made one space and stripped (``" ".join(node.text(deep=True,
    separator=" ").split())``)."""
    return " ".join(" ".join(_texts_under(node)).split())


cdef Py_ssize_t _link_chars(uc_node_t *row) except -1:
    """The characters of the links' text in a row: of each <a> under it, its text nodes
    each stripped (a link inside a link counts in both, as it did through selectors)."""
    cdef uc_node_t *node = _next_in_order(row, row) if row.first_child != NULL else NULL
    cdef Py_ssize_t total = 0
    while node != NULL:
        if node.local_name == A_TAG and node.type == LXB_DOM_NODE_TYPE_ELEMENT:
            total += _text_chars(node)
        node = _next_in_order(node, row)
    return total


# Rows read between two looks at the extractor's deadline: a 4 MiB table of 64,000
# rows took 0.6 s to read through selectors (tools/bench_worst_case.py).
cdef Py_ssize_t DEADLINE_ROWS = 1024


cdef list _table_rows(uc_node_t *table, object parser, object deadline):
    """Caption and rows of a data table as text lines, each with its link characters
    and the element it was read from: the first <caption> under the table, then every
    <tr> under it in document order, its cells (<th>, <td>) parted by " | " (the empty
    ones left out; a row without text gives no line). ``deadline.check("segment")``
    is called every DEADLINE_ROWS rows."""
    cdef list rows = []
    cdef list cells
    cdef uc_node_t *node = _next_in_order(table, table) if table.first_child != NULL else NULL
    cdef uc_node_t *inner
    cdef uc_node_t *caption = NULL
    cdef Py_ssize_t count = 0
    while node != NULL:
        if node.type == LXB_DOM_NODE_TYPE_ELEMENT:
            if node.local_name == CAPTION_TAG and caption == NULL:
                caption = node
                text = _words(node)
                if text:
                    rows.append((text, 0, _wrap(node, parser)))
            elif node.local_name == TR_TAG:
                count += 1
                if deadline is not None and count % DEADLINE_ROWS == 0:
                    deadline.check("segment")
                cells = []
                inner = _next_in_order(node, node) if node.first_child != NULL else NULL
                while inner != NULL:
                    if inner.type == LXB_DOM_NODE_TYPE_ELEMENT and _is_cell(inner):
                        text = _words(inner)
                        if text:
                            cells.append(text)
                    inner = _next_in_order(inner, node)
                if cells:
                    rows.append((" | ".join(cells), _link_chars(node), _wrap(node, parser)))
        node = _next_in_order(node, table)
    return rows

# The attributes the walks read besides class and id (which an element points to
# directly). An attribute's local_name is an id: a small number for the names lexbor
# knows (href, type), else the address of the name's entry in the document's hash of
# attribute names, which holds the lowered name.
cdef enum:
    REL_NAME = 0
    HREF_NAME = 1
    TYPE_NAME = 2
    DATETIME_NAME = 3
    ITEMPROP_NAME = 4
    HIDDEN_NAME = 5
    ARIA_HIDDEN_NAME = 6
    STYLE_NAME = 7
    ROLE_NAME = 8
    ARIA_CONTROLS_NAME = 9
    ARIA_EXPANDED_NAME = 10
    NAME_NAME = 11
    PROPERTY_NAME = 12
    DATA_PRELOADED_NAME = 13
    CONTENT_NAME = 14
    HTTP_EQUIV_NAME = 15
    PUBDATE_NAME = 16
    ARIA_LABELLEDBY_NAME = 17
    NAME_COUNT = 18
_NAMES = (
    b"rel", b"href", b"type", b"datetime", b"itemprop", b"hidden", b"aria-hidden", b"style",
    b"role", b"aria-controls", b"aria-expanded", b"name", b"property", DISCOURSE_STORE.encode(),
    b"content", b"http-equiv", b"pubdate", b"aria-labelledby",
)  # fmt: skip
cdef const char *NAME_TEXT[NAME_COUNT]
cdef size_t NAME_LENGTH[NAME_COUNT]
# The static id of each name, 0 for a name that has none (0 is lexbor's "undefined").
cdef uintptr_t STATIC_ID[NAME_COUNT]
# Static ids are indices into lexbor's table of ~40 names; a hash entry's address is
# far above this.
cdef uintptr_t STATIC_LIMIT = 1 << 16
cdef size_t HASH_SHORT_SIZE = LEXBOR_HASH_SHORT_SIZE  # longer names sit elsewhere


cdef inline bint _named(uintptr_t name, int which) noexcept:
    """Whether the attribute id ``name`` is the attribute name number ``which``."""
    cdef uc_hash_entry_t *entry
    cdef const unsigned char *text
    if name < STATIC_LIMIT:
        return STATIC_ID[which] != 0 and name == STATIC_ID[which]
    if STATIC_ID[which] != 0:
        return False
    entry = <uc_hash_entry_t *> name
    if entry.length != NAME_LENGTH[which]:
        return False
    text = &entry.u.short_str[0] if entry.length <= HASH_SHORT_SIZE else entry.u.long_str
    return memcmp(text, NAME_TEXT[which], entry.length) == 0


cdef inline uc_attr_t *_attribute(uc_node_t *node, int which) noexcept:
    """The element's attribute named number ``which``, NULL without one."""
    cdef uc_attr_t *attr = (<uc_element_t *> node).first_attr
    while attr != NULL:
        if _named(attr.node.local_name, which):
            return attr
        attr = attr.next
    return NULL


def _calibrate() -> None:
    """Learn the static ids of the names, and check that the attribute list and the
    names' hash entries read as they should: a layout that moved fails the import."""
    cdef int k
    for k in range(NAME_COUNT):
        NAME_TEXT[k] = <const char *> _NAMES[k]
        NAME_LENGTH[k] = len(_NAMES[k])
        STATIC_ID[k] = 0
    html = "<p " + " ".join(f'{name.decode()}="v{k}"' for k, name in enumerate(_NAMES)) + ">"
    probe = LexborHTMLParser(html).css_first("p")
    cdef uc_attr_t *attr = (<uc_element_t *> (<LexborNode> probe).node).first_attr
    for k in range(NAME_COUNT):
        if attr == NULL:
            raise ImportError("unchrome's compiled walk cannot read lexbor's attribute list")
        if attr.node.local_name < STATIC_LIMIT:
            STATIC_ID[k] = attr.node.local_name
        attr = attr.next
    for k in range(NAME_COUNT):
        attr = _attribute((<LexborNode> probe).node, k)
        if attr == NULL or _value(attr) != f"v{k}":
            raise ImportError(
                f"unchrome's compiled walk cannot find the attribute {_NAMES[k].decode()!r}"
            )


_calibrate()


cdef class AttributeNames:
    """A few attribute names (lowercase ASCII) and a reader of them off elements, by
    lexbor's ids: what render's writer keeps of each element it writes. It read them
    through selectolax's ``node.attributes``, which makes a dict of every attribute
    (event handlers, styles, data-*): a third of the writer's time per element."""

    cdef tuple names
    cdef list texts  # the names as bytes, for the hash entries
    cdef uintptr_t static[64]  # a name's static id, 0 for one that has none

    def __init__(self, names):
        self.names = tuple(names)
        if not 0 < len(self.names) <= 64:
            raise ValueError("1 to 64 attribute names")
        self.texts = [name.encode("ascii") for name in self.names]
        # Learn the static ids as _calibrate does: an id below STATIC_LIMIT is one.
        probe = LexborHTMLParser(
            "<p " + " ".join(f'{name}="v"' for name in self.names) + ">"
        ).css_first("p")
        cdef uc_attr_t *attr = (<uc_element_t *> (<LexborNode> probe).node).first_attr
        cdef Py_ssize_t k
        for k in range(len(self.names)):
            if attr == NULL:
                raise ValueError(f"attribute {self.names[k]!r} was not read back")
            self.static[k] = attr.node.local_name if attr.node.local_name < STATIC_LIMIT else 0
            attr = attr.next
        for k in range(len(self.names)):
            if self.read(probe).get(self.names[k]) != "v":
                raise ImportError(f"cannot read the attribute {self.names[k]!r} off lexbor's element")

    cdef inline bint _is(self, uintptr_t name, Py_ssize_t k) noexcept:
        cdef uc_hash_entry_t *entry
        cdef bytes text
        cdef const unsigned char *data
        if name < STATIC_LIMIT:
            return self.static[k] != 0 and name == self.static[k]
        if self.static[k] != 0:
            return False
        entry = <uc_hash_entry_t *> name
        text = <bytes> self.texts[k]
        if entry.length != <size_t> len(text):
            return False
        data = &entry.u.short_str[0] if entry.length <= HASH_SHORT_SIZE else entry.u.long_str
        return memcmp(data, <const char *> text, entry.length) == 0

    def read(self, LexborNode node):
        """The element's attributes of these names, in the element's order, as
        ``node.attributes`` has them (None for one without a value); a prefixed one
        ("xlink:href") is another name."""
        cdef dict found = {}
        cdef uc_attr_t *attr
        cdef Py_ssize_t k, n = len(self.names)
        if node.node.type != LXB_DOM_NODE_TYPE_ELEMENT:
            return found
        attr = (<uc_element_t *> node.node).first_attr
        while attr != NULL:
            if attr.node.prefix == 0:
                for k in range(n):
                    if self._is(attr.node.local_name, k):
                        if attr.value == NULL or attr.value.data == NULL:
                            found[self.names[k]] = None
                        else:
                            found[self.names[k]] = PyUnicode_DecodeUTF8(
                                <char *> attr.value.data, attr.value.length, "replace"
                            )
                        break
            attr = attr.next
        return found


def class_and_id(LexborNode node):
    """An element's "class id" string (an empty value reading as ""), "" without
    either attribute."""
    if node.node.type != LXB_DOM_NODE_TYPE_ELEMENT:
        return ""
    return _class_id(node.node) or ""


cdef inline unsigned char _lower(unsigned char c) noexcept:
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint _same_lowered(const unsigned char *data, const char *lowered, size_t n) noexcept:
    """Whether the ``n`` bytes at ``data`` spell ``lowered`` (lowercase ASCII), ASCII
    case ignored."""
    cdef size_t j
    for j in range(n):
        if _lower(data[j]) != <unsigned char> lowered[j]:
            return False
    return True


cdef bint _contains(uc_attr_t *attr, const char *needle) noexcept:
    """Whether the attribute's value holds ``needle`` (lowercase ASCII), ASCII case
    ignored: CSS's [name*="needle" i]."""
    cdef size_t n = strlen(needle), k
    cdef const unsigned char *data
    cdef unsigned char first, c
    if attr == NULL or attr.value == NULL or attr.value.data == NULL:
        return False
    if n == 0 or attr.value.length < n:
        return False
    # The needle's first letter first: the walks ask seven needles of every class
    # (page_elements 0.121 -> 0.114 ms a WCXB page, bylines 0.119 -> 0.110).
    data = attr.value.data
    first = <unsigned char> needle[0]
    for k in range(attr.value.length - n + 1):
        c = data[k]
        if _lower(c) == first and _same_lowered(data + k + 1, needle + 1, n - 1):
            return True
    return False


cdef inline bint _css_space(unsigned char c) noexcept:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


cdef bint _has_word(uc_attr_t *attr, const char *word) noexcept:
    """Whether the attribute's value, split at whitespace, holds ``word`` (lowercase
    ASCII), ASCII case ignored: CSS's [name~="word" i]."""
    cdef size_t n = strlen(word), k = 0, start, length
    cdef const unsigned char *data
    if attr == NULL or attr.value == NULL or attr.value.data == NULL:
        return False
    data = attr.value.data
    length = attr.value.length
    while k < length:
        while k < length and _css_space(data[k]):
            k += 1
        start = k
        while k < length and not _css_space(data[k]):
            k += 1
        if k - start == n and _same_lowered(data + start, word, n):
            return True
    return False


cdef bint _equals(uc_attr_t *attr, const char *text) noexcept:
    """Whether the attribute's value is ``text`` (lowercase ASCII), ASCII case
    ignored: CSS's [name="text" i]."""
    cdef size_t n = strlen(text)
    if attr == NULL or attr.value == NULL or attr.value.length != n:
        return False
    return _same_lowered(attr.value.data, text, n)


cdef bint _inside(uc_node_t *node, uintptr_t tag) noexcept:
    """Whether an ancestor of ``node`` is a ``tag`` element."""
    node = node.parent
    while node != NULL:
        if node.type == LXB_DOM_NODE_TYPE_ELEMENT and node.local_name == tag:
            return True
        node = node.parent
    return False


# The class words the walks below look for, as bits of what _class_words finds.
cdef enum:
    DATE_WORD = 1
    PUBLISH_WORD = 2
    POSTED_WORD = 4
    BYLINE_WORD = 8
    AUTHOR_WORD = 16
    WRITTENBY_WORD = 32
cdef int METADATA_WORDS = DATE_WORD | PUBLISH_WORD | POSTED_WORD
cdef int BYLINE_WORDS = BYLINE_WORD | AUTHOR_WORD | WRITTENBY_WORD


cdef inline bint _word_at(
    const unsigned char *data, size_t k, size_t n, const char *rest, size_t length
) noexcept:
    """Whether the ``length`` bytes after ``k`` spell ``rest`` (lowercase ASCII), case
    ignored."""
    return n - k - 1 >= length and _same_lowered(data + k + 1, rest, length)


cdef int _class_words(uc_attr_t *attr) noexcept:
    """Which of date, publish, posted, byline, author and writtenby the attribute's
    value holds (each as _contains finds it: ASCII case ignored), as bits: one scan of
    the value where the two walks made one per word, six of every class (page_elements
    and bylines together 0.086 -> 0.047 ms at the median suite page). A word's first
    two letters are compared in the loop (``| 0x20`` lowers an ASCII letter and makes
    no other byte one), the rest only after them: calling the comparison at every
    "a", "d" or "p" made the walk of the 4 MiB page of bench --profile 0.5 ms slower
    than the two walks it replaced."""
    cdef const unsigned char *data
    cdef size_t n, k
    cdef unsigned char c, d
    cdef int found = 0
    if attr == NULL or attr.value == NULL or attr.value.data == NULL or attr.value.length < 4:
        return 0
    data = attr.value.data
    n = attr.value.length
    for k in range(n - 3):  # every word has four letters or more
        c = data[k] | 0x20
        d = data[k + 1] | 0x20
        if c == 0x64 and d == 0x61:  # da
            if _word_at(data, k + 1, n, "te", 2):
                found |= DATE_WORD
        elif c == 0x70:  # p
            if d == 0x75 and _word_at(data, k + 1, n, "blish", 5):
                found |= PUBLISH_WORD
            elif d == 0x6F and _word_at(data, k + 1, n, "sted", 4):
                found |= POSTED_WORD
        elif c == 0x62 and d == 0x79:  # by
            if _word_at(data, k + 1, n, "line", 4):
                found |= BYLINE_WORD
        elif c == 0x61 and d == 0x75:  # au
            if _word_at(data, k + 1, n, "thor", 4):
                found |= AUTHOR_WORD
        elif c == 0x77 and d == 0x72:  # wr
            if _word_at(data, k + 1, n, "ittenby", 7):
                found |= WRITTENBY_WORD
    return found


cdef bint _metadata_match(uc_node_t *node, int words) noexcept:
    """``words``: the class's words (_class_words)."""
    cdef uintptr_t tag = node.local_name
    if tag == META_TAG or tag == TITLE_TAG or tag == H1_TAG or tag == H2_TAG:
        return True
    if tag == LINK_TAG and _inside(node, HEAD_TAG):
        if _attribute(node, REL_NAME) != NULL and _attribute(node, HREF_NAME) != NULL:
            return True
    elif tag == SCRIPT_TAG and _equals(_attribute(node, TYPE_NAME), "application/ld+json"):
        return True
    elif tag == BASE_TAG and _attribute(node, HREF_NAME) != NULL:
        return True
    elif tag == TIME_TAG and _attribute(node, DATETIME_NAME) != NULL:
        return True
    if _has_word(_attribute(node, ITEMPROP_NAME), "datepublished"):
        return True
    return words & METADATA_WORDS != 0


cdef bint _byline_match(uc_node_t *node, int words) noexcept:
    """``words``: the class's words (_class_words)."""
    return (
        words & BYLINE_WORDS != 0
        or _has_word(_attribute(node, REL_NAME), "author")
        or _has_word(_attribute(node, ITEMPROP_NAME), "author")
        or _contains((<uc_element_t *> node).attr_id, "byline")
    )


def bylines(LexborNode root, Py_ssize_t limit):
    """The first ``limit`` elements under ``root`` (itself included) that look like a
    byline, in document order, each once: those matching ``[rel~="author" i],
    [itemprop~="author" i], [class*="byline" i], [id*="byline" i], [class*="author" i],
    [class*="writtenby" i]``. The page's own are found by page_elements' walk."""
    cdef list found = []
    parser = root.parser
    cdef uc_node_t *start = root.node
    cdef uc_node_t *node = start
    while node != NULL and len(found) < limit:
        if node.type == LXB_DOM_NODE_TYPE_ELEMENT and _byline_match(
            node, _class_words((<uc_element_t *> node).attr_class)
        ):
            found.append(_wrap(node, parser))
        node = _next_in_order(node, start)
    return found


def itemprop(LexborNode root, str word):
    """The first element under ``root`` (itself included) whose itemprop holds
    ``word`` (lowercase ASCII), ASCII case ignored; None without one."""
    cdef bytes text = word.encode("ascii")
    parser = root.parser
    cdef uc_node_t *start = root.node
    cdef uc_node_t *node = start
    while node != NULL:
        if node.type == LXB_DOM_NODE_TYPE_ELEMENT and _has_word(_attribute(node, ITEMPROP_NAME), text):
            return _wrap(node, parser)
        node = _next_in_order(node, start)
    return None


cdef bytearray _id_table(ids):
    """A byte per tag id below 1024, 1 for those in ``ids``: the walks' set test."""
    cdef bytearray table = bytearray(1024)
    for tag_id in ids:
        table[tag_id] = 1
    return table


cdef bint _hidden_match(uc_node_t *node) noexcept:
    """[hidden], [aria-hidden="true"], [style*="none" i], [style*="hidden" i]"""
    cdef uc_attr_t *aria = _attribute(node, ARIA_HIDDEN_NAME)
    cdef uc_attr_t *style = _attribute(node, STYLE_NAME)
    return (
        _attribute(node, HIDDEN_NAME) != NULL
        or (aria != NULL and aria.value != NULL and aria.value.length == 4
            and memcmp(aria.value.data, b"true", 4) == 0)
        or _contains(style, "none")
        or _contains(style, "hidden")
    )


cdef inline bint _disclosure(uc_node_t *node) noexcept:
    """[aria-controls][aria-expanded]"""
    return (
        _attribute(node, ARIA_CONTROLS_NAME) != NULL
        and _attribute(node, ARIA_EXPANDED_NAME) != NULL
    )


cdef inline uc_node_t *_after(uc_node_t *node, uc_node_t *start) noexcept:
    """The node after ``node``'s subtree in document order, within ``start``'s."""
    while node != start:
        if node.next != NULL:
            return node.next
        node = node.parent
    return NULL


def prune_census(LexborNode root, ids, dict verdicts=None, verdict_of=None):
    """Everything prune reads off the tree under ``root`` (itself included), in one
    walk, each list in document order:

    - disclosures: ``[aria-controls][aria-expanded]`` (the buttons that open panels);
    - never: the elements whose lexbor tag id is in ``ids`` (below 1024);
    - forms, hidden, roles: the <form> elements; those matching ``[hidden],
      [aria-hidden="true"], [style*="none" i], [style*="hidden" i]``; those with a
      role attribute;
    - named: (element, "class id") of the elements with a class or an id, the names
      as prune reads them (an absent or empty value reads as ""), but for those whose
      names ``verdicts`` maps to 0 (prune's cache: names known to mark no widget, most
      of a page's, which would cost a node object and a tuple each for nothing). With
      ``verdict_of``, names not in ``verdicts`` are judged by it as the walk meets
      them (it caches its verdicts there): a page repeats its own new class strings,
      and a list of them all cost a node, a tuple and a turn of prune's Python loop
      each (a third of the named elements of a WCXB dev page), for nothing;
    - text_chars: the length of the text under ``root``, its text nodes each stripped
      (text_length's count), what is left once the never elements are gone;
    - article_bodies: the elements marked as the article's body,
      ``[itemprop~="articleBody" i]``.

    All but the first two leave out what lies inside a ``never`` element: prune removes
    those first. The text's length and the marked bodies were two more walks of the
    tree (a text_length and a selector search after the first removals): 0.35 ms at
    the median WCXB page, 9 ms on the 4 MiB page of bench --profile. Prune removes elements between its passes; a removed element and all it
    held are detached (``attached`` leaves them out), not freed: selectolax 1.0.2's
    decompose unlinks each node and lexbor frees the nodes with the document.
    prune took six walks of the tree (one a selector list of four), 0.89 ms a page;
    with this one, 0.82 ms (best of three, 699 pages of both sets; the same trees
    after it on all 2,025 pages of the three sets).
    """
    cdef bytearray table = _id_table(ids)
    cdef unsigned char *wanted = table
    cdef list disclosures = [], never = [], forms = [], hidden = [], roles = [], named = []
    cdef list article_bodies = []
    cdef Py_ssize_t text_chars = 0
    parser = root.parser
    cdef uc_node_t *start = root.node
    cdef uc_node_t *node = start
    cdef uc_node_t *inner
    cdef uc_chardata_t *chars
    while node != NULL:
        if node.type != LXB_DOM_NODE_TYPE_ELEMENT:
            if node.local_name == TEXT_TAG:
                chars = <uc_chardata_t *> node
                if chars.data.data != NULL:
                    text_chars += _stripped_length(chars.data.data, chars.data.length)
            node = _next_in_order(node, start)
            continue
        if _disclosure(node):
            disclosures.append(_wrap(node, parser))
        if node.local_name < 1024 and wanted[node.local_name]:
            never.append(_wrap(node, parser))
            # Inside it, only what prune reads before removing it.
            inner = _next_in_order(node, node) if node.first_child != NULL else NULL
            while inner != NULL:
                if inner.type == LXB_DOM_NODE_TYPE_ELEMENT:
                    if _disclosure(inner):
                        disclosures.append(_wrap(inner, parser))
                    if inner.local_name < 1024 and wanted[inner.local_name]:
                        never.append(_wrap(inner, parser))
                inner = _next_in_order(inner, node)
            node = _after(node, start)
            continue
        if node.local_name == FORM_TAG:
            forms.append(_wrap(node, parser))
        if _hidden_match(node):
            hidden.append(_wrap(node, parser))
        if _attribute(node, ROLE_NAME) != NULL:
            roles.append(_wrap(node, parser))
        names = _class_id(node)
        if names is not None:
            verdict = None if verdicts is None else verdicts.get(names)
            if verdict is None and verdict_of is not None:
                verdict = verdict_of(names)
            if verdict != 0:
                named.append((_wrap(node, parser), names))
        if _has_word(_attribute(node, ITEMPROP_NAME), b"articlebody"):
            article_bodies.append(_wrap(node, parser))
        node = _next_in_order(node, start)
    return disclosures, never, forms, hidden, roles, named, text_chars, article_bodies


def attached(list items):
    """The items whose element is still in the tree: a node, or a tuple starting with
    one, whose parent was not unlinked by a removal (see prune_census)."""
    cdef list kept = []
    cdef LexborNode node
    for item in items:
        node = <LexborNode> (item[0] if type(item) is tuple else item)
        if node.node.parent != NULL:
            kept.append(item)
    return kept


# ------------------------------------------------------------ metadata's datelines


cdef inline bint _skipped(uc_node_t *node, const unsigned char *skip) noexcept:
    return node.type == LXB_DOM_NODE_TYPE_ELEMENT and node.local_name < 1024 and skip[node.local_name]


cdef object _dateline(uc_node_t *node, Py_ssize_t limit, Py_ssize_t line_chars):
    """A text node's text as the date scan reads it: stripped, and blank when longer
    than ``line_chars`` (prose, a photo caption), counting then only for its length,
    ``limit`` at most."""
    text = _text(node).strip()
    return text if len(text) <= line_chars else " " * min(len(text), limit)


cdef int _take_dateline(
    list parts, uc_node_t *node, Py_ssize_t limit, Py_ssize_t line_chars, Py_ssize_t *size
) except -1:
    """Add a text node's dateline to ``parts`` (an empty one adds nothing); 1 when the
    parts reach ``limit`` characters."""
    if _blank_only(node):
        # Indentation between tags, about half the nodes: no dateline, nothing to decode
        # (with lead_chars, _headline_dates 0.037 -> 0.030 ms a page, mean of the suites).
        return 0
    text = _dateline(node, limit, line_chars)
    if text:
        parts.append(text)
        size[0] += len(text)
    return size[0] >= limit and bool(text)


def texts_after(
    LexborNode node, Py_ssize_t limit, Py_ssize_t steps, ids, Py_ssize_t line_chars
):
    """The text nodes that follow ``node`` in document order (not its own, nor those
    inside elements whose tag id is in ``ids``), as datelines (see _dateline), up to
    about ``limit`` characters or ``steps`` nodes visited. metadata walked this through
    selectolax's attributes, a Python object a node: with the walk before the headline,
    0.19 ms at the median news page."""
    cdef bytearray table = _id_table(ids)
    cdef const unsigned char *skip = table
    cdef list parts = []
    cdef Py_ssize_t size = 0, step
    cdef uc_node_t *cur = node.node
    cdef uc_node_t *nxt
    cdef bint descend = False
    for step in range(steps):
        nxt = cur.first_child if descend else NULL
        if nxt == NULL:
            while cur != NULL and cur.next == NULL:
                cur = cur.parent
            if cur == NULL:
                break
            nxt = cur.next
        cur = nxt
        if cur.type == LXB_DOM_NODE_TYPE_TEXT:
            if _take_dateline(parts, cur, limit, line_chars, &size):
                break
            descend = False
        else:
            descend = not _skipped(cur, skip)
    return parts


def texts_before(
    LexborNode node, Py_ssize_t limit, Py_ssize_t steps, ids, Py_ssize_t line_chars
):
    """The text nodes that precede ``node`` within the body, in document order (those
    inside elements whose tag id is in ``ids`` left out), as datelines, up to about
    ``limit`` characters or ``steps`` nodes visited."""
    cdef bytearray table = _id_table(ids)
    cdef const unsigned char *skip = table
    cdef list parts = []
    cdef Py_ssize_t size = 0, step
    cdef uc_node_t *cur = node.node
    for step in range(steps):
        if cur.prev == NULL:
            cur = cur.parent
            if cur == NULL or (cur.type == LXB_DOM_NODE_TYPE_ELEMENT and cur.local_name == BODY_TAG):
                break
            continue
        cur = cur.prev
        while not _skipped(cur, skip) and cur.last_child != NULL:
            cur = cur.last_child
        if cur.type == LXB_DOM_NODE_TYPE_TEXT and _take_dateline(parts, cur, limit, line_chars, &size):
            break
    parts.reverse()
    return parts


cdef bint _may_serialize_as(uc_node_t *node, uc_node_t *element) noexcept:
    """Whether ``node``'s HTML could be ``element``'s, as selectolax's ``==`` compares
    two nodes: another element only with the same tag (the HTML starts with its name),
    a text node only where its text starts with "<" (a raw text's; other text
    escapes it), a node of another kind (a comment) left to the comparison."""
    cdef uc_chardata_t *chars
    if node.type == LXB_DOM_NODE_TYPE_ELEMENT:
        return node.local_name == element.local_name
    if node.type == LXB_DOM_NODE_TYPE_TEXT:
        chars = <uc_chardata_t *> node
        return chars.data.data != NULL and chars.data.length > 0 and chars.data.data[0] == 0x3C
    return True


def lead_chars(LexborNode article, LexborNode headline, Py_ssize_t steps, ids):
    """The characters of text (each text node's words joined by one space, plus one)
    before the first node of ``article``'s subtree, itself included, that is
    ``headline`` as selectolax's ``==`` finds it (the same node, or one of the same
    HTML), text inside elements whose tag id is in ``ids`` left out; None where none
    is met within ``steps`` nodes. metadata walked this through selectolax's
    traverse(), which compared the HTML of each node with the headline's: 0.11 ms on
    each of the 258 suite pages with a date above a headline in an <article>."""
    cdef bytearray table = _id_table(ids)
    cdef const unsigned char *skip = table
    cdef uc_node_t *start = article.node
    cdef uc_node_t *head = headline.node
    cdef uc_node_t *cur = start
    cdef uc_node_t *parent
    cdef Py_ssize_t step = 0, chars = 0
    cdef list words
    head_html = None
    parser = article.parser
    while cur != NULL:
        if cur == head:
            return chars
        if _may_serialize_as(cur, head):
            if head_html is None:
                head_html = headline.html
            if _wrap(cur, parser).html == head_html:
                return chars
        if step > steps:
            return None
        if cur.type == LXB_DOM_NODE_TYPE_TEXT and not _blank_only(cur):
            parent = cur.parent
            if parent == NULL or not _skipped(parent, skip):
                words = _text(cur).split()
                if words:
                    chars += sum([len(word) for word in words]) + len(words)
        step += 1
        cur = _next_in_order(cur, start)
    return None


def byline_texts(LexborNode node, Py_ssize_t limit, ids):
    """(parts, whole): the texts of the text nodes under ``node``, each with its
    whitespace collapsed (" ".join(text.split())), the empty ones and those whose
    parent's tag id is in ``ids`` left out, as long as they and a space each come to
    ``limit`` characters at most; ``whole`` False where one more would pass it.
    metadata read them through selectolax's traverse(), a Python node for every
    node under a byline element: _dom_byline 0.022 -> 0.019 ms a page (mean of the
    suites)."""
    cdef bytearray table = _id_table(ids)
    cdef const unsigned char *skip = table
    cdef uc_node_t *start = _element(node)
    cdef uc_node_t *cur = _next_in_order(start, start)
    cdef uc_node_t *parent
    cdef list parts = []
    cdef Py_ssize_t size = 0
    cdef str text
    while cur != NULL:
        if cur.type == LXB_DOM_NODE_TYPE_TEXT and not _blank_only(cur):
            parent = cur.parent
            if parent == NULL or not _skipped(parent, skip):
                text = " ".join(_text(cur).split())
                if text:
                    size += len(text) + 1
                    if size > limit:
                        return parts, False
                    parts.append(text)
        cur = _next_in_order(cur, start)
    return parts, True


# ----------------------------------------------------- embedded sources and post kind

# lexbor matches an id selector ASCII case-blind in a quirks-mode document (no or an
# old doctype), as browsers do: the walk below reads the document's mode to match ids
# the same way, and the mode's field is checked here against documents of each mode.
cdef int QUIRKS = 1  # LXB_DOM_DOCUMENT_CMODE_QUIRKS


def _check_compat_mode() -> None:
    cdef LexborNode quirks = LexborHTMLParser("<p>x").root
    cdef LexborNode standard = LexborHTMLParser("<!doctype html><p>x").root
    if (
        quirks.node.owner_document.compat_mode != QUIRKS
        or standard.node.owner_document.compat_mode != 0
    ):
        raise ImportError("unchrome's compiled walk cannot read lexbor's document mode")


_check_compat_mode()


cdef bint _id_is(uc_node_t *node, const char *text, bint quirks) noexcept:
    """Whether the element's id is ``text`` (ASCII): exactly, or ASCII case-blind in
    a quirks-mode document."""
    cdef uc_attr_t *ident = (<uc_element_t *> node).attr_id
    cdef size_t n = strlen(text), k
    if ident == NULL or ident.value == NULL or ident.value.length != n:
        return False
    if not quirks:
        return memcmp(ident.value.data, text, n) == 0
    for k in range(n):
        if _lower(ident.value.data[k]) != _lower(<unsigned char> text[k]):
            return False
    return True


cdef bint _value_is(uc_attr_t *attr, const char *text) noexcept:
    """Whether the attribute's value is exactly ``text``."""
    cdef size_t n = strlen(text)
    return (
        attr != NULL and attr.value != NULL and attr.value.length == n
        and memcmp(attr.value.data, text, n) == 0
    )


# The markers of rules/formats.py as C strings for the matches below (alive as module globals).
cdef bytes _NEXT_DATA_ID = NEXT_DATA_ID.encode()
cdef bytes _ARC_METADATA_ID = ARC_METADATA_ID.encode()
cdef bytes _DISCOURSE_STORE = DISCOURSE_STORE.encode()
cdef bytes _TWITTER_CARD = TWITTER_CARD.encode()
cdef bytes _PROFILE_USERNAME = PROFILE_USERNAME.encode()


cdef bint _embedded_match(uc_node_t *node, bint quirks) noexcept:
    """script#__NEXT_DATA__, script#fusion-metadata, #data-preloaded[data-preloaded],
    body noscript (ids case-blind in quirks mode, as lexbor matches them)."""
    cdef uintptr_t tag = node.local_name
    return (
        (tag == SCRIPT_TAG and (_id_is(node, _NEXT_DATA_ID, quirks)
                                or _id_is(node, _ARC_METADATA_ID, quirks)))
        or (_id_is(node, _DISCOURSE_STORE, quirks)
            and _attribute(node, DATA_PRELOADED_NAME) != NULL)
        or (tag == NOSCRIPT_TAG and _inside(node, BODY_TAG))
    )


cdef bint _social_match(uc_node_t *node) noexcept:
    """link[rel~="alternate"][type], meta[name="twitter:card"],
    meta[property="profile:username"] (rel's value case-blind, as HTML has it)."""
    cdef uintptr_t tag = node.local_name
    return (
        (tag == LINK_TAG and _has_word(_attribute(node, REL_NAME), "alternate")
         and _attribute(node, TYPE_NAME) != NULL)
        or (tag == META_TAG and (
            _value_is(_attribute(node, NAME_NAME), _TWITTER_CARD)
            or _value_is(_attribute(node, PROPERTY_NAME), _PROFILE_USERNAME)))
    )


# The byline elements metadata reads at most: the real byline sits near the top, and
# a comment thread marks every commenter as an author.
BYLINES_READ = 30


def page_elements(LexborNode root, Py_ssize_t byline_limit=BYLINES_READ):
    """(metadata, embedded, social, bylines): the elements under ``root`` (itself
    included) read before pruning, each list in document order and each element in it
    once, in one walk of the page:

    - metadata: those matching ``meta, head link[rel][href],
      script[type="application/ld+json" i], base[href], title, h1, h2, time[datetime],
      [itemprop~="datePublished" i], [class*="date" i], [class*="publish" i],
      [class*="posted" i]``. Links only from <head>: Wikipedia's Parsoid HTML carries
      hundreds of <link rel="mw:..."> in the body, and the rels metadata reads
      (canonical, image_src) live in the head;
    - embedded: those that may hold an embedded body (see _embedded_match);
    - social: those that say a page is a social post (see _social_match);
    - bylines: the first ``byline_limit`` that look like a byline (see bylines()).
      metadata walked the page a second time for them: 0.042 ms at the median suite
      page, the walk of the three other lists 0.044.

    Each list is what lexbor's selector list finds (the lists returned an element
    once per selector it matched). metadata's list took 0.28 ms a page (mean of 699
    pages of both sets), the other two seven walks, 0.063 ms at the median news page."""
    cdef list metadata = [], embedded = [], social = [], found_bylines = []
    parser = root.parser
    cdef uc_node_t *start = root.node
    cdef uc_node_t *node = start
    cdef bint quirks = start.owner_document != NULL and start.owner_document.compat_mode == QUIRKS
    cdef Py_ssize_t byline_count = 0
    cdef int words
    while node != NULL:
        if node.type == LXB_DOM_NODE_TYPE_ELEMENT:
            words = _class_words((<uc_element_t *> node).attr_class)
            if _metadata_match(node, words):
                metadata.append(_wrap(node, parser))
            if _embedded_match(node, quirks):
                embedded.append(_wrap(node, parser))
            if _social_match(node):
                social.append(_wrap(node, parser))
            if byline_count < byline_limit and _byline_match(node, words):
                found_bylines.append(_wrap(node, parser))
                byline_count += 1
        node = _next_in_order(node, start)
    return metadata, embedded, social, found_bylines


# ------------------------------------------------------------ metadata's head tags
#
# metadata read the <meta> and <link> elements through selectolax's attribute dicts:
# one dict of every attribute a tag (about 40 <meta> at the median news page), then a
# lookup per name.


cdef bint _tidy(str text):
    """Whether ``text`` is one that metadata's clean() returns as it is: short, no "&",
    no whitespace but single spaces between other characters."""
    cdef Py_ssize_t n = len(text), i
    cdef Py_UCS4 c
    cdef bint space = True  # a space at the start is not tidy
    if n == 0 or n > 10_000:
        return False
    for i in range(n):
        c = text[i]
        if c == 0x26:  # "&"
            return False
        if c == 0x20:
            if space:
                return False
            space = True
        elif Py_UNICODE_ISSPACE(c):
            return False
        else:
            space = False
    return not space


cdef inline uc_node_t *_element(LexborNode node) except NULL:
    """The node's struct, if it is an element: the readings of an element's attributes
    read fields that other nodes lack."""
    if node.node == NULL or node.node.type != LXB_DOM_NODE_TYPE_ELEMENT:
        raise TypeError("an element is read here, not a text node, comment or document")
    return node.node


# The longest key read in place (_meta_keys); a longer one goes through str.
cdef enum:
    KEY_CHARS = 128


cdef list _meta_keys(uc_attr_t *attr):
    """The keys an attribute's value lists, as ``value.lower().replace(".",
    ":").split()`` gives them (none for an absent or empty value): an ASCII value is
    read in place, lowered, "." as ":", split at the whitespace str.split() splits it
    at; any other through str. read_meta made three strings of each value through str
    (_read_meta 0.018 -> 0.0145 ms a page, mean of the suites)."""
    cdef const unsigned char *data
    cdef size_t n, k = 0, start
    cdef unsigned char c
    cdef char token[KEY_CHARS]
    cdef list keys = []
    if attr == NULL or attr.value == NULL or attr.value.data == NULL or attr.value.length == 0:
        return keys
    data = attr.value.data
    n = attr.value.length
    while k < n:
        while k < n and _ascii_space(data[k]):
            k += 1
        start = k
        while k < n and not _ascii_space(data[k]):
            c = data[k]
            if c >= 0x80 or k - start >= KEY_CHARS:
                value = PyUnicode_DecodeUTF8(<char *> data, n, "replace")
                return value.lower().replace(".", ":").split()
            token[k - start] = <char> (0x3A if c == 0x2E else _lower(c))
            k += 1
        if k > start:
            keys.append(PyUnicode_DecodeASCII(token, k - start, NULL))
    return keys


def read_meta(list nodes, clean):
    """(by_property, by_name): for each <meta> of ``nodes`` with a content that
    ``clean`` leaves non-empty, its content under every key its ``property`` lists, and
    under those its ``name``, ``http-equiv`` and ``itemprop`` (prefixed "itemprop:")
    list, the first content a key meets. Keys are lowered, "." read as ":"."""
    cdef dict by_property = {}, by_name = {}
    cdef LexborNode node
    cdef uc_node_t *element
    cdef int which
    for node in nodes:
        element = _element(node)
        content = _value(_plain_attribute(element, CONTENT_NAME))
        if content is None:
            continue
        # Most contents are tidy already (no entity, no run of whitespace): they are
        # kept as they are, as ``clean`` would keep them; the rest go through it.
        if not _tidy(content):
            content = clean(content)
            if content is None:
                continue
        for which in (PROPERTY_NAME, NAME_NAME, HTTP_EQUIV_NAME, ITEMPROP_NAME):
            target = by_property if which == PROPERTY_NAME else by_name
            for key in _meta_keys(_plain_attribute(element, which)):
                if which == ITEMPROP_NAME:
                    key = "itemprop:" + key
                target.setdefault(key, content)
    return by_property, by_name


def meta_contents(list nodes, str name):
    """The content ("" where empty or absent) of each <meta> of ``nodes`` whose
    ``name`` is ``name`` (lowercase ASCII), ASCII case ignored, in their order: as
    ``(attrs.get("name") or "").lower() == name`` finds them (no other character
    lowers to one of an ASCII name's letters but "K", U+212A, which lowers to "k"; so
    a name holding "k" is refused). Through selectolax's attribute dicts, one dict of
    every attribute per <meta>, this took 0.011 ms at the median suite page."""
    cdef bytes text = name.encode("ascii")
    cdef list found = []
    cdef LexborNode node
    cdef uc_node_t *element
    cdef uc_attr_t *attr
    if not text or b"k" in text or text != text.lower():
        raise ValueError(f"{name!r}: not a name this test reads as str.lower() would")
    for node in nodes:
        element = _element(node)
        attr = _plain_attribute(element, NAME_NAME)
        if attr == NULL or attr.value == NULL or attr.value.data == NULL:
            continue
        if attr.value.length == <size_t> len(text) and _same_lowered(attr.value.data, text, len(text)):
            found.append(_value(_plain_attribute(element, CONTENT_NAME)) or "")
    return found


def class_words(*words):
    """``words`` as named_around reads them: lowercase ASCII bytes, each checked to be
    one its byte test finds where ``re.search`` finds it in a lowered class: no "i" at
    its end, no "k", no whitespace (str.lower() turns only "İ" into an ASCII letter,
    an "i" with a combining dot after it, and the Kelvin sign into "k")."""
    cdef list checked = []
    for word in words:
        if (
            not isinstance(word, str) or not word or not word.isascii() or word != word.lower()
            or word.endswith("i") or "k" in word or any(c.isspace() for c in word)
        ):
            raise ValueError(f"{word!r}: not a word this test reads as str.lower() would")
        checked.append(word.encode("ascii"))
    return tuple(checked)


def named_around(LexborNode node, tuple words, Py_ssize_t depth):
    """Whether ``node`` or one of its nearest ancestors (``depth`` elements at most,
    below <body>) has a class or an id that holds one of ``words`` (class_words),
    ASCII case ignored: as ``re.search`` of the words in the lowered
    ``f"{class} {id}"`` finds them. metadata read them through selectolax's attribute
    dicts, one per ancestor: 0.016 ms a page (mean of the suites)."""
    cdef uc_node_t *cur = _element(node)
    cdef uc_element_t *element
    cdef bytes word
    cdef Py_ssize_t step
    for step in range(depth):
        if cur == NULL:
            return False
        if cur.type == LXB_DOM_NODE_TYPE_ELEMENT:
            if cur.local_name == BODY_TAG or cur.local_name == HTML_TAG:
                return False
            element = <uc_element_t *> cur
            for word in words:
                if _contains(element.attr_class, word) or _contains(element.attr_id, word):
                    return True
        cur = cur.parent
    return False


def read_links(list nodes):
    """The first ``href`` (stripped, non-empty) for each lowered ``rel`` token of the
    <link> elements ``nodes``."""
    cdef dict links = {}
    cdef LexborNode node
    cdef uc_node_t *element
    for node in nodes:
        element = _element(node)
        href = _value(_plain_attribute(element, HREF_NAME))
        if href is None:
            continue
        href = href.strip()
        if not href:
            continue
        rels = _value(_plain_attribute(element, REL_NAME))
        if rels is None:
            continue
        for rel in rels.lower().split():
            links.setdefault(rel, href)
    return links


# ------------------------------------------------------------ metadata's groups
#
# metadata sorted its elements into the lists it reads in a Python loop: the tag's
# name, then an attribute dict of every element but <meta> and <link>: 0.031 ms at
# the median news page.


cdef inline Py_ssize_t _folded_at(
    const unsigned char *data, size_t at, size_t n, unsigned char letter
) noexcept:
    """How many bytes at ``at`` match the lowercase ASCII ``letter`` as a case-blind
    Python regex matches it (either case; "i" also İ and ı, "s" also ſ, in UTF-8); 0
    when they do not."""
    cdef unsigned char c = data[at]
    if c == letter or (0x41 <= c <= 0x5A and c + 0x20 == letter):
        return 1
    if at + 1 < n:
        if letter == 0x69 and c == 0xC4 and (data[at + 1] == 0xB0 or data[at + 1] == 0xB1):
            return 2
        if letter == 0x73 and c == 0xC5 and data[at + 1] == 0xBF:
            return 2
    return 0


cdef bint _regex_contains(uc_attr_t *attr, const char *needle) noexcept:
    """Whether the attribute's value holds ``needle`` (lowercase ASCII letters) as
    ``re.search(needle, value, re.I)`` finds it: each letter in either case, and the
    letters re folds onto "i" (İ, ı) and "s" (ſ)."""
    cdef size_t n, start, at, k, width, length = strlen(needle)
    cdef const unsigned char *data
    if attr == NULL or attr.value == NULL or attr.value.data == NULL:
        return False
    data = attr.value.data
    n = attr.value.length
    for start in range(n):
        at = start
        k = 0
        while k < length and at < n:
            width = _folded_at(data, at, n, <unsigned char> needle[k])
            if width == 0:
                break
            at += width
            k += 1
        if k == length:
            return True
    return False


cdef inline bint _filled(uc_attr_t *attr) noexcept:
    """Whether the attribute is there with a non-empty value (attrs.get is truthy)."""
    return attr != NULL and attr.value != NULL and attr.value.data != NULL and attr.value.length > 0


def metadata_groups(list elements):
    """(by_tag, marked, times, dated) of metadata's elements (page_elements), in
    document order: by_tag the <meta>, <link>, JSON-LD <script>, <base>, <title>, <h1>
    and <h2> elements by tag name; marked the elements with a pubdate attribute or an
    itemprop naming datePublished; times the other <time> with a datetime; dated the
    others whose class matches metadata's date words (date, publish, posted; as its
    case-blind regex matches them). Each test is the one metadata's Python loop made
    on the element's attribute dict."""
    cdef list marked = [], times = [], dated = []
    # One list a tag, appended to by the tag's id: a dict lookup of the tag's name and
    # of its list, per element (most of them <meta>): 0.015 -> 0.011 ms a page (mean of
    # the suites).
    cdef list metas = [], links = [], scripts = [], bases = [], titles = [], h1s = [], h2s = []
    cdef LexborNode wrapped
    cdef uc_node_t *node
    cdef uintptr_t tag
    cdef uc_attr_t *cls
    for wrapped in elements:
        node = _element(wrapped)
        tag = node.local_name
        if tag != META_TAG and tag != LINK_TAG:
            cls = (<uc_element_t *> node).attr_class
            if _plain_attribute(node, PUBDATE_NAME) != NULL or _contains(
                _plain_attribute(node, ITEMPROP_NAME), "datepublished"
            ):
                marked.append(wrapped)
            elif tag == TIME_TAG and _filled(_plain_attribute(node, DATETIME_NAME)):
                times.append(wrapped)
            elif (
                _regex_contains(cls, "date")
                or _regex_contains(cls, "publish")
                or _regex_contains(cls, "posted")
            ):
                dated.append(wrapped)
            if tag == SCRIPT_TAG:
                if _contains(_plain_attribute(node, TYPE_NAME), "ld+json"):
                    scripts.append(wrapped)
            elif tag == BASE_TAG:
                bases.append(wrapped)
            elif tag == TITLE_TAG:
                titles.append(wrapped)
            elif tag == H1_TAG:
                h1s.append(wrapped)
            elif tag == H2_TAG:
                h2s.append(wrapped)
        elif tag == META_TAG:
            metas.append(wrapped)
        else:
            links.append(wrapped)
    groups = (metas, links, scripts, bases, titles, h1s, h2s)
    names = ("meta", "link", "script", "base", "title", "h1", "h2")
    return {name: group for name, group in zip(names, groups) if group}, marked, times, dated

# ------------------------------------------------------------------ prune's judgements
#
# What prune reads of each element it judges, read off lexbor's structs: the length
# of its visible text, whether it lies in code, its id, whether its tag or role exempts
# it. Through selectolax each was a few attribute reads, each a Python object (or, for
# the text, a decoded and stripped str per text node, joined).






cdef inline uc_attr_t *_plain_attribute(uc_node_t *node, int which) noexcept:
    """The element's attribute named number ``which`` as ``node.attrs.get`` finds it:
    by its qualified name, so not a prefixed one (MathML's xlink:role)."""
    cdef uc_attr_t *attr = (<uc_element_t *> node).first_attr
    while attr != NULL:
        if attr.node.prefix == 0 and _named(attr.node.local_name, which):
            return attr
        attr = attr.next
    return NULL


cdef inline Py_UCS4 _code_point(const unsigned char *data, Py_ssize_t width) noexcept:
    if width == 2:
        return ((data[0] & 0x1F) << 6) | (data[1] & 0x3F)
    if width == 3:
        return ((data[0] & 0x0F) << 12) | ((data[1] & 0x3F) << 6) | (data[2] & 0x3F)
    return (
        ((data[0] & 0x07) << 18) | ((data[1] & 0x3F) << 12) | ((data[2] & 0x3F) << 6)
        | (data[3] & 0x3F)
    )


cdef Py_ssize_t _stripped_length(const unsigned char *data, size_t n) except -1:
    """``len(data.decode("utf-8", "replace").strip())`` without the str: ASCII and
    well-formed UTF-8 are counted in place (the code points, less the whitespace at
    either end); anything else is decoded as selectolax decodes it."""
    cdef size_t k = 0, first, last
    cdef Py_ssize_t width, count = 0
    # The code points, the text checked well-formed on the way (ASCII 8 bytes a step).
    while k < n:
        if k + 8 <= n and ascii_word(data + k):
            k += 8
            count += 8
        elif data[k] < 0x80:
            k += 1
            count += 1
        else:
            width = utf8_width(data, k, n)
            if width == 0:
                return len(PyUnicode_DecodeUTF8(<char *> data, n, "replace").strip())
            k += width
            count += 1
    # Less the whitespace at the start ...
    first = 0
    while first < n:
        if data[first] < 0x80:
            if not _ascii_space(data[first]):
                break
            width = 1
        else:
            width = utf8_width(data, first, n)
            if not Py_UNICODE_ISSPACE(_code_point(data + first, width)):
                break
        first += width
        count -= 1
    # ... and at the end.
    last = n
    while last > first:
        if data[last - 1] < 0x80:
            if not _ascii_space(data[last - 1]):
                break
            width = 1
        else:
            width = 1
            while data[last - width] & 0xC0 == 0x80:  # back to the sequence's lead byte
                width += 1
            if not Py_UNICODE_ISSPACE(_code_point(data + last - width, width)):
                break
        last -= width
        count -= 1
    return count


def text_length(LexborNode node):
    """``len(node.text(deep=True, strip=True, skip_empty=True))``: the length of the
    text nodes under ``node``, each stripped."""
    return _text_chars(node.node)


cdef Py_ssize_t _text_chars(uc_node_t *start) except -1:
    """text_length's count, of the text nodes under ``start`` (itself included)."""
    cdef uc_node_t *current = start
    cdef uc_chardata_t *chars
    cdef Py_ssize_t total = 0
    while current != NULL:
        if current.local_name == TEXT_TAG:
            chars = <uc_chardata_t *> current
            if chars.data.data != NULL:
                total += _stripped_length(chars.data.data, chars.data.length)
        current = _next_in_order(current, start)
    return total


def in_code(LexborNode node):
    """Whether an ancestor of ``node`` below <body> is a <pre> or a <code>."""
    cdef uc_node_t *parent = node.node.parent
    while parent != NULL:
        if parent.local_name == PRE_TAG or parent.local_name == CODE_TAG:
            return True
        if parent.local_name == BODY_TAG:
            return False
        parent = parent.parent
    return False


cdef inline bint _role_is(uc_node_t *node, const char *role) noexcept:
    """Whether ``node.attrs.get("role") == role`` (case counts)."""
    cdef uc_attr_t *attr = _plain_attribute(node, ROLE_NAME)
    cdef size_t n = strlen(role)
    return (
        attr != NULL and attr.value != NULL and attr.value.data != NULL
        and attr.value.length == n and memcmp(attr.value.data, role, n) == 0
    )


def named_kind(LexborNode node):
    """What the tag and role of an element named like a widget say: 1 if they exempt
    it (<html>, <body>, <article>, <main>, role="main" or "article"), 2 for a link,
    else 0."""
    cdef uc_node_t *element = _element(node)
    cdef uintptr_t tag = element.local_name
    if (
        tag == HTML_TAG or tag == BODY_TAG or tag == ARTICLE_TAG or tag == MAIN_TAG
        or _role_is(element, "main") or _role_is(element, "article")
    ):
        return 1
    return 2 if tag == A_TAG else 0


def slug_id(LexborNode node, Py_ssize_t min_words):
    """The element's id if it may be a heading's slug, else None: None as well when
    it is ASCII and has fewer than ``min_words`` runs of letters and digits (the
    words of ``re.findall("[a-z0-9]+", ident.lower())``; other ids are returned,
    since lower() can turn a non-ASCII letter into an ASCII one)."""
    cdef uc_attr_t *attr = (<uc_element_t *> _element(node)).attr_id
    cdef const unsigned char *data
    cdef size_t k
    cdef Py_ssize_t words = 0
    cdef bint inside = False, alnum
    if attr == NULL or attr.value == NULL or attr.value.data == NULL or attr.value.length == 0:
        return None
    data = attr.value.data
    for k in range(attr.value.length):
        if data[k] >= 0x80:
            return _value(attr)
        alnum = (48 <= data[k] <= 57) or (65 <= data[k] <= 90) or (97 <= data[k] <= 122)
        if alnum and not inside:
            words += 1
        inside = alnum
    return _value(attr) if words >= min_words else None


def hidden_attributes(LexborNode node):
    """What prune reads of an element that may be hidden, as ``node.attributes``
    holds it (a missing or empty value reads None): (whether it has a hidden
    attribute or aria-hidden="true", style, id, role, class, aria-labelledby)."""
    cdef uc_node_t *element = _element(node)
    cdef uc_attr_t *aria = _plain_attribute(element, ARIA_HIDDEN_NAME)
    hidden = _plain_attribute(element, HIDDEN_NAME) != NULL or (
        aria != NULL and aria.value != NULL and aria.value.data != NULL
        and aria.value.length == 4 and memcmp(aria.value.data, b"true", 4) == 0
    )
    return (
        hidden,
        _value(_plain_attribute(element, STYLE_NAME)),
        _value((<uc_element_t *> element).attr_id),
        _value(_plain_attribute(element, ROLE_NAME)),
        _value((<uc_element_t *> element).attr_class),
        _value(_plain_attribute(element, ARIA_LABELLEDBY_NAME)),
    )


def neighbour_text(LexborNode node):
    """The text of the node's previous and next siblings that are text nodes, joined
    by a space ("" without either)."""
    cdef uc_node_t *before = node.node.prev
    cdef uc_node_t *after = node.node.next
    cdef list parts = []
    if before != NULL and before.local_name == TEXT_TAG:
        parts.append(_text(before))
    if after != NULL and after.local_name == TEXT_TAG:
        parts.append(_text(after))
    return " ".join(parts)




def first_heading(LexborNode node):
    """``node.css_first("h1, h2, h3, h4, h5, h6")``: the first heading element under
    ``node`` in document order, ``node`` itself included; None without one."""
    cdef uc_node_t *start = node.node
    cdef uc_node_t *current = start
    cdef uintptr_t tag
    while current != NULL:
        if current.type == LXB_DOM_NODE_TYPE_ELEMENT:
            tag = current.local_name
            if (
                tag == H1_TAG or tag == H2_TAG or tag == H3_TAG or tag == H4_TAG
                or tag == H5_TAG or tag == H6_TAG
            ):
                return _wrap(current, node.parser)
        current = _next_in_order(current, start)
    return None


# ------------------------------------------------------------ the HTML rendering's holders


def block_holders(list blocks, list keep, LexborNode root):
    """What render.html reads of the blocks before its walk: the ``mem_id``s of the
    kept blocks' nodes and of the dropped ones' (two sets), and of the elements, from a
    node's parent up to ``root``, that hold a kept block's node and that hold a dropped
    block's text (two more sets, ``root`` in both). A dropped block's text node of
    whitespace alone holds no text.

    In Python each node's parent, tag and text were selectolax objects and strings made
    for the look: the HTML rendering at the median WCXB dev page took 1.40 / 1.38 ms
    with it, 1.34 / 1.32 ms with this (two alternated runs, every third page).
    """
    if len(blocks) != len(keep):
        raise ValueError("one keep flag per block")
    cdef size_t root_mem = <size_t> root.node
    cdef set kept_ids = set(), dropped_ids = set()
    cdef set holds_kept = {root_mem}, holds_dropped = {root_mem}
    cdef set ids, holds
    cdef LexborNode node
    cdef uc_node_t *parent
    cdef Py_ssize_t i
    cdef bint kept
    for i in range(len(blocks)):
        kept = keep[i]
        ids, holds = (kept_ids, holds_kept) if kept else (dropped_ids, holds_dropped)
        for item in blocks[i].nodes:
            node = <LexborNode?> item
            ids.add(<size_t> node.node)
            if not kept and node.node.local_name == TEXT_TAG and _whitespace(node.node):
                continue
            # Blocks share their ancestors: each is looked at once.
            parent = node.node.parent
            while parent != NULL and (<size_t> parent) not in holds:
                holds.add(<size_t> parent)
                parent = parent.parent
    return kept_ids, dropped_ids, holds_kept, holds_dropped


cdef bint _whitespace(uc_node_t *node) except -1:
    """Whether a text node's text is whitespace to str.isspace (text_content.isspace())."""
    if _blank_only(node):
        return True
    return _text(node).isspace()
