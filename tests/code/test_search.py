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
