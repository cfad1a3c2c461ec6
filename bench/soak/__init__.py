"""The concurrency soak (`python -m bench.soak --minutes 10`): every kind of learnmem process on one file at once."""
