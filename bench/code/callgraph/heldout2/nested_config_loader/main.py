"""INI-like config loader and renderer built from nested helper functions and a local class."""


def parse_value(text):
    return text


def load_config(text):
    def parse_value(raw):
        raw = raw.strip()
        if raw.isdigit():
            return int(raw)
        if raw.startswith("[") and raw.endswith("]"):
            return [parse_value(item) for item in split_items(raw[1:-1])]
        return raw.strip('"')

    def split_items(body):
        return [part for part in body.split(",") if part.strip()]

    def parse_line(line):
        key, _, value = line.partition("=")
        return key.strip(), parse_value(value)

    class Section:
        def __init__(self, name):
            self.name = name
            self.values = {}

        def add(self, line):
            key, value = parse_line(line)
            self.values[key] = value

    sections = {}
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            name = line.strip("[]")
            current = sections[name] = Section(name)
        else:
            current.add(line)
    return {name: section.values for name, section in sections.items()}


def render(config):
    def fmt_section(name, values):
        def fmt_pair(key, value):
            return "%s = %r" % (key, value)
        body = "\n".join(fmt_pair(k, v) for k, v in sorted(values.items()))
        return "[%s]\n%s" % (name, body)
    return "\n\n".join(fmt_section(n, v) for n, v in config.items())


SAMPLE = """
# demo
[server]
port = 8080
hosts = [a, "b", 3]
[client]
name = "cli"
"""

if __name__ == "__main__":
    print(render(load_config(SAMPLE)))
    print(parse_value("untouched"))
