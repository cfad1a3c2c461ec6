def default_validator(value):
    return isinstance(value, int)


def positive(value):
    return default_validator(value) and value > 0


class Setting:
    def __init__(self, name, validator=default_validator):
        self.name = name
        self.validator = validator
        self.on_change = None
        self.value = None

    def update(self, value):
        if not self.validator(value):
            raise ValueError(f"bad value for {self.name}: {value!r}")
        old, self.value = self.value, value
        if self.on_change is not None:
            self.on_change(self.name, old, value)


def print_change(name, old, new):
    print(f"{name}: {old} -> {new}")


def main():
    retries = Setting("retries")
    retries.update(3)
    timeout = Setting("timeout", validator=positive)
    timeout.on_change = print_change      # hook attached after construction
    timeout.update(5)
    try:
        timeout.update(-1)
    except ValueError as exc:
        print(exc)


main()
