import json


class JsonFormatter:
    def format(self, record):
        return json.dumps(record, sort_keys=True)


class PlainFormatter:
    def __init__(self, sep=" "):
        self.sep = sep

    def format(self, record):
        return self.sep.join(f"{k}={v}" for k, v in record.items())


def make_formatter(kind):
    if kind == "json":
        return JsonFormatter()
    return PlainFormatter(sep=", ")


def emit(kind, record):
    formatter = make_formatter(kind)
    line = formatter.format(record)
    print(line)
    return line


def main():
    emit("json", {"level": "info", "msg": "started"})
    emit("plain", {"level": "warn", "msg": "slow"})


main()
