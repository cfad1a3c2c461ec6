"""`python -m bench.dedupe`: similarity of paraphrase, update and distinct memory pairs (see bench.dedupe.run)."""

import sys

from bench.dedupe.run import main

sys.exit(main())
