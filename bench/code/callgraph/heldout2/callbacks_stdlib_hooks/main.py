"""Notification dispatcher whose callbacks are invoked by the stdlib:
re.sub, json.dumps(default=...), sorted(key=cmp_to_key(...)) and contextlib.ExitStack."""
import contextlib
import functools
import json
import re

CONTEXT = {"user": "ann", "count": 3}


class Event:
    def __init__(self, kind, priority, payload):
        self.kind = kind
        self.priority = priority
        self.payload = payload


def encode_event(obj):
    if isinstance(obj, Event):
        return {"kind": obj.kind, "payload": obj.payload}
    raise TypeError(type(obj).__name__)


def by_priority(a, b):
    return b.priority - a.priority


def substitute(match):
    return str(CONTEXT.get(match.group(1), "?"))


def render(template):
    return re.sub(r"\{(\w+)\}", substitute, template)


def flush(queue):
    print("flushed", len(queue), "messages")


def close_channel(name):
    print("closed channel", name)


def dispatch(events):
    queue = []
    with contextlib.ExitStack() as stack:
        stack.callback(flush, queue)
        stack.callback(close_channel, "email")
        for event in sorted(events, key=functools.cmp_to_key(by_priority)):
            queue.append(json.dumps({"event": event}, default=encode_event))
            print(render("{user} has {count} new " + event.kind))
    return queue


def main():
    events = [Event("comment", 1, {"id": 4}), Event("mention", 5, {"id": 9})]
    for line in dispatch(events):
        print(line)


main()
