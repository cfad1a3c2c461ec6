class Plugin:
    registry = {}

    @classmethod
    def register(cls, name):
        def deco(plugin_cls):
            cls.registry[name] = plugin_cls
            return plugin_cls
        return deco

    @classmethod
    def create(cls, name, **options):
        return cls.registry[name](**options)

    @staticmethod
    def normalize(text):
        return text.strip().lower()

    def run(self, text):
        return self.process(self.normalize(text))


@Plugin.register("upper")
class Upper(Plugin):
    def process(self, text):
        return text.upper()


@Plugin.register("repeat")
class Repeat(Plugin):
    def __init__(self, times=2):
        self.times = times

    def process(self, text):
        return text * self.times


for name, options in [("upper", {}), ("repeat", {"times": 3})]:
    plugin = Plugin.create(name, **options)
    print(plugin.run("  Hi "))
print(Plugin.normalize(" X "))
