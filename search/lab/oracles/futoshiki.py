"""The brute-force Futoshiki oracle for tests (it lives in ``search.oracles``,
where ``gridcp crosscheck --random`` uses it too)."""

from search.oracles import futoshiki_count as brute_force_count
from search.oracles import random_futoshiki as random_puzzle

__all__ = ["brute_force_count", "random_puzzle"]
