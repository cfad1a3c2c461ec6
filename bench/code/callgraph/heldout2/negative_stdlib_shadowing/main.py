"""Path/settings helpers whose names collide with stdlib and builtin methods.
Most calls below go to the stdlib, not to the same-named functions defined here."""
import math
import operator
import os.path


def join(*parts):
    return "/".join(part.strip("/") for part in parts)


def split(path):
    return path.rsplit("/", 1)


def sqrt(x):
    return x ** 0.5


class Settings:
    def __init__(self):
        self.items = {}

    def get(self, key, default=None):
        return self.items.get(key, default)

    def update(self, other):
        for key, value in other.items():
            self.items[key] = value

    def keys(self):
        return sorted(self.items.keys())


def compute(op, values):
    fn = getattr(math, op)
    return [fn(v) for v in values]


def apply_method(obj, name, *args):
    return getattr(obj, name)(*args)


def main():
    settings = Settings()
    settings.update({"root": "/srv", "debug": True})
    config = {"root": "/var", "get": None}
    print(os.path.join(config.get("root"), "data"), os.path.split("/a/b"))
    print(join("/srv/", "data"), split("a/b/c"))
    print(settings.get("root"), settings.keys())
    print(", ".join(["x", "y"]), "a b".split(), sorted(config.keys()))
    print(compute("sqrt", [4.0, 9.0]), math.sqrt(16), sqrt(25))
    print(apply_method("a-b-c", "split", "-"), apply_method([3, 1, 2], "index", 2))
    ops = {"add": operator.add, "mul": operator.mul}
    for name in sorted(ops):
        print(name, ops[name](3, 4))
    merged = dict(config)
    merged.update(debug=False)
    print(merged.get("debug"), getattr(merged, "keys")())


main()
