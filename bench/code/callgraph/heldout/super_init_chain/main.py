class Handler:
    def __init__(self, name):
        self.name = name
        self.log = []

    def handle(self, event):
        self.log.append(event)
        return True


class FilteringHandler(Handler):
    def __init__(self, name, allowed):
        super().__init__(name)
        self.allowed = set(allowed)

    def handle(self, event):
        if event not in self.allowed:
            return False
        return super().handle(event)


class CountingHandler(FilteringHandler):
    def __init__(self, name, allowed):
        super().__init__(name, allowed)
        self.count = 0

    def handle(self, event):
        ok = super().handle(event)
        self.count += ok
        return ok


class AuditHandler(CountingHandler):
    pass


def main():
    handlers = [FilteringHandler("f", ["a"]), AuditHandler("audit", ["a", "b"])]
    for event in ["a", "b", "c"]:
        for h in handlers:
            h.handle(event)
    print([(h.name, h.log) for h in handlers], handlers[1].count)


main()
