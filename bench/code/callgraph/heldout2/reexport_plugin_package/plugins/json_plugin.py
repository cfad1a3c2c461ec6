import json

from .base import Plugin


class JsonPlugin(Plugin):
    name = "json"

    def serialize(self, rows):
        return json.dumps([list(row) for row in rows])
