"""HTTP client whose transport, auth and response hooks are instance attributes."""


class FakeTransport:
    def __init__(self):
        self.sent = []

    def send(self, request):
        self.sent.append(request)
        return {"status": 200, "body": "ok:" + request["url"]}


class TokenAuth:
    def __init__(self, token):
        self.token = token

    def __call__(self, request):
        request["headers"]["Authorization"] = "Bearer " + self.token
        return request


def log_response(response):
    print("<-", response["status"], response["body"])


class Client:
    def __init__(self, base_url, transport=None):
        self.base_url = base_url.rstrip("/")
        self.transport = transport or FakeTransport()
        self.auth = None
        self.hooks = []

    def build(self, path):
        return {"url": self.base_url + path, "headers": {}}

    def get(self, path):
        request = self.build(path)
        if self.auth is not None:
            request = self.auth(request)
        response = self.transport.send(request)
        for hook in self.hooks:
            hook(response)
        return response


def main():
    client = Client("https://api.example.com/")
    print(client.get("/health"))
    client.auth = TokenAuth("s3cr3t")
    client.hooks.append(log_response)
    client.get("/me")
    recorder = FakeTransport()
    local = Client("http://localhost:8000", transport=recorder)
    local.hooks.append(print)
    local.get("/debug")
    print(len(recorder.sent), client.transport.sent[-1]["headers"])


if __name__ == "__main__":
    main()
