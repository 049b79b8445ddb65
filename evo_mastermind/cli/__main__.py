"""``python -m evo_mastermind.cli``: the command line."""

import sys

from evo_mastermind.cli import console

sys.exit(console())
