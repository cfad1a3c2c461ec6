from .handlers import Handler


class LoggingMixin(Handler):
    def __init__(self, name, logger=print):
        super().__init__(name)
        self.logger = logger

    def handle(self, request):
        self.logger("-> %s %s" % (self.name, request["path"]))
        response = super().handle(request)
        self.logger("<- %d" % response["status"])
        return response


class AuthMixin(Handler):
    def handle(self, request):
        if request.get("token") == "t0k":
            request["user"] = "ann"
        elif request["path"].startswith("/admin"):
            return {"status": 403, "body": "forbidden"}
        return super().handle(request)


class CorsMixin(Handler):
    def handle(self, request):
        response = super().handle(request)
        response.setdefault("headers", {})["Access-Control-Allow-Origin"] = "*"
        return response
