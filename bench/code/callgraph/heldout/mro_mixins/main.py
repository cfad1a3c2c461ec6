class ReprMixin:
    def describe(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in self.fields().items())
        return f"{type(self).__name__}({fields})"


class ComparableMixin:
    def key(self):
        return tuple(self.fields().values())

    def same_as(self, other):
        return self.key() == other.key()


class Entity:
    def __init__(self, ident):
        self.ident = ident

    def fields(self):
        return {"ident": self.ident}

    def key(self):
        return (self.ident,)


class Point(ReprMixin, ComparableMixin, Entity):
    def __init__(self, x, y):
        Entity.__init__(self, f"{x},{y}")
        self.x, self.y = x, y

    def fields(self):
        return {"x": self.x, "y": self.y}


class Tag(ComparableMixin, Entity):
    pass


class Label(Entity, ComparableMixin):
    pass


def main():
    p = Point(1, 2)
    print(p.describe(), p.same_as(Point(1, 2)))
    print(Tag("a").same_as(Tag("a")), Label("x").same_as(Label("y")))


main()
