"""Context assembly: what an agent should know now, within a token budget; and premortems.

Light context (session start, no query needed): the active GHAP, the values of the
largest clusters, recent experiences and their lessons, the memories relevant to the
work in progress (the situation if given, else the active GHAP), the most important
and the newest memories, recent commits and churn hotspots. Rich context (after a failure,
or on request; needs a situation): similar experiences with their lessons, values,
recurring root causes and surprises, relevant memories and code units.

Cold experiences (bronze and abandoned by default: terms.cold_tiers) are left out of every section, as
search_experiences leaves them out by default; a premortem's counts and patterns still tally them.

Each source ranks its own items. Items are de-duplicated across sources (same id,
or the same text), then taken round-robin by rank, every section's best first,
until `max_tokens` is spent (counted with the embedder's tokenizer), so that a long
list of memories cannot crowd out the one lesson that matters. The result is
compact markdown; every line ends with the id to drill down with.

This is the one area that reads all the others, so it composes them through
the methods of the `Learnmem` facade (`Areas` below names them) rather than the
store alone; the hooks pass their one-shot view (oneshot.py) instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from learnmem.learning import ghap, terms
from learnmem.storage import sql
from learnmem import validate
from learnmem.context.records import Context, ContextItem, PatternCount, Premortem
from learnmem.errors import NotFoundError, ValidationError
from learnmem.learning.ghap_records import ActiveGhap, Experience
from learnmem.learning.records import Value
from learnmem.storage.store import iso
from learnmem.text import clip



class Areas(Protocol):
    """What assembly reads: the `Learnmem` facade has all of it; the hooks' one-shot view the common part."""

    store: Any
    cold_tier: str | None

    def retrieve_memories(self, query: str, limit: int = 10, **filters: Any) -> list: ...
    def search_code(self, query: str, limit: int = 10, **filters: Any) -> list: ...
    def get_churn_hotspots(self, days: int = 90, limit: int = 10, **filters: Any) -> list: ...
    def get_active_ghap(self) -> ActiveGhap: ...
    def search_experiences(self, query: str, axis: str = "full", **filters: Any) -> list[Experience]: ...
    def list_values(self, axis: str | None = None, limit: int = 20) -> list[Value]: ...
    def search_values(self, query: str, axis: str | None = None, limit: int = 5) -> list[Value]: ...
    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...

DEPTHS = ("light", "rich")
MIN_TOKENS, MAX_TOKENS = 100, 32_000
MAX_SITUATION_CHARS = 2_000
MAX_LINE_CHARS = 400  # one item's text; a longer memory is cut with an ellipsis (its id gives the rest)
HOTSPOT_DAYS = 90


@dataclass(frozen=True)
class _Candidate:
    kind: str
    id: str
    text: str  # the markdown line
    score: float
    key: str  # besides the id, what makes two candidates the same thing (a memory and a value of one text)


@dataclass(frozen=True)
class _Section:
    title: str
    candidates: tuple[_Candidate, ...]


# -- get_context ----------------------------------------------------------------------


def get_context(lm: Areas, situation: str | None = None, depth: str = "light", max_tokens: int = 2000,
                include_code: bool = True, project: str | None = None, spec: str | None = None) -> Context:
    """Light or rich context as markdown within `max_tokens` (see the module docstring). Light context for
    a `spec` leads with that spec's blockers, decisions and learnings; without one, with recent patterns."""
    spec = None if spec is None else validate.slug("spec", spec)
    validate.choice("depth", depth, DEPTHS)
    max_tokens = validate.integer("max_tokens", max_tokens, low=MIN_TOKENS, high=MAX_TOKENS)
    situation = validate.text("situation", situation, max_chars=MAX_SITUATION_CHARS, allow_empty=True) \
        if situation is not None else None
    situation = situation.strip() or None if situation is not None else None
    if project is not None:
        validate.text("project", project, max_chars=200)
    if depth == "rich" and situation is None:
        raise ValidationError("situation: rich context needs a situation (what happened, what you are about to "
                              "do); got none. Use depth 'light' for session-start context without one")
    if depth == "light":
        sections = _light_sections(lm, situation, project, spec)
        header = "# learnmem context (light)" + (f" for spec {spec}" if spec else "")
    else:
        sections = _rich_sections(lm, situation, include_code, project)
        header = f"# learnmem context (rich): {clip(situation, 200)}"
    return _assemble(lm.count_tokens, header, depth, situation, max_tokens, _deduplicated(sections))


