"""`python -m bench.git`: run the git-history benchmarks and print the markdown report (see bench.git.run)."""

import sys

from bench.git.run import main

sys.exit(main())
