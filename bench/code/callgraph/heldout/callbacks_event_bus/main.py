from collections import defaultdict


class EventBus:
    def __init__(self):
        self._subscribers = defaultdict(list)

    def on(self, event, callback):
        self._subscribers[event].append(callback)
        return callback

    def emit(self, event, *args):
        for callback in self._subscribers.get(event, []):
            callback(*args)


class AuditTrail:
    def __init__(self):
        self.entries = []

    def record(self, *args):
        self.entries.append(args)


def send_welcome(user):
    print(f"welcome {user}")


def main():
    bus = EventBus()
    audit = AuditTrail()
    bus.on("signup", send_welcome)
    bus.on("signup", audit.record)
    bus.on("delete", audit.record)
    bus.on("delete", print)
    bus.emit("signup", "ada")
    bus.emit("delete", "bob")
    bus.emit("unknown")
    print(audit.entries)


if __name__ == "__main__":
    main()
