"""mylab: an example package with a Mastermind player of its own."""
