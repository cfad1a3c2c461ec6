"""`python -m bench.context`: run the context benchmark and print the markdown report (see bench.context.run)."""

import sys

from bench.context.run import main

sys.exit(main())
