"""Run the examples of README.md and docs/*.md with sybil.

Every ```python block runs (a block that starts with `>>>` is a doctest: its
shown output must match), and so does every shell block:

- ```console: a transcript. Each `$ ` line is a command (a line ending in `\\`
  continues on the next); the lines after it, up to the next `$ `, are its
  output. The command must exit 0 and print that output (doctest rules:
  `...` matches anything, runs of whitespace are equal).
- ```sh: a script, run whole by bash with -e and pipefail; it must exit 0,
  its output is not compared.

An example that cannot run here is marked `<!-- skip: next "why" -->`
(sybil's own skip). Each page runs in a fresh temporary directory of its own,
its working directory for every example, holding a small git repository
(`sample_project`, in the folder `project`); the page's learnmem file is that project's
`.learnmem/learnmem.duckdb`. Shell commands find `learnmem`, `learnmem-mcp`
and `duckdb` beside sys.executable, first on PATH.

Pages outside tests/ are not walked by pytest, so the pages are collected
under tests/docs/test_docs_examples.py (`pytest_collect_file` below), with
sybil's own pytest items.
"""

from __future__ import annotations

import doctest
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from sybil import Sybil
from sybil.integration.pytest import SybilFile
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
SHELL_TIMEOUT_S = 120

SAMPLE_FILES = {
    "app/__init__.py": '"""A small app: a config reader and a command line."""\n',
    "app/config.py": '''"""Reading the settings file."""

import json
from pathlib import Path


class Config:
    """The app's settings, read from a JSON file."""

    def __init__(self, values):
        self.values = values

    @classmethod
    def load(cls, path):
        """Parse the config file at path."""
        return cls(json.loads(Path(path).read_text()))

    def port(self):
        """The port to listen on."""
        return self.values.get("port", 80)
''',
    "app/cli.py": '''"""The command line."""

from app.config import Config


def main(path="settings.json"):
    """Start the server with the settings in path."""
    config = Config.load(path)
    serve(config.port())


def serve(port):
    """Listen on port."""
    print(f"listening on {port}")
''',
}


def sample_project(root: Path) -> None:
    """A git repository (made with dulwich) of the package `app`, three commits by two authors over the last
    three days: the config reader, the command line, then a fix of the default port."""
    from dulwich import porcelain

    porcelain.init(str(root))
    day = 86_400
    start = int(time.time()) - 3 * day
    steps = [
        ("Ana <ana@example.com>", "Add the config reader", ["app/__init__.py", "app/config.py"]),
        ("Ben <ben@example.com>", "Add the command line", ["app/cli.py"]),
        ("Ana <ana@example.com>", "Fix the default port: 8080, not 80", ["app/config.py"]),
    ]
    for number, (author, message, paths) in enumerate(steps):
        for path in paths:
            text = SAMPLE_FILES[path]
            if message.startswith("Fix"):
                text = text.replace('"port", 80)', '"port", 8080)')
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        porcelain.add(str(root), paths=[str(root / path) for path in paths])
        when = start + number * day
        porcelain.commit(str(root), message=message, author=author.encode(), committer=author.encode(),
                         author_timestamp=when, commit_timestamp=when, author_timezone=0, commit_timezone=0)


def shell_env() -> dict[str, str]:
    """The environment of shell examples: the venv's scripts first on PATH, a fixed width, no LEARNMEM_DB."""
    env = dict(os.environ)
    if env.get("PATH", "").split(os.pathsep)[0] != str(BIN):
        env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "100"
    env.pop("LEARNMEM_DB", None)
    return env


def run_shell(script: str, cwd: str) -> subprocess.CompletedProcess:
    """Run one example's script. A reader waits for what `learnmem init --claude` started in the background
    (the project's index) before going on, as its line says; so does this, and the page's outputs stay the
    same however fast the machine is."""
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=shell_env(),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=SHELL_TIMEOUT_S)
    pid_file = Path(cwd) / ".learnmem" / "index.pid"
    deadline = time.monotonic() + SHELL_TIMEOUT_S
    while pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    return done


def evaluate_sh(example) -> str | None:
    """A ```sh block: the whole script must exit 0."""
    result = run_shell(example.parsed, example.namespace["project_dir"])
    if result.returncode != 0:
        return f"the script exited {result.returncode}:\n{example.parsed}\n--- output ---\n{result.stdout}"
    return None


def transcript(source: str) -> list[tuple[str, str]]:
    """(command, expected output) for each `$ ` command of a console block."""
    steps: list[list] = []
    continued = False
    for line in source.splitlines():
        if continued:
            steps[-1][0] += "\n" + line
        elif line.startswith("$ "):
            steps.append([line[2:], []])
        elif steps:
            steps[-1][1].append(line)
        else:
            raise ValueError(f"a console block must start with a `$ ` command: {line!r}")
        continued = line.endswith("\\") and not steps[-1][1]
    return [(command, "\n".join(lines).strip("\n") + "\n" if any(lines) else "") for command, lines in steps]


def evaluate_console(example) -> str | None:
    """A ```console block: each command must exit 0 and print what the block shows."""
    checker = doctest.OutputChecker()
    for command, want in transcript(example.parsed):
        result = run_shell(command, example.namespace["project_dir"])
        got = result.stdout
        if result.returncode != 0:
            return f"$ {command}\nexited {result.returncode}:\n{got}"
        if not checker.check_output(want, got, FLAGS):
            return f"$ {command}\n--- expected ---\n{want}--- got ---\n{got}"
    return None


def setup_page(namespace: dict) -> None:
    """A fresh temporary directory whose folder `project` holds the sample project and is made the working
    directory (examples may write beside it, in `..`)."""
    top = Path(tempfile.mkdtemp(prefix="learnmem-docs-")).resolve()
    project = top / "project"
    project.mkdir()
    sample_project(project)
    namespace["project_dir"] = str(project)
    namespace["_top"] = str(top)
    namespace["_saved"] = (os.getcwd(), os.environ.pop("LEARNMEM_DB", None), os.environ.get("PATH", ""))
    os.environ["PATH"] = shell_env()["PATH"]  # Python examples that start learnmem-mcp find it too
    os.chdir(project)


def teardown_page(namespace: dict) -> None:
    import learnmem

    for value in list(namespace.values()):
        if isinstance(value, learnmem.Learnmem):
            value.close()
    cwd, db, path = namespace.pop("_saved")
    os.chdir(cwd)
    os.environ["PATH"] = path
    if db is not None:
        os.environ["LEARNMEM_DB"] = db
    shutil.rmtree(namespace.pop("_top"), ignore_errors=True)


DOCS = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=FLAGS),
        CodeBlockParser("sh", evaluate_sh),
        CodeBlockParser("console", evaluate_console),
        SkipParser(),
    ],
    path=str(ROOT),
    patterns=["README.md", "docs/*.md"],
    setup=setup_page,
    teardown=teardown_page,
)


class DocPages(pytest.File):
    """The pages whose examples run: README.md and docs/*.md, one sybil file each."""

    def collect(self):
        for page in PAGES:
            yield SybilFile.from_parent(self, path=page, sybils=[DOCS])


def pytest_collect_file(file_path: Path, parent):
    if file_path.name == "test_docs_examples.py" and file_path.parent == Path(__file__).parent:
        return DocPages.from_parent(parent, path=file_path, name="pages")
    return None
