"""learnmem.git.blame against `git blame` itself, on real repositories.

git builds the repositories and is the oracle: for every line, the commit,
the original line and the original path must be exactly what
`git blame --line-porcelain` says (and the groups of lines the same).
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from dulwich.repo import Repo
from tests.gitrepo import (
    BASE_TIME,
    SCENARIO_FILES,
    FastCommit,
    GitRepo,
    blame_per_line,
    build_scenario,
    fast_import,
    git_blame,
    random_history,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from learnmem.errors import NotFoundError, ValidationError
from learnmem.git.blame import BlameRange, blame_file

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git (the oracle) is not installed")

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def assert_matches_git(repo: Repo, repo_path: Path, home: Path, rev: str, path: str,
                       start: int | None = None, end: int | None = None) -> list[BlameRange]:
    ranges = blame_file(repo, path.encode(), rev.encode(), start, end)
    theirs, groups = git_blame(repo_path, home, rev, path, start, end)
    ours = blame_per_line(ranges)
    assert len(ours) == len(theirs), (path, rev, start, end)
    for number, (mine, git) in enumerate(zip(ours, theirs), start=start or 1):
        assert mine == git, f"{path}@{rev} line {number}: learnmem {mine} != git {git}"
    assert [(r.start_line, r.end_line - r.start_line + 1) for r in ranges] == groups
    return ranges


@pytest.fixture(scope="module")
def scenario(tmp_path_factory) -> GitRepo:
    return build_scenario(tmp_path_factory.mktemp("blame") / "repo")


@pytest.fixture(scope="module")
def scenario_repo(scenario):
    repo = Repo(str(scenario.path))
    yield repo
    repo.close()


def _history(scenario: GitRepo) -> list[str]:
    return scenario.git("rev-list", "HEAD").split()


@pytest.mark.parametrize("path", SCENARIO_FILES)
def test_every_file_at_head_matches_git(scenario, scenario_repo, path):
    assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", path)


def test_every_file_at_every_commit_matches_git(scenario, scenario_repo):
    checked = 0
    for sha in _history(scenario):
        files = scenario.git("ls-tree", "-r", "--name-only", sha).split("\n")
        for path in filter(None, files):
            assert_matches_git(scenario_repo, scenario.path, scenario.home, sha, path)
            checked += 1
    assert checked > 40


def test_line_ranges_match_git(scenario, scenario_repo):
    total = len(scenario.read("src/core.py").splitlines())
    for start, end in [(1, 1), (1, 4), (5, 9), (7, 7), (total - 2, total), (3, total)]:
        assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "src/core.py", start, end)


def test_end_past_the_last_line_stops_there_as_git_does(scenario, scenario_repo):
    total = len(scenario.read("src/core.py").splitlines())
    ranges = assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "src/core.py", 3, total + 50)
    assert ranges[-1].end_line == total
    only_start = blame_file(scenario_repo, b"src/core.py", b"HEAD", start_line=total - 1)
    assert (only_start[0].start_line, only_start[-1].end_line) == (total - 1, total)
    only_end = blame_file(scenario_repo, b"src/core.py", b"HEAD", end_line=2)
    assert (only_end[0].start_line, only_end[-1].end_line) == (1, 2)


def test_rename_above_half_similar_is_followed(scenario, scenario_repo):
    ranges = blame_file(scenario_repo, b"src/core.py", b"HEAD")
    assert {r.original_path for r in ranges} == {"src/app.py", "src/core.py"}
    root = scenario.git("rev-list", "--max-parents=0", "HEAD").strip()
    first = ranges[0]
    assert (first.sha, first.original_path, first.original_start_line, first.boundary) == (root, "src/app.py", 1, True)


def test_rename_below_half_similar_is_not_followed(scenario, scenario_repo):
    ranges = blame_file(scenario_repo, b"lib/new_name.py", b"HEAD")
    assert {r.sha for r in ranges} == {scenario.rev("HEAD~1")}
    assert {r.original_path for r in ranges} == {"lib/new_name.py"}


def test_merges_pass_lines_to_the_branch_that_wrote_them(scenario, scenario_repo):
    ranges = blame_file(scenario_repo, b"src/core.py", b"HEAD")
    subjects = {r.sha: scenario.git("log", "-1", "--format=%s", r.sha).strip() for r in ranges}
    by_line = {}
    for r in ranges:
        for line in range(r.start_line, r.end_line + 1):
            by_line[line] = subjects[r.sha]
    text = scenario.read("src/core.py").splitlines()
    assert by_line[text.index("    z = 'feature'") + 1] == "feature: alpha"
    assert by_line[text.index("    return 'GAMMA'") + 1] == "main: gamma"
    assert by_line[text.index("    value = 'main side'") + 1] == "main: delta"
    # Lines written while resolving the conflict belong to the merge itself.
    assert by_line[text.index("    extra = 'other side'") + 1] == "merge other (conflict resolved by hand)"


def test_binary_file_is_blamed_line_by_line_like_git(scenario, scenario_repo):
    # git does not refuse binary files: it splits them at newlines like text.
    ranges = assert_matches_git(scenario_repo, scenario.path, scenario.home, "HEAD", "data.bin")
    assert ranges[-1].end_line == 4


def test_empty_file_has_no_ranges(scenario, scenario_repo):
    assert blame_file(scenario_repo, b"empty.txt", b"HEAD") == []
    assert git_blame(scenario.path, scenario.home, "HEAD", "empty.txt")[0] == []
    with pytest.raises(ValidationError, match="start_line.*0 lines"):
        blame_file(scenario_repo, b"empty.txt", b"HEAD", 1, 1)


def test_revisions_by_name(scenario, scenario_repo):
    by_sha = blame_file(scenario_repo, b"src/core.py", scenario.head().encode())
    assert blame_file(scenario_repo, b"src/core.py", b"main") == by_sha
    assert blame_file(scenario_repo, b"src/core.py", scenario.head()[:10].encode()) == by_sha
    assert blame_file(scenario_repo, b"src/core.py", b"refs/heads/main") == by_sha


def test_detached_head(scenario, tmp_path):
    clone = scenario.clone(tmp_path / "detached")
    clone.git("checkout", "-q", "--detach", "HEAD~2")
    repo = Repo(str(clone.path))
    try:
        assert (clone.path / ".git" / "HEAD").read_text().strip() == clone.head()  # no branch
        for path in ("src/app.py", "README.md", "lib/old_name.py"):
            assert_matches_git(repo, clone.path, clone.home, "HEAD", path)
    finally:
        repo.close()


def test_shallow_clone_boundary(scenario, tmp_path):
    clone = scenario.clone(tmp_path / "shallow", "--depth", "3")
    assert (clone.path / ".git" / "shallow").exists()
    repo = Repo(str(clone.path))
    try:
        for path in SCENARIO_FILES:
            assert_matches_git(repo, clone.path, clone.home, "HEAD", path)
        shallow = {sha.decode() for sha in repo.get_shallow()}
        ranges = blame_file(repo, b"src/core.py", b"HEAD")
        assert {r.sha for r in ranges if r.boundary} <= shallow
        assert any(r.boundary for r in ranges)
    finally:
        repo.close()


def test_errors_name_what_is_wrong(scenario, scenario_repo):
    with pytest.raises(NotFoundError, match="missing.py.*HEAD"):
        blame_file(scenario_repo, b"missing.py", b"HEAD")
    with pytest.raises(NotFoundError, match="'src'.*directory"):
        blame_file(scenario_repo, b"src", b"HEAD")
    with pytest.raises(NotFoundError, match="no-such-branch"):
        blame_file(scenario_repo, b"src/core.py", b"no-such-branch")
    total = len(scenario.read("src/core.py").splitlines())
    with pytest.raises(ValidationError, match=f"start_line: 0 .*{total} lines"):
        blame_file(scenario_repo, b"src/core.py", b"HEAD", 0, 3)
    with pytest.raises(ValidationError, match=f"start_line: {total + 1} .*only {total} lines"):
        blame_file(scenario_repo, b"src/core.py", b"HEAD", total + 1, total + 2)
    with pytest.raises(ValidationError, match="end_line: 2 is before start_line 5"):
        blame_file(scenario_repo, b"src/core.py", b"HEAD", 5, 2)
    with pytest.raises(ValidationError, match="end_line"):
        blame_file(scenario_repo, b"src/core.py", b"HEAD", 1, "3")


def test_commit_dates_out_of_order(tmp_path):
    # Suspects are taken newest committer date first; clock skew must not change the answer.
    lines = [f"line {i}\n".encode() for i in range(12)]
    commits = [FastCommit({"f.txt": b"".join(lines)}, [], BASE_TIME)]
    for i, when in enumerate([BASE_TIME - 500, BASE_TIME + 100, BASE_TIME + 100, BASE_TIME - 1000]):
        lines = list(lines)
        lines[i * 3] = f"changed {i}\n".encode()
        commits.append(FastCommit({"f.txt": b"".join(lines)}, [i], when))
    commits.append(FastCommit({"f.txt": b"".join(lines[:6] + [b"merged\n"] + lines[6:])}, [4, 2], BASE_TIME + 50))
    fast_import(tmp_path / "r", commits)
    repo = Repo(str(tmp_path / "r"))
    try:
        assert_matches_git(repo, tmp_path / "r", tmp_path / "r-home", "HEAD", "f.txt")
    finally:
        repo.close()


def test_this_repository(tmp_path):
    """Blame of files of learnmem's own history matches git exactly."""
    if not (PROJECT_ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    home = tmp_path / "home"
    home.mkdir()
    repo = Repo(str(PROJECT_ROOT))
    try:
        head = repo.head().decode()
        tracked = subprocess.run(["git", "ls-tree", "-r", "--name-only", head], cwd=PROJECT_ROOT,
                                 capture_output=True, text=True, check=True).stdout.split("\n")
        wanted = [p for p in ("learnmem/storage/store.py", "README.md", "learnmem/api.py", "learnmem/search/hybrid.py") if p in tracked]
        assert wanted
        for path in wanted:
            assert_matches_git(repo, PROJECT_ROOT, home, head, path)
        assert_matches_git(repo, PROJECT_ROOT, home, head, wanted[0], 10, 60)
    finally:
        repo.close()


# -- random histories -----------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 12), data=st.data())
def test_random_histories_match_git(tmp_path_factory, seed, size, data):
    commits, path = random_history(seed, size)
    where = tmp_path_factory.mktemp("random") / "r"
    fast_import(where, commits)
    repo = Repo(str(where))
    try:
        ranges = assert_matches_git(repo, where, where.parent / "r-home", "HEAD", path)
        total = ranges[-1].end_line if ranges else 0
        if total:
            start = data.draw(st.integers(1, total))
            end = data.draw(st.integers(start, total))
            assert_matches_git(repo, where, where.parent / "r-home", "HEAD", path, start, end)
    finally:
        repo.close()


# -- long histories-----------------------------------------------------------------------------------


def test_blame_of_2000_lines_with_500_commits_matches_git(tmp_path):
    """Blame of a 2,000-line file with 500 commits of history equals git's (its speed is in bench/git)."""
    rng = random.Random(7)
    lines = [f"    value_{i} = compute({i}, {rng.randint(0, 999)})\n".encode() for i in range(2000)]
    commits = []
    for i in range(500):
        if i:
            lines = list(lines)
            for _ in range(rng.randint(1, 3)):
                pos = rng.randrange(len(lines))
                op = rng.random()
                if op < 0.5:
                    lines[pos] = f"    edited_{i}_{pos} = {rng.random()}\n".encode()
                elif op < 0.75:
                    lines.insert(pos, f"    added_{i}_{pos}()\n".encode())
                else:
                    del lines[pos]
        commits.append(FastCommit({"big.py": b"".join(lines)}, [i - 1] if i else [], BASE_TIME + 60 * i))
    fast_import(tmp_path / "r", commits)
    repo = Repo(str(tmp_path / "r"))
    try:
        ranges = blame_file(repo, b"big.py", b"HEAD")
        theirs, _ = git_blame(tmp_path / "r", tmp_path / "r-home", "HEAD", "big.py")
        assert blame_per_line(ranges) == theirs
    finally:
        repo.close()
