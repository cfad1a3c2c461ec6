class Counter:
    def __init__(self):
        self.counts = {}

    def add(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1

    def most_common(self):
        return max(self.counts, key=self.counts.get)


def tally(words):
    counter = Counter()
    add = counter.add          # bound method cached in a local for the hot loop
    seen = []
    remember = seen.append     # builtin bound method: no edge
    for word in words:
        add(word.lower())
        remember(word)
    top = counter.most_common
    return top(), len(seen)


def main():
    best, n = tally("the cat saw The dog and the bird".split())
    print(best, n)


if __name__ == "__main__":
    main()
