"""The command line: parsing, the catalogue, progress, the manifest of
expected answers, and the commands that answer (solve, count, check, draw...).
The lab's commands (crosscheck, bench, report) plug in by name."""
