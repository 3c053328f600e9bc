# expect: none
# tornado's decorated generator coroutines are driven by tornado.gen.Runner, which
# runs every step through the one Context it captured, so a reset after a `yield`
# runs in the Context of the set.
import contextvars

from tornado import gen
from tornado.testing import AsyncTestCase, gen_test

request_id = contextvars.ContextVar("request_id", default=None)


@gen.coroutine
def handle(rid, fetch):
    token = request_id.set(rid)
    body = yield fetch(rid)
    request_id.reset(token)
    return body


class ContextTest(AsyncTestCase):
    @gen_test(timeout=5)
    def test_reset(self):
        token = request_id.set("r1")
        yield gen.moment
        request_id.reset(token)
