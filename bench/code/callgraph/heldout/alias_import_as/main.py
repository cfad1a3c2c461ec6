from helpers.strings import shout as loud, whisper
import helpers.numbers as num
from helpers import strings as s


def render(level, msg):
    level = num.clamp(level, 0, 2)
    if level == 0:
        return whisper(msg)
    if level == 1:
        return s.plain(msg)
    return loud(msg)


def main():
    for level in (-3, 1, 9):
        print(render(level, "Disk Almost Full"))


if __name__ == "__main__":
    main()
