"""`python -m bench.ghap`: run the GHAP benchmarks and print the markdown report (see bench.ghap.run)."""

import sys

from bench.ghap.run import main

sys.exit(main())
