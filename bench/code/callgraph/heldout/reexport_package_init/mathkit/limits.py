def _default_bounds():
    return 0, 100


def clamp(value, lo=None, hi=None):
    dlo, dhi = _default_bounds()
    lo = dlo if lo is None else lo
    hi = dhi if hi is None else hi
    return max(lo, min(hi, value))
