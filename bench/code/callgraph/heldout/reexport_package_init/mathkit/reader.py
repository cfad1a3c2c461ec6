def read(text):
    return [int(x) for x in text.split(",") if x.strip()]
