"""In-process event bus: handlers kept in dicts, lists and tuples and called when events fire."""
from collections import defaultdict


class EventBus:
    def __init__(self):
        self._handlers = defaultdict(list)

    def subscribe(self, event, handler):
        self._handlers[event].append(handler)

    def publish(self, event, payload):
        return [handler(payload) for handler in self._handlers[event]]


def send_welcome_email(user):
    return "email:" + user["name"]


def create_profile(user):
    return "profile:" + user["name"]


def revoke_sessions(user):
    return "revoked:" + user["name"]


def audit_log(user):
    return "audit:" + user["name"]


DEFAULT_SUBSCRIPTIONS = [
    ("user.created", send_welcome_email),
    ("user.created", create_profile),
    ("user.deleted", revoke_sessions),
]
ALWAYS = (audit_log,)


def wire(bus):
    for event, handler in DEFAULT_SUBSCRIPTIONS:
        bus.subscribe(event, handler)
    for event in ("user.created", "user.deleted"):
        for handler in ALWAYS:
            bus.subscribe(event, handler)


def main():
    bus = EventBus()
    wire(bus)
    print(bus.publish("user.created", {"name": "ann"}))
    print(bus.publish("user.deleted", {"name": "bob"}))
    print(bus.publish("user.renamed", {"name": "cy"}))
    hooks = {"pre": [audit_log], "post": [str.upper]}
    for fn in hooks["pre"]:
        fn({"name": "direct"})
    print([fn("x") for fn in hooks["post"]])


if __name__ == "__main__":
    main()
