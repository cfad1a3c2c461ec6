"""Sharing memories through git notes (learnmem.exchange.notes): export, import, pull and push between real clones of
a bare repository, with git itself as the oracle of what the notes hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dulwich.repo import Repo
from hypothesis import example, given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.exchange import notes, notes_format
from learnmem.errors import NotFoundError, RemoteError, ValidationError
from learnmem.exchange.portable import RejectedImport
from tests.gitrepo import GitRepo, run_git


def _open(repo: GitRepo, embedder) -> learnmem.Learnmem:
    return learnmem.open(repo.path / ".learnmem" / "learnmem.duckdb", embedder=embedder)


@pytest.fixture
def origin(tmp_path: Path) -> GitRepo:
    """A bare repository with one commit, made from a work tree that is then left alone."""
    seed = GitRepo.init(tmp_path / "seed")
    seed.write("README.md", "# shop\n")
    seed.commit("initial")
    run_git(tmp_path, seed.home, "clone", "-q", "--bare", str(seed.path), str(tmp_path / "origin.git"))
    return GitRepo(tmp_path / "origin.git", seed.home, seed.clock)


def _clone(origin: GitRepo, target: Path) -> GitRepo:
    run_git(target.parent, origin.home, "clone", "-q", str(origin.path), str(target))
    (target / ".gitignore").write_text(".learnmem/\n")
    return GitRepo(target, origin.home, origin.clock)


def _current(lm: learnmem.Learnmem) -> dict[str, str]:
    return {memory.id: memory.content for memory in lm.list_memories(limit=100)}


def test_a_memory_records_the_commit_it_was_made_at(tmp_path: Path, embedder, monkeypatch) -> None:
    repo = GitRepo.init(tmp_path / "work")
    repo.write("app.py", "print('hi')\n")
    first = repo.commit("first")
    lm = _open(repo, embedder)
    stored = lm.store_memory("The entry point is app.py.", "fact", sources=["app.py", "README.md#run"])
    memory = lm.get_memory(stored.id)
    assert memory.commit_sha == first and memory.sources == ("app.py", "README.md#run")
    repo.write("app.py", "print('hello')\n")
    second = repo.commit("second")
    assert lm.get_memory(lm.store_memory("Greetings say hello.", "fact").id).commit_sha == second

    monkeypatch.chdir(tmp_path)
    outside = learnmem.open(tmp_path / "elsewhere.duckdb", embedder=embedder)
    assert outside.get_memory(outside.store_memory("No repository here.", "fact").id).commit_sha is None
    empty = GitRepo.init(tmp_path / "empty")  # a repository without commits: no commit to record
    unborn = _open(empty, embedder)
    assert unborn.get_memory(unborn.store_memory("Nothing committed yet.", "fact").id).commit_sha is None

    with pytest.raises(ValidationError, match=r"sources: expected a list"):
        lm.store_memory("Bad sources.", "fact", sources="README.md")
    with pytest.raises(ValidationError, match=r"sources\[1\]: must not be empty"):
        lm.store_memory("Bad sources.", "fact", sources=["README.md", " "])


def test_export_writes_notes_git_reads(tmp_path: Path, embedder) -> None:
    repo = GitRepo.init(tmp_path / "work")
    repo.write("app.py", "x = 1\n")
    sha = repo.commit("first")
    lm = _open(repo, embedder)
    old = lm.store_memory("Prices are floats.", "decision", importance=0.9, tags=["money"], sources=["docs/adr.md"])
    new = lm.supersede_memory(old.id, "Prices are integer cents, never floats.")
    forgotten = lm.store_memory("A passing remark about lunch.", "context")
    lm.forget(forgotten.id)

    result = lm.export_notes()
    assert result.memories == 2 and result.values == 0 and result.changed == ("decision",)
    note = repo.git("notes", "--ref=learnmem/decision", "show", sha)
    assert note.startswith(f"---\nid: {old.id}\n")
    assert f"superseded_by: {new.id}" in note and "Prices are integer cents, never floats." in note
    assert "tags: [money]" in note and "sources: [docs/adr.md]" in note
    assert repo.git("notes", "--ref=learnmem/context", "list") == ""  # forgotten: not shared
    assert lm.export_notes().changed == ()  # nothing new: no new notes commit

    # A second file in the same repository rebuilds the memories from the notes alone.
    copy = learnmem.open(tmp_path / "copy.duckdb", embedder=embedder)
    imported = copy.import_notes(repo.path)
    assert imported.imported == {"memories": 2, "values": 0}
    assert _current(copy) == {new.id: "Prices are integer cents, never floats."}
    chain = {m.id: m for m in copy.list_memories(include_superseded=True)}
    assert chain[old.id].superseded_by == new.id and chain[old.id].commit_sha == sha
    assert chain[old.id].sources == ("docs/adr.md",) and chain[old.id].tags == ("money",)
    assert copy.retrieve_memories("how is money stored?", limit=1)[0].id == new.id  # embedded again
    again = copy.import_notes(repo.path)
    assert again.imported == {"memories": 0, "values": 0} and again.skipped["memories"] == 2


def test_two_clones_converge_through_a_bare_repository(tmp_path: Path, origin: GitRepo, embedder) -> None:
    alice, bob = _clone(origin, tmp_path / "alice"), _clone(origin, tmp_path / "bob")
    lm_a, lm_b = _open(alice, embedder), _open(bob, embedder)
    a1 = lm_a.store_memory("The API listens on port 8080.", "fact").id
    a2 = lm_a.store_memory("Use ruff for formatting.", "convention").id
    b1 = lm_b.store_memory("Deploys happen on Tuesdays.", "decision").id
    both = "Tests need a running PostgreSQL."
    lm_a.store_memory(both, "requirement")
    lm_b.store_memory(both, "requirement")

    first = lm_a.push_notes()
    assert first.remote_refs == {} and set(first.pushed) == {"fact", "convention", "requirement"}
    second = lm_b.push_notes()  # pulls alice's notes first, then pushes a merge
    assert second.imported.imported["memories"] == 2 and second.imported.skipped["memories"] == 1
    lm_a.pull_notes()
    # Each file holds every memory once; the text both stored stays under the id each file gave it.
    assert sorted(_current(lm_a).values()) == sorted(_current(lm_b).values())
    assert len(_current(lm_a)) == 4 and {a1, a2, b1} <= set(_current(lm_a)) & set(_current(lm_b))

    # A supersede made in one clone reaches the other; nothing is stored twice.
    a3 = lm_a.supersede_memory(a1, "The API listens on port 9090.").id
    lm_a.push_notes()
    pulled = lm_b.pull_notes()
    assert pulled.imported.imported["memories"] == 1 and pulled.imported.supersedes_merged == 1
    assert lm_b.get_memory(a1).superseded_by == a3 and a1 not in _current(lm_b)
    assert sorted(_current(lm_a).values()) == sorted(_current(lm_b).values())
    assert lm_b.pull_notes().imported.imported == {"memories": 0, "values": 0}

    # git itself sees the merged notes in a third clone.
    carol = _clone(origin, tmp_path / "carol")
    carol.git("fetch", "-q", "origin", "refs/notes/*:refs/notes/*")
    assert b1 in carol.git("notes", "--ref=learnmem/decision", "show", alice.head())


def test_a_push_over_a_moved_remote_is_refused(tmp_path: Path, origin: GitRepo, embedder) -> None:
    alice, bob = _clone(origin, tmp_path / "alice"), _clone(origin, tmp_path / "bob")
    lm_a, lm_b = _open(alice, embedder), _open(bob, embedder)
    lm_b.store_memory("Bob's fact.", "fact")
    pulled = lm_b.pull_notes()  # bob fetched the remote as it was (empty)
    lm_a.store_memory("Alice's fact.", "fact")
    lm_a.push_notes()
    with Repo(str(bob.path)) as repo:
        expected = {notes.PREFIX + name.encode(): sha.encode() for name, sha in pulled.remote_refs.items()}
        with pytest.raises(RemoteError, match=r"refs/notes/learnmem/fact moved since it was fetched"):
            notes._send(repo, "origin", str(origin.path), notes._local_tips(repo), expected)
    lm_b.push_notes()  # the push as the library runs it pulls first, and then goes through
    assert len(_current(lm_b)) == 2


def test_bad_input_is_refused_whole(tmp_path: Path, origin: GitRepo, embedder) -> None:
    alice = _clone(origin, tmp_path / "alice")
    lm = _open(alice, embedder)
    lm.store_memory("A good fact.", "fact")
    lm.export_notes()
    before = lm.info().counts["memories"]
    other = learnmem.open(tmp_path / "other.duckdb", embedder=embedder)
    alice.git("notes", "--ref=learnmem/decision", "add", "-m", "---\nid: mem_x\ncategory: [decision\n---\nbody",
              alice.head())
    with pytest.raises(RejectedImport, match=r"refs/notes/learnmem/decision, note on [0-9a-f]{12}, document 1 "
                                             r"\(line 3\): the front matter is not valid YAML"):
        other.import_notes(alice.path)
    assert other.info().counts["memories"] == 0  # the good fact was not imported either
    with pytest.raises(ValidationError, match=r"not valid YAML"):
        lm.export_notes()  # an export never drops notes it cannot read
    alice.git("notes", "--ref=learnmem/decision", "add", "-f", "-m",
              "---\nid: mem_x\ncategory: fact\ncreated_at: 2026-01-01T00:00:00Z\n---\nMisfiled.", alice.head())
    with pytest.raises(RejectedImport, match=r"category: 'fact' in the notes of 'decision'"):
        other.import_notes(alice.path)
    assert lm.info().counts["memories"] == before

    lm.store_memory("CI pushes with GITHUB_TOKEN=ghp_" + "Zq8Lk2Vm9Tx4Rb7Nc1Pw6Hs3Jd5Fg0Ya8Ue2Io", "fact",
                    allow_secrets=True)
    alice.git("notes", "--ref=learnmem/decision", "remove", alice.head())
    lm.export_notes()
    with pytest.raises(RejectedImport, match=r"refs/notes/learnmem/fact, note on [0-9a-f]{12}, document 2: "
                                             r"memory.content: looks like it contains"):
        other.import_notes(alice.path)  # a teammate's secret does not spread unless asked for
    assert other.import_notes(alice.path, allow_secrets=True).imported["memories"] == 2
    with pytest.raises(NotFoundError, match=r"remote: no remote named 'upstream' .*it has: origin"):
        lm.pull_notes("upstream")
    with pytest.raises(RemoteError, match=r"remote: cannot fetch from"):
        lm.pull_notes(str(tmp_path / "no-such-repo"))
    with pytest.raises(ValidationError, match=r"repo: .* is not inside a git repository"):
        lm.export_notes(tmp_path)


def test_a_repository_without_commits_shares_through_the_empty_tree(tmp_path: Path, embedder) -> None:
    repo = GitRepo.init(tmp_path / "new")
    lm = _open(repo, embedder)
    lm.store_memory("Nothing is committed yet.", "progress")
    assert lm.export_notes().changed == ("progress",)
    listed = repo.git("notes", "--ref=learnmem/progress", "list").split()
    assert listed[1] == notes.EMPTY_TREE.decode()


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), min_size=1,
                max_size=80).map(str.strip).filter(bool)


@settings(max_examples=200, deadline=None)
@example([("0\x850", [])])  # NEL: YAML reads it as a line break unless escaped (found by this test)
@example([("a\u2028b\rc", ["---", "id: mem_1"])])
@given(st.lists(st.tuples(_TEXT, st.lists(st.sampled_from(["---", "id: mem_1", "", "text", "  "]), max_size=6)),
                min_size=1, max_size=4))
def test_a_note_reads_back_as_written(parts: list[tuple[str, list[str]]]) -> None:
    documents = []
    for n, (text, lines) in enumerate(parts):
        body = "\n".join([text, *lines, text]).strip()
        documents.append(({"id": f"mem_{n}", "created_at": "2026-01-01T00:00:00Z", "tags": [text]}, body))
    assert notes_format.parse(notes_format.render(documents)) == documents


def test_the_cli_shares_through_a_remote(tmp_path: Path, origin: GitRepo) -> None:
    from tests.cli.test_cli import _assert_one_line_error, _run

    alice, bob = _clone(origin, tmp_path / "alice"), _clone(origin, tmp_path / "bob")
    _run("remember", "Staging refreshes every Sunday.", "-c", "fact", "--source", "docs/ops.md", cwd=alice.path)
    exported = json.loads(_run("notes", "export", "--json", cwd=alice.path).stdout)
    assert exported["changed"] == ["fact"] and exported["memories"] == 1
    pushed = json.loads(_run("sync", "push", "--json", cwd=alice.path).stdout)
    assert pushed["pushed"] == ["fact"] and pushed["action"] == "push"
    pulled = _run("sync", "pull", "origin", cwd=bob.path).stdout
    assert "Imported 1 memories and 0 values from origin (1 refs fetched)" in pulled
    recalled = json.loads(_run("recall", "when is staging refreshed?", "--json", cwd=bob.path).stdout)
    assert recalled["results"][0]["sources"] == ["docs/ops.md"]
    _assert_one_line_error(_run("sync", "push", "upstream", cwd=bob.path, ok=False), 2, "no remote named 'upstream'")
    _assert_one_line_error(_run("notes", "export", "--allow-secrets", cwd=bob.path, ok=False), 2,
                           "--allow-secrets: applies to `notes import`")
