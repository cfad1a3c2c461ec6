"""learnmem.git.line_log against `git log -L` itself, on real repositories.

git builds the repositories and is the oracle: the commits listed (and their
order) must be exactly git's, and for every commit git prints a hunk for, the
tracked range (`+start,count`) and path must be the same.  (git prints no hunk
for a merge it lists; there only the commit is compared.)
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from dulwich.repo import Repo
from tests.gitrepo import (
    BASE_TIME,
    FastCommit,
    GitRepo,
    build_scenario,
    fast_import,
    git_line_log,
    random_history,
    run_git,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from learnmem.errors import NotFoundError, ValidationError
from learnmem.git.line_log import LineChange, line_history

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git (the oracle) is not installed")

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def commits_of(changes: list[LineChange]) -> list[str]:
    out: list[str] = []
    for change in changes:
        if not out or out[-1] != change.sha:
            out.append(change.sha)
    return out


def assert_matches_git(repo: Repo, repo_path: Path, home: Path, rev: str, path: str, start: int, end: int
                       ) -> list[LineChange]:
    ours = line_history(repo, path.encode(), start, end, rev.encode())
    theirs = git_line_log(repo_path, home, rev, path, start, end)
    assert commits_of(ours) == [sha for sha, _ in theirs], (path, rev, start, end)
    for sha, hunks in theirs:
        mine = [(c.path, c.start_line, c.end_line) for c in ours if c.sha == sha]
        assert mine, sha
        if hunks:
            assert mine == hunks, f"{path}@{rev} -L{start},{end} commit {sha}: learnmem {mine} != git {hunks}"
    return ours


@pytest.fixture(scope="module")
def scenario(tmp_path_factory) -> GitRepo:
    return build_scenario(tmp_path_factory.mktemp("linelog") / "repo")


@pytest.fixture(scope="module")
def scenario_repo(scenario):
    repo = Repo(str(scenario.path))
    yield repo
    repo.close()


def function_spans(text: str) -> list[tuple[int, int]]:
    """(first, last) line of each top-level `def` in `text`, blank lines after it excluded."""
    lines = text.splitlines()
    starts = [i + 1 for i, line in enumerate(lines) if line.startswith(("def ", "class "))]
    spans = []
    for k, start in enumerate(starts):
        end = starts[k + 1] - 1 if k + 1 < len(starts) else len(lines)
        while end > start and not lines[end - 1].strip():
            end -= 1
        spans.append((start, end))
    return spans


def test_each_function_at_head_matches_git(scenario, scenario_repo):
    spans = function_spans(scenario.read("src/core.py"))
    assert len(spans) == 5
    for start, end in spans:
        assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "src/core.py", start, end)


def test_many_ranges_at_every_commit_match_git(scenario, scenario_repo):
    checked = 0
    for sha in scenario.git("rev-list", "HEAD").split():
        for path in ("src/core.py", "src/app.py", "README.md", "noeol.txt", "crlf.txt", "data.bin", "lib/new_name.py"):
            listed = scenario.git("ls-tree", "--name-only", sha, "--", path).strip()
            if not listed:
                continue
            total = len(scenario.git("show", f"{sha}:{path}").split("\n")) - 1
            total = max(total, 1)
            for start, end in {(1, total), (1, 1), (total, total), (max(1, total // 2), total), (2, min(total, 4))}:
                if start <= end and start <= total:
                    assert_matches_git(scenario_repo, scenario.path, scenario.home, sha, path, start, end)
                    checked += 1
    assert checked > 100


def test_follows_a_rename_and_reports_the_old_path(scenario, scenario_repo):
    start, end = function_spans(scenario.read("src/core.py"))[2]  # beta
    changes = assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "src/core.py", start, end)
    assert changes[0].path == "src/core.py"
    assert {c.path for c in changes[1:]} == {"src/app.py"}
    subjects = [scenario.git("log", "-1", "--format=%s", c.sha).strip() for c in changes]
    assert subjects == ["rename app -> core, old_name -> new_name", "shrink beta", "initial"]
    # The range in each commit's version, after its change: beta had 4 body lines at first.
    assert (changes[-1].start_line, changes[-1].end_line) == (6, 10)


def test_a_rename_below_half_similar_is_not_followed(scenario, scenario_repo):
    changes = assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "lib/new_name.py", 1, 3)
    assert [c.path for c in changes] == ["lib/new_name.py"]


def test_merges(scenario, scenario_repo):
    text = scenario.read("src/core.py").splitlines()
    line = text.index("    extra = 'other side'") + 1
    changes = assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "src/core.py", line - 1, line + 1)
    subjects = [scenario.git("log", "-1", "--format=%s", sha).strip() for sha in commits_of(changes)]
    # The hand-resolved conflict changed the lines against both parents, so the merge is listed.
    assert "merge other (conflict resolved by hand)" in subjects
    assert "main: delta" in subjects and "other: delta" in subjects
    # A clean merge takes no blame: its first unchanged parent gets the lines.
    feature = text.index("    z = 'feature'") + 1
    changes = assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "src/core.py", feature, feature)
    assert [scenario.git("log", "-1", "--format=%s", sha).strip() for sha in commits_of(changes)] == ["feature: alpha"]


def test_no_trailing_newline_crlf_binary(scenario, scenario_repo):
    assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "noeol.txt", 2, 3)
    assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "crlf.txt", 2, 2)
    assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "data.bin", 1, 4)


def test_git_lists_the_same_commits_without_the_patch(scenario, scenario_repo):
    start, end = function_spans(scenario.read("src/core.py"))[1]
    out = scenario.git("log", f"-L{start},{end}:src/core.py", "--format=%H", "-s", "HEAD").split()
    assert commits_of(line_history(scenario_repo, b"src/core.py", start, end, b"HEAD")) == out


def test_limit(scenario, scenario_repo):
    full = line_history(scenario_repo, b"src/core.py", 1, 30, b"HEAD")
    assert len(commits_of(full)) > 3
    assert commits_of(line_history(scenario_repo, b"src/core.py", 1, 30, b"HEAD", limit=2)) == commits_of(full)[:2]


def test_end_past_the_last_line_stops_there_as_git_does(scenario, scenario_repo):
    total = len(scenario.read("README.md").splitlines())
    changes = assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "README.md", 2, total + 10)
    assert changes[0].end_line == total


def test_detached_head_and_shallow_clone(scenario, tmp_path):
    clone = scenario.clone(tmp_path / "shallow", "--depth", "3")
    repo = Repo(str(clone.path))
    try:
        for start, end in function_spans(clone.read("src/core.py")):
            assert_matches_git(repo, clone.path, clone.home, "HEAD", "src/core.py", start, end)
        clone.git("checkout", "-q", "--detach", "HEAD~1")
        for start, end in function_spans(clone.read("src/core.py")):
            assert_matches_git(repo, clone.path, clone.home, "HEAD", "src/core.py", start, end)
    finally:
        repo.close()


def test_errors_name_what_is_wrong(scenario, scenario_repo):
    with pytest.raises(NotFoundError, match="nope.py"):
        line_history(scenario_repo, b"nope.py", 1, 2, b"HEAD")
    with pytest.raises(NotFoundError, match="no-such-rev"):
        line_history(scenario_repo, b"src/core.py", 1, 2, b"no-such-rev")
    with pytest.raises(ValidationError, match="start_line: 0"):
        line_history(scenario_repo, b"src/core.py", 0, 2, b"HEAD")
    with pytest.raises(ValidationError, match="end_line: 1 is before start_line 3"):
        line_history(scenario_repo, b"src/core.py", 3, 1, b"HEAD")
    with pytest.raises(ValidationError, match="start_line: 1 .*only 0 lines"):
        line_history(scenario_repo, b"empty.txt", 1, 1, b"HEAD")
    with pytest.raises(ValidationError, match="limit"):
        line_history(scenario_repo, b"src/core.py", 1, 2, b"HEAD", limit=0)


def test_indent_heuristic_is_off_as_in_git_log_L(tmp_path):
    # git log -L diffs without the indent heuristic (blame uses it): here the two place the
    # inserted block differently, and log -L follows line 4 to the root, where blame does not.
    commits = [
        FastCommit({"f": b"\n    c\n\na\n}\n}\n"}, [], BASE_TIME),
        FastCommit({"f": b"\n    c\n\na\n    c\n}\na\n}\n}\n"}, [0], BASE_TIME + 60),
    ]
    shas = fast_import(tmp_path / "r", commits)
    repo = Repo(str(tmp_path / "r"))
    try:
        changes = assert_matches_git(repo, tmp_path / "r", tmp_path / "r-home", "HEAD", "f", 4, 4)
        assert commits_of(changes) == [shas[0]]
        assert_matches_git(repo, tmp_path / "r", tmp_path / "r-home", "HEAD", "f", 5, 7)
    finally:
        repo.close()


def test_this_repository(tmp_path):
    """-L on functions of learnmem's own history matches git exactly."""
    if not (PROJECT_ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    home = tmp_path / "home"
    home.mkdir()
    repo = Repo(str(PROJECT_ROOT))
    try:
        head = repo.head().decode()
        checked = 0
        for path in ("learnmem/storage/store.py", "learnmem/api.py"):
            shown = run_git(PROJECT_ROOT, home, "show", f"{head}:{path}", check=False)
            if shown.returncode != 0:
                continue
            text = shown.stdout.decode()
            starts = [i + 1 for i, line in enumerate(text.splitlines()) if re.match(r"(def|class|    def) ", line)]
            for k in range(0, len(starts) - 1, max(1, len(starts) // 4)):
                assert_matches_git(repo, PROJECT_ROOT, home, head, path, starts[k], starts[k + 1] - 1)
                checked += 1
        assert checked >= 4
    finally:
        repo.close()


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 12), data=st.data())
def test_random_histories_match_git(tmp_path_factory, seed, size, data):
    commits, path = random_history(seed, size)
    if not commits[-1].files[path]:
        return  # an empty file has no lines to follow
    where = tmp_path_factory.mktemp("random") / "r"
    fast_import(where, commits)
    total = len(commits[-1].files[path].split(b"\n")) - (1 if commits[-1].files[path].endswith(b"\n") else 0)
    start = data.draw(st.integers(1, total))
    end = data.draw(st.integers(start, total))
    repo = Repo(str(where))
    try:
        assert_matches_git(repo, where, where.parent / "r-home", "HEAD", path, start, end)
    finally:
        repo.close()


def test_a_long_history_matches_git(tmp_path):
    """-L on 40 lines of a 2,000-line file through 300 commits (its speed is measured in bench/git)."""
    rng = random.Random(3)
    lines = [f"    value_{i} = compute({i})\n".encode() for i in range(2000)]
    commits = []
    for i in range(300):
        if i:
            lines = list(lines)
            pos = rng.randrange(len(lines))
            lines[pos] = f"    edited_{i} = {rng.random()}\n".encode()
        commits.append(FastCommit({"big.py": b"".join(lines)}, [i - 1] if i else [], BASE_TIME + 60 * i))
    fast_import(tmp_path / "r", commits)
    repo = Repo(str(tmp_path / "r"))
    try:
        assert_matches_git(repo, tmp_path / "r", tmp_path / "r-home", "HEAD", "big.py", 980, 1020)
    finally:
        repo.close()

