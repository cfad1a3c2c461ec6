"""Opening a git repository with dulwich, and reading commits the way git shows them.

Everything git-specific that is not a diff lives here: finding the repository
from a path inside it, clear errors for what is not a usable repository,
shallow boundaries, `.mailmap`, decoding of names and messages, paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from dulwich.errors import NotGitRepository
from dulwich.objects import Commit
from dulwich.repo import Repo

from learnmem import validate
from learnmem.errors import NotFoundError, ValidationError

UTC = timezone.utc


def open_repository(repo_path) -> Repo:
    """The repository containing `repo_path` (its worktree top or a bare repository's folder)."""
    if not isinstance(repo_path, (str, Path)):
        raise ValidationError(f"repo_path: expected a path, got {type(repo_path).__name__}")
    path = Path(repo_path).expanduser()
    if not validate.path_exists("repo_path", path):
        raise NotFoundError(f"repo_path: {str(repo_path)!r} does not exist")
    try:
        return Repo.discover(str(path if path.is_dir() else path.parent))
    except NotGitRepository:
        raise ValidationError(
            f"repo_path: {str(repo_path)!r} is not inside a git repository (no .git found here or above)"
        ) from None


def repository_root(repo: Repo) -> Path:
    return Path(repo.path).resolve()


def shallow_commits(repo: Repo) -> set[bytes]:
    """The boundary commits of a shallow clone: git treats them as having no parents."""
    try:
        return set(repo.get_shallow())
    except (OSError, AttributeError):
        return set()


def head_commit(repo: Repo) -> bytes | None:
    """The commit HEAD points at (detached or not); None in a repository with no commits yet."""
    try:
        return repo.refs[b"HEAD"]
    except KeyError:
        return None


def project_repository(file_path: Path, repo=None) -> Repo:
    """`repo`, else the repository holding the learnmem file at `file_path`, else the working directory's (a
    file kept elsewhere through LEARNMEM_DB); ValidationError when there is none."""
    starts = [Path(repo).expanduser()] if repo is not None else [Path(file_path).parent, Path.cwd()]
    for start in starts:
        try:
            return Repo.discover(str(start))
        except (NotGitRepository, OSError):
            continue
    if repo is not None:
        raise ValidationError(f"repo: {str(repo)!r} is not inside a git repository (git init, or give the "
                              "repository's path)")
    raise ValidationError(f"repo: neither the file ({file_path}) nor the working directory ({Path.cwd()}) is "
                          "inside a git repository; give repo=")


_found_roots: dict[tuple[Path, Path], str] = {}  # (file's folder, working directory) -> its repository's root


def project_head(file_path: Path) -> str | None:
    """HEAD's commit (hex) of project_repository(file_path); None outside a repository or before its first
    commit: the commit a memory is made at. The repository found is remembered for the next call (each store
    asks: discovering it again cost ~0.6 ms); a folder without one is looked at again every time."""
    key = (Path(file_path).parent, Path.cwd())
    repo = None
    if key in _found_roots:
        try:
            repo = Repo(_found_roots[key])
        except (NotGitRepository, OSError):
            del _found_roots[key]
    if repo is None:
        try:
            repo = project_repository(file_path)
        except ValidationError:
            return None
        _found_roots[key] = repo.path
    with repo:
        sha = head_commit(repo)
    return sha.decode("ascii") if sha is not None else None


def branch_tips(repo: Repo) -> dict[str, bytes]:
    """refs/heads/* -> commit, for indexing every branch."""
    tips = {}
    for name, sha in repo.refs.as_dict(b"refs/heads/").items():
        tips["refs/heads/" + decode_path(name)] = sha
    return tips


def decode_path(path: bytes) -> str:
    """Paths are bytes in git; stored as UTF-8 text, undecodable bytes shown as \\xNN escapes."""
    return path.decode("utf-8", "backslashreplace")


def encode_path(path: str) -> bytes:
    """The inverse of `decode_path` for paths it produced (escapes turned back into bytes)."""
    if "\\x" not in path:
        return path.encode("utf-8")
    out = bytearray()
    i = 0
    while i < len(path):
        if path.startswith("\\x", i) and len(path) >= i + 4:
            try:
                out.append(int(path[i + 2 : i + 4], 16))
                i += 4
                continue
            except ValueError:
                pass
        out += path[i].encode("utf-8")
        i += 1
    return bytes(out)


def decode_text(data: bytes, encoding: bytes | None) -> str:
    """A commit message or name in its declared encoding (UTF-8 by default), never failing."""
    name = (encoding or b"utf-8").decode("ascii", "replace")
    try:
        return data.decode(name)
    except (LookupError, UnicodeDecodeError):
        return data.decode("utf-8", "replace")


def utc(timestamp: int) -> datetime:
    """Seconds since the epoch -> naive UTC datetime (what the TIMESTAMP columns hold)."""
    return datetime(1970, 1, 1) + timedelta(seconds=timestamp)


# -- .mailmap ------------------------------------------------------------------


@dataclass(frozen=True)
class Identity:
    name: str
    email: str


class Mailmap:
    """git's .mailmap rules: emails match case-insensitively; a line may also require the old name.

    Forms: `Proper Name <commit@email>`, `<proper@email> <commit@email>`,
    `Proper Name <proper@email> <commit@email>`,
    `Proper Name <proper@email> Commit Name <commit@email>`.
    """

    def __init__(self, text: str = ""):
        self._by_email: dict[str, tuple[str | None, str | None]] = {}
        self._by_name_email: dict[tuple[str, str], tuple[str | None, str | None]] = {}
        for line in text.splitlines():
            self._add(line.split("#", 1)[0])

    def _add(self, line: str) -> None:
        parts = []  # (name before the email, email)
        rest = line
        while "<" in rest and ">" in rest.split("<", 1)[1]:
            before, after = rest.split("<", 1)
            email, rest = after.split(">", 1)
            parts.append((before.strip() or None, email.strip()))
        if not parts:
            return
        proper_name, proper_email = parts[0]
        if len(parts) == 1:
            self._by_email[proper_email.lower()] = (proper_name, None)
            return
        old_name, old_email = parts[1]
        target = (proper_name, proper_email or None)
        if old_name:
            self._by_name_email[(old_name.lower(), old_email.lower())] = target
        else:
            self._by_email[old_email.lower()] = target

    def __len__(self) -> int:
        return len(self._by_email) + len(self._by_name_email)

    def lookup(self, name: str, email: str) -> Identity:
        found = self._by_name_email.get((name.lower(), email.lower())) or self._by_email.get(email.lower())
        if found is None:
            return Identity(name, email)
        new_name, new_email = found
        return Identity(new_name or name, new_email or email)


def read_mailmap(repo: Repo) -> Mailmap:
    """The worktree's .mailmap, or HEAD's for a bare repository (git's defaults)."""
    if not repo.bare:
        path = Path(repo.path) / ".mailmap"
        if path.is_file() and not path.is_symlink():  # git (2.32+) does not follow a symlinked .mailmap
            return Mailmap(path.read_bytes().decode("utf-8", "replace"))
        return Mailmap()
    head = head_commit(repo)
    if head is None:
        return Mailmap()
    try:
        _, sha = repo[repo[head].tree].lookup_path(repo.object_store.__getitem__, b".mailmap")
        return Mailmap(repo[sha].as_raw_string().decode("utf-8", "replace"))
    except KeyError:
        return Mailmap()


def split_identity(raw: bytes, encoding: bytes | None) -> tuple[str, str]:
    """b'Name <email>' -> ('Name', 'email')."""
    text = decode_text(raw, encoding)
    if "<" in text:
        name, _, rest = text.partition("<")
        return name.strip(), rest.split(">", 1)[0].strip()
    return text.strip(), ""


def author_of(commit: Commit, mailmap: Mailmap) -> Identity:
    name, email = split_identity(commit.author, commit.encoding)
    return mailmap.lookup(name, email)


def committer_of(commit: Commit, mailmap: Mailmap) -> Identity:
    name, email = split_identity(commit.committer, commit.encoding)
    return mailmap.lookup(name, email)


def message_of(commit: Commit) -> tuple[str, str]:
    """(subject, whole message): the subject is the first paragraph joined into one line, as git shows it."""
    message = decode_text(commit.message, commit.encoding).replace("\r\n", "\n").strip("\n")
    paragraph = message.split("\n\n", 1)[0]
    subject = " ".join(line.strip() for line in paragraph.splitlines() if line.strip())
    return subject, message
