"""`python -m bench.capture`: precision and recall of automatic capture (see bench.capture.run)."""

import sys

from bench.capture.run import main

sys.exit(main())
