class Calculator:
    rounder = round   # builtin stored as a class attribute: no edge

    def _add(self, a, b):
        return a + b

    def _sub(self, a, b):
        return a - b

    def _div(self, a, b):
        if b == 0:
            return self.on_zero(a)
        return a / b

    def on_zero(self, a):
        return float("inf")

    OPS = {"+": _add, "-": _sub, "/": _div}

    def apply(self, op, a, b):
        return self.rounder(self.OPS[op](self, a, b), 3)


class SafeCalculator(Calculator):
    def on_zero(self, a):
        return 0


def main():
    calc, safe = Calculator(), SafeCalculator()
    print(calc.apply("+", 1, 2), calc.apply("-", 5, 3), calc.apply("/", 1, 3))
    print(calc.apply("/", 1, 0), safe.apply("/", 1, 0))


main()
