"""`python -m bench.learning`: run the learning benchmarks and print the markdown report (see bench.learning.run)."""

import sys

from bench.learning.run import main

sys.exit(main())
