class Handler:
    def __init__(self, name):
        self.name = name
        self.calls = []

    def handle(self, request):
        self.calls.append(request["path"])
        return {"status": 200, "body": "hello " + request.get("user", "anonymous")}
