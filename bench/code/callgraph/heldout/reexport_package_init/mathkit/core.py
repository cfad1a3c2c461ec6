from .limits import clamp


def run(values):
    return [clamp(v) for v in values]
