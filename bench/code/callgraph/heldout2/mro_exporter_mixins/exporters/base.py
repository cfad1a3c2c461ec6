class BaseExporter:
    def export(self, rows):
        text = self.render(self.prepare(rows))
        return self.finish(text)

    def prepare(self, rows):
        return list(rows)

    def render(self, rows):
        return repr(rows)

    def finish(self, text):
        return text


class CsvExporter(BaseExporter):
    def render(self, rows):
        return "\n".join(",".join(str(v) for v in row.values()) for row in rows)
