class Exporter:
    def export(self, rows):
        header = self.header()
        body = [self.format_row(r) for r in rows]
        return "\n".join([header] + body + [self.footer()])

    def header(self):
        return "# export"

    def footer(self):
        return "# end"

    def format_row(self, row):
        return str(row)


class CsvExporter(Exporter):
    def header(self):
        return "a,b"

    def format_row(self, row):
        return ",".join(map(str, row))


class QuotedCsvExporter(CsvExporter):
    def format_row(self, row):
        return ",".join(f'"{v}"' for v in row)


class MarkdownExporter(Exporter):
    def format_row(self, row):
        return "| " + " | ".join(map(str, row)) + " |"

    def footer(self):
        return ""


ROWS = [(1, 2), (3, 4)]
for cls in (Exporter, CsvExporter, QuotedCsvExporter, MarkdownExporter):
    print(cls().export(ROWS))
