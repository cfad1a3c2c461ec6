"""`python -m bench.hooks`: time the Claude Code hooks as processes and print the markdown report (see bench.hooks.run)."""

import sys

from bench.hooks.run import main

sys.exit(main())
