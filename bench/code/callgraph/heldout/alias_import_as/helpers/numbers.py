def clamp(value, lo, hi):
    return max(lo, min(hi, value))


def is_even(n):
    return n % 2 == 0
