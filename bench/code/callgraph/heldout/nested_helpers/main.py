def tokenize(text):
    def is_word_char(ch):
        return ch.isalnum() or ch == "_"

    def flush(buf, out):
        if buf:
            out.append("".join(buf))
            buf.clear()

    tokens, buf = [], []
    for ch in text:
        if is_word_char(ch):
            buf.append(ch)
        else:
            flush(buf, tokens)
            if not ch.isspace():
                tokens.append(ch)
    flush(buf, tokens)
    return tokens


def render_tree(node, indent=0):
    def render_children(children):
        def line(child):
            return render_tree(child, indent + 2)
        return [line(c) for c in children]

    label = " " * indent + node["name"]
    return "\n".join([label] + render_children(node.get("children", [])))


print(tokenize("x = foo(bar_1, 2)"))
print(render_tree({"name": "root", "children": [{"name": "a"}, {"name": "b", "children": [{"name": "c"}]}]}))
