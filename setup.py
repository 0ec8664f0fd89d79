"""Build the optional C core of the double-dummy solver (metadata lives in pyproject.toml).

``pip install -e .`` compiles ``sueca/solver/_dds.c``; where no C compiler is available the
install still succeeds and :mod:`sueca.solver` falls back to its pure-Python search.
"""

import os
import platform

from setuptools import Extension, setup

# The search counts cards with popcount: every x86-64 processor since 2008 has the instruction.
X86 = platform.machine().lower() in ("x86_64", "amd64")

setup(
    ext_modules=[
        Extension(
            "sueca.solver._dds",
            sources=["sueca/solver/_dds.c"],
            extra_compile_args=["-O3", "-std=c11", *(["-mpopcnt"] if X86 else [])],
            # the solver's threads (POSIX threads; elsewhere the core runs on one)
            extra_link_args=["-pthread"] if os.name == "posix" else [],
            optional=True,
        )
    ]
)
