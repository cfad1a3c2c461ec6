"""What a unit is searched by: its digest (embedded) and its whole source (BM25)."""

from __future__ import annotations

import learnmem
from learnmem.code.describe import called_names, embed_text, keyword_text, used_names, words
from learnmem.code.parse import parse_source
from learnmem.embedding.embed import HashingEmbedder

JS = b"""export function differenceInHours(laterDate, earlierDate, options) {
  const [laterDate_, earlierDate_] = normalizeDates(options?.in, laterDate, earlierDate);
  const diff = (+laterDate_ - +earlierDate_) / millisecondsInHour;
  if (diff > 0) return getRoundingMethod(options?.roundingMethod)(diff);
  return differenceInHours(earlierDate, laterDate, options);
}
"""


def test_words_split_identifiers_as_a_reader_says_them():
    assert words("date_fns.differenceInHours") == "date fns difference in hours"
    assert words("HTTPServer.__init__") == "http server init"
    assert words("parse") == "parse"


def test_called_and_used_names_leave_out_syntax_the_unit_itself_and_repeats():
    body = "if (ok) { return load(x) + load(y) + self.save(z) }"
    assert called_names(body, own_name="save") == ["load"]
    assert used_names(body, skip=["load"]) == ["ok", "save"]  # one-letter names and `self` are not words


def test_the_embedded_text_is_a_digest_in_words_not_the_source():
    parsed = parse_source("date-fns/differenceInHours.js", JS, "javascript")
    unit = next(u for u in parsed.units if u.qualified_name == "differenceInHours")
    text = embed_text(unit, parsed.module).splitlines()
    assert text[0] == ("function differenceInHours (difference in hours) "
                       "in date-fns.differenceInHours (date fns difference in hours)")
    assert text[1] == unit.signature
    assert text[2] == "calls normalize dates, get rounding method"  # not itself, not `if`
    assert text[3].startswith("uses later date, earlier date, options, later date, earlier date, diff")
    assert "millisecondsInHour" not in "\n".join(text) and "milliseconds in hour" in text[3]
    assert "const [" not in "\n".join(text)
    assert "const [" in keyword_text(unit)  # BM25 keeps the whole source


def test_the_index_stores_the_vector_of_the_digest(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "differenceInHours.js").write_bytes(JS)
    embedder = HashingEmbedder()
    lm = learnmem.open(tmp_path / "a.duckdb", embedder=embedder)
    lm.index_codebase(tmp_path / "src", project="p", progress=False)
    stored = lm.sql("SELECT embedding FROM code_units WHERE qualified_name = 'differenceInHours'").fetchone()[0]
    unit = next(u for u in parse_source("differenceInHours.js", JS, "javascript").units if u.qualified_name == "differenceInHours")
    expected = embedder.embed([embed_text(unit, "differenceInHours")])[0]
    assert [round(x, 5) for x in stored] == [round(float(x), 5) for x in expected]
    lm.close()
