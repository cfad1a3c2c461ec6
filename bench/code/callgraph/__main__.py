import sys

from bench.code.callgraph import main

sys.exit(main())
