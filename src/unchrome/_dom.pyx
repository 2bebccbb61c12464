# cython: language_level=3
"""The walks over the DOM, compiled: segment.segment's, and prune's search for the
never-content tags and the elements with a class or an id. They read lexbor's node
structs directly instead of through selectolax's Python attributes.

Through the Python API every node visited costs several attribute reads, each a new
Python object (``node.child``, ``node.next``, ``node.tag_id``, ``node.text_content``,
``node.attrs``). Here a node is a C pointer; a Python object is made only where the
walk keeps one (the element table, the text nodes of a block) or hands the node to a
helper written against the selectolax API (tables, permalinks, elements past the depth
cap). segment took 1.37 ms a page before, 0.95 ms after (mean over 699 pages of both
sets, the same blocks). What is left is mostly the Python objects the pipeline keeps,
and memory: counting the text length of a whole body in C (lexbor's nodes read one by
one) took 0.22 ms against selectolax's 0.27 ms, so that stayed selectolax's.

Only the fields read are declared below: prefixes of lexbor's structs (lexbor 3.1.0,
as bundled in selectolax 1.0.2; Apache-2.0, Copyright Alexander Borisov) and the C
layout of selectolax's LexborNode object. They hold for the selectolax version that
pyproject.toml pins exactly; ``_check_selectolax`` refuses any other at import, since
a layout that moved would be read as garbage.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport uintptr_t

import selectolax

from unchrome.segment import (
    BLOCK_TAGS,
    BR,
    CARD_BLOCKS,
    FLAG_IN_LINK,
    FLAG_ROW,
    FLAG_SHORT,
    HEADINGS,
    LENGTH_FILTERED,
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
    is_data_table,
    table_rows,
)

SELECTOLAX_VERSION = "1.0.2"

# What the walk reads per node, as C variables: a module global is a dict lookup each
# time it is named, and the loop names these for every node of the page.
cdef int TEXT_ACTION = _TEXT, BR_ACTION = _BR, PRE_ACTION = _PRE, TABLE_ACTION = _TABLE
cdef int SKIP_ACTION = _SKIP, INLINE_ACTION = _INLINE
cdef frozenset BLOCK_TAG_SET = BLOCK_TAGS, HEADING_SET = HEADINGS, CARD_SET = CARD_BLOCKS
cdef frozenset LENGTH_FILTERED_SET = LENGTH_FILTERED
cdef str LINE_BREAK = BR


def _check_selectolax() -> None:
    if selectolax.__version__ != SELECTOLAX_VERSION:
        raise ImportError(
            f"unchrome's compiled walk reads the DOM of selectolax {SELECTOLAX_VERSION}; "
            f"selectolax {selectolax.__version__} is installed (pip install "
            f"'selectolax=={SELECTOLAX_VERSION}')"
        )


_check_selectolax()

cdef extern from *:
    """
    #include <stdint.h>
    #include <stddef.h>
    typedef struct uc_node uc_node_t;
    typedef struct { unsigned char *data; size_t length; } uc_str_t;   /* lexbor_str_t */
    struct uc_node {                     /* lxb_dom_node_t */
        void *events;                    /* lxb_dom_event_target_t */
        uintptr_t local_name, prefix, ns;
        void *owner_document;
        uc_node_t *next, *prev, *parent, *first_child, *last_child;
        void *user;
        int type;                        /* lxb_dom_node_type_t */
    };
    typedef struct uc_attr {             /* lxb_dom_attr_t (prefix) */
        uc_node_t node;
        uintptr_t upper_name, qualified_name;
        uc_str_t *value;
    } uc_attr_t;
    typedef struct {                     /* lxb_dom_element_t (prefix) */
        uc_node_t node;
        uintptr_t upper_name, qualified_name;
        uc_str_t *is_value;
        uc_attr_t *first_attr, *last_attr;
        uc_attr_t *attr_id, *attr_class;
    } uc_element_t;
    typedef struct { uc_node_t node; uc_str_t data; } uc_chardata_t;  /* character data */
    typedef struct {                     /* selectolax.lexbor.LexborNode */
        PyObject_HEAD
        void *vtab;
        uc_node_t *node;
        PyObject *parser;
        int _is_fragment_root;
        int _is_template_content;
    } uc_LexborNodeObject;
    """
    ctypedef struct uc_str_t:
        unsigned char *data
        size_t length
    ctypedef struct uc_node_t:
        uintptr_t local_name
        uc_node_t *next
        uc_node_t *parent
        uc_node_t *first_child
        int type
    ctypedef struct uc_attr_t:
        uc_str_t *value
    ctypedef struct uc_element_t:
        uc_attr_t *attr_id
        uc_attr_t *attr_class
    ctypedef struct uc_chardata_t:
        uc_str_t data

cdef extern from *:
    ctypedef class selectolax.lexbor.LexborNode [object uc_LexborNodeObject, check_size error]:
        cdef uc_node_t *node
        cdef object parser
        cdef int _is_fragment_root
        cdef int _is_template_content

cdef enum:
    ELEMENT_NODE = 1
    TEXT_NODE = 3


cdef inline LexborNode _wrap(uc_node_t *node, object parser):
    """A selectolax node for ``node``, as selectolax's own LexborNode.new makes one."""
    cdef LexborNode obj = LexborNode.__new__(LexborNode)
    obj.node = node
    obj.parser = parser
    obj._is_fragment_root = 0
    obj._is_template_content = 0
    return obj


