"""`python -m bench.notes`: rebuild memories from git notes (see bench.notes.run)."""

import sys

from bench.notes.run import main

sys.exit(main())
