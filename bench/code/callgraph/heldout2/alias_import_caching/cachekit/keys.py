import hashlib as _h


def normalize(value):
    if isinstance(value, dict):
        return sorted(value.items())
    return value


def digest(raw):
    return _h.sha1(raw.encode()).hexdigest()[:12]


def make_key(prefix, *args, **kwargs):
    raw = repr((prefix, [normalize(a) for a in args], normalize(kwargs)))
    return prefix + ":" + digest(raw)
