"""The compiled part of unchrome: the segment walk (src/unchrome/_segment.pyx).

Everything else is in pyproject.toml. Cython and a C compiler build it at install
time (``pip install -e .``): gcc and the Python headers are all it needs.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("unchrome._segment", ["src/unchrome/_segment.pyx"], extra_compile_args=["-O2"])],
        language_level=3,
    )
)
