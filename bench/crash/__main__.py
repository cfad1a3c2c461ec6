"""`python -m bench.crash`: kill writers with SIGKILL, then check the file through every door (see bench.crash.run)."""

import sys

from bench.crash.run import main

sys.exit(main())
