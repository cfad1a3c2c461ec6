"""Blog models with computed properties, validated setters and a cached_property slug."""
from functools import cached_property


def slugify(text):
    return "-".join(text.lower().split())


def validate_email(value):
    if "@" not in value:
        raise ValueError("invalid email: %r" % value)
    return value.lower()


class Author:
    def __init__(self, name, email):
        self.name = name
        self.email = email

    def _get_email(self):
        return self._email

    def _set_email(self, value):
        self._email = validate_email(value)

    email = property(_get_email, _set_email)


class Article:
    def __init__(self, title, author):
        self._title = title
        self.author = author
        self.views = 0

    @property
    def title(self):
        return self._title

    @title.setter
    def title(self, value):
        self._title = value.strip()
        self.__dict__.pop("slug", None)

    @cached_property
    def slug(self):
        return slugify(self.title)

    @property
    def popular(self):
        return self.views > 100

    def headline(self):
        return self.title.upper() + (" *" if self.popular else "")


def main():
    ann = Author("Ann", "Ann@Example.com")
    post = Article("  Hello World ", ann)
    print(post.slug, post.slug)
    post.title = "Static call graphs "
    print(post.slug, post.headline())
    post.views = 500
    print(post.headline(), post.author.email)
    try:
        ann.email = "nope"
    except ValueError as exc:
        print(exc)


main()
