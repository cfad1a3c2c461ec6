"""Active-record models: classmethod constructors, staticmethod helpers, cls() picking subclasses."""
import datetime


class Record:
    table = None

    def __init__(self, **fields):
        self.fields = fields

    @staticmethod
    def quote(identifier):
        return '"%s"' % identifier.replace('"', '""')

    @classmethod
    def columns(cls):
        return ["id"]

    @classmethod
    def from_row(cls, row):
        return cls(**dict(zip(cls.columns(), row)))

    @classmethod
    def select_sql(cls):
        cols = ", ".join(cls.quote(c) for c in cls.columns())
        return "SELECT %s FROM %s" % (cols, Record.quote(cls.table))


class User(Record):
    table = "users"

    @classmethod
    def columns(cls):
        return super().columns() + ["email"]

    @staticmethod
    def normalize_email(email):
        return email.strip().lower()

    @classmethod
    def create(cls, email):
        return cls(id=1, email=cls.normalize_email(email))


class AuditEntry(Record):
    table = "audit"

    def __init__(self, **fields):
        fields.setdefault("at", datetime.date(2024, 1, 1).isoformat())
        Record.__init__(self, **fields)


def main():
    print(User.select_sql())
    print(AuditEntry.select_sql())
    user = User.from_row((7, "a@b.c"))
    print(user.fields, User.create("  Ann@X.org ").fields)
    entry = AuditEntry.from_row((1,))
    print(entry.fields, entry.quote('we"ird'))
    factory = User.create
    print(factory("z@z.z").fields)


main()
