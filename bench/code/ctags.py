"""Definitions against Universal Ctags: does the code index hold every function, method and class that ctags
finds, in every language, with qualified names unique per file?

    python -m bench.code.ctags PROJECT_DIR [PROJECT_DIR ...] [--misses N] [--json OUT]

The reference is Universal Ctags (`ctags`, Debian's universal-ctags package) run over each project. Its
tags of the kinds a reader calls a definition (per language: `REFERENCE_KINDS`) are matched with the units
learnmem's parser makes of the same files (the files `index_codebase` would index: learnmem.code.walk): a
tag is found when a unit of its file starts on its line, or has its name (the last part of a dotted or `:`
name; computed names as learnmem writes them) and spans its line. Left out of the reference: tags ctags
names itself (`AnonymousFunction...`: no reader calls them), and JavaScript/TypeScript tags whose line
defines nothing (`_defines`: ctags 5.9 calls `const codes = {` a class and `Foo.prototype.a = 1` a method),
and Lua tags whose line holds `function` only inside a string. Reported per language: tags, found, recall, and the files where two units share a
qualified name.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from learnmem.code.languages import language_of
from learnmem.code.names import computed_name
from learnmem.code.parse import parse_source
from learnmem.code.walk import candidate_files

# ctags language -> the kinds (long names, ctags 5.9 and 6.x) that are definitions a reader would call one
REFERENCE_KINDS = {
    "Python": {"class", "function", "member"},
    "JavaScript": {"class", "function", "method", "getter", "setter", "generator"},
    "TypeScript": {"class", "function", "method", "interface", "enum", "getter", "setter", "generator"},
    "Go": {"func", "struct", "interface", "methodSpec"},
    "Rust": {"function", "method", "struct", "enum", "trait", "interface", "union"},
    "Java": {"class", "interface", "enum", "method", "record", "annotation"},
    "Lua": {"function"},
}
OURS = {"python": "Python", "javascript": "JavaScript", "typescript": "TypeScript", "tsx": "TypeScript",
        "go": "Go", "rust": "Rust", "java": "Java", "lua": "Lua"}


def ctags_tags(project: Path) -> list[dict]:
    """Every tag ctags finds under `project`, as JSON objects (path relative to the project)."""
    command = ["ctags", "-R", "--output-format=json", "--fields=+nKlz", "--extras=-F", "-f", "-", "."]
    out = subprocess.run(command, cwd=project, capture_output=True, check=True).stdout
    tags = []
    for line in out.decode("utf-8", errors="replace").splitlines():
        try:
            tag = json.loads(line)
        except json.JSONDecodeError:  # ctags 5.9 can write a pattern with a bad escape: that tag is dropped
            continue
        if tag.get("_type") == "tag":
            tag["path"] = tag["path"].removeprefix("./")
            tags.append(tag)
    return tags


_FUNCTION_SYNTAX = re.compile(r"\b(?:class|function|interface|enum)\b|=>")
_MEMBER_SYNTAX = re.compile(r"""^\s*(?:(?:static|async|get|set|public|private|protected|readonly|abstract|override)\s+|\*\s*)*"""
                            r"""[\w$#@\[\]'"]+\??\s*[(<]""")


_STRINGS = re.compile(r"""(["'])(?:\\.|(?!\1).)*\1""")
_LUA_FUNCTION = re.compile(r"\bfunction\b")


def _defines(tag: dict) -> bool:
    """Whether a JavaScript/TypeScript tag's line defines what its kind says. ctags 5.9 also tags lines that
    define nothing a reader calls: an object literal as a class (`const codes = {`), a value assigned to a
    prototype as a method (`Foo.prototype.a = 1;`, `Foo.prototype.constructor = Foo;`), a statement as a
    method (`delete fp.prototype.a;`, `this.timeout(5000)`). Kept: lines with `function`, `class`, `interface`,
    `enum` or `=>`, and method syntax (`name(...)`, `static get name(...)`)."""
    line = tag.get("pattern", "").removeprefix("/^").removesuffix("$/")
    return bool(_FUNCTION_SYNTAX.search(line) or _MEMBER_SYNTAX.match(line))


def _last_name(name: str) -> str:
    """A tag's name as learnmem names the unit: the last part of `M.f` / `M:m`, `[Symbol.iterator]` as
    `@@iterator` (learnmem.code.names)."""
    if name.startswith("[") and name.endswith("]"):
        return computed_name(name[1:-1])
    return re.split(r"[.:]", name)[-1]


def compare(project: Path) -> dict:
    """Per language: tags, found, recall, the missed tags, and files with a repeated qualified name."""
    units_by_file: dict[str, list] = {}
    duplicated: dict[str, list[str]] = {}
    for relative in candidate_files(project):
        language = language_of(relative)
        if language not in OURS:
            continue
        parsed = parse_source(relative, (project / relative).read_bytes(), language)
        units_by_file[relative] = parsed.units[1:]
        counts = Counter(u.qualified_name for u in parsed.units[1:])
        repeated = sorted(name for name, count in counts.items() if count > 1)
        if repeated:
            duplicated[relative] = repeated
    result: dict[str, dict] = defaultdict(lambda: {"tags": 0, "found": 0, "missed": [], "duplicated": {}})
    for tag in ctags_tags(project):
        language = tag.get("language")
        kind = tag.get("kind")
        if language not in REFERENCE_KINDS or kind not in REFERENCE_KINDS[language]:
            continue
        if tag["name"].startswith("Anonymous") or tag["path"] not in units_by_file:
            continue  # ctags' own names for anonymous code; files the index does not take (vendored, ignored)
        if language in ("JavaScript", "TypeScript") and not _defines(tag):
            continue  # ctags 5.9's JavaScript parser: see _defines
        if language == "Lua" and not _LUA_FUNCTION.search(_STRINGS.sub("", tag.get("pattern", ""))):
            continue  # ctags 5.9's Lua parser takes "function" in a string (`"__len = <function 1>"`) for one
        entry = result[language]
        entry["tags"] += 1
        name, line = _last_name(tag["name"]), tag["line"]
        units = units_by_file[tag["path"]]
        if any(u.start_line == line or (u.name == name and u.start_line <= line <= u.end_line) for u in units):
            entry["found"] += 1
        else:
            entry["missed"].append(f"{tag['path']}:{line} {kind} {tag['name']}")
    for path, names in duplicated.items():
        language = OURS[language_of(path)]
        result[language]["duplicated"][path] = names
    for entry in result.values():
        entry["recall"] = entry["found"] / entry["tags"] if entry["tags"] else float("nan")
    return dict(result)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.code.ctags", description=__doc__.split("\n\n")[0])
    parser.add_argument("projects", nargs="+", type=Path)
    parser.add_argument("--misses", type=int, default=5, help="missed tags to show per project and language")
    parser.add_argument("--json", type=Path, help="also write every result here")
    args = parser.parse_args(argv)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    everything = {}
    print("| project | language | ctags definitions | found | recall | files with a repeated qualified name |")
    print("|---|---|---|---|---|---|")
    for project in args.projects:
        result = compare(project)
        everything[project.name] = result
        for language, entry in sorted(result.items()):
            totals[language][0] += entry["tags"]
            totals[language][1] += entry["found"]
            print(f"| {project.name} | {language} | {entry['tags']} | {entry['found']} | {entry['recall']:.3f} | "
                  f"{len(entry['duplicated'])} |")
            for miss in entry["missed"][: args.misses]:
                print(f"|  | missed: `{miss}` | | | | |", file=sys.stderr)
    print("\n| language | ctags definitions | found | recall |\n|---|---|---|---|")
    for language, (tags, found) in sorted(totals.items()):
        print(f"| {language} | {tags} | {found} | {found / tags if tags else float('nan'):.3f} |")
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
