"""Code search with the real model over a small real tree: meaning, identifiers, filters, bad input."""

from __future__ import annotations

import textwrap

import pytest

import learnmem
from learnmem.errors import ValidationError

FILES = {
    "shop/pricing.py": '''
        def apply_discount(price, percent):
            """Reduce a price by a percentage."""
            return price * (1 - percent / 100)


        def vat(amount, rate=0.2):
            """Value-added tax owed on an amount."""
            return amount * rate
        ''',
    "shop/storage.py": '''
        import json


        class OrderRepository:
            """Keeps orders in a JSON file on disk."""

            def save(self, order):
                with open(self.path, "w") as handle:
                    json.dump(order, handle)

            def load_all(self):
                with open(self.path) as handle:
                    return json.load(handle)
        ''',
    "web/client.ts": '''
        /** Fetch the current user's profile from the API. */
        export async function fetchUserProfile(userId: string) {
          const response = await fetch(`/api/users/${userId}`);
          return response.json();
        }
        ''',
    "config.yaml": "database:\n  host: localhost\n  port: 5432\nretries: 3\n",
}


@pytest.fixture
def code(tmp_path, embedder):
    root = tmp_path / "repo"
    for relative, text in FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    lm = learnmem.open(tmp_path / "code.duckdb", embedder=embedder)
    lm.index_codebase(root, project="repo", progress=False)
    return lm


@pytest.mark.parametrize(("query", "expected"), [
    ("lower the price by some percent", "apply_discount"),
    ("write an order to disk as json", "OrderRepository.save"),
    ("get a user's profile over http", "fetchUserProfile"),
    ("vat", "vat"),
    ("database port", "database"),
])
def test_search_finds_the_unit(code, query, expected):
    hits = code.search_code(query, limit=3)
    # A class and its method can share the top: the class's text contains the method.
    assert expected in [h.qualified_name for h in hits[:2]], [(h.qualified_name, round(h.score, 3)) for h in hits]
    assert hits[0].file_path and hits[0].start_line >= 1 and hits[0].snippet


def test_module_units_only_when_asked_for(code):
    assert all(h.unit_type != "module" for h in code.search_code("orders json file", limit=20))
    files = code.search_code("orders json file", unit_type="module", limit=1)
    assert files[0].file_path == "shop/storage.py"


def test_filters_apply_before_ranking(code):
    hits = code.search_code("fetch the profile", language="python", limit=5)
    assert hits and all(h.language == "python" for h in hits)
    methods = code.search_code("save", unit_type="method")
    assert {h.unit_type for h in methods} == {"method"}
    assert code.search_code("anything", project="other") == []


def test_find_similar_code(code):
    hits = code.find_similar_code("def reduce(value, pct):\n    return value - value * pct / 100", limit=2)
    assert hits[0].qualified_name == "apply_discount"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"query": ""}, "query: must not be empty"),
    ({"query": "x", "language": "cobol"}, "language: 'cobol' is not one of"),
    ({"query": "x", "unit_type": "lambda"}, "unit_type: 'lambda' is not one of"),
    ({"query": "x", "limit": 0}, r"limit: 0 is outside the range \[1, 100\]"),
])
def test_bad_search_input(code, kwargs, message):
    with pytest.raises(ValidationError, match=message):
        code.search_code(**kwargs)


def test_search_sees_a_reindex(code, tmp_path):
    (tmp_path / "repo" / "shop" / "refunds.py").write_text('def refund_order(order_id):\n    """Give the money back."""\n')
    code.index_codebase(tmp_path / "repo", project="repo", progress=False)
    assert code.search_code("give a customer their money back", limit=1)[0].qualified_name == "refund_order"


@pytest.mark.parametrize(("written", "one_function"), [
    ("reduce:2", "reduce"), ("Client.send:3", "Client.send"), ("once.once", "once"),
    ("Client.send", "Client.send"), ("outer.inner", "outer.inner"), ("a.a.b", "a.a.b"), ("", ""),
])
def test_function_name(written, one_function):
    from learnmem.code.search import function_name

    assert function_name(written) == one_function


SEVERAL_UNITS_ONE_FUNCTION = {
    "convert.py": '''
        from typing import overload


        @overload
        def to_celsius(value: int) -> float: ...
        @overload
        def to_celsius(value: str) -> float: ...
        def to_celsius(value):
            return (float(value) - 32) * 5 / 9
        ''',
    "pad.ts": '''
        export function padLeft(text: string): string;
        export function padLeft(text: string, width: number): string;
        export function padLeft(text: string, width = 8): string {
          return text.padStart(width);
        }
        ''',
    "once.js": '''
        var once = _curry1(function once(fn) {
          var called = false, result;
          return function () {
            if (!called) { called = true; result = fn.apply(this, arguments); }
            return result;
          };
        });
        ''',
}


def test_a_function_is_one_hit_whatever_its_units(tmp_path, embedder):
    """Overloads and a function named like the call it is wrapped in are several units, and one hit."""
    root = tmp_path / "repo"
    root.mkdir()
    for name, text in SEVERAL_UNITS_ONE_FUNCTION.items():
        (root / name).write_text(textwrap.dedent(text).lstrip("\n"))
    lm = learnmem.open(tmp_path / "code.duckdb", embedder=embedder)
    lm.index_codebase(root, project="repo", progress=False)
    units = dict(lm.sql("SELECT file_path, list(qualified_name ORDER BY qualified_name) FROM code_units "
                        "WHERE unit_type <> 'module' GROUP BY file_path").fetchall())
    assert units == {"convert.py": ["to_celsius", "to_celsius:2", "to_celsius:3"],
                     "pad.ts": ["padLeft", "padLeft:2", "padLeft:3"], "once.js": ["once", "once.once"]}
    for query, file in (("convert fahrenheit to celsius", "convert.py"), ("pad text on the left", "pad.ts"),
                        ("call a function only once and remember its result", "once.js")):
        hits = lm.search_code(query, limit=10)
        assert [h.file_path for h in hits].count(file) == 1, [(h.file_path, h.qualified_name) for h in hits]
        assert hits[0].file_path == file
    lm.close()


def test_a_name_the_query_holds_ranks_first(tmp_path, embedder, monkeypatch):
    """All of get_year's words are in the query, one of get_day_of_year's three is not: the name match puts
    get_year first, where the vector and BM25 alone rank get_day_of_year first, its body saying "year" more."""
    from learnmem.code import search

    root = tmp_path / "repo"
    root.mkdir()
    (root / "timeutil.py").write_text(textwrap.dedent('''
        def get_day_of_year(date):
            year_start = start_of_year(date)
            return days_between(year_start, date) + 1


        def get_year(date):
            return to_date(date).full_year()
        ''').lstrip("\n"))
    lm = learnmem.open(tmp_path / "code.duckdb", embedder=embedder)
    lm.index_codebase(root, project="repo", progress=False)
    query = "Get the year of the given date."
    with_names = {h.qualified_name: h.score for h in lm.search_code(query, limit=2)}
    assert list(with_names) == ["get_year", "get_day_of_year"], with_names
    monkeypatch.setattr(search, "NAME_WEIGHT", 0.0)
    without = {h.qualified_name: h.score for h in lm.search_code(query, limit=2)}
    assert list(without) == ["get_day_of_year", "get_year"], without
    # get_year holds all its name's words (get, year), get_day_of_year two of three (day is not in the query).
    assert with_names["get_year"] - without["get_year"] == pytest.approx(0.08, abs=1e-6)
    assert with_names["get_day_of_year"] - without["get_day_of_year"] == pytest.approx(0.08 * 2 / 3, abs=1e-6)
    lm.close()