def _light_sections(lm: Areas, situation: str | None, project: str | None, spec: str | None) -> list[_Section]:
    active = lm.get_active_ghap()
    sections = [
        _Section("Active GHAP", _active(active)),
        _Section(f"Spec {spec}: blockers, decisions, learnings", tuple(_stored_memories(
            lm, sql.query("spec_memories"), 12, spec=spec))) if spec else
        _Section("Recent patterns", tuple(_stored_memories(lm, sql.query("recent_patterns"), 4))),
        _Section("Values", tuple(_value(value, 1.0 / (rank + 1)) for rank, value in
                                 enumerate(v for v in lm.list_values(limit=8) if v.dissolved_at is None))),
        _Section("Recent experiences", _recent_experiences(lm, limit=6)),
    ]
    memories = []
    # At session start the work in progress says what is relevant: the active GHAP's goal and hypothesis.
    focus = situation or (f"{active.goal}. {active.hypothesis}" if active.has_active else None)
    if focus is not None:
        memories += [_memory(hit.id, hit.category, hit.content, hit.score) for hit in
                     lm.retrieve_memories(focus, limit=6)]
    memories += (_stored_memories(lm, sql.query("important_memories"), 6)
                 + _stored_memories(lm, sql.query("recent_memories"), 4))
    sections.append(_Section("Memories", tuple(memories)))
    commits, hotspots = _git(lm, project)
    sections += [_Section("Recent commits", commits), _Section("Hotspots", hotspots)]
    return sections


def _rich_sections(lm: Areas, situation: str, include_code: bool, project: str | None) -> list[_Section]:
    similar = lm.search_experiences(situation, axis="full", limit=6)
    values = lm.search_values(situation, limit=5) + lm.search_values(situation, axis="strategy", limit=2)
    sections = [
        _Section("Similar experiences", tuple(_experience(e, e.score or 0.0, rich=True) for e in similar)),
        _Section("Values", tuple(_value(v, v.score or 0.0) for v in sorted(values, key=lambda v: -(v.score or 0)))),
        _Section("Patterns", _patterns(lm, situation, {e.ghap_id for e in similar})),
        _Section("Relevant memories", tuple(_memory(hit.id, hit.category, hit.content, hit.score)
                                            for hit in lm.retrieve_memories(situation, limit=6))),
    ]
    if include_code:
        sections.append(_Section("Relevant code", _code(lm, situation, project)))
    return sections


def _active(active: ActiveGhap) -> tuple[_Candidate, ...]:
    if not active.has_active:
        return ()
    text = (f"- {active.goal} ({active.domain}, {active.strategy}, iteration {active.iteration_count}): "
            f"hypothesis: {active.hypothesis}; action: {active.action}; predicts: {active.prediction} `{active.id}`")
    return (_Candidate("active", active.id, clip(text, 2 * MAX_LINE_CHARS), 1.0, active.id),)


def _recent_experiences(lm: Areas, limit: int) -> tuple[_Candidate, ...]:
    with lm.store.read() as con:  # cold experiences left out, as search_experiences does by default
        rows = _dicts(con.execute(sql.query("recent_experiences"),
                                  {"limit": limit, "cold": list(terms.cold_tiers(lm.cold_tier))}))
    return tuple(_experience_line(row["id"], row, 1.0 / (rank + 1), rich=False) for rank, row in enumerate(rows))


def _experience(experience: Experience, score: float, rich: bool) -> _Candidate:
    row = {
        "domain": experience.domain, "strategy": experience.strategy, "goal": experience.goal,
        "outcome_status": experience.outcome_status, "outcome_result": experience.outcome_result,
        "surprise": experience.surprise,
        "root_cause_category": (experience.root_cause or {}).get("category"),
        "root_cause_description": (experience.root_cause or {}).get("description"),
        "lesson_what_worked": (experience.lesson or {}).get("what_worked"),
        "lesson_takeaway": (experience.lesson or {}).get("takeaway"),
    }
    return _experience_line(experience.ghap_id, row, score, rich)


