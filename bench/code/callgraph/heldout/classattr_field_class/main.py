def to_upper(name):
    return name.upper()


def to_snake(name):
    return name.replace(" ", "_").lower()


class Field:
    transform = staticmethod(to_upper)

    def __init__(self, name):
        self.name = name

    def key(self):
        return self.transform(self.name)


class SnakeField(Field):
    transform = staticmethod(to_snake)


class Schema:
    field_class = Field

    def __init__(self, *names):
        self.fields = [self.field_class(n) for n in names]

    def keys(self):
        return [f.key() for f in self.fields]


class SnakeSchema(Schema):
    field_class = SnakeField


print(Schema("user id", "Name").keys())
print(SnakeSchema("user id", "Created At").keys())
