"""A minimal test runner: fixture factories are injected into tests by parameter name."""
import inspect


def make_db():
    return {"users": ["ann"]}


def empty_db():
    return {"users": []}


def make_client(db_factory=make_db):
    db = db_factory()
    return {"db": db, "get": db["users"].__getitem__}


def resolve(test, factories):
    params = inspect.signature(test).parameters
    return {name: factories[name]() for name in params}


def run_test(test, factories, reporter):
    kwargs = resolve(test, factories)
    try:
        test(**kwargs)
        reporter(test.__name__, "ok")
    except AssertionError as exc:
        reporter(test.__name__, "FAIL: %s" % exc)


def test_user_exists(db):
    assert "ann" in db["users"]


def test_client_reads(client):
    assert client["get"](0) == "ann"


def test_db_empty(db):
    assert not db["users"], "expected no users"


def console(name, outcome):
    print("%-20s %s" % (name, outcome))


def main():
    factories = {"db": make_db, "client": make_client}
    for test in (test_user_exists, test_client_reads, test_db_empty):
        run_test(test, factories, console)
    run_test(test_db_empty, {"db": empty_db}, console)
    results = []
    run_test(test_user_exists, {"db": lambda: {"users": ["ann"]}},
             reporter=lambda name, outcome: results.append(outcome))
    print(results)


main()