def _experience_line(ghap_id: str, row: dict, score: float, rich: bool) -> _Candidate:
    parts = [f"- [{row['outcome_status']}] {row['goal']} ({row['domain']}, {row['strategy']})"]
    if rich:
        parts.append(f"result: {clip(row['outcome_result'], 160)}")
        if row["surprise"]:
            parts.append(f"surprise: {clip(row['surprise'], 160)}")
    if row["root_cause_category"]:
        parts.append(f"root cause {row['root_cause_category']}: {clip(row['root_cause_description'], 200)}")
    lesson = row["lesson_takeaway"] or row["lesson_what_worked"]
    if lesson:
        parts.append(f"lesson: {clip(lesson, 200)}")
    elif not rich:
        parts.append(f"result: {clip(row['outcome_result'], 160)}")
    return _Candidate("experience", ghap_id, "; ".join(parts) + f" `{ghap_id}`", score, ghap_id)


def _value(value: Value, score: float) -> _Candidate:
    text = f"- {clip(value.text, MAX_LINE_CHARS)} ({value.axis} cluster {value.cluster_id}, {value.cluster_size} " \
           f"experiences) `{value.id}`"
    return _Candidate("value", value.id, text, score, _normal(value.text))


def _memory(memory_id: str, category: str, content: str, score: float) -> _Candidate:
    return _Candidate("memory", memory_id, f"- ({category}) {clip(content, MAX_LINE_CHARS)} `{memory_id}`", score,
                      _normal(content))


def _stored_memories(lm: Areas, query: str, limit: int, **params: str) -> list[_Candidate]:
    with lm.store.read() as con:
        rows = con.execute(query, {"limit": limit, **params}).fetchall()
    return [_memory(memory_id, category, content, 1.0 / (rank + 1))
            for rank, (memory_id, content, category, _importance, _tags, _created) in enumerate(rows)]


def _git(lm: Areas, project: str | None) -> tuple[tuple[_Candidate, ...], tuple[_Candidate, ...]]:
    with lm.store.read() as con:
        rows = con.execute(sql.query("recent_commits"), {"project": project, "limit": 5}).fetchall()
    if not rows:
        return (), ()
    commits = tuple(
        _Candidate("commit", sha, f"- {sha[:10]} {iso(committed)[:10]} {author}: {clip(subject, 160)} "
                                  f"(+{insertions}/-{deletions}) `{sha[:12]}`", 1.0 / (rank + 1), sha)
        for rank, (_, sha, subject, author, committed, _files, insertions, deletions) in enumerate(rows))
    try:
        # The window ends at the project's newest commit: "recent" for a repository that rested a while too.
        hotspots = lm.get_churn_hotspots(days=HOTSPOT_DAYS, limit=4, project=project or rows[0][0],
                                         as_of=rows[0][4])
    except NotFoundError:  # the newest commit's repository was removed since
        hotspots = []
    spots = tuple(
        _Candidate("hotspot", spot.path,
                   f"- {spot.path}: {spot.commits} commits in the {HOTSPOT_DAYS} days to the newest, "
                   f"+{spot.insertions}/-{spot.deletions}, last {spot.last_change[:10]}",
                   1.0 / (rank + 1), spot.path)
        for rank, spot in enumerate(hotspots))
    return commits, spots


def _patterns(lm: Areas, situation: str, shown: set[str]) -> tuple[_Candidate, ...]:
    """Recurring root causes (by category) and surprises among the experiences nearest the situation."""
    causes: dict[str, list[Experience]] = {}
    for experience in lm.search_experiences(situation, axis="root_cause", limit=10):
        causes.setdefault(experience.root_cause["category"], []).append(experience)
    found = [
        _Candidate("pattern", f"root_cause:{category}",
                   f"- root cause {category} in {len(hits)} of the nearest failures, e.g. "
                   f"{clip(hits[0].root_cause['description'], 200)} `{hits[0].ghap_id}`",
                   sum(hit.score or 0.0 for hit in hits), f"root_cause:{category}")
        for category, hits in causes.items()
    ]
    found += [
        _Candidate("pattern", f"surprise:{hit.ghap_id}", f"- surprise: {clip(hit.surprise, 200)} `{hit.ghap_id}`",
                   hit.score or 0.0, f"surprise:{hit.ghap_id}")
        for hit in lm.search_experiences(situation, axis="surprise", limit=4) if hit.ghap_id not in shown
    ]
    return tuple(sorted(found, key=lambda candidate: -candidate.score))


