import re


def not_found(request):
    return 404, "not found: " + request["path"]


class Router:
    def __init__(self):
        self.routes = []

    def add(self, pattern, handler):
        self.routes.append((re.compile("^" + pattern + "$"), handler))

    def match(self, path):
        for regex, handler in self.routes:
            m = regex.match(path)
            if m:
                return handler, m.groupdict()
        return not_found, {}
