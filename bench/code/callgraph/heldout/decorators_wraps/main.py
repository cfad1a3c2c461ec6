import functools


def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        print(f"-> {func.__name__}{args}")
        return func(*args, **kwargs)
    return wrapper


def repeat(times):
    def decorate(func):
        @functools.wraps(func)
        def runner(*args, **kwargs):
            return [func(*args, **kwargs) for _ in range(times)]
        return runner
    return decorate


@logged
def add(a, b):
    return a + b


@repeat(2)
@logged
def greet(name):
    return "hi " + name


def main():
    assert add(1, 2) == 3
    assert greet("bob") == ["hi bob", "hi bob"]
    assert greet.__wrapped__.__wrapped__("ann") == "hi ann"


main()
