"""Runs a data pipeline whose steps and hooks arrive as function parameters."""
from steps import coerce_qty, parse_csv, strip_blank, to_records


def run_pipeline(data, steps, on_step=None):
    for step in steps:
        data = step(data)
        if on_step is not None:
            on_step(step.__name__, data)
    return data


def log_step(name, data):
    print(f"{name}: {len(data)} items")


def apply_each(fn, items):
    return [fn(x) for x in items]


def total(records, key):
    return sum(key(r) for r in records)


def qty_of(record):
    return record["qty"]


def main():
    raw = ["apple,3", "", "pear,5", "  "]
    records = run_pipeline(raw, [strip_blank, parse_csv, to_records, coerce_qty], on_step=log_step)
    run_pipeline(raw, (strip_blank,), on_step=print)
    print(total(records, qty_of))
    print(apply_each(str.upper, ["a", "b"]))
    print(apply_each(qty_of, records))


if __name__ == "__main__":
    main()
