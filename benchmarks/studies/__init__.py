"""Studies beyond what the players need: code used only to measure them."""
