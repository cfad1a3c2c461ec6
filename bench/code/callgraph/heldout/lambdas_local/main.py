PRICES = {"ABC": 10.0, "XYZ": 4.5}


def fetch_price(symbol):
    return PRICES[symbol]


def convert(amount, rate):
    return amount * rate


def portfolio_value(holdings, currency_rate=1.0):
    value_of = lambda sym, qty: convert(fetch_price(sym) * qty, currency_rate)
    total = 0.0
    for sym, qty in holdings.items():
        total += value_of(sym, qty)
    fmt = lambda v: f"{v:.2f}"
    return fmt(total)


def main():
    print(portfolio_value({"ABC": 3, "XYZ": 10}))
    print(portfolio_value({"ABC": 1}, currency_rate=0.9))


main()
