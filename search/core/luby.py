"""Luby's sequence, the restart schedule of the searches and models that
restart (Luby, Sinclair and Zuckerman, 1993: within a log factor of the best
fixed schedule when run lengths vary wildly with early choices)."""

from __future__ import annotations


def luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
