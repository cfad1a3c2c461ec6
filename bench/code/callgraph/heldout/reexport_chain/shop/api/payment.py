def _fmt(amount):
    return f"${amount:.2f}"


def charge(cart):
    return "charged " + _fmt(cart.total())
