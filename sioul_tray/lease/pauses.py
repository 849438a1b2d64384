"""The garbage collector held back while a read builds thousands of short-lived objects.

CPython starts a collection pass every few hundred new container objects, whatever they are. A
tick with 1,000 computers makes a few for each of 2,000 claim files and frees as many (the
previous tick's), none of them in a cycle: the dozen passes it would trigger find nothing to
collect and cost 5% of the tick. Mercurial does the same around its large reads (``util.nogc``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_held() -> Iterator[None]:
    """No collection pass inside the block; what is left is counted by the next one as usual.

    Nested blocks and a collector the program switched off are left as they are.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
