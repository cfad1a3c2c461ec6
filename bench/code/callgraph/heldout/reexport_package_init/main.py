import mathkit
from mathkit import load


def main():
    values = load("5,-3,120,")
    print(mathkit.run(values))
    print(mathkit.limits.clamp(7, hi=5), mathkit.VERSION)


main()
