import json

from .base import BaseExporter


class SortedMixin:
    def prepare(self, rows):
        return sorted(rows, key=lambda row: row["name"])


class JsonMixin:
    def render(self, rows):
        return json.dumps(rows)


class CompressMixin(BaseExporter):
    def finish(self, text):
        return "gz[%d bytes]" % len(text.encode())
