"""Order workflow state machine; handlers are plain functions passed around through variables."""


def on_created(order):
    order["log"].append("created")
    return "paid" if order["amount"] > 0 else "cancelled"


def on_paid(order):
    order["log"].append("paid")
    return "shipped"


def on_shipped(order):
    order["log"].append("shipped")
    return "done"


def on_cancelled(order):
    order["log"].append("cancelled")
    return "done"


def trace_enter(order):
    order["log"].append(">" + order["state"])


def trace_exit(order):
    order["log"].append("<" + order["state"])


def notify_ops(order):
    print("ops notified about order", order["id"])


notify = notify_ops
notify = print  # rebound: `notify` no longer reaches notify_ops


def advance(order):
    enter, leave = trace_enter, trace_exit
    state = order["state"]
    if state == "created":
        handler = on_created
    elif state == "paid":
        handler = on_paid
    elif state == "shipped":
        handler = on_shipped
    else:
        handler = on_cancelled
    enter(order)
    order["state"] = handler(order)
    leave(order)


def run(order):
    step = advance
    while order["state"] != "done":
        step(order)
    notify("finished order", order["id"])
    return order["log"]


def main():
    good = {"id": 1, "state": "created", "amount": 10, "log": []}
    bad = {"id": 2, "state": "created", "amount": 0, "log": []}
    print(run(good))
    print(run(bad))
    escalate = notify_ops
    escalate(bad)


main()
