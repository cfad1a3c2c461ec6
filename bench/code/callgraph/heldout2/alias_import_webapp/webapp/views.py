import json as _json


def dumps(obj):
    return _json.dumps(obj, sort_keys=True)


def index(request):
    return 200, "welcome"


def user_detail(request, user_id):
    return 200, dumps({"id": int(user_id), "path": request["path"]})
