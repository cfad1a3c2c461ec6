"""JavaScript and TypeScript calls resolved across files (issue 23, item 2): learnmem.code.jsmodules and
learnmem.code.jsresolve, through `index_codebase` and `find_callees` on a real file.

One small project uses each module pattern real code uses: ES modules (named, default, namespace imports,
`export { a as b }`, re-exports, `export *`, an index file), CommonJS (`require`, destructured or taken by
member, `module.exports = function`, `= { a, b }`, `exports.x =`), TypeScript importing a `.js` specifier, and
classes extending a class of another file (`this.m()` inherited, `super.m()`, `super(...)`), with instances
made by `new`. What stays outside the project (a package, Node's built-ins, computed members) resolves nowhere.
"""

from __future__ import annotations

import textwrap

import pytest

import learnmem
from learnmem.embedding.embed import HashingEmbedder

PROJECT = "scripts"

FILES = {
    "lib/strings.js": """
        export function slug(text) { return lower(text).replace(/ /g, "-"); }
        function lower(text) { return text.toLowerCase(); }
        export { lower as toLower };
        export default function titleCase(text) { return text; }
        """,
    "lib/numbers.mjs": """
        export const clamp = (n, lo, hi) => Math.min(hi, Math.max(lo, n));
        export function round(n) { return Math.round(n); }
        """,
    "lib/index.js": """
        export * from "./numbers.mjs";
        export { slug, default as titleCase } from "./strings.js";
        """,
    "lib/legacy.js": """
        const path = require("path");
        function join(a, b) { return path.join(a, b); }
        exports.join = join;
        exports.quote = function quote(text) { return '"' + text + '"'; };
        """,
    "lib/logger.js": """
        module.exports = function createLogger(name) { return { name }; };
        """,
    "lib/math.js": """
        function add(a, b) { return a + b; }
        function mul(a, b) { return a * b; }
        module.exports = { add, times: mul };
        """,
    "lib/model.js": """
        export class Model {
          constructor(data) { this.data = data; }
          save() { this.validate(); return this.data; }
          validate() { return true; }
        }
        """,
    "lib/user.js": """
        import { Model } from "./model.js";
        export class User extends Model {
          constructor(data) { super(data); }
          validate() { return super.validate() && Boolean(this.data.name); }
        }
        export class Guest extends User {}
        """,
    "src/app.ts": """
        import { slug, titleCase, clamp } from "../lib/index.js";
        import * as strings from "../lib/strings.js";
        import { User, Guest } from "../lib/user.js";
        const legacy = require("../lib/legacy.js");
        const { add, times } = require("../lib/math.js");
        const createLogger = require("../lib/logger.js");
        const quote = require("../lib/legacy.js").quote;
        import express from "express";

        export function main(input: string): string {
          const log = createLogger("app");
          const user = new User({ name: input });
          user.save();
          new Guest({});
          const app = express();
          app.listen(3000);
          const name = strings.toLower(titleCase(slug(input)));
          const key = "slug";
          (strings as any)[key](name);
          return quote(legacy.join(name, String(clamp(add(1, times(2, 3)), 0, 9))));
        }
        """,
}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> learnmem.Learnmem:
    root = tmp_path_factory.mktemp("scripts")
    for relative, text in FILES.items():
        path = root / "tree" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    lm = learnmem.open(root / "a.duckdb", embedder=HashingEmbedder())
    lm.index_codebase(root / "tree", project=PROJECT, progress=False)
    return lm


def callees(lm: learnmem.Learnmem, unit: str) -> dict[str, str | None]:
    """callee as written -> the unit it resolved to (`module.qualified`), None when unresolved."""
    return {e.callee_name: None if e.callee_module is None else f"{e.callee_module}.{e.callee_qualified_name}"
            for e in lm.find_callees(unit, project=PROJECT)}


def test_imports_and_exports_of_both_module_systems(indexed):
    found = callees(indexed, "src.app.main")
    assert {name: found.get(name) for name in (
        "slug", "titleCase", "toLower", "clamp", "add", "times", "createLogger", "quote", "join")} == {
        "slug": "lib.strings.slug",  # a named re-export through an index file
        "titleCase": "lib.strings.titleCase",  # `export { default as titleCase } from`
        "toLower": "lib.strings.lower",  # a namespace import of `export { lower as toLower }`
        "clamp": "lib.numbers.clamp",  # `export *` of an .mjs file
        "add": "lib.math.add",  # destructured require of `module.exports = { add, times: mul }`
        "times": "lib.math.mul",
        "createLogger": "lib.logger.createLogger",  # `module.exports = function createLogger`
        "quote": "lib.legacy.quote",  # `require(...).quote` of `exports.quote = function quote`
        "join": "lib.legacy.join",  # a namespace of `exports.join = join`
    }


def test_classes_across_files(indexed):
    found = callees(indexed, "src.app.main")
    assert found["User"] == "lib.user.User.constructor"
    assert found["Guest"] == "lib.user.User.constructor"  # a class declaring no constructor runs its base's
    assert found["save"] == "lib.model.Model.save"  # `user.save()`: inherited from the other file's Model
    assert callees(indexed, "lib.user.User.constructor") == {"super": "lib.model.Model.constructor"}
    assert callees(indexed, "lib.user.User.validate")["validate"] == "lib.model.Model.validate"


def test_what_is_outside_the_project_resolves_nowhere(indexed):
    found = callees(indexed, "src.app.main")
    assert found["express"] is None and found["listen"] is None  # a package's
    assert callees(indexed, "lib.legacy.join") == {"join": None}  # Node's path.join
