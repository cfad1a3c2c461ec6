registry = {}


class Plugin:
    name = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name:
            registry[cls.name] = cls

    def __init__(self, options=None):
        self.options = options or {}

    def export(self, data):
        return self.serialize(self.prepare(data))

    def prepare(self, data):
        return list(data)


def get_plugin(name, **options):
    return registry[name](options)
