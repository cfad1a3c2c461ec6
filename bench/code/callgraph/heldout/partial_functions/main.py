import functools


def scale(factor, value):
    return factor * value


def fmt_number(value, precision=2, unit=""):
    return f"{value:.{precision}f}{unit}"


double = functools.partial(scale, 2)
as_percent = functools.partial(fmt_number, precision=1, unit="%")

FORMATTERS = {
    "pct": as_percent,
    "raw": functools.partial(fmt_number, precision=0),
    "hex": functools.partial(str.format, "{:x}"),
}


def render(kind, value):
    return FORMATTERS[kind](double(value))


def main():
    print(render("pct", 12.345))
    print(render("raw", 3))
    print(FORMATTERS["hex"](255))


if __name__ == "__main__":
    main()
