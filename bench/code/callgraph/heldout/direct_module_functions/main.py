import textutil


def normalize(title):
    return textutil.slugify(title.strip())


def build_index(titles):
    index = {}
    for t in titles:
        index[normalize(t)] = t
    return index


def report(index):
    for key in sorted(index):
        print(f"{key}: {index[key]}")


def main():
    idx = build_index(["Hello World", "  Static Analysis ", "Call-Graphs!"])
    report(idx)
    return len(idx)


if __name__ == "__main__":
    main()
