def clamp(value, lo, hi):
    return max(lo, min(hi, value))


def percent(part, whole):
    if not whole:
        return 0.0
    return clamp(100.0 * part / whole, 0.0, 100.0)
