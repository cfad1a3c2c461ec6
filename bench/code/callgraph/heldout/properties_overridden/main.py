class Storage:
    def __init__(self, root):
        self.root = root

    @property
    def prefix(self):
        return self.root + "/"

    def path(self, name):
        return self.prefix + name


class VersionedStorage(Storage):
    def __init__(self, root, version):
        Storage.__init__(self, root)
        self.version = version

    @property
    def prefix(self):
        return f"{self.root}/v{self.version}/"


def compress(data):
    return data[:4]


def passthrough(data):
    return data


class Codec:
    def __init__(self, compressed):
        self.compressed = compressed

    @property
    def encoder(self):
        return compress if self.compressed else passthrough

    def encode(self, data):
        return self.encoder(data)


def main():
    for store in (Storage("/data"), VersionedStorage("/data", 2)):
        print(store.path("blob"))
    print(Codec(True).encode("abcdefgh"), Codec(False).encode("xy"))


main()
