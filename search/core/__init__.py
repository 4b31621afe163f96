"""What knows no puzzle: the backend contract and status words (``contract``),
limits, the puzzle-kind table and the registry, the ways in and out of files,
Luby's sequence.  Everything else in gridcp builds on this layer."""
