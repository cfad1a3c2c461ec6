"""Wires the webapp package together through aliased imports."""
import json
import webapp.routing as rt
import webapp.middleware as mw
from webapp import views as v
from webapp.middleware import add_headers as with_headers

router = rt.Router()
router.add("/", v.index)
router.add(r"/users/(?P<user_id>\d+)", v.user_detail)


def handle(path):
    handler, params = router.match(path)
    with mw.Timer() as timer:
        response = handler({"path": path}, **params)
    return with_headers(response), timer.elapsed >= 0


for p in ["/", "/users/7", "/missing"]:
    print(json.dumps(handle(p)))
