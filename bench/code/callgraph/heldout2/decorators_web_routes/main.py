"""Flask-style app: @app.route registers views, @app.before_request hooks, @login_required wraps."""
import functools


class App:
    def __init__(self):
        self.url_map = {}
        self.before = []

    def route(self, path, methods=("GET",)):
        def decorator(view):
            for method in methods:
                self.url_map[(method, path)] = view
            return view
        return decorator

    def before_request(self, fn):
        self.before.append(fn)
        return fn

    def dispatch(self, method, path, request):
        for hook in self.before:
            hook(request)
        view = self.url_map.get((method, path))
        if view is None:
            return 404, "Not Found"
        return view(request)


def login_required(view):
    @functools.wraps(view)
    def wrapper(request):
        if not request.get("user"):
            return 401, "login required"
        return view(request)
    return wrapper


app = App()


@app.before_request
def attach_user(request):
    request.setdefault("user", request.get("cookie"))


@app.route("/")
def index(request):
    return 200, "hello"


@app.route("/account", methods=("GET", "POST"))
@login_required
def account(request):
    return 200, "account of %s" % request["user"]


if __name__ == "__main__":
    for method, path, req in [("GET", "/", {}), ("GET", "/account", {}),
                              ("POST", "/account", {"cookie": "ann"}), ("GET", "/nope", {})]:
        print(method, path, app.dispatch(method, path, req))
    print(account.__name__, account.__wrapped__.__name__)
