class Color:
    def __init__(self, r, g, b):
        self.rgb = (r, g, b)

    @staticmethod
    def _clamp(value):
        return max(0, min(255, int(value)))

    @classmethod
    def from_hex(cls, text):
        text = text.lstrip("#")
        r, g, b = (int(text[i:i + 2], 16) for i in (0, 2, 4))
        return cls(r, g, b)

    @classmethod
    def from_floats(cls, r, g, b):
        return cls(*(cls._clamp(c * 255) for c in (r, g, b)))

    def to_hex(self):
        return "#" + "".join(f"{self._clamp(c):02x}" for c in self.rgb)


class Alpha(Color):
    def __init__(self, r, g, b, a=255):
        super().__init__(r, g, b)
        self.a = a


def main():
    print(Color.from_hex("#ff8800").to_hex())
    print(Alpha.from_hex("000000").a)
    print(Color.from_floats(1.0, 0.5, 0).rgb, Color._clamp(300))


main()
