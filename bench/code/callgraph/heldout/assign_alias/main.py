import json


def dump_compact(data):
    return json.dumps(data, separators=(",", ":"))


def dump_pretty(data):
    return json.dumps(data, indent=2, sort_keys=True)


serialize = dump_compact
emit = serialize
encode, decode = dump_pretty, json.loads


def write_record(record, pretty=False):
    writer = dump_compact
    if pretty:
        writer = dump_pretty
    text = writer(record)
    return len(text)


def main():
    payload = {"b": 1, "a": [1, 2]}
    print(emit(payload))
    assert decode(encode(payload)) == payload
    write_record(payload)
    write_record(payload, pretty=True)


main()
