class Config:
    class Section:
        def __init__(self, name, values):
            self.name = name
            self.values = values

        def get(self, key, default=None):
            return self.values.get(key, default)

    def __init__(self, data):
        self.sections = {k: Config.Section(k, v) for k, v in data.items()}

    def get(self, section, key):
        sec = self.sections.get(section)
        return sec.get(key) if sec else None


def make_validator(required):
    class Validator:
        def missing(self, config):
            return [k for k in required if config.get("main", k) is None]

        def check(self, config):
            return not self.missing(config)

    return Validator()


def main():
    cfg = Config({"main": {"host": "localhost", "port": 80}})
    validator = make_validator(["host", "user"])
    print(validator.missing(cfg), validator.check(cfg), cfg.get("other", "x"))


main()
