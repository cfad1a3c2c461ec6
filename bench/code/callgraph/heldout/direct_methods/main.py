class Parser:
    """Tiny recursive-descent parser for sums like '1 + 22 + 3'."""

    def __init__(self, text):
        self.text = text
        self.pos = 0

    def peek(self):
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def advance(self):
        ch = self.peek()
        self.pos += 1
        return ch

    def parse_number(self):
        digits = ""
        while self.peek().isdigit():
            digits += self.advance()
        return int(digits)

    def parse_sum(self):
        total = self.parse_number()
        while self.peek() == "+":
            self.advance()
            total += self.parse_number()
        return total


def evaluate(expr):
    return Parser(expr.replace(" ", "")).parse_sum()


if __name__ == "__main__":
    assert evaluate("1 + 22 + 3") == 26
