"""The file and the lake: opening the store, named SQL queries, migrations, locks, snapshot caches and vectors.

Only this package opens connections; every other package asks the store for a cursor."""
