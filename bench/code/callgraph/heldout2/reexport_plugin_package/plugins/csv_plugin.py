from .base import Plugin


class CsvPlugin(Plugin):
    name = "csv"

    def prepare(self, data):
        return sorted(data)

    def serialize(self, rows):
        sep = self.options.get("sep", ",")
        return "\n".join(sep.join(map(str, row)) for row in rows)
