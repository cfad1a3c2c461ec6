"""Team sharing through git notes: memories and values travel with the repository, under refs git already
knows how to move.

**Layout.** `refs/notes/learnmem/<category>` holds the memories of one
category, `refs/notes/learnmem/values` the stored values. A memory's note is
attached to the commit it was made at (its `commit_sha`: HEAD when stored);
one note per commit holds every memory of that category made there, oldest
first, in the format of learnmem.exchange.notes_format (YAML front matter, markdown).
Memories made outside a commit, and values, are attached to git's empty tree
(EMPTY_TREE, `4b825dc...` in SHA-1 repositories), which every repository
names. `git notes --ref=learnmem/decision show <commit>` prints them;
`git log --notes=learnmem/decision` shows them beside the commits.

**Export** (`export_notes`) writes one notes commit per ref that changed:
the memories of the file that are not forgotten (superseded ones with their
`superseded_by`), plus what the ref's notes already held that the file does
not (memories of another clone not imported yet, or forgotten hard here:
notes are shared history, and git keeps what was pushed anyway). A memory
soft-forgotten here is left out of the new notes.

**Import** (`import_notes`) reads every document of the refs, checks each
as learnmem.exchange.portable checks a JSON lines export, and stores the memories and
values whose ids (and texts) are not stored yet, embedding them first; a
memory stored here that the notes show superseded takes that replacement if
it is current here. One transaction: a bad note (invalid YAML, a wrong
field) refuses the whole import, naming the ref, the commit and the
document, and nothing is written.

**Sync** (`pull`, `push`) moves the refs with dulwich (no git binary):
pull fetches the remote's learnmem refs, imports them, then writes local
notes commits whose parents include the remote's tips; push does a pull and
then sends the local refs, which are then fast-forwards of the remote's. If
the remote moved in between (another clone pushed), the push is refused
with RemoteError and nothing on the remote changes: run it again. Two
clones that both added memories converge after push and pull: each memory
once, by id (a text stored under two ids by two clones is kept once per
file, under the id that file stored first), supersedes preserved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dulwich.client import get_transport_and_path
from dulwich.errors import GitProtocolError, HangupException, NotGitRepository
from dulwich.notes import NotesTree
from dulwich.objects import Blob, Commit, Tree
from dulwich.repo import Repo

from learnmem.exchange import import_batch, notes_format, portable
from learnmem import validate
from learnmem.errors import LearnmemError, NotFoundError, RemoteError, ValidationError
from learnmem.git.repository import head_commit
from learnmem.exchange.import_batch import Batch, Columns, DataImportResult, ImportedMemory, RejectedImport
from learnmem.exchange.records import NotesExportResult, NotesImportResult, SyncResult
from learnmem.storage.store import Store, utc_now

PREFIX = b"refs/notes/learnmem/"
VALUES = "values"
EMPTY_TREE = Tree().id
_NOTE_MODE = 0o100644
_IDENTITY = b"learnmem <learnmem@localhost>"
_MEMORY_STATE = ("superseded_by", "superseded_at")


def _ref(name: str) -> bytes:
    return PREFIX + name.encode("utf-8")


def _name(ref: bytes) -> str:
    return ref[len(PREFIX):].decode("utf-8", "replace")


def _local_tips(repo: Repo) -> dict[bytes, bytes]:
    return {ref: sha for ref, sha in repo.refs.as_dict().items() if ref.startswith(PREFIX)}


# -- what the notes hold -----------------------------------------------------------------


@dataclass
class _Document:
    attached_to: bytes  # hex object id the note hangs on
    front: dict[str, Any]
    body: str
    where: str


def _documents(repo: Repo, ref: bytes, tip: bytes) -> list[_Document]:
    """Every document of the notes at commit `tip` of `ref`; ValidationError naming the note when one does not
    parse."""
    try:
        commit = repo[tip]
    except KeyError:
        raise ValidationError(f"{ref.decode()}: commit {tip.decode()} is not in the repository") from None
    if not isinstance(commit, Commit):
        raise ValidationError(f"{ref.decode()}: {tip.decode()} is not a commit")
    found = []
    for attached, blob_id in NotesTree(repo[commit.tree], repo.object_store).list_notes():
        where = f"{ref.decode()}, note on {attached.decode()[:12]}"
        try:
            text = repo[blob_id].data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError(f"{where}: not UTF-8 text") from None
        try:
            parsed = notes_format.parse(text)
        except ValidationError as error:
            problem = str(error).removeprefix("note: ")
            raise ValidationError(f"{where}{', ' if problem.startswith('document') else ': '}{problem}") from None
        found += [_Document(attached, front, body, f"{where}, document {n}")
                  for n, (front, body) in enumerate(parsed, 1)]
    return found


def _memory_document(record: Mapping[str, Any]) -> tuple[dict[str, Any], str] | None:
    """An export record of learnmem.exchange.portable as (front matter, body); None for a forgotten memory."""
    state = record.get("state") or {}
    if state.get("forgotten_at"):
        return None
    front = {key: value for key, value in record.items() if key not in ("content", "state") and value is not None}
    if state.get("superseded_by"):
        front |= {"superseded_by": state["superseded_by"], "superseded_at": state.get("changed_at")}
    return front, record["content"]


def _memory_raw(front: Mapping[str, Any], body: str) -> dict[str, Any]:
    """A document back as an export record (what import_batch.memory_row reads)."""
    raw = {key: value for key, value in front.items() if key not in _MEMORY_STATE} | {"content": body}
    if front.get("superseded_by"):
        raw["state"] = {"superseded_by": front["superseded_by"], "forgotten_at": None,
                        "changed_at": front.get("superseded_at") or front.get("created_at")}
    return raw


# -- export ------------------------------------------------------------------------------


def export_notes(store: Store, repo: Repo, parents: Mapping[bytes, bytes] | None = None) -> NotesExportResult:
    """Write the file's memories and values as notes (see the module docstring). `parents`: ref -> commit of
    notes to merge (a remote's tips, fetched): each becomes a parent of the new notes commit, and what its
    notes hold that the file does not is kept."""
    parents = dict(parents or {})
    with store.read() as con:
        memory_records = portable.memory_records(con)
        value_records = portable.value_records(con)
    known = {record["id"] for record in memory_records} | {record["id"] for record in value_records}
    head = head_commit(repo)
    wanted: dict[str, dict[bytes, dict[str, tuple[dict[str, Any], str]]]] = {}
    local = _local_tips(repo)
    for ref in set(local) | set(parents):
        for tip in {local.get(ref), parents.get(ref)} - {None}:
            for document in _documents(repo, ref, tip):
                if document.front.get("id") not in known:  # another clone's, or forgotten hard here
                    wanted.setdefault(_name(ref), {}).setdefault(document.attached_to, {})[
                        document.front["id"]] = (document.front, document.body)
    counts = {"memories": 0, "values": 0}
    for record in memory_records:
        document = _memory_document(record)
        if document is not None:
            attached = (record.get("commit_sha") or "").encode("ascii") or EMPTY_TREE
            wanted.setdefault(record["category"], {}).setdefault(attached, {})[record["id"]] = document
            counts["memories"] += 1
    for record in value_records:
        front = {key: value for key, value in record.items() if key != "text"}
        wanted.setdefault(VALUES, {}).setdefault(EMPTY_TREE, {})[record["id"]] = (front, record["text"])
        counts["values"] += 1
    changed, notes = [], 0
    for name in sorted(set(wanted) | {_name(ref) for ref in local}):
        ref = _ref(name)
        by_object = wanted.get(name, {})
        notes += len(by_object)
        tree = _notes_tree(repo, by_object)
        if _write_ref(repo, ref, tree, local.get(ref), parents.get(ref), head, len(by_object)):
            changed.append(name)
    return NotesExportResult(repository=str(Path(repo.path).resolve()),
                             refs={_name(ref): sha.decode() for ref, sha in sorted(_local_tips(repo).items())},
                             changed=tuple(changed), memories=counts["memories"], values=counts["values"],
                             notes=notes)


def _notes_tree(repo: Repo, by_object: Mapping[bytes, Mapping[str, tuple[dict[str, Any], str]]]) -> Tree:
    tree = Tree()
    for attached, documents in by_object.items():
        ordered = sorted(documents.values(), key=lambda document: (str(document[0].get("created_at")),
                                                                   str(document[0]["id"])))
        blob = Blob.from_string(notes_format.render(ordered).encode("utf-8"))
        repo.object_store.add_object(blob)
        tree.add(attached, _NOTE_MODE, blob.id)
    repo.object_store.add_object(tree)
    return tree


def _write_ref(repo: Repo, ref: bytes, tree: Tree, local: bytes | None, remote: bytes | None,
               head: bytes | None, notes: int) -> bool:
    """Commit `tree` on `ref` with the local tip and the remote's as parents; False when nothing changed."""
    if remote == local or remote is not None and _is_ancestor(repo, remote, local):
        remote = None  # merged already
    if remote is None and local is not None and repo[local].tree == tree.id:
        return False
    if remote is not None and repo[remote].tree == tree.id and (local is None or _is_ancestor(repo, local, remote)):
        if not repo.refs.set_if_equals(ref, local, remote):  # the remote's commit as it is: a fast-forward
            raise LearnmemError(f"{ref.decode()}: changed while learnmem wrote it (another export?); run it again")
        return True
    commit = Commit()
    commit.tree = tree.id
    commit.parents = [sha for sha in (local, remote) if sha is not None]
    commit.author = commit.committer = _identity(repo)
    commit.commit_time = commit.author_time = int(utc_now().timestamp())
    commit.commit_timezone = commit.author_timezone = 0
    commit.message = (f"learnmem notes: {notes} note{'s' if notes != 1 else ''} on {_name(ref)}"
                      + (f" (HEAD {head.decode()[:12]})" if head else "") + "\n").encode("utf-8")
    repo.object_store.add_object(commit)
    if not repo.refs.set_if_equals(ref, local, commit.id):
        raise LearnmemError(f"{ref.decode()}: changed while learnmem wrote it (another export?); run it again")
    return True


def _is_ancestor(repo: Repo, ancestor: bytes, descendant: bytes | None) -> bool:
    if descendant is None:
        return False
    seen, stack = set(), [descendant]
    while stack:
        sha = stack.pop()
        if sha == ancestor:
            return True
        if sha not in seen:
            seen.add(sha)
            stack.extend(repo[sha].parents)
    return False


def _identity(repo: Repo) -> bytes:
    config = repo.get_config_stack()
    try:
        return config.get((b"user",), b"name") + b" <" + config.get((b"user",), b"email") + b">"
    except KeyError:
        return _IDENTITY


# -- import ------------------------------------------------------------------------------


def import_notes(store: Store, embedder_factory: Callable[[], Any], repo: Repo,
                 tips: Mapping[bytes, bytes] | None = None, progress: bool = True,
                 allow_secrets: bool = False) -> NotesImportResult:
    """Store what the notes at `tips` (ref -> commit; default: the local learnmem refs) hold and the file does
    not, in one transaction (see the module docstring); RejectedImport lists every bad document, and every
    memory or value that looks like a credential unless `allow_secrets`."""
    tips = _local_tips(repo) if tips is None else dict(tips)
    with store.read() as con:
        columns = Columns.read(con)
    batch = Batch(merge_states=True, allow_secrets=validate.flag("allow_secrets", allow_secrets))
    problems: list[str] = []
    for ref, tip in sorted(tips.items()):
        name = _name(ref)
        try:
            documents = _documents(repo, ref, tip)
        except ValidationError as error:
            problems.append(str(error))
            continue
        for document in documents:
            try:
                _add(batch, name, document, columns)
            except ValidationError as error:
                problems.append(f"{document.where}: {error}")
    if problems:
        shown = "; ".join(problems[: import_batch.MAX_REPORTED])
        raise RejectedImport(f"git notes: {len(problems)} problem{'s' if len(problems) != 1 else ''}, nothing "
                             f"was imported: {shown}", problems)
    result: DataImportResult = import_batch.apply_batch(store, embedder_factory, batch, utc_now(), progress,
                                                   str(repo.path), "git-notes")
    return NotesImportResult(repository=str(Path(repo.path).resolve()),
                             refs={_name(ref): sha.decode() for ref, sha in sorted(tips.items())},
                             imported={"memories": result.imported["memories"], "values": result.imported["values"]},
                             skipped={"memories": result.skipped["memories"], "values": result.skipped["values"]},
                             supersedes_merged=result.supersedes_merged, warnings=result.warnings)


def _add(batch: Batch, name: str, document: _Document, columns: Columns) -> None:
    if name == VALUES:
        raw = dict(document.front) | {"text": document.body}
        batch.values.append((document.where, import_batch.value_row(raw, columns)))
        return
    row, state = import_batch.memory_row(_memory_raw(document.front, document.body), columns)
    if row["category"] != name:
        raise ValidationError(f"category: {row['category']!r} in the notes of {name!r}")
    batch.memories.append(ImportedMemory(document.where, row, state))


# -- sync --------------------------------------------------------------------------------


def pull(store: Store, embedder_factory: Callable[[], Any], repo: Repo, remote: str = "origin",
         progress: bool = True, allow_secrets: bool = False) -> SyncResult:
    """Fetch the remote's learnmem notes, import them, and write local notes that include them."""
    location = remote_location(repo, remote)
    tips = _fetch(repo, remote, location)
    imported = import_notes(store, embedder_factory, repo, tips, progress, allow_secrets)
    exported = export_notes(store, repo, parents=tips)
    return SyncResult("pull", remote, {_name(ref): sha.decode() for ref, sha in sorted(tips.items())}, imported,
                      exported)


def push(store: Store, embedder_factory: Callable[[], Any], repo: Repo, remote: str = "origin",
         progress: bool = True, allow_secrets: bool = False) -> SyncResult:
    """pull, then send every local learnmem notes ref to the remote (fast-forwards of what was fetched)."""
    pulled = pull(store, embedder_factory, repo, remote, progress, allow_secrets)
    expected = {_ref(name): sha.encode() for name, sha in pulled.remote_refs.items()}
    sent = _send(repo, remote, remote_location(repo, remote), _local_tips(repo), expected)
    return SyncResult("push", remote, pulled.remote_refs, pulled.imported, pulled.exported,
                      tuple(_name(ref) for ref in sent))


def remote_location(repo: Repo, remote: str) -> str:
    """The URL or path of `remote`: a configured remote's name, or a URL or path given as is."""
    if not isinstance(remote, str) or not remote.strip():
        raise ValidationError(f"remote: expected a remote's name (e.g. origin) or a URL, got {remote!r}")
    try:
        return repo.get_config().get((b"remote", remote.encode("utf-8")), b"url").decode("utf-8")
    except KeyError:
        pass
    if "/" in remote or ":" in remote or Path(remote).exists():
        return remote
    names = sorted(section[1].decode("utf-8", "replace") for section in repo.get_config().sections()
                   if len(section) == 2 and section[0] == b"remote")
    raise NotFoundError(f"remote: no remote named {remote!r} in {repo.path}"
                        + (f" (it has: {', '.join(names)})" if names else " (it has none: git remote add origin URL)"))


def _fetch(repo: Repo, remote: str, location: str) -> dict[bytes, bytes]:
    def wanted(refs: Mapping[bytes, bytes], depth: int | None = None) -> list[bytes]:
        return [sha for ref, sha in refs.items() if ref.startswith(PREFIX) and sha not in repo.object_store]

    with _remote_errors(remote, location, "fetch from"):
        client, path = get_transport_and_path(location)
        result = client.fetch(path, repo, determine_wants=wanted)
    return {ref: sha for ref, sha in result.refs.items() if ref.startswith(PREFIX) and sha}


def _send(repo: Repo, remote: str, location: str, tips: Mapping[bytes, bytes],
          expected: Mapping[bytes, bytes]) -> list[bytes]:
    sent: list[bytes] = []

    def update_refs(remote_refs: dict[bytes, bytes]) -> dict[bytes, bytes]:
        for ref in set(tips) | set(expected):
            if ref.startswith(PREFIX) and remote_refs.get(ref) != expected.get(ref):
                raise RemoteError(f"remote: {remote} ({location}): {ref.decode()} moved since it was fetched "
                                  "(another clone pushed); nothing was sent: run the push again")
        sent.extend(ref for ref, sha in tips.items() if remote_refs.get(ref) != sha)
        return dict(remote_refs) | dict(tips)

    with _remote_errors(remote, location, "push to"):
        client, path = get_transport_and_path(location)
        result = client.send_pack(path, update_refs, generate_pack_data=repo.generate_pack_data)
    refused = {ref: status for ref, status in (result.ref_status or {}).items() if status}
    if refused:
        shown = "; ".join(f"{ref.decode()}: {status}" for ref, status in sorted(refused.items()))
        raise RemoteError(f"remote: {remote} ({location}) refused: {shown}")
    return sorted(sent)


class _remote_errors:
    """Turns what dulwich raises on a failed fetch or push into RemoteError naming the remote."""

    def __init__(self, remote: str, location: str, doing: str):
        self.message = f"remote: cannot {doing} {remote}" + (f" ({location})" if location != remote else "")

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, traceback) -> bool:
        if error is None or isinstance(error, LearnmemError):
            return False
        if isinstance(error, (GitProtocolError, HangupException, NotGitRepository, OSError, KeyError, ValueError)):
            raise RemoteError(f"{self.message}: {type(error).__name__}: {error}") from error
        return False
