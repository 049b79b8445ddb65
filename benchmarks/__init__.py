"""Speed and quality benchmarks; each writes its figures to benchmarks/results/."""
