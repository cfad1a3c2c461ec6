"""`python -m bench.gate`: the benchmark gate (bench/gate)."""

import sys

from bench.gate.run import main

sys.exit(main())
