def strip_ws(s):
    return s.strip()


def lower(s):
    return s.lower()


def collapse(s):
    return " ".join(s.split())


def exclaim(s):
    return s + "!"


CLEANERS = [strip_ws, lower]
CLEANERS.append(collapse)
FINISHERS = (exclaim, str.title)


def clean(text):
    for step in CLEANERS:
        text = step(text)
    return text


def finish(text, idx=0):
    return FINISHERS[idx](text)


def main():
    text = clean("  Hello   World ")
    print(finish(text))
    print(finish(text, 1))


main()