def _code(lm: Areas, situation: str, project: str | None) -> tuple[_Candidate, ...]:
    try:
        hits = lm.search_code(situation, project=project, limit=4)
    except NotFoundError:  # no such project indexed
        return ()
    return tuple(
        _Candidate("code", f"{hit.file_path}:{hit.start_line}",
                   f"- {hit.qualified_name} ({hit.unit_type}, {hit.file_path}:{hit.start_line}-{hit.end_line})"
                   + (f": {clip(hit.signature, 160)}" if hit.signature else "")
                   + f" `{hit.file_path}:{hit.start_line}`",
                   hit.score, f"code:{hit.project}:{hit.file_path}:{hit.start_line}")
        for hit in hits)


def _deduplicated(sections: Sequence[_Section]) -> list[_Section]:
    """Each thing once (same id, or same text): the first section, in order, that has it keeps it."""
    seen: set[str] = set()
    out = []
    for section in sections:
        kept = []
        for candidate in section.candidates:
            keys = {candidate.id, candidate.key}
            if seen.isdisjoint(keys):
                seen |= keys
                kept.append(candidate)
        if kept:
            out.append(_Section(section.title, tuple(kept)))
    return out


def _assemble(count_tokens: Callable[[Sequence[str]], list[int]], header: str, depth: str, situation: str | None,
              max_tokens: int, sections: list[_Section]) -> Context:
    """Take items round-robin by rank while they fit, then render the taken ones in section order."""
    titles = [f"## {section.title}" for section in sections]
    texts = [header, *titles, *(c.text for section in sections for c in section.candidates)]
    counts = dict(zip(texts, count_tokens(texts)))
    used, opened = counts[header], set()
    taken: set[tuple[int, int]] = set()
    total = sum(len(section.candidates) for section in sections)
    for rank in range(max((len(section.candidates) for section in sections), default=0)):
        for number, section in enumerate(sections):
            if rank >= len(section.candidates):
                continue
            cost = counts[section.candidates[rank].text] + (0 if number in opened else counts[titles[number]])
            if used + cost <= max_tokens:
                used += cost
                opened.add(number)
                taken.add((number, rank))
    lines, items = [header], []
    for number, section in enumerate(sections):
        chosen = [section.candidates[rank] for rank in range(len(section.candidates)) if (number, rank) in taken]
        if chosen:
            lines += ["", titles[number], *(c.text for c in chosen)]
            items += [ContextItem(kind=c.kind, id=c.id, text=c.text, score=round(float(c.score), 6),
                                  tokens=counts[c.text]) for c in chosen]
    if not items:
        lines += ["", f"Nothing fits in {max_tokens} tokens: ask for more." if total else
                  "Nothing stored yet: no values, experiences, memories or history to show."]
    markdown = "\n".join(lines)
    return Context(depth=depth, situation=situation, markdown=markdown, tokens=sum(count_tokens([markdown])),
                   max_tokens=max_tokens, items=tuple(items), omitted=total - len(items))


# -- get_premortem --------------------------------------------------------------------


