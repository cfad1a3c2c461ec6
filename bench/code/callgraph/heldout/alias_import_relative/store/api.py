from .backends import MemoryBackend as DefaultBackend
from . import backends as _b


def open_store(backend_cls=DefaultBackend):
    return backend_cls()


def save_user(store, user_id, name):
    store.put(_b.make_key("user", user_id), name)


def load_user(store, user_id):
    return store.get(_b.make_key("user", user_id))
