"""Reusable row-processing steps; each takes and returns a list."""


def strip_blank(rows):
    return [r for r in rows if r.strip()]


def parse_csv(rows):
    return [r.split(",") for r in rows]


def to_records(rows, fields=("name", "qty")):
    return [dict(zip(fields, r)) for r in rows]


def coerce_qty(records):
    for rec in records:
        rec["qty"] = int(rec["qty"])
    return records
