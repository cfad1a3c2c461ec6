"""TCP-like connection state machine: states are classes; unhandled events fall back to the base."""


class State:
    def handle(self, conn, event):
        if event == "open":
            return self.open(conn)
        if event == "close":
            return self.close(conn)
        return self.unknown(conn, event)

    def open(self, conn):
        return self.invalid(conn, "open")

    def close(self, conn):
        return self.invalid(conn, "close")

    def unknown(self, conn, event):
        return self.invalid(conn, event)

    def invalid(self, conn, event):
        conn.errors.append("%s while %s" % (event, type(self).__name__))
        return self


class Closed(State):
    def open(self, conn):
        conn.log("syn sent")
        return Opening()


class Opening(State):
    def open(self, conn):
        return Established()

    def close(self, conn):
        return Closed()


class Established(State):
    def close(self, conn):
        conn.log("fin sent")
        return Closed()

    def unknown(self, conn, event):
        conn.log("data " + event)
        return self


class Connection:
    def __init__(self):
        self.state = Closed()
        self.errors = []
        self.history = []

    def log(self, message):
        self.history.append(message)

    def feed(self, *events):
        for event in events:
            self.state = self.state.handle(self, event)
        return self


def main():
    conn = Connection().feed("close", "open", "open", "ping", "open", "close", "open", "close", "reset")
    print(type(conn.state).__name__, conn.history, conn.errors)


main()
