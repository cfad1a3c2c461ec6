ROUTES = {}


def route(path):
    def register(handler):
        ROUTES[path] = handler
        return handler
    return register


def hook(func):
    func.is_hook = True
    return func


@route("/")
def index(request):
    return "home"


@route("/users")
@hook
def users(request):
    return ",".join(list_users())


def list_users():
    return ["ada", "alan"]


def handle(path, request=None):
    handler = ROUTES.get(path)
    if handler is None:
        return "404"
    return handler(request)


def main():
    for path in ["/", "/users", "/missing"]:
        print(handle(path))
    print(users(None), users.is_hook)


main()
