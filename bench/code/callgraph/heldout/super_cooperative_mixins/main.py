import json


class Model:
    def to_dict(self):
        return {"type": type(self).__name__}

    def serialize(self, data):
        return repr(data)

    def save(self):
        return self.serialize(self.to_dict())


class JsonMixin:
    def serialize(self, data):
        return json.dumps(data, sort_keys=True)


class TimestampMixin(Model):
    def to_dict(self):
        data = super().to_dict()
        data["ts"] = 0
        return data


class AuditMixin(Model):
    def to_dict(self):
        data = super().to_dict()
        data["audited"] = True
        return data


class User(JsonMixin, TimestampMixin, AuditMixin):
    pass


class Note(Model):
    pass


def main():
    print(User().save())
    print(Note().save())


main()
