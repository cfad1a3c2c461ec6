import json
import math
import operator


def loads(text):          # same name as json.loads
    return {"shadow": True}


def append(item):         # same name as list.append
    return [item]


def sqrt(x):              # same name as math.sqrt
    return -1.0


class Record:
    def get(self, key):   # same name as dict.get
        return "record"

    def keys(self):       # same name as dict.keys
        return ["record"]


def compute(op_name, a, b):
    fn = getattr(operator, op_name)        # computed attribute of a stdlib module
    return fn(a, b)


def evaluate(expr):
    return eval(expr, {"__builtins__": {}}, {"pi": math.pi})


def main():
    data = json.loads('{"a": 1, "b": 2}')
    out = []
    for key in data.keys():
        out.append(data.get(key))
    print(math.sqrt(sum(out)), compute("add", 2, 3), evaluate("pi * 2"))
    method = "up" + "per"
    print(getattr("abc", method)())


main()
