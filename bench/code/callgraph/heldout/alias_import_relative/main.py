from store.api import open_store as connect, save_user, load_user as fetch


def main():
    db = connect()
    save_user(db, 7, "ada")
    assert fetch(db, 7) == "ada"
    assert fetch(db, 8) is None


main()
