"""Experiences: resolved GHAP entries seen through several axes, embedded and searchable.

When an entry is resolved (ghap.py), the same write transaction records one
`experience_axes_recent` row per axis with the text to embed and its BM25
terms, its embedding NULL (pending); `embed_pending` fills the vectors right
after the commit, and again before every search, so an embedding failure only
delays an experience, it never loses one. Once FOLD_ROWS embedded rows have
gathered in that small table they move to `experience_axes_embedded` in one
append: DuckDB rewrites a table's trailing row group at every checkpoint, and
doing that for a few hundred rows per resolve instead of up to ~2,000 vectors
keeps a resolve fast. The view `experience_axes` shows both tables. The axes (../shared/GHAP.md "Axis texts"):

- full: the whole story (domain, strategy, goal, hypothesis, action, prediction, outcome,
  then surprise, root cause and lesson when present);
- strategy: how the problem was approached and how it went;
- surprise (falsified entries only): what was unexpected;
- root_cause (falsified entries only): why the hypothesis was wrong, in context.

The domain is a filter, not an axis. The tier (gold, silver, bronze, abandoned)
is decided by ghap.py; `bronze_reason` is the deterministic check it uses to
demote an entry whose hypothesis or resolution says too little.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from learnmem.learning import terms
from learnmem.search import keywords
from learnmem.embedding import passages
from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import ValidationError
from learnmem.learning.ghap_records import Experience
from learnmem.search.hybrid import Bm25, hybrid_rank, one_blas_thread
from learnmem.storage.snapshot_cache import SnapshotCache
from learnmem.storage.store import Store, iso
from learnmem.storage.vectors import to_column, to_matrix_with_gaps

AXES = ("full", "strategy", "surprise", "root_cause")
# Axes only falsified entries have (and only when the text is there).
FALSIFIED_AXES = ("surprise", "root_cause")
FOLD_ROWS = 256  # embedded rows gathered in experience_axes_recent before they move to experience_axes_embedded
EMBEDDING_DIM = 384  # the width of experience_axes_embedded.embedding (sql/migrations/005_*.sql)
MAX_LIMIT = 50
MAX_QUERY_CHARS = 10_000


# -- axis texts ------------------------------------------------------------------


def _text(entry: Mapping[str, Any], key: str) -> str | None:
    """A text field of the entry, None when missing or blank."""
    value = entry.get(key)
    if value is None:
        return None
    value = str(value).strip()
    return value or None


def _outcome_line(entry: Mapping[str, Any]) -> str:
    status, result = _text(entry, "outcome_status"), _text(entry, "outcome_result")
    return f"Outcome: {status} - {result}" if result else f"Outcome: {status}"


def axis_texts(entry: Mapping[str, Any]) -> dict[str, str]:
    """The text to embed for each axis of a resolved entry (a mapping of ghap_entries columns).

    Lines are joined with "\\n":
    - full: `Domain: {domain} | Strategy: {strategy}`, `Goal: {goal}`, `Hypothesis: {hypothesis}`,
      `Action: {action} | Prediction: {prediction}`, `Outcome: {status} - {result}`, then, when present,
      `Surprise: {surprise}`, `Root cause: {category}: {description}`,
      `Lesson: {what_worked}` (with ` - {takeaway}` when there is one);
    - strategy: `Strategy: {strategy}`, `Applied to: {goal}`, `Hypothesis: {hypothesis}`,
      `Iterations: {iteration_count}`, `Outcome: {status}`;
    - surprise (falsified, when present): `{surprise}`;
    - root_cause (falsified, when present): `{category}: {description}`.

    The root_cause text is the cause alone. GHAP.md's template added `Context: {goal}` and
    `Hypothesis was: {hypothesis}`; measured on tests/data/experiences.jsonl, those lines pull an
    experience towards the theme its *wrong* hypothesis named (5-nearest-neighbour theme agreement
    0.48 with them, 0.64 without; bench/learning). `learnmem reembed` rebuilds older files' texts.
    """
    status = _text(entry, "outcome_status")
    surprise = _text(entry, "surprise")
    category, description = _text(entry, "root_cause_category"), _text(entry, "root_cause_description")
    cause = f"{category}: {description}" if category and description else category or description
    worked, takeaway = _text(entry, "lesson_what_worked"), _text(entry, "lesson_takeaway")
    lesson = f"{worked} - {takeaway}" if worked and takeaway else worked or takeaway

    full = [
        f"Domain: {entry['domain']} | Strategy: {entry['strategy']}",
        f"Goal: {entry['goal']}",
        f"Hypothesis: {entry['hypothesis']}",
        f"Action: {entry['action']} | Prediction: {entry['prediction']}",
        _outcome_line(entry),
    ]
    full += [f"{label}: {value}" for label, value in (("Surprise", surprise), ("Root cause", cause),
                                                      ("Lesson", lesson)) if value]
    texts = {
        "full": "\n".join(full),
        "strategy": "\n".join([
            f"Strategy: {entry['strategy']}",
            f"Applied to: {entry['goal']}",
            f"Hypothesis: {entry['hypothesis']}",
            f"Iterations: {entry.get('iteration_count') or 1}",
            f"Outcome: {status}",
        ]),
    }
    if status == "falsified":
        if surprise:
            texts["surprise"] = surprise
        if cause:
            texts["root_cause"] = cause
    return texts


# -- the bronze rule -------------------------------------------------------------

# Words that carry no claim about the system under work: the vocabulary of running things, of
# success and failure, of vague trouble and of hedging. A hypothesis, prediction or result made
# only of these (and stop words) says nothing that an outcome could confirm or falsify.
_GENERIC_WORDS = """
test tests testing tested run runs running ran rerun pytest unittest suite tell tells show shows see look
check find figure out know happen happens happened something anything everything thing things stuff wrong
right issue issues problem problems bug bugs error errors broken break breaks work works worked working fix
fixes fixed fixing try tried trying attempt maybe probably perhaps might should may must let get got go going
make sure whether fine ok okay done good bad yes yeah nope pass passes passed passing fail fails failed failing
failure failures succeed succeeds succeeded success successful complete completed finish finished resolve
resolved confirm confirmed falsify falsified expect expected better worse now again just still also all some
think believe guess suspect hope code change changes changed step steps approach way doesn don isn didn won
can cannot ll ve
"""
GENERIC_TERMS = frozenset(keywords.terms(_GENERIC_WORDS))
# A hypothesis needs at least this many distinct specific terms to state a belief.
MIN_HYPOTHESIS_TERMS = 2
# A hypothesis whose specific terms are at least this share of the goal's and action's adds no belief.
RESTATE_SHARE = 0.8
# Prediction and hypothesis this similar (Jaccard of specific terms) are the same sentence twice.
SAME_SHARE = 0.8


def specific_terms(text: str | None) -> set[str]:
    """The distinct BM25 terms of a text that say something specific: not generic, not a lone letter."""
    if not text:
        return set()
    return {term for term in keywords.terms(text)
            if term not in GENERIC_TERMS and (len(term) > 1 or term.isdigit())}


def bronze_reason(entry: Mapping[str, Any]) -> str | None:
    """Why a resolved entry is bronze (poor hypothesis or ambiguous resolution), or None.

    Deterministic and cheap (keyword terms, no model): it runs inside the resolve
    transaction. Abandoned entries are never bronze (their tier is abandoned).
    "Specific terms" are the entry's stemmed keyword terms (learnmem.search.keywords)
    minus stop words, single letters and GENERIC_TERMS (running, testing,
    working/failing, vague trouble, hedging: "test", "run", "wrong", "issue",
    "work", "fix", "think", "done"...). The entry is bronze when any of these holds
    (every reason that holds is given, joined by "; "):

    1. the hypothesis has fewer than MIN_HYPOTHESIS_TERMS (2) specific terms
       ("The tests will tell me what's wrong", "I think the problem is in the parser");
    2. at least RESTATE_SHARE (80 %) of the hypothesis's specific terms already occur in
       the goal or the action: it only says that the action will reach the goal
       (goal "Fix the SSL error", action "Upgrade requests",
       hypothesis "Upgrading requests fixes the SSL error");
    3. the prediction has no specific term: nothing observable would tell
       ("Tests fail", "It works");
    4. prediction and hypothesis are near-identical: Jaccard similarity of their specific
       terms >= SAME_SHARE (0.8);
    5. the outcome result has no specific term: an ambiguous resolution ("done", "ok",
       "it worked", "tests pass").
    """
    if _text(entry, "outcome_status") == "abandoned":
        return None
    reasons = []
    hypothesis = specific_terms(_text(entry, "hypothesis"))
    if len(hypothesis) < MIN_HYPOTHESIS_TERMS:
        reasons.append(f"hypothesis states too little (specific terms: {', '.join(sorted(hypothesis)) or 'none'})")
    else:
        context = specific_terms(_text(entry, "goal")) | specific_terms(_text(entry, "action"))
        if len(hypothesis & context) >= RESTATE_SHARE * len(hypothesis):
            reasons.append("hypothesis only restates the goal and the action")
    prediction = specific_terms(_text(entry, "prediction"))
    if not prediction:
        reasons.append("prediction names nothing observable")
    elif hypothesis and len(prediction & hypothesis) >= SAME_SHARE * len(prediction | hypothesis):
        reasons.append("prediction repeats the hypothesis")
    if not specific_terms(_text(entry, "outcome_result")):
        reasons.append(f"result says nothing specific ({_text(entry, 'outcome_result')!r})")
    return "; ".join(reasons) or None


# -- recording and embedding -----------------------------------------------------


def record_axes(con, entries: Sequence[Mapping[str, Any]], now: datetime, embedded: Mapping | None = None) -> None:
    """Insert one experience_axes row per axis text of each resolved entry (inside the caller's transaction):
    pending, or with its vector when `embedded` ({(axis, text): vector}, embedded_axes) holds that very text.

    A few statements whatever the number of entries: on a lake every statement is a round of catalog work
    (~14 ms measured): writing an import of 60 entries took 4.9 s one statement per row, 0.3 s this way."""
    rows = [(entry["id"], axis, text, keywords.terms(text), (embedded or {}).get((axis, text)))
            for entry in entries for axis, text in axis_texts(entry).items()]
    if not rows:
        return
    ghap_id, axis, text, row_terms, vectors = (list(column) for column in zip(*rows))
    con.register("new_experience_axes", pa.table({
        "ghap_id": ghap_id, "axis": axis, "text": text,
        "terms": pa.array(row_terms, pa.list_(pa.string())),
        "embedding": pa.array(vectors, pa.list_(pa.float32(), EMBEDDING_DIM)),
        "created_at": pa.array([now] * len(rows), pa.timestamp("us")),
    }))
    try:
        con.execute(sql.query("delete_recorded_axes_embedded"))
        con.execute(sql.query("delete_recorded_axes_recent"))
        if any(vector is None for vector in vectors):
            con.execute(sql.query("insert_pending_recorded_axes"))
        if any(vector is not None for vector in vectors):
            con.execute(sql.query("insert_embedded_recorded_axes"))
    finally:
        con.unregister("new_experience_axes")


def embedded_axes(entry: Mapping[str, Any], embedder) -> dict[tuple[str, str], list[float]]:
    """The axis texts of a resolved entry, embedded: {(axis, text): vector} for record_axes."""
    _check_dim(embedder)
    rows = [(entry["id"], axis, text) for axis, text in axis_texts(entry).items()]
    table = _vectors(rows, embedder)
    return {(axis, text): vector for (_, axis, text), vector in zip(rows, table.column("embedding").to_pylist())}


def _check_dim(embedder) -> None:
    if embedder.dim != EMBEDDING_DIM:
        raise ValidationError(f"model: {embedder.name!r} gives {embedder.dim}-d vectors; the file stores {EMBEDDING_DIM}-d")


def _vectors(rows: Sequence[tuple[str, str, str]], embedder) -> pa.Table:
    """(ghap_id, axis, text, embedding) for the rows; a text longer than the model's window is embedded as
    the normalised mean of its passages."""
    vectors, _ = passages.embed_texts(embedder, [text for _, _, text in rows])
    return pa.table({
        "ghap_id": [row[0] for row in rows],
        "axis": [row[1] for row in rows],
        "text": [row[2] for row in rows],
        "embedding": to_column(vectors, embedder.dim),
    })


def pending_axes(con) -> list[tuple[str, str, str]]:
    """(ghap_id, axis, text) of every axis row waiting for its embedding."""
    return con.execute(sql.query("pending_experience_axes")).fetchall()


def embed_pending(store: Store, embedder, rows: Sequence[tuple[str, str, str]] | None = None) -> int:
    """Embed every axis row still pending and write the vectors in one transaction.

    `rows` are the pending rows when the caller has just read them (a resolve,
    inside its transaction); otherwise they are read here. Returns how many rows
    this call filled. Embedding happens outside the writer lock; the write moves
    only rows still pending with the same text, so two processes racing fill
    each row once and a repeated call embeds nothing.
    """
    if rows is None:
        with store.read() as con:
            rows = pending_axes(con)
    if not rows:
        return 0
    _check_dim(embedder)
    table = _vectors(rows, embedder)
    with store.write() as con:
        con.register("new_experience_axes", table)
        filled = con.execute(sql.query("fillable_axis_count")).fetchone()[0]
        con.execute(sql.query("fill_axis_embeddings"))
        con.unregister("new_experience_axes")
        if con.execute(sql.query("recent_embedded_count")).fetchone()[0] >= FOLD_ROWS:
            con.execute(sql.query("fold_recent_axes"))
            con.execute(sql.query("clear_folded_axes"))
    return filled


def reembed_experiences(store: Store, embedder) -> int:
    """Build every resolved entry's axis texts again (axis_texts of today) and embed them with `embedder`;
    returns the number of axis rows.

    Texts are rebuilt, not only re-embedded, so a file whose texts were made by an
    older template (before the root_cause text became the cause alone) catches up.
    All vectors are computed first and every row is replaced in one transaction,
    so an interrupted run leaves the file as it was. Recording the model in
    `meta` is the caller's job (memories.reembed_memories does it).
    """
    import pyarrow as pa

    _check_dim(embedder)
    with store.read() as con:
        cursor = con.execute(sql.query("resolved_entries_with_axes"))
        names = [column[0] for column in cursor.description]
        entries = [dict(zip(names, row)) for row in cursor.fetchall()]
    rows = [(entry["id"], axis, text, entry["axes_created_at"])
            for entry in entries for axis, text in axis_texts(entry).items()]
    if not rows:
        return 0
    table = _vectors([row[:3] for row in rows], embedder)
    table = table.append_column("terms", pa.array([keywords.terms(row[2]) for row in rows], pa.list_(pa.string())))
    table = table.append_column("created_at", pa.array([row[3] for row in rows], pa.timestamp("us")))
    with store.write() as con:
        con.execute(sql.query("clear_experience_axes"))
        con.execute(sql.query("clear_recent_experience_axes"))
        con.register("new_experience_axes", table)
        con.execute(sql.query("insert_embedded_axes"))
        con.unregister("new_experience_axes")
    return len(rows)


# -- search ----------------------------------------------------------------------

_RESULT_COLUMNS = ("ghap_id", "axis", "domain", "strategy", "goal", "hypothesis", "action", "prediction",
                   "outcome_status", "outcome_result", "surprise", "root_cause_category", "root_cause_description",
                   "lesson_what_worked", "lesson_takeaway", "confidence_tier", "created_at")


class AxisRows:
    """The experiences of one axis: vectors (zero while pending), BM25 postings, filter columns."""

    def __init__(self, table: pa.Table, dim: int):
        self.table = table
        self.size = table.num_rows
        self.vectors = to_matrix_with_gaps(table.column("embedding"), dim)
        self.bm25 = Bm25(table.column("terms"))
        self.domain = np.asarray(table.column("domain").to_pylist(), dtype=object)
        self.outcome = np.asarray(table.column("outcome_status").to_pylist(), dtype=object)
        tiers = table.column("confidence_tier").to_pylist()
        self.weight = np.asarray([terms.TIER_WEIGHTS.get(tier, 0.0) for tier in tiers])
        self.tier = np.asarray(tiers, dtype=object)

    def eligible(self, domain: str | None, outcome: str | None, cold: Sequence[str] = ()) -> np.ndarray:
        """The rows a search may return: of `domain` and `outcome` (None: any), and of no tier in `cold`."""
        mask = np.ones(self.size, dtype=bool)
        for tier in cold:
            mask &= self.tier != tier
        if domain is not None:
            mask &= self.domain == domain
        if outcome is not None:
            mask &= self.outcome == outcome
        return mask

    def experience(self, row: int, score: float) -> Experience:
        value = {name: self.table.column(name)[row].as_py() for name in _RESULT_COLUMNS}
        category, description = value.pop("root_cause_category"), value.pop("root_cause_description")
        worked, takeaway = value.pop("lesson_what_worked"), value.pop("lesson_takeaway")
        return Experience(
            id=f"{value['ghap_id']}:{value['axis']}",
            root_cause={"category": category, "description": description} if category is not None else None,
            lesson={"what_worked": worked, "takeaway": takeaway} if worked is not None else None,
            score=score,
            **value | {"created_at": iso(value["created_at"])},
        )


class ExperienceSnapshot:
    """Every experience axis row at one moment, split by axis."""

    def __init__(self, table: pa.Table, dim: int):
        axis = table.column("axis")
        self.axes = {name: AxisRows(table.filter(pc.equal(axis, name)), dim) for name in AXES}
        self.pending = table.column("embedding").null_count  # rows waiting for their vectors


class ExperienceIndex(SnapshotCache[ExperienceSnapshot]):
    """Keeps an ExperienceSnapshot current for one store (reloaded when axes are added or embedded)."""

    def __init__(self, store: Store, dim: int):
        super().__init__(store, sql.query("experience_axis_stats"), sql.query("load_experience_axes"),
                         lambda table: ExperienceSnapshot(table, dim))


def search_experiences(
    index: ExperienceIndex, store: Store, embedder, query: str, axis: str = "full", domain: str | None = None,
    outcome: str | None = None, limit: int = 10, include_cold: bool = False, cold_tier: str | None = None,
) -> list[Experience]:
    """Experiences matching `query` on one axis, best first: exact vectors + BM25, fused.

    `domain` and `outcome` (confirmed, falsified, abandoned) filter exactly before
    ranking. Cold experiences (tiers at or below `cold_tier`, terms.cold_tiers: by
    default bronze and abandoned) are left out unless `include_cold`; they are kept
    in the file, never deleted. Pending axes are embedded first (on a read-write
    handle); an empty or blank query finds nothing. Exact ties of the score break
    by tier, then recency.
    """
    text = validate.text("query", query, max_chars=MAX_QUERY_CHARS, allow_empty=True)
    cold = () if validate.flag("include_cold", include_cold) else terms.cold_tiers(cold_tier)
    validate.integer("limit", limit, low=1, high=MAX_LIMIT)
    validate.choice("axis", axis, AXES)
    if domain is not None:
        validate.choice("domain", domain, terms.DOMAINS)
    if outcome is not None:
        validate.choice("outcome", outcome, terms.STATUSES)
    if not text:
        return []
    if not store.read_only and index.snapshot().pending:  # the snapshot knows, without opening the file
        embed_pending(store, embedder)
    rows = index.snapshot().axes[axis]
    eligible = rows.eligible(domain, outcome, cold)
    if not eligible.any():
        return []
    query_vector = embedder.embed([text])[0]
    with one_blas_thread():
        similarity = rows.vectors @ query_vector
    ranked = hybrid_rank(similarity, rows.bm25, keywords.terms(text), eligible, limit,
                         importance=rows.weight, recency=np.arange(rows.size))
    return [rows.experience(int(row), float(score)) for row, score in zip(ranked.rows, ranked.scores)]


def cold_counts(store: Store, cold_tier: str | None = None) -> dict[str, int]:
    """How many resolved entries (experiences) sit in cold storage, per cold tier (zeros included; {} when
    nothing is cold): kept in the file, left out of clustering and default search."""
    cold = terms.cold_tiers(cold_tier)
    with store.read() as con:
        counts = dict(con.execute(sql.query("experience_tier_counts")).fetchall())
    return {tier: int(counts.get(tier, 0)) for tier in cold}
