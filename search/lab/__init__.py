"""What measures rather than answers: crosscheck, the independent oracles,
bench sweeps and their results files, suites, peers, reports."""
