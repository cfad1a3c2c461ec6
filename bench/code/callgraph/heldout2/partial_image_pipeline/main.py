"""Pixel-processing pipeline assembled from functools.partial steps and composed with reduce."""
from functools import partial, partialmethod, reduce


def scale(values, factor):
    return [v * factor for v in values]


def offset(values, amount):
    return [v + amount for v in values]


def clip(values, lo=0, hi=255):
    return [min(max(v, lo), hi) for v in values]


def apply_step(data, step):
    return step(data)


def compose(*steps):
    def run(data):
        return reduce(apply_step, steps, data)
    return run


class Channel:
    def __init__(self, name, values):
        self.name = name
        self.values = values

    def adjust(self, op, amount):
        self.values = op(self.values, amount)
        return self

    brighten = partialmethod(adjust, offset, 10)
    darken = partialmethod(adjust, offset, -25)


def main():
    double = partial(scale, factor=2)
    pipeline = compose(double, partial(offset, amount=-30), clip)
    print(pipeline([10, 100, 200]))
    soft_clip = partial(clip, hi=200)
    print(partial(soft_clip, lo=20)([5, 300]))
    red = Channel("red", [5, 250])
    print(red.brighten().darken().values)
    hexint = partial(int, base=16)
    print([hexint(h) for h in ("ff", "10")])


main()
