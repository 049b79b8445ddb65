"""An example partition heuristic for evo_mastermind (see ``scores``)."""
