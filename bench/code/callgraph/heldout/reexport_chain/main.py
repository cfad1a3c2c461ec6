from shop import Cart, checkout


def main():
    cart = Cart()
    cart.add("apple", 2).add("pear")
    print(checkout(cart))


if __name__ == "__main__":
    main()
