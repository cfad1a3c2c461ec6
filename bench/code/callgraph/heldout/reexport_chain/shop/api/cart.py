__all__ = ["Cart"]

PRICES = {"apple": 0.5, "pear": 0.75}


def _price(item):
    return PRICES.get(item, 1.0)


class Cart:
    def __init__(self):
        self.items = {}

    def add(self, item, qty=1):
        self.items[item] = self.items.get(item, 0) + qty
        return self

    def total(self):
        return sum(_price(i) * q for i, q in self.items.items())
