import functools


class Notifier:
    def __init__(self, channel):
        self.channel = channel
        self.sent = []

    def send(self, level, message):
        self.sent.append(f"[{self.channel}:{level}] {message}")

    info = functools.partialmethod(send, "info")
    error = functools.partialmethod(send, "error")


def broadcast(notifiers, message):
    callbacks = [functools.partial(n.send, "all") for n in notifiers]
    for cb in callbacks:
        cb(message)


def main():
    ops = Notifier("ops")
    ops.info("deploy started")
    ops.error("disk full")
    broadcast([ops, Notifier("dev")], "maintenance")
    warn = functools.partial(ops.send, "warn")
    warn("cpu hot")
    print(ops.sent)


main()
