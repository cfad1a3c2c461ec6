"""`python -m bench`: run the benchmarks and print the markdown report (see bench.run)."""

import sys

from bench.run import main

sys.exit(main())