def get_premortem(lm: Areas, domain: str, strategy: str, situation: str | None = None) -> Premortem:
    """How `strategy` went on `domain` work before: counts, failures, surprises, root causes, values."""
    validate.choice("domain", domain, ghap.DOMAINS)
    validate.choice("strategy", strategy, ghap.STRATEGIES)
    if situation is not None:
        situation = validate.text("situation", situation, max_chars=MAX_SITUATION_CHARS, allow_empty=True).strip() \
            or None
    pair = {"domain": domain, "strategy": strategy}
    with lm.store.read() as con:
        counts = dict(con.execute(sql.query("premortem_counts"), pair).fetchall())
        # The counts and patterns tally every entry; the failures shown are warm ones (as search_experiences).
        recent_failures = _dicts(con.execute(sql.query("premortem_failures"),
                                             pair | {"limit": 5, "cold": list(terms.cold_tiers(lm.cold_tier))}))
        causes = con.execute(sql.query("premortem_root_causes"), pair | {"limit": 5}).fetchall()
        surprises = con.execute(sql.query("premortem_surprises"), pair | {"limit": 5}).fetchall()
        value_rows = _dicts(con.execute(sql.query("premortem_values"), pair | {"limit": 5}))
    failures = _premortem_failures(lm, domain, strategy, situation, recent_failures)
    values = [Value(id=row["id"], text=row["text"], axis=row["axis"], cluster_id=row["cluster_id"],
                    cluster_size=int(row["cluster_size"]), similarity_to_centroid=float(row["similarity_to_centroid"]),
                    created_at=iso(row["created_at"])) for row in value_rows]
    if situation is not None:
        known = {value.id for value in values}
        values += [value for value in lm.search_values(situation, limit=3)
                   if value.id not in known and value.dissolved_at is None]
    result = Premortem(
        domain=domain, strategy=strategy, situation=situation, total=sum(counts.values()),
        confirmed=counts.get("confirmed", 0), falsified=counts.get("falsified", 0),
        abandoned=counts.get("abandoned", 0), failures=tuple(failures),
        surprises=tuple(PatternCount(text=example, count=n, example_ghap_id=ghap_id)
                        for _, n, example, ghap_id in surprises),
        root_causes=tuple(PatternCount(text=f"{category}: {example}", count=n, example_ghap_id=ghap_id)
                          for category, n, example, ghap_id in causes),
        values=tuple(values), markdown="")
    return _with_markdown(result)


def _premortem_failures(lm: Areas, domain: str, strategy: str, situation: str | None,
                        recent: list[dict]) -> list[Experience]:
    """The pair's failures most like the situation (else the newest), as full-axis experiences."""
    if situation is not None:
        hits = [hit for hit in lm.search_experiences(situation, axis="full", domain=domain, limit=50)
                if hit.strategy == strategy and hit.outcome_status in ("falsified", "abandoned")]
        if hits:
            return sorted(hits, key=lambda hit: hit.outcome_status == "abandoned")[:5]
    return [Experience(
        id=f"{row['id']}:full", ghap_id=row["id"], axis="full", domain=row["domain"], strategy=row["strategy"],
        goal=row["goal"], hypothesis=row["hypothesis"], action=row["action"], prediction=row["prediction"],
        outcome_status=row["outcome_status"], outcome_result=row["outcome_result"], surprise=row["surprise"],
        root_cause={"category": row["root_cause_category"], "description": row["root_cause_description"]}
        if row["root_cause_category"] is not None else None,
        lesson={"what_worked": row["lesson_what_worked"], "takeaway": row["lesson_takeaway"]}
        if row["lesson_what_worked"] is not None else None,
        confidence_tier=row["confidence_tier"], created_at=iso(row["created_at"])) for row in recent]


def _dicts(cursor) -> list[dict]:
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _with_markdown(premortem: Premortem) -> Premortem:
    from dataclasses import replace

    p = premortem
    lines = [f"# Premortem: {p.strategy} on {p.domain} work"]
    if p.situation:
        lines.append(f"Situation: {clip(p.situation, 200)}")
    if not p.total:
        lines += ["", f"No resolved {p.domain} experience used {p.strategy} yet: nothing to warn about. "
                      "Start a GHAP so that this one counts next time."]
        return replace(p, markdown="\n".join(lines))
    rate = p.falsified / p.total
    lines += ["", f"{p.total} earlier attempts: {p.confirmed} confirmed, {p.falsified} falsified, "
                  f"{p.abandoned} abandoned ({rate:.0%} falsified)."]
    if p.failures:
        lines += ["", "## Failures like this one"]
        lines += [_experience(f, f.score or 0.0, rich=True).text for f in p.failures]
    if p.root_causes:
        lines += ["", "## Frequent root causes"]
        lines += [f"- {c.count}x {clip(c.text, 240)} `{c.example_ghap_id}`" for c in p.root_causes]
    if p.surprises:
        lines += ["", "## Common surprises"]
        lines += [f"- {s.count}x {clip(s.text, 200)} `{s.example_ghap_id}`" for s in p.surprises]
    if p.values:
        lines += ["", "## Values"]
        lines += [_value(v, 0.0).text for v in p.values]
    return replace(p, markdown="\n".join(lines))


# -- text -----------------------------------------------------------------------------

_SPACE = re.compile(r"\s+")


def _normal(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()
