import functools


class Rectangle:
    def __init__(self, width, height):
        self._width = width
        self._height = height

    @staticmethod
    def _check(value):
        if value <= 0:
            raise ValueError("size must be positive")
        return value

    @property
    def width(self):
        return self._width

    @width.setter
    def width(self, value):
        self._width = self._check(value)

    @property
    def area(self):
        return self.width * self._height

    @functools.cached_property
    def diagonal(self):
        return (self.width ** 2 + self._height ** 2) ** 0.5


def describe(rect):
    return f"{rect.width}x{rect._height} area={rect.area} diag={rect.diagonal:.1f}"


def main():
    rect = Rectangle(3, 4)
    print(describe(rect))
    rect.width = 6
    print(rect.area)


main()
