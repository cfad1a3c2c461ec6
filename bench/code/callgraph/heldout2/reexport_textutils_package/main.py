"""Uses textutils only through its re-exported public names."""
import textutils
from textutils import clamp, make_slug, truncate as trunc
from textutils.numbers import percent as pct


def headline(title, limit):
    return trunc(textutils.title_case(title), limit=clamp(limit, 5, 40))


def main():
    print(make_slug("Héllo, Wörld!"))
    print(headline("static analysis of python call graphs", 30))
    print(textutils.wrap_text("a b c d e f g h", width=5))
    print(pct(1, 3), textutils.percent(5, 0))


main()
