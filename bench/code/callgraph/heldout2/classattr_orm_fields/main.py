"""ORM-ish models: class attributes hold field descriptors, the manager class and a naming function."""


def to_int(value):
    return int(value)


def to_str(value):
    return str(value).strip()


def snake_table(cls):
    return cls.__name__.lower() + "s"


def log_table(cls):
    return cls.__name__.lower() + "_log"


class Field:
    def __init__(self, convert, default=None):
        self.convert = convert
        self.default = default

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return obj.__dict__.get(self.name, self.default)

    def __set__(self, obj, value):
        obj.__dict__[self.name] = self.convert(value)


class Manager:
    def __init__(self, model):
        self.model = model
        self.rows = []

    def create(self, **values):
        obj = self.model()
        for key, value in values.items():
            setattr(obj, key, value)
        self.rows.append(obj)
        return obj


class AuditManager(Manager):
    def create(self, **values):
        print("audit: insert into", self.model.table())
        return Manager.create(self, **values)


class Model:
    manager_class = Manager
    naming = staticmethod(snake_table)

    @classmethod
    def table(cls):
        return cls.naming(cls)

    @classmethod
    def objects(cls):
        if "_manager" not in cls.__dict__:
            cls._manager = cls.manager_class(cls)
        return cls._manager


class User(Model):
    id = Field(to_int)
    name = Field(to_str, default="anonymous")


class Event(Model):
    manager_class = AuditManager
    naming = staticmethod(log_table)
    id = Field(to_int)
    kind = Field(str)


def main():
    ann = User.objects().create(id="7", name="  ann ")
    anon = User.objects().create(id=8)
    Event.objects().create(id="1", kind="login")
    print(ann.id, ann.name, anon.name, User.table(), Event.objects().rows[0].id, User.id.name)


main()
