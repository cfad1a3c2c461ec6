def identity(x):
    return x


def square(x):
    return x * x


def negate(x):
    return -x


def transform(values, fn=identity):
    return [fn(v) for v in values]


def pipeline(values, *, pre, post=None):
    out = transform(values, fn=pre)
    if post is not None:
        out = transform(out, post)
    return out


def main():
    print(transform([1, 2]))
    print(pipeline([1, 2, 3], pre=square, post=negate))
    print(pipeline([-4], pre=abs))


main()
