"""An app assembled from cooperative middleware mixins that chain through super()."""
from framework import AuthMixin, CorsMixin, Handler, LoggingMixin


class App(LoggingMixin, AuthMixin, CorsMixin, Handler):
    def __init__(self):
        super().__init__("app", logger=self.record)
        self.lines = []

    def record(self, line):
        self.lines.append(line)


class PublicApp(CorsMixin):
    pass


def main():
    app = App()
    for request in ({"path": "/"}, {"path": "/me", "token": "t0k"}, {"path": "/admin"}):
        print(app.handle(request))
    print(app.lines)
    print(PublicApp("public").handle({"path": "/feed"}))
    LoggingMixin("solo").handle({"path": "/ping"})


if __name__ == "__main__":
    main()
