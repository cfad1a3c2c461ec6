def tax_rate(region):
    return {"eu": 0.2, "us": 0.07}.get(region, 0.0)


with_tax = lambda price, region: round(price * (1 + tax_rate(region)), 2)
by_total = lambda order: order["total"]
describe = lambda order: f"{order['id']}: {with_tax(order['net'], order['region'])}"


def price_orders(orders):
    for order in orders:
        order["total"] = with_tax(order["net"], order["region"])
    return sorted(orders, key=by_total)


def main():
    orders = [
        {"id": 1, "net": 100.0, "region": "eu"},
        {"id": 2, "net": 50.0, "region": "us"},
    ]
    for order in price_orders(orders):
        print(describe(order))


main()
