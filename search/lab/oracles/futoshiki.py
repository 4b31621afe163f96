"""The brute-force Futoshiki oracle for tests (it lives in ``search.lab.oracles``,
where ``gridcp crosscheck --random`` uses it too)."""

from search.lab.oracles import futoshiki_count as brute_force_count
from search.lab.oracles import random_futoshiki as random_puzzle

__all__ = ["brute_force_count", "random_puzzle"]
