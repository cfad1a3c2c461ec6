"""Test-fixture teardown helpers that call methods on objects of unknown origin.
The case's own Connection.close/run are reached only by direct calls."""
import io
import json
import types
from unittest import mock


class Connection:
    def __init__(self, dsn):
        self.dsn = dsn
        self.closed = False

    def run(self, sql):
        return [sql]

    def close(self):
        self.closed = True


def teardown(resources):
    for resource in resources:
        resource.close()


def run_all(jobs):
    return [job.run() for job in jobs]


def load_fixture(text):
    data = json.loads(text)
    return data.get("rows", []), data.pop("name")


def notify(callback, message):
    return callback(message)


def main():
    conn = Connection("sqlite://:memory:")
    print(conn.run("select 1"))
    conn.close()
    fake = mock.Mock()
    fake.run.return_value = ["mocked"]
    teardown([io.StringIO("buffer"), fake])
    jobs = [types.SimpleNamespace(run=list), fake]
    print(run_all(jobs))
    print(load_fixture('{"name": "users", "rows": [1, 2]}'))
    notify(print, "done")
    notify(fake.notify, "also done")
    print(fake.close.called, conn.closed)


if __name__ == "__main__":
    main()
