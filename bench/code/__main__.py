"""`python -m bench.code`: run the code-intelligence benchmarks and print the markdown report (see bench.code.run)."""

import sys

from bench.code.run import main

sys.exit(main())
