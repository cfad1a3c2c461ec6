def parse_csv(text):
    return [row.split(",") for row in text.splitlines()]


def parse_tsv(text):
    return [row.split("\t") for row in text.splitlines()]


def get_parser(filename):
    if filename.endswith(".tsv"):
        return parse_tsv
    return parse_csv


def default_parser():
    return get_parser("data.csv")


def load(filename, text):
    parser = get_parser(filename)
    return parser(text)


def main():
    print(load("a.csv", "1,2\n3,4"))
    print(load("b.tsv", "x\ty"))
    fallback = default_parser()
    print(fallback("5,6"))


if __name__ == "__main__":
    main()