cdef inline object _text(uc_node_t *node):
    """A text node's text, bytes lexbor could not decode replaced (as text_content)."""
    cdef uc_chardata_t *chars = <uc_chardata_t *> node
    if chars.data.data == NULL:
        return ""
    return PyUnicode_DecodeUTF8(<char *> chars.data.data, chars.data.length, "replace")


cdef inline bint _blank_only(uc_node_t *node) noexcept:
    """Whether a text node holds only whitespace that str.isspace() calls whitespace
    among the ASCII characters (and at least one): the indentation between tags,
    about half the text nodes, need not be decoded to be left out."""
    cdef uc_chardata_t *chars = <uc_chardata_t *> node
    cdef size_t k
    cdef unsigned char c
    if chars.data.data == NULL or chars.data.length == 0:
        return False
    for k in range(chars.data.length):
        c = chars.data.data[k]
        if not (c == 0x20 or (0x09 <= c <= 0x0D) or (0x1C <= c <= 0x1F)):
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


def segment(
    LexborNode root,
    vocab=EMPTY_VOCABULARY,
    *,
    bint include_tables=True,
    Py_ssize_t max_depth=1 << 30,
    marks=None,
):
    """The blocks under ``root`` in document order, with their element table.

    The walk keeps an explicit stack and is the depth guard of the pipeline: an element
    at ``max_depth`` is read as plain text, one block node. ``marks`` maps element
    ``mem_id``s to FLAG_* bits that every block inside the element carries (comment
    sections, the caller's selector).
    """
    seg = Segmentation()
    cdef list blocks = seg.blocks
    cdef list nodes = seg.nodes
    cdef list tags = seg.tags
    cdef list parents = seg.parents
    cdef list chrome = seg.chrome
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
        if LINE_BREAK in raw:
            lines = [" ".join(part.split()) for part in raw.split(LINE_BREAK)]
            text = "\n".join([line for line in lines if line])
        else:
            text = " ".join(raw.split())
        if not text:
            return
        if kind in LENGTH_FILTERED_SET and len(text) < SHORT_PARAGRAPH_CHARS:
            block_flags |= FLAG_SHORT
        blocks.append(Block(kind, text, owner, chars, near, far, block_flags, tuple(path), sources))

    def open_element(LexborNode opened, tag, parent):
        # Register a block element; return (its id, its own mask).
        mask = tag_bits.get(tag, 0)
        named_chrome = False
        names = _class_id(opened.node)
        if names is not None:
            verdict = verdicts.get(names)
            if verdict is None:
                verdict = names_of(names)
            words, named_chrome = verdict
            mask |= words
        nodes.append(opened)
        tags.append(tag)
        parents.append(parent)
        chrome.append(named_chrome)
        return len(nodes) - 1, mask

    # The walk starts at the root itself (a caller's selector may match a <table> or a
    # <pre>) and never leaves it. Tag names and what the walk does with them
    # (segment._action) are kept by lexbor tag id (the node's local_name), filled as
    # the walk meets them: within one document an id names one tag.
    while node != NULL:
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
                    link_chars += len(content.strip())
        elif action == BR_ACTION:
            buf.append(LINE_BREAK)
        elif action == PRE_ACTION or (
            action == TABLE_ACTION and is_data_table(_wrap(node, parser))
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
                for row, row_links, row_node in table_rows(wrapped):
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
                tag == "a" and kind in HEADING_SET and _is_permalink(_wrap(node, parser))
            ):
                pass
            elif not is_block and child.type == TEXT_NODE and child.next == NULL:
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
                        link_chars += len(content.strip())
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


def tagged(LexborNode root, ids):
    """The elements under ``root`` (itself included) whose lexbor tag id is in ``ids``
    (ids below 1024), in document order."""
    cdef bytearray table = bytearray(1024)
    for tag_id in ids:
        table[tag_id] = 1
    cdef unsigned char *wanted = table
    cdef list found = []
    parser = root.parser
    cdef uc_node_t *start = root.node
    cdef uc_node_t *node = start
    while node != NULL:
        if node.type == ELEMENT_NODE and node.local_name < 1024 and wanted[node.local_name]:
            found.append(_wrap(node, parser))
        node = _next_in_order(node, start)
    return found


def named(LexborNode root):
    """(element, "class id") for every element under ``root`` (itself included) with a
    class or an id attribute, in document order: what body.css("[class], [id]") finds,
    with the names prune reads off each (an absent or empty value reads as "")."""
    cdef list found = []
    parser = root.parser
    cdef uc_node_t *start = root.node
    cdef uc_node_t *node = start
    while node != NULL:
        if node.type == ELEMENT_NODE:
            names = _class_id(node)
            if names is not None:
                found.append((_wrap(node, parser), names))
        node = _next_in_order(node, start)
    return found


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
