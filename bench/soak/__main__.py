"""`python -m bench.soak`: run the concurrency soak and print the markdown report (see bench.soak.run)."""

import sys

from bench.soak.run import main

sys.exit(main())
