"""The compiled parts of unchrome, in src/unchrome/_native/: the walks over the DOM
(_dom.pyx), the attribute cap's scanner (_markup.pyx), the density score's sums over
the blocks (_blocks.pyx), the statistics of a block's text that the block model reads
(_blocktext.pyx), the block model's feature matrix (_features.pyx) and its trees
(_trees.pyx), and the density selection's loops over the elements (_select.pyx).

Everything else is in pyproject.toml. Cython and a C compiler build it at install
time (``pip install -e .``): gcc and the Python headers are all it needs.

-O3, not -O2: run alone (best of three a page, every page of both sets), the -O2
build's p50 was 3.79 ms (WCXB dev) and 3.33 ms (news), the -O3 build's 3.38 and 3.07,
with the same texts.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [
            Extension(
                f"unchrome._native.{name}",
                [f"src/unchrome/_native/{name}.pyx"],
                # lexbor's headers, for the structs the DOM walks read (third_party/lexbor).
                include_dirs=["third_party/lexbor"],
                extra_compile_args=["-O3"],
            )
            for name in (
                "_arrays",
                "_dom",
                "_markup",
                "_blocks",
                "_blocktext",
                "_features",
                "_trees",
                "_select",
            )
        ],
        language_level=3,
    )
)
