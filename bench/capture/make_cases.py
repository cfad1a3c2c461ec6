#!/usr/bin/env python3
"""Build bench/capture/cases.jsonl: hook payloads for the capture benchmark.

Deterministic and offline. Every case is written out by hand below; the helpers
only wrap text in the payload shapes Claude Code sends to PostToolUse /
PostToolUseFailure hooks. Run:  python bench/capture/make_cases.py
"""
from __future__ import annotations

import difflib
import hashlib
import json
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
HOME = "/home/dev"
CASES: list[dict] = []


def _n(seed: str, lo: int, hi: int) -> int:
    h = int(hashlib.sha256(seed.encode()).hexdigest()[:8], 16)
    return lo + h % (hi - lo)


# ----------------------------------------------------------------- payloads
def bash(command, description, stdout="", stderr=""):
    return {"hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": description},
            "tool_response": {"stdout": stdout, "stderr": stderr,
                              "interrupted": False, "isImage": False}}


def bash_fail(command, description, output, code=1):
    output = output.rstrip("\n")
    return {"hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
            "tool_input": {"command": command, "description": description},
            "error": f"Exit code {code}\n{output}" if output else f"Exit code {code}",
            "is_interrupt": False}


def edit(path, old, new, line=1, before=(), after=(), replace_all=False):
    """Edit payload; before/after are the unchanged file lines around old."""
    ol, nl = old.split("\n"), new.split("\n")
    lines = [" " + c for c in before]
    sm = difflib.SequenceMatcher(a=ol, b=nl, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            lines += [" " + x for x in ol[i1:i2]]
        else:
            lines += ["-" + x for x in ol[i1:i2]]
            lines += ["+" + x for x in nl[j1:j2]]
    lines += [" " + c for c in after]
    start = max(1, line - len(before))
    patch = [{"oldStart": start,
              "oldLines": sum(1 for x in lines if x[0] in " -"),
              "newStart": start,
              "newLines": sum(1 for x in lines if x[0] in " +"),
              "lines": lines}]
    return {"hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": path, "old_string": old, "new_string": new,
                           "replace_all": replace_all},
            "tool_response": {"filePath": path, "oldString": old, "newString": new,
                              "structuredPatch": patch, "userModified": False,
                              "replaceAll": replace_all}}


def write(path, content, kind="create"):
    return {"hook_event_name": "PostToolUse", "tool_name": "Write",
            "tool_input": {"file_path": path, "content": content},
            "tool_response": {"type": kind, "filePath": path, "content": content,
                              "structuredPatch": []}}


def task(description, prompt, report, subagent_type="general-purpose"):
    s = description
    inp, out = _n(s + "i", 40, 900), _n(s + "o", 400, 4000)
    cc, cr = _n(s + "c", 2000, 30000), _n(s + "r", 10000, 160000)
    return {"hook_event_name": "PostToolUse", "tool_name": "Task",
            "tool_input": {"description": description, "prompt": prompt,
                           "subagent_type": subagent_type},
            "tool_response": {"content": [{"type": "text", "text": report}],
                              "totalDurationMs": _n(s + "d", 25000, 540000),
                              "totalTokens": inp + out + cc + cr,
                              "totalToolUseCount": _n(s + "u", 3, 45),
                              "usage": {"input_tokens": inp, "output_tokens": out,
                                        "cache_creation_input_tokens": cc,
                                        "cache_read_input_tokens": cr,
                                        "service_tier": "standard"}}}


def _nlines(text):
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def read(path, content, start=1, total=None):
    n = _nlines(content)
    return {"hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": {"file_path": path},
            "tool_response": {"type": "text",
                              "file": {"filePath": path, "content": content,
                                       "numLines": n, "startLine": start,
                                       "totalLines": total or (start - 1 + n)}}}


def grep(pattern, path, content, nfiles, glob=None):
    ti = {"pattern": pattern, "path": path, "output_mode": "content", "-n": True}
    if glob:
        ti["glob"] = glob
    return {"hook_event_name": "PostToolUse", "tool_name": "Grep", "tool_input": ti,
            "tool_response": {"mode": "content", "numFiles": nfiles, "filenames": [],
                              "content": content.rstrip("\n"),
                              "numLines": _nlines(content)}}


def grep_files(pattern, path, files, glob=None):
    ti = {"pattern": pattern, "path": path, "output_mode": "files_with_matches"}
    if glob:
        ti["glob"] = glob
    return {"hook_event_name": "PostToolUse", "tool_name": "Grep", "tool_input": ti,
            "tool_response": {"mode": "files_with_matches", "numFiles": len(files),
                              "filenames": files}}


def glob_(pattern, path, files):
    return {"hook_event_name": "PostToolUse", "tool_name": "Glob",
            "tool_input": {"pattern": pattern, "path": path},
            "tool_response": {"filenames": files, "durationMs": _n(pattern, 3, 90),
                              "numFiles": len(files), "truncated": False}}


def ls_(path, listing):
    return {"hook_event_name": "PostToolUse", "tool_name": "LS",
            "tool_input": {"path": path}, "tool_response": listing}


# ------------------------------------------------------------------- cases
def learning(*about):
    return {"category": "learning", "about": [a.lower() for a in about]}


def blocker(*about):
    return {"category": "blocker", "about": [a.lower() for a in about]}


def case(cid, kind, note, cwd, events, expect=()):
    sid = str(uuid.uuid5(uuid.NAMESPACE_URL, "learnmem-bench-capture/" + cid))
    tpath = f"{HOME}/.claude/projects/{cwd.replace('/', '-')}/{sid}.jsonl"
    evs = []
    for ev in events:
        full = {"session_id": sid, "transcript_path": tpath, "cwd": cwd}
        full.update(ev)
        evs.append(full)
    CASES.append({"id": cid, "kind": kind, "note": note, "events": evs,
                  "expect": list(expect)})


def pos(cid, note, cwd, events, *expect):
    case(cid, "positive", note, cwd, events, expect)


def noise(cid, note, cwd, events):
    case(cid, "noise", note, cwd, events, ())


PYTEST_RULE = "=" * 30


def pytest_head(root, n, py="3.11.9", pt="8.2.2", plugins="anyio-4.4.0, cov-5.0.0",
                cfg="pyproject.toml"):
    return (f"============================= test session starts ==============================\n"
            f"platform linux -- Python {py}, pytest-{pt}, pluggy-1.5.0\n"
            f"rootdir: {root}\nconfigfile: {cfg}\nplugins: {plugins}\n"
            f"collected {n} items\n\n")


# =========================================================================
# POSITIVES: failed -> changed something -> passed
# =========================================================================
R = f"{HOME}/src/ledger-api"
pos("pip-psycopg2-pg-config",
    "psycopg2 sdist needs pg_config on the build box; switched to psycopg2-binary",
    R, [
        bash_fail("pip install -r requirements.txt", "Install Python dependencies", """\
Requirement already satisfied: fastapi==0.111.0 in ./.venv/lib/python3.11/site-packages (from -r requirements.txt (line 1)) (0.111.0)
Requirement already satisfied: uvicorn==0.30.1 in ./.venv/lib/python3.11/site-packages (from uvicorn[standard]==0.30.1->-r requirements.txt (line 2)) (0.30.1)
Requirement already satisfied: sqlalchemy==2.0.31 in ./.venv/lib/python3.11/site-packages (from -r requirements.txt (line 3)) (2.0.31)
Collecting psycopg2==2.9.9 (from -r requirements.txt (line 4))
  Downloading psycopg2-2.9.9.tar.gz (384 kB)
     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 384.9/384.9 kB 8.3 MB/s eta 0:00:00
  Preparing metadata (setup.py) ... error
  error: subprocess-exited-with-error

  × python setup.py egg_info did not run successfully.
  │ exit code: 1
  ╰─> [23 lines of output]
      running egg_info
      creating /tmp/pip-pip-egg-info-u1x9f3ka/psycopg2.egg-info
      writing /tmp/pip-pip-egg-info-u1x9f3ka/psycopg2.egg-info/PKG-INFO
      writing dependency_links to /tmp/pip-pip-egg-info-u1x9f3ka/psycopg2.egg-info/dependency_links.txt
      writing top-level names to /tmp/pip-pip-egg-info-u1x9f3ka/psycopg2.egg-info/top_level.txt
      writing manifest file '/tmp/pip-pip-egg-info-u1x9f3ka/psycopg2.egg-info/SOURCES.txt'

      Error: pg_config executable not found.

      pg_config is required to build psycopg2 from source.  Please add the directory
      containing pg_config to the $PATH or specify the full executable path with the
      option:

          python setup.py build_ext --pg-config /path/to/pg_config build ...

      or with the pg_config option in 'setup.cfg'.

      If you prefer to avoid building psycopg2 from source, please install the PyPI
      'psycopg2-binary' package instead.

      For further information please check the 'doc/src/install.rst' file (also at
      <https://www.psycopg.org/docs/install.html>).

      [end of output]

  note: This error originates from a subprocess, and is likely not a problem with pip.
error: metadata-generation-failed

× Encountered error while generating package metadata.
╰─> See above for output.

note: This is an issue with the package mentioned above, not pip.
hint: See above for details.
"""),
        edit(f"{R}/requirements.txt", "psycopg2==2.9.9", "psycopg2-binary==2.9.9", line=4,
             before=["fastapi==0.111.0", "uvicorn[standard]==0.30.1", "sqlalchemy==2.0.31"],
             after=["alembic==1.13.2", "pydantic-settings==2.3.4"]),
        bash("pip install -r requirements.txt", "Install Python dependencies", """\
Requirement already satisfied: fastapi==0.111.0 in ./.venv/lib/python3.11/site-packages (from -r requirements.txt (line 1)) (0.111.0)
Requirement already satisfied: uvicorn==0.30.1 in ./.venv/lib/python3.11/site-packages (from uvicorn[standard]==0.30.1->-r requirements.txt (line 2)) (0.30.1)
Requirement already satisfied: sqlalchemy==2.0.31 in ./.venv/lib/python3.11/site-packages (from -r requirements.txt (line 3)) (2.0.31)
Collecting psycopg2-binary==2.9.9 (from -r requirements.txt (line 4))
  Downloading psycopg2_binary-2.9.9-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata (4.4 kB)
Requirement already satisfied: alembic==1.13.2 in ./.venv/lib/python3.11/site-packages (from -r requirements.txt (line 5)) (1.13.2)
Requirement already satisfied: pydantic-settings==2.3.4 in ./.venv/lib/python3.11/site-packages (from -r requirements.txt (line 6)) (2.3.4)
Downloading psycopg2_binary-2.9.9-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (3.0 MB)
   ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 3.0/3.0 MB 24.1 MB/s eta 0:00:00
Installing collected packages: psycopg2-binary
Successfully installed psycopg2-binary-2.9.9
"""),
    ],
    learning("pg_config", "psycopg2-binary"))

R = f"{HOME}/src/storefront"
pos("npm-eresolve-react-hooks",
    "@testing-library/react-hooks peers on React 17; dropped it for renderHook from @testing-library/react",
    R, [
        bash_fail("npm install --save-dev @testing-library/react-hooks", "Add hooks testing library", """\
npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR!
npm ERR! While resolving: storefront@0.4.0
npm ERR! Found: react@18.3.1
npm ERR! node_modules/react
npm ERR!   react@"^18.3.1" from the root project
npm ERR!
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^16.9.0 || ^17.0.0" from @testing-library/react-hooks@8.0.1
npm ERR! node_modules/@testing-library/react-hooks
npm ERR!   dev @testing-library/react-hooks@"*" from the root project
npm ERR!
npm ERR! Fix the upstream dependency conflict, or retry
npm ERR! this command with --force or --legacy-peer-deps
npm ERR! to accept an incorrect (and potentially broken) dependency resolution.
npm ERR!
npm ERR!
npm ERR! For a full report see:
npm ERR! /home/dev/.npm/_logs/2024-06-18T09_14_52_118Z-eresolve-report.txt

npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2024-06-18T09_14_52_118Z-debug-0.log
"""),
        edit(f"{R}/src/hooks/useCart.test.ts",
             "import { renderHook, act } from '@testing-library/react-hooks';",
             "import { renderHook, act } from '@testing-library/react';", line=1,
             after=["import { useCart } from './useCart';", "", "describe('useCart', () => {"]),
        bash("npx jest src/hooks", "Run hook tests", stderr="""\
PASS src/hooks/useCart.test.ts
  useCart
    ✓ starts empty (14 ms)
    ✓ adds an item and sums the total (6 ms)
    ✓ merges quantities for the same sku (3 ms)
PASS src/hooks/useDebounce.test.ts
  useDebounce
    ✓ returns the initial value immediately (9 ms)
    ✓ updates after the delay (4 ms)

Test Suites: 2 passed, 2 total
Tests:       5 passed, 5 total
Snapshots:   0 total
Time:        1.812 s
Ran all test suites matching /src\\/hooks/i.
"""),
    ],
    learning("eresolve", "react-hooks", "renderhook"))

R = f"{HOME}/src/admin-console"
pos("tsc-path-alias-ts2307",
    "vite resolves @/ via its own alias but tsc needs compilerOptions.paths too",
    R, [
        bash_fail("npx tsc --noEmit -p tsconfig.app.json", "Type-check the app", """\
src/pages/Home.tsx(3,24): error TS2307: Cannot find module '@/components/Button' or its corresponding type declarations.
src/pages/Home.tsx(4,27): error TS2307: Cannot find module '@/lib/api' or its corresponding type declarations.
src/pages/Settings.tsx(2,24): error TS2307: Cannot find module '@/components/Button' or its corresponding type declarations.
src/pages/Settings.tsx(5,31): error TS2307: Cannot find module '@/hooks/useSession' or its corresponding type declarations.

Found 4 errors in 2 files.

Errors  Files
     2  src/pages/Home.tsx:3
     2  src/pages/Settings.tsx:2
"""),
        read(f"{R}/vite.config.ts", """\
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': path.resolve(__dirname, './src') },
  },
});
"""),
        edit(f"{R}/tsconfig.app.json",
             '''    "jsx": "react-jsx",
    "strict": true''',
             '''    "jsx": "react-jsx",
    "strict": true,
    "baseUrl": ".",
    "paths": {
      "@/*": ["./src/*"]
    }''', line=14,
             before=['    "moduleResolution": "bundler",', '    "noEmit": true,'],
             after=["  },", '  "include": ["src"]', "}"]),
        bash("npx tsc --noEmit -p tsconfig.app.json && echo OK", "Type-check the app", "OK\n"),
    ],
    learning("ts2307", "paths", "alias"))

R = f"{HOME}/src/link-shortener"
pos("jest-esm-nanoid-transform",
    "nanoid 5 ships ESM only; jest must transform it via transformIgnorePatterns",
    R, [
        bash_fail("npm test", "Run the jest suite", """\

> link-shortener@1.2.0 test
> jest

FAIL src/__tests__/shorten.test.ts
  ● Test suite failed to run

    Jest encountered an unexpected token

    Jest failed to parse a file. This happens e.g. when your code or its dependencies use non-standard JavaScript syntax, or when Jest is not configured to support such syntax.

    Out of the box Jest supports Babel, which will be used to transform your files into valid JS based on your Babel configuration.

    By default "node_modules" folder is ignored by transformers.

    Here's what you can do:
     • If you are trying to use ECMAScript Modules, see https://jestjs.io/docs/ecmascript-modules for how to enable it.
     • If you are trying to use TypeScript, see https://jestjs.io/docs/getting-started#using-typescript
     • To have some of your "node_modules" files transformed, you can specify a custom "transformIgnorePatterns" in your config.
     • If you need a custom transformation specify a "transform" option in your config.
     • If you simply want to mock your non-JS modules (e.g. binary assets) you can stub them out with the "moduleNameMapper" config option.

    You'll find more details and examples of these config options in the docs:
    https://jestjs.io/docs/configuration
    For information about custom transformations, see:
    https://jestjs.io/docs/code-transformation

    Details:

    /home/dev/src/link-shortener/node_modules/nanoid/index.js:1
    ({"Object.<anonymous>":function(module,exports,require,__dirname,__filename,jest){import { webcrypto as crypto } from 'node:crypto'
                                                                                      ^^^^^^

    SyntaxError: Cannot use import statement outside a module

    > 1 | import { nanoid } from 'nanoid';
        | ^
      2 |
      3 | export function makeSlug(size = 8): string {
      4 |   return nanoid(size);

      at Runtime.createScriptFromCode (node_modules/jest-runtime/build/index.js:1505:14)
      at Object.<anonymous> (src/shorten.ts:1:1)
      at Object.<anonymous> (src/__tests__/shorten.test.ts:1:1)

PASS src/__tests__/redirect.test.ts

Test Suites: 1 failed, 1 passed, 2 total
Tests:       4 passed, 4 total
Snapshots:   0 total
Time:        2.114 s
Ran all test suites.
"""),
        edit(f"{R}/jest.config.js",
             "  testEnvironment: 'node',",
             "  testEnvironment: 'node',\n  // nanoid >= 4 is published as ESM only, so it has to go through ts-jest too\n  transformIgnorePatterns: ['/node_modules/(?!nanoid/)'],",
             line=4, before=["/** @type {import('jest').Config} */", "module.exports = {", "  preset: 'ts-jest/presets/js-with-ts',"],
             after=["};"]),
        bash("npm test", "Run the jest suite", stderr="""\

> link-shortener@1.2.0 test
> jest

PASS src/__tests__/redirect.test.ts
PASS src/__tests__/shorten.test.ts

Test Suites: 2 passed, 2 total
Tests:       7 passed, 7 total
Snapshots:   0 total
Time:        2.947 s
Ran all test suites.
"""),
    ],
    learning("transformignorepatterns", "nanoid"))

R = f"{HOME}/src/feedsync"
pos("cargo-openssl-sys-rustls",
    "reqwest default TLS pulls openssl-sys which needs libssl-dev; switched to rustls-tls feature",
    R, [
        bash_fail("cargo build --release", "Build release binary", """\
   Compiling libc v0.2.155
   Compiling proc-macro2 v1.0.86
   Compiling unicode-ident v1.0.12
   Compiling cc v1.0.104
   Compiling pkg-config v0.3.30
   Compiling openssl-sys v0.9.102
   Compiling serde v1.0.203
   Compiling quote v1.0.36
error: failed to run custom build command for `openssl-sys v0.9.102`

Caused by:
  process didn't exit successfully: `/home/dev/src/feedsync/target/release/build/openssl-sys-3b1c5a7e2f0d9c44/build-script-main` (exit status: 101)
  --- stdout
  cargo:rerun-if-env-changed=X86_64_UNKNOWN_LINUX_GNU_OPENSSL_LIB_DIR
  X86_64_UNKNOWN_LINUX_GNU_OPENSSL_LIB_DIR unset
  cargo:rerun-if-env-changed=OPENSSL_LIB_DIR
  OPENSSL_LIB_DIR unset
  cargo:rerun-if-env-changed=OPENSSL_DIR
  OPENSSL_DIR unset
  cargo:rerun-if-env-changed=PKG_CONFIG_PATH
  cargo:rerun-if-env-changed=PKG_CONFIG
  run pkg_config fail: Could not run `PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 pkg-config --libs --cflags openssl`
  The pkg-config command could not be found.

  --- stderr
  thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/openssl-sys-0.9.102/build/find_normal.rs:190:5:


  Could not find directory of OpenSSL installation, and this `-sys` crate cannot
  proceed without this knowledge. If OpenSSL is installed and this crate had
  trouble finding it,  you can set the `OPENSSL_DIR` environment variable for the
  compilation process.

  Make sure you also have the development packages of openssl installed.
  For example, `libssl-dev` on Ubuntu or `openssl-devel` on Fedora.

  $HOST = x86_64-unknown-linux-gnu
  $TARGET = x86_64-unknown-linux-gnu
  openssl-sys = 0.9.102


  note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
warning: build failed, waiting for other jobs to finish...
"""),
        edit(f"{R}/Cargo.toml",
             'reqwest = { version = "0.12", features = ["json"] }',
             'reqwest = { version = "0.12", default-features = false, features = ["json", "rustls-tls"] }',
             line=11, before=["[dependencies]", 'anyhow = "1"', 'clap = { version = "4.5", features = ["derive"] }'],
             after=['serde = { version = "1", features = ["derive"] }', 'tokio = { version = "1", features = ["macros", "rt-multi-thread"] }']),
        bash("cargo build --release", "Build release binary", stderr="""\
   Compiling ring v0.17.8
   Compiling rustls-pki-types v1.7.0
   Compiling untrusted v0.9.0
   Compiling webpki-roots v0.26.3
   Compiling rustls-webpki v0.102.4
   Compiling rustls v0.23.10
   Compiling tokio-rustls v0.26.0
   Compiling hyper-rustls v0.27.2
   Compiling reqwest v0.12.5
   Compiling feedsync v0.3.1 (/home/dev/src/feedsync)
    Finished `release` profile [optimized] target(s) in 41.87s
"""),
    ],
    learning("openssl-sys", "rustls", "libssl-dev"))

R = f"{HOME}/src/sessiond"
pos("cargo-e0502-evict-borrow",
    "evicting while iterating self.sessions is a double borrow; collect expired keys first",
    R, [
        bash_fail("cargo test", "Run the test suite", """\
   Compiling sessiond v0.1.0 (/home/dev/src/sessiond)
error[E0502]: cannot borrow `*self` as mutable because it is also borrowed as immutable
  --> src/store.rs:58:17
   |
55 |         for (id, sess) in self.sessions.iter() {
   |                           --------------------
   |                           |
   |                           immutable borrow occurs here
   |                           immutable borrow later used here
...
58 |                 self.evict(id);
   |                 ^^^^^^^^^^^^^^ mutable borrow occurs here

For more information about this error, try `rustc --explain E0502`.
error: could not compile `sessiond` (lib) due to 1 previous error
warning: build failed, waiting for other jobs to finish...
error: could not compile `sessiond` (lib test) due to 1 previous error
"""),
        edit(f"{R}/src/store.rs",
             """        for (id, sess) in self.sessions.iter() {
            if sess.expires_at <= now {
                self.evict(id);
            }
        }""",
             """        // Collect first: evict() needs &mut self, which can't overlap the iter() borrow.
        let expired: Vec<SessionId> = self
            .sessions
            .iter()
            .filter(|(_, s)| s.expires_at <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in &expired {
            self.evict(id);
        }""", line=55,
             before=["    pub fn sweep(&mut self, now: Instant) -> usize {"],
             after=["        expired.len()", "    }"]),
        bash("cargo test", "Run the test suite", stdout="""\

running 9 tests
test store::tests::get_returns_none_for_unknown ... ok
test store::tests::insert_then_get ... ok
test store::tests::sweep_keeps_live_sessions ... ok
test store::tests::sweep_removes_expired ... ok
test store::tests::touch_extends_expiry ... ok
test token::tests::rejects_short_token ... ok
test token::tests::roundtrip ... ok
test token::tests::constant_time_eq ... ok
test config::tests::defaults ... ok

test result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

   Doc-tests sessiond

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

""", stderr="""\
   Compiling sessiond v0.1.0 (/home/dev/src/sessiond)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.93s
     Running unittests src/lib.rs (target/debug/deps/sessiond-6a0f3e2b7d1c9f85)
"""),
    ],
    learning("e0502", "borrow", "evict"))

R = f"{HOME}/src/ratelimit"
pos("go-race-rwmutex",
    "-race caught concurrent map access in the token cache; guarded with sync.RWMutex",
    R, [
        bash_fail("go test -race ./internal/cache/...", "Run cache tests with the race detector", """\
==================
WARNING: DATA RACE
Write at 0x00c0001a6060 by goroutine 9:
  runtime.mapassign_faststr()
      /usr/local/go/src/runtime/map_faststr.go:203 +0x0
  github.com/acme/ratelimit/internal/cache.(*TokenCache).Put()
      /home/dev/src/ratelimit/internal/cache/cache.go:41 +0x92
  github.com/acme/ratelimit/internal/cache.TestConcurrentPutGet.func1()
      /home/dev/src/ratelimit/internal/cache/cache_test.go:58 +0x7c

Previous read at 0x00c0001a6060 by goroutine 10:
  runtime.mapaccess2_faststr()
      /usr/local/go/src/runtime/map_faststr.go:117 +0x0
  github.com/acme/ratelimit/internal/cache.(*TokenCache).Get()
      /home/dev/src/ratelimit/internal/cache/cache.go:29 +0x6e
  github.com/acme/ratelimit/internal/cache.TestConcurrentPutGet.func2()
      /home/dev/src/ratelimit/internal/cache/cache_test.go:64 +0x68

Goroutine 9 (running) created at:
  github.com/acme/ratelimit/internal/cache.TestConcurrentPutGet()
      /home/dev/src/ratelimit/internal/cache/cache_test.go:56 +0x1a4
  testing.tRunner()
      /usr/local/go/src/testing/testing.go:1689 +0x21e
==================
--- FAIL: TestConcurrentPutGet (0.01s)
    testing.go:1398: race detected during execution of test
FAIL
FAIL	github.com/acme/ratelimit/internal/cache	0.041s
FAIL
"""),
        edit(f"{R}/internal/cache/cache.go",
             """type TokenCache struct {
	items map[string]entry
	ttl   time.Duration
}""",
             """type TokenCache struct {
	mu    sync.RWMutex // Get/Put are called from every request goroutine
	items map[string]entry
	ttl   time.Duration
}""", line=14, before=["// TokenCache keeps recently issued bucket tokens in memory."]),
        edit(f"{R}/internal/cache/cache.go",
             """func (c *TokenCache) Get(key string) (int, bool) {
	e, ok := c.items[key]""",
             """func (c *TokenCache) Get(key string) (int, bool) {
	c.mu.RLock()
	e, ok := c.items[key]
	c.mu.RUnlock()""", line=28),
        edit(f"{R}/internal/cache/cache.go",
             """func (c *TokenCache) Put(key string, n int) {
	c.items[key] = entry{n: n, at: time.Now()}""",
             """func (c *TokenCache) Put(key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = entry{n: n, at: time.Now()}""", line=40),
        bash("go test -race ./internal/cache/...", "Run cache tests with the race detector",
             "ok  \tgithub.com/acme/ratelimit/internal/cache\t1.087s\n"),
    ],
    learning("data race", "rwmutex", "tokencache"))

R = f"{HOME}/src/ledger-api"
pos("docker-apt-update-same-layer",
    "cached `apt-get update` layer went stale; update and install must share one RUN",
    R, [
        bash("ls", "List project root", "Dockerfile\nMakefile\nREADME.md\nalembic\nalembic.ini\napp\ndocker-compose.yml\nrequirements.txt\ntests\n"),
        bash_fail("docker build -t ledger-api:dev .", "Build the API image", """\
#0 building with "default" instance using docker driver

#1 [internal] load build definition from Dockerfile
#1 transferring dockerfile: 612B done
#1 DONE 0.0s

#2 [internal] load metadata for docker.io/library/python:3.11-slim
#2 DONE 0.6s

#3 [internal] load .dockerignore
#3 transferring context: 94B done
#3 DONE 0.0s

#4 [1/7] FROM docker.io/library/python:3.11-slim@sha256:80bcf8d243a0d763a7759d6b99e5bf89af1869135546698be4bf7ff6c3f98a59
#4 DONE 0.0s

#5 [internal] load build context
#5 transferring context: 18.02kB done
#5 DONE 0.0s

#6 [2/7] RUN apt-get update
#6 CACHED

#7 [3/7] RUN apt-get install -y --no-install-recommends libpq-dev gcc
#7 0.412 Reading package lists...
#7 1.203 Building dependency tree...
#7 1.388 Reading state information...
#7 1.401 E: Unable to locate package libpq-dev
#7 ERROR: process "/bin/sh -c apt-get install -y --no-install-recommends libpq-dev gcc" did not complete successfully: exit code: 100
------
 > [3/7] RUN apt-get install -y --no-install-recommends libpq-dev gcc:
0.412 Reading package lists...
1.203 Building dependency tree...
1.388 Reading state information...
1.401 E: Unable to locate package libpq-dev
------
Dockerfile:4
--------------------
   2 |     
   3 |     RUN apt-get update
   4 | >>> RUN apt-get install -y --no-install-recommends libpq-dev gcc
   5 |     
   6 |     WORKDIR /app
--------------------
ERROR: failed to solve: process "/bin/sh -c apt-get install -y --no-install-recommends libpq-dev gcc" did not complete successfully: exit code: 100
"""),
        edit(f"{R}/Dockerfile",
             "RUN apt-get update\nRUN apt-get install -y --no-install-recommends libpq-dev gcc",
             "# update + install in ONE layer: a cached `apt-get update` layer goes stale and\n# the install then can't find packages.\nRUN apt-get update \\\n    && apt-get install -y --no-install-recommends libpq-dev gcc \\\n    && rm -rf /var/lib/apt/lists/*",
             line=3, before=["FROM python:3.11-slim", ""], after=["", "WORKDIR /app"]),
        bash("docker build -t ledger-api:dev .", "Build the API image", stderr="""\
#0 building with "default" instance using docker driver

#1 [internal] load build definition from Dockerfile
#1 transferring dockerfile: 742B done
#1 DONE 0.0s

#2 [internal] load metadata for docker.io/library/python:3.11-slim
#2 DONE 0.4s

#3 [internal] load .dockerignore
#3 transferring context: 94B done
#3 DONE 0.0s

#4 [1/6] FROM docker.io/library/python:3.11-slim@sha256:80bcf8d243a0d763a7759d6b99e5bf89af1869135546698be4bf7ff6c3f98a59
#4 DONE 0.0s

#5 [internal] load build context
#5 transferring context: 18.02kB done
#5 DONE 0.0s

#6 [2/6] RUN apt-get update     && apt-get install -y --no-install-recommends libpq-dev gcc     && rm -rf /var/lib/apt/lists/*
#6 0.391 Get:1 http://deb.debian.org/debian bookworm InRelease [151 kB]
#6 0.552 Get:2 http://deb.debian.org/debian bookworm-updates InRelease [55.4 kB]
#6 0.601 Get:3 http://deb.debian.org/debian-security bookworm-security InRelease [48.0 kB]
#6 0.855 Get:4 http://deb.debian.org/debian bookworm/main amd64 Packages [8788 kB]
#6 2.114 Fetched 9231 kB in 2s (4870 kB/s)
#6 2.874 Reading package lists...
#6 3.501 The following NEW packages will be installed:
#6 3.502   binutils cpp-12 gcc gcc-12 libc-dev-bin libc6-dev libpq-dev libpq5 linux-libc-dev
#6 3.530 0 upgraded, 24 newly installed, 0 to remove and 0 not upgraded.
#6 14.92 Setting up libpq-dev (15.7-0+deb12u1) ...
#6 15.10 Processing triggers for libc-bin (2.36-9+deb12u7) ...
#6 DONE 15.6s

#7 [3/6] WORKDIR /app
#7 DONE 0.0s

#8 [4/6] COPY requirements.txt .
#8 DONE 0.0s

#9 [5/6] RUN pip install --no-cache-dir -r requirements.txt
#9 31.07 Successfully installed alembic-1.13.2 fastapi-0.111.0 psycopg2-binary-2.9.9 sqlalchemy-2.0.31 uvicorn-0.30.1
#9 DONE 32.4s

#10 [6/6] COPY app ./app
#10 DONE 0.0s

#11 exporting to image
#11 exporting layers 1.9s done
#11 writing image sha256:5b2f0c8d7a1e64f3a9e0c7d21b8f4e6a3c5d9b7f1e2a4c6d8b0f3e5a7c9d1b3f done
#11 naming to docker.io/library/ledger-api:dev done
#11 DONE 1.9s
"""),
    ],
    learning("apt-get update", "unable to locate package", "libpq-dev"))

R = f"{HOME}/src/geo-worker"
pos("k8s-exec-format-arm64-image",
    "image built on an arm64 laptop crashed on amd64 nodes; rebuilt with buildx --platform linux/amd64",
    R, [
        bash("kubectl -n geo get pods -l app=geo-worker", "Check worker pods", """\
NAME                          READY   STATUS             RESTARTS      AGE
geo-worker-7d9f6c8b5d-4xk2p   0/1     CrashLoopBackOff   5 (38s ago)   3m41s
geo-worker-7d9f6c8b5d-m9q7t   0/1     CrashLoopBackOff   5 (45s ago)   3m41s
"""),
        bash("kubectl -n geo logs geo-worker-7d9f6c8b5d-4xk2p", "Read crashing pod logs",
             "exec /usr/local/bin/docker-entrypoint.sh: exec format error\n"),
        bash("docker buildx build --platform linux/amd64 -t registry.acme.dev/geo-worker:1.8.2 --push .",
             "Rebuild the image for amd64 and push", stderr="""\
[+] Building 94.3s (12/12) FINISHED                                         docker-container:multiarch
 => [internal] load build definition from Dockerfile                                       0.0s
 => => transferring dockerfile: 801B                                                       0.0s
 => [internal] load metadata for docker.io/library/node:20-bookworm-slim                   1.1s
 => [internal] load .dockerignore                                                          0.0s
 => [1/6] FROM docker.io/library/node:20-bookworm-slim@sha256:2cd2e2f4d5e7a8b3c1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8   4.2s
 => [internal] load build context                                                          0.1s
 => [2/6] WORKDIR /app                                                                     0.2s
 => [3/6] COPY package.json package-lock.json ./                                           0.0s
 => [4/6] RUN npm ci --omit=dev                                                           71.5s
 => [5/6] COPY dist ./dist                                                                 0.0s
 => [6/6] COPY docker-entrypoint.sh /usr/local/bin/                                        0.0s
 => exporting to image                                                                    16.8s
 => => exporting layers                                                                    9.3s
 => => exporting manifest sha256:9e1f3b5d7c0a2e4f6b8d0c1e3f5a7b9d1c3e5f7a9b1d3f5e7c9a1b3d5f7e9c1a   0.0s
 => => pushing layers                                                                      6.9s
 => => pushing manifest for registry.acme.dev/geo-worker:1.8.2@sha256:4f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e   0.6s
"""),
        bash("kubectl -n geo rollout restart deploy/geo-worker && kubectl -n geo rollout status deploy/geo-worker --timeout=120s",
             "Restart the deployment and wait", """\
deployment.apps/geo-worker restarted
Waiting for deployment "geo-worker" rollout to finish: 1 out of 2 new replicas have been updated...
Waiting for deployment "geo-worker" rollout to finish: 1 old replicas are pending termination...
deployment "geo-worker" successfully rolled out
"""),
    ],
    learning("exec format error", "linux/amd64", "buildx"))

R = "/workspace"
pos("git-dubious-ownership-safe-directory",
    "git refuses a bind-mounted repo owned by another uid; needs safe.directory",
    R, [
        bash_fail("git status", "Check working tree", """\
fatal: detected dubious ownership in repository at '/workspace'
To add an exception for this directory, call:

	git config --global --add safe.directory /workspace
"""),
        bash("stat -c '%U:%G %u:%g' /workspace && id", "Compare repo owner and current user",
             "UNKNOWN:UNKNOWN 501:20\nuid=0(root) gid=0(root) groups=0(root)\n"),
        bash("git config --global --add safe.directory /workspace && git status --short", "Trust the mounted repo and retry",
             " M src/parser.ts\n?? src/parser.test.ts\n"),
    ],
    learning("dubious ownership", "safe.directory"))

R = f"{HOME}/src/ledger-api"
pos("pg15-public-schema-grant",
    "PostgreSQL 15 no longer grants CREATE on schema public to every role",
    R, [
        bash_fail("alembic upgrade head", "Apply migrations to the fresh dev database", """\
INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
INFO  [alembic.runtime.migration] Running upgrade  -> 3f2a9c1d7e44, create accounts and entries
Traceback (most recent call last):
  File "/home/dev/src/ledger-api/.venv/lib/python3.11/site-packages/sqlalchemy/engine/base.py", line 1967, in _exec_single_context
    self.dialect.do_execute(
  File "/home/dev/src/ledger-api/.venv/lib/python3.11/site-packages/sqlalchemy/engine/default.py", line 924, in do_execute
    cursor.execute(statement, parameters)
psycopg2.errors.InsufficientPrivilege: permission denied for schema public
LINE 2: CREATE TABLE accounts (
                     ^


The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/home/dev/src/ledger-api/.venv/bin/alembic", line 8, in <module>
    sys.exit(main())
  File "/home/dev/src/ledger-api/.venv/lib/python3.11/site-packages/alembic/config.py", line 641, in main
    CommandLine(prog=prog).main(argv=argv)
  File "/home/dev/src/ledger-api/alembic/versions/3f2a9c1d7e44_create_accounts.py", line 21, in upgrade
    op.create_table(
sqlalchemy.exc.ProgrammingError: (psycopg2.errors.InsufficientPrivilege) permission denied for schema public
LINE 2: CREATE TABLE accounts (
                     ^

[SQL: 
CREATE TABLE accounts (
	id BIGSERIAL NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	created_at TIMESTAMP WITH TIME ZONE DEFAULT now() NOT NULL, 
	PRIMARY KEY (id)
)

]
(Background on this error at: https://sqlalche.me/e/20/f405)
"""),
        bash("psql -h localhost -U postgres -d ledger -c 'SELECT version();'", "Check server version", """\
                                                      version
-------------------------------------------------------------------------------------------------------------------
 PostgreSQL 15.7 (Debian 15.7-1.pgdg120+1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit
(1 row)

"""),
        edit(f"{R}/docker/initdb/01-roles.sql",
             "CREATE ROLE ledger LOGIN PASSWORD 'ledger';\nGRANT ALL PRIVILEGES ON DATABASE ledger TO ledger;",
             "CREATE ROLE ledger LOGIN PASSWORD 'ledger';\nGRANT ALL PRIVILEGES ON DATABASE ledger TO ledger;\n-- Postgres 15+ revoked CREATE on schema public from PUBLIC; the app role needs it explicitly.\n\\connect ledger\nGRANT CREATE, USAGE ON SCHEMA public TO ledger;",
             line=1),
        bash("psql -h localhost -U postgres -d ledger -c 'GRANT CREATE, USAGE ON SCHEMA public TO ledger;' && alembic upgrade head",
             "Grant schema privileges and re-run migrations", """\
GRANT
INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
INFO  [alembic.runtime.migration] Running upgrade  -> 3f2a9c1d7e44, create accounts and entries
INFO  [alembic.runtime.migration] Running upgrade 3f2a9c1d7e44 -> 8b0e51c2d9af, add entry memo
"""),
    ],
    learning("permission denied for schema", "schema public", "postgres 15"))

R = f"{HOME}/src/imgproc"
pos("make-missing-separator-tabs",
    "editor expanded tabs in the Makefile recipe; make requires a literal tab",
    R, [
        bash_fail("make test", "Run tests via make", "Makefile:14: *** missing separator.  Stop.\n", code=2),
        bash("sed -n '12,16p' Makefile | cat -A", "Show whitespace on the failing lines", """\
test: build$
        $(PYTHON) -m pytest -q tests$
$
lint:$
^I$(PYTHON) -m ruff check src tests$
"""),
        edit(f"{R}/Makefile", "test: build\n        $(PYTHON) -m pytest -q tests", "test: build\n\t$(PYTHON) -m pytest -q tests",
             line=13, before=[".PHONY: build test lint", ""], after=["", "lint:"]),
        bash("make test", "Run tests via make", """\
python3 -m pip install -q -e .
python3 -m pytest -q tests
..........................                                               [100%]
26 passed in 1.42s
"""),
    ],
    learning("missing separator", "tab"))

R = f"{HOME}/src/infra/envs/staging"
pos("terraform-force-unlock",
    "a killed CI apply left the DynamoDB state lock; force-unlock with the lock ID after checking nobody is running",
    R, [
        bash_fail("terraform plan -out=tfplan", "Plan staging changes", """\
Acquiring state lock. This may take a few moments...
╷
│ Error: Error acquiring the state lock
│ 
│ Error message: ConditionalCheckFailedException: The conditional request failed
│ Lock Info:
│   ID:        6b1f2c3e-9a4d-4e8b-b7c5-0d2e1f3a4b5c
│   Path:      acme-tf-state/staging/terraform.tfstate
│   Operation: OperationTypeApply
│   Who:       runner@gha-runner-7x2kq
│   Version:   1.8.5
│   Created:   2024-06-17 22:41:09.512334118 +0000 UTC
│   Info:      
│ 
│ 
│ Terraform acquires a state lock to protect the state from being written
│ by multiple users at the same time. Please resolve the issue above and try
│ again. For most commands, you can disable locking with the "-lock=false"
│ flag, but this is not recommended.
╵
"""),
        bash("gh run list --workflow terraform-apply.yml --limit 3", "Check whether an apply is still running", """\
STATUS  TITLE                          WORKFLOW          BRANCH  EVENT  ID           ELAPSED  AGE
X       chore: bump rds instance class terraform-apply   main    push   9534821177   41m2s    about 11 hours ago
✓       feat: add sqs dlq for ingest   terraform-apply   main    push   9528173602   3m55s    about 1 day ago
✓       fix: tighten sg egress         terraform-apply   main    push   9519934470   4m12s    about 2 days ago
"""),
        bash("terraform force-unlock -force 6b1f2c3e-9a4d-4e8b-b7c5-0d2e1f3a4b5c && terraform plan -out=tfplan",
             "Release the stale lock and plan again", """\
Terraform state has been successfully unlocked!

The state has been unlocked, and Terraform commands should now be able to
obtain a new lock on the remote state.
Acquiring state lock. This may take a few moments...
aws_db_instance.main: Refreshing state... [id=staging-main]
aws_sqs_queue.ingest_dlq: Refreshing state... [id=https://sqs.eu-west-1.amazonaws.com/123456789012/ingest-dlq]

Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  ~ update in-place

Terraform will perform the following actions:

  # aws_db_instance.main will be updated in-place
  ~ resource "aws_db_instance" "main" {
      ~ instance_class = "db.t3.medium" -> "db.t4g.medium"
        id             = "staging-main"
        # (41 unchanged attributes hidden)
    }

Plan: 0 to add, 1 to change, 0 to destroy.

Saved the plan to: tfplan
Releasing state lock. This may take a few moments...
"""),
    ],
    learning("state lock", "force-unlock"))

R = f"{HOME}/src/inventory-service"
pos("gradle-java21-major-version-65",
    "Gradle 8.4 cannot run on JDK 21 (class file 65); bumped the wrapper to 8.5",
    R, [
        bash_fail("./gradlew build", "Build and test", """\
Downloading https://services.gradle.org/distributions/gradle-8.4-bin.zip
............10%.............20%............30%.............40%.............50%............60%.............70%.............80%............90%.............100%

Welcome to Gradle 8.4!

FAILURE: Build failed with an exception.

* What went wrong:
Could not open settings generic class cache for settings file '/home/dev/src/inventory-service/settings.gradle' (/home/dev/.gradle/caches/8.4/scripts/6q0r0e2xq9k1u8v0tq5d3f9yz).
> BUG! exception in phase 'semantic analysis' in source unit '_BuildScript_' Unsupported class file major version 65

* Try:
> Run with --stacktrace option to get the stack trace.
> Run with --info or --debug option to get more log output.
> Run with --scan to get full insights.
> Get more help at https://help.gradle.org.

BUILD FAILED in 9s
"""),
        bash("java -version", "Check JDK", stderr='openjdk version "21.0.3" 2024-04-16\nOpenJDK Runtime Environment Temurin-21.0.3+9 (build 21.0.3+9)\nOpenJDK 64-Bit Server VM Temurin-21.0.3+9 (build 21.0.3+9, mixed mode, sharing)\n'),
        edit(f"{R}/gradle/wrapper/gradle-wrapper.properties",
             "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.4-bin.zip",
             "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip",
             line=3, before=["distributionBase=GRADLE_USER_HOME", "distributionPath=wrapper/dists"],
             after=["networkTimeout=10000", "validateDistributionUrl=true"]),
        bash("./gradlew build", "Build and test", """\
Downloading https://services.gradle.org/distributions/gradle-8.5-bin.zip
............10%.............20%............30%.............40%.............50%............60%.............70%.............80%............90%.............100%

Welcome to Gradle 8.5!

> Task :compileJava
> Task :processResources
> Task :classes
> Task :jar
> Task :compileTestJava
> Task :test
> Task :check
> Task :build

BUILD SUCCESSFUL in 1m 12s
7 actionable tasks: 7 executed
"""),
    ],
    learning("major version 65", "gradle-wrapper", "8.5"))

R = f"{HOME}/src/orders-svc"
pos("lombok-jdk21-jcimport",
    "Lombok < 1.18.30 crashes javac 21 with NoSuchFieldError JCImport; bumped lombok",
    R, [
        bash_fail("mvn -q -DskipTests compile", "Compile the service", """\
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project orders-svc: Fatal error compiling: java.lang.NoSuchFieldError: Class com.sun.tools.javac.tree.JCTree$JCImport does not have member field 'com.sun.tools.javac.tree.JCTree qualid' -> [Help 1]
[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] Re-run Maven using the -X switch to enable full debug logging.
[ERROR] 
[ERROR] For more information about the errors and possible solutions, please read the following articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoExecutionException
"""),
        bash("mvn -q dependency:tree -Dincludes=org.projectlombok", "Find the lombok version",
             "[INFO] com.acme:orders-svc:jar:2.3.0-SNAPSHOT\n[INFO] \\- org.projectlombok:lombok:jar:1.18.26:provided\n"),
        edit(f"{R}/pom.xml", "        <lombok.version>1.18.26</lombok.version>",
             "        <!-- 1.18.30 is the first lombok that works with javac 21 (JCImport field change) -->\n        <lombok.version>1.18.30</lombok.version>",
             line=24, before=["    <properties>", "        <java.version>21</java.version>"],
             after=["        <mapstruct.version>1.5.5.Final</mapstruct.version>"]),
        bash("mvn -q -DskipTests compile && echo compiled", "Compile the service", "compiled\n"),
    ],
    learning("lombok", "jcimport", "1.18.30"))

R = f"{HOME}/src/marketing-site"
pos("vite-case-sensitive-import",
    "import of ./components/header worked on macOS but the Linux CI filesystem is case-sensitive",
    R, [
        bash_fail("docker run --rm -v \"$PWD\":/app -w /app node:20 npm run build", "Reproduce the CI build in Linux", """\

> marketing-site@0.9.0 build
> tsc -b && vite build

vite v5.3.1 building for production...
transforming...
✓ 41 modules transformed.
x Build failed in 612ms
error during build:
Could not resolve "./components/header" from "src/App.tsx"
file: /app/src/App.tsx
    at getRollupError (file:///app/node_modules/rollup/dist/es/shared/parseAst.js:392:41)
    at error (file:///app/node_modules/rollup/dist/es/shared/parseAst.js:388:42)
    at ModuleLoader.handleInvalidResolvedId (file:///app/node_modules/rollup/dist/es/shared/node-entry.js:18853:24)
    at file:///app/node_modules/rollup/dist/es/shared/node-entry.js:18813:26
"""),
        bash("ls src/components", "List components", "Footer.tsx\nHeader.tsx\nHero.tsx\nPricingTable.tsx\n"),
        edit(f"{R}/src/App.tsx", "import Header from './components/header';", "import Header from './components/Header';",
             line=2, before=["import Footer from './components/Footer';"], after=["import Hero from './components/Hero';"]),
        bash("docker run --rm -v \"$PWD\":/app -w /app node:20 npm run build", "Reproduce the CI build in Linux", """\

> marketing-site@0.9.0 build
> tsc -b && vite build

vite v5.3.1 building for production...
transforming...
✓ 58 modules transformed.
rendering chunks...
computing gzip size...
dist/index.html                   0.62 kB │ gzip:  0.38 kB
dist/assets/index-BxE1u7Qm.css   11.94 kB │ gzip:  3.02 kB
dist/assets/index-C4f0a9Zp.js   152.37 kB │ gzip: 49.18 kB
✓ built in 1.37s
"""),
    ],
    learning("case-sensitive", "header.tsx", "could not resolve"))

R = f"{HOME}/src/forecast"
pos("uv-requires-python-scipy",
    "uv resolves for every Python in requires-python; scipy 1.14 needs >=3.10 so the floor was raised",
    R, [
        bash_fail("uv sync", "Sync the environment", """\
Using Python 3.11.9 interpreter at: /usr/bin/python3.11
  × No solution found when resolving dependencies for split (python_full_version == '3.9.*'):
  ╰─▶ Because the requested Python version (>=3.9) does not satisfy Python>=3.10 and scipy>=1.14.0 depends on Python>=3.10, we can conclude that scipy>=1.14.0 cannot be used.
      And because your project depends on scipy>=1.14.0, we can conclude that your project's requirements are unsatisfiable.

      hint: The `requires-python` value (>=3.9) includes Python versions that are not supported by your dependencies (e.g., scipy>=1.14.0 only supports >=3.10). Consider using a more restrictive `requires-python` value (like >=3.10).
"""),
        edit(f"{R}/pyproject.toml", 'requires-python = ">=3.9"', 'requires-python = ">=3.10"', line=5,
             before=["[project]", 'name = "forecast"', 'version = "0.6.0"', 'description = "Demand forecasting jobs"'],
             after=["dependencies = [", '    "numpy>=1.26",', '    "pandas>=2.2",', '    "scipy>=1.14.0",']),
        bash("uv sync", "Sync the environment", stderr="""\
Using Python 3.11.9 interpreter at: /usr/bin/python3.11
Resolved 24 packages in 611ms
Prepared 6 packages in 2.41s
Installed 22 packages in 71ms
 + forecast==0.6.0 (from file:///home/dev/src/forecast)
 + numpy==2.0.0
 + pandas==2.2.2
 + python-dateutil==2.9.0.post0
 + pytz==2024.1
 + scipy==1.14.0
 + six==1.16.0
 + statsmodels==0.14.2
 + tzdata==2024.1
"""),
    ],
    learning("requires-python", "scipy", "unsatisfiable"))

R = f"{HOME}/src/etl"
pos("python-m-src-layout",
    "running a module file by path breaks package imports; run it with python -m from src",
    R, [
        bash_fail("python src/ingest/cli.py --since 2024-06-01", "Run the ingest CLI", """\
Traceback (most recent call last):
  File "/home/dev/src/etl/src/ingest/cli.py", line 5, in <module>
    from ingest.sources import s3_source, sftp_source
ModuleNotFoundError: No module named 'ingest'
"""),
        bash("cd src && python -m ingest.cli --since 2024-06-01 --dry-run", "Run the CLI as a module", """\
[ingest] dry run: since=2024-06-01 sources=['s3://acme-raw/orders', 'sftp://partner.example.com/out']
[ingest] s3://acme-raw/orders: 312 objects, 1.9 GiB
[ingest] sftp://partner.example.com/out: 14 files, 88.2 MiB
[ingest] nothing written (dry run)
"""),
        edit(f"{R}/README.md", "python src/ingest/cli.py --since YYYY-MM-DD",
             "cd src && python -m ingest.cli --since YYYY-MM-DD\n```\n\nRun it as a module: `python src/ingest/cli.py` puts `src/ingest/` on sys.path instead of `src/`, so `import ingest` fails with ModuleNotFoundError.\n\n```bash",
             line=22, before=["## Running an ingest", "", "```bash"], after=["```"]),
    ],
    learning("python -m", "modulenotfounderror", "sys.path"))

R = f"{HOME}/src/notify-hub"
pos("pytest-asyncio-different-loop",
    "session-scoped async engine fixture ran on another event loop; set loop_scope=session",
    R, [
        bash_fail("pytest tests/integration -x -q", "Run integration tests", """\
.E
==================================== ERRORS ====================================
_______________ ERROR at setup of test_send_digest_marks_read _________________

db_engine = <sqlalchemy.ext.asyncio.engine.AsyncEngine object at 0x7f3a1c2e5d90>

    @pytest_asyncio.fixture
    async def session(db_engine):
>       async with db_engine.begin() as conn:

tests/integration/conftest.py:31: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
.venv/lib/python3.12/site-packages/sqlalchemy/ext/asyncio/engine.py:1066: in begin
    conn = self.connect()
.venv/lib/python3.12/site-packages/asyncpg/connection.py:2329: in connect
    return await connect_utils._connect(
.venv/lib/python3.12/site-packages/asyncpg/pool.py:846: in _acquire
    return await _acquire_impl()
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

>   ???
E   RuntimeError: Task <Task pending name='Task-7' coro=<_wrap_asyncgen_fixture.<locals>._asyncgen_fixture_wrapper.<locals>.setup() running at /home/dev/src/notify-hub/.venv/lib/python3.12/site-packages/pytest_asyncio/plugin.py:280> cb=[_run_until_complete_cb() at /usr/lib/python3.12/asyncio/base_events.py:182]> got Future <Future pending cb=[Protocol._on_waiter_completed()]> attached to a different loop

asyncpg/protocol/protocol.pyx:167: RuntimeError
=========================== short test summary info ============================
ERROR tests/integration/test_digest.py::test_send_digest_marks_read - RuntimeError: Task <Task pending name='Task-7' coro=<_wrap_asyncgen_fixture.<l...
!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!
1 passed, 1 error in 0.88s
"""),
        edit(f"{R}/pyproject.toml", '[tool.pytest.ini_options]\nasyncio_mode = "auto"',
             '[tool.pytest.ini_options]\nasyncio_mode = "auto"\n# the engine fixture is session-scoped, so its loop must be too (pytest-asyncio >= 0.24)\nasyncio_default_fixture_loop_scope = "session"',
             line=41),
        edit(f"{R}/tests/integration/conftest.py", '@pytest_asyncio.fixture(scope="session")\nasync def db_engine():',
             '@pytest_asyncio.fixture(scope="session", loop_scope="session")\nasync def db_engine():', line=18),
        bash("pytest tests/integration -q", "Run integration tests", """\
..........                                                               [100%]
10 passed in 2.31s
"""),
    ],
    learning("different loop", "loop_scope", "pytest-asyncio"))

R = f"{HOME}/src/billing"
pos("utcnow-deprecation-own-code",
    "DeprecationWarning raised from project code (src/billing/...) and it names the replacement",
    R, [
        bash("pytest -q", "Run the test suite", """\
........................................................................ [ 54%]
............................................................             [100%]
=============================== warnings summary ===============================
tests/test_invoice.py::test_issue_sets_due_date
tests/test_invoice.py::test_overdue_after_30_days
tests/test_invoice.py::test_reminder_schedule
  /home/dev/src/billing/src/billing/invoice.py:42: DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent datetimes in UTC: datetime.datetime.now(datetime.UTC).
    issued_at = datetime.utcnow()

tests/test_dunning.py::test_second_notice
  /home/dev/src/billing/src/billing/dunning.py:88: DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent datetimes in UTC: datetime.datetime.now(datetime.UTC).
    if datetime.utcnow() - invoice.issued_at > self.grace:

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
132 passed, 4 warnings in 3.07s
"""),
    ],
    learning("utcnow", "datetime.utc"))

R = f"{HOME}/src/analytics-reports"
pos("pandas-applymap-futurewarning-fixed",
    "project script used DataFrame.applymap (deprecated in pandas 2.1); switched to DataFrame.map",
    R, [
        bash("python scripts/weekly_report.py --week 2024-W24 --out /tmp/w24.csv", "Generate the weekly report", stdout="""\
loaded 48213 rows from warehouse.sales_daily
wrote /tmp/w24.csv (412 rows)
""", stderr="""\
/home/dev/src/analytics-reports/scripts/weekly_report.py:58: FutureWarning: DataFrame.applymap has been deprecated. Use DataFrame.map instead.
  table = pivot.applymap(lambda v: round(v, 2) if pd.notna(v) else "")
"""),
        edit(f"{R}/scripts/weekly_report.py",
             '    table = pivot.applymap(lambda v: round(v, 2) if pd.notna(v) else "")',
             '    table = pivot.map(lambda v: round(v, 2) if pd.notna(v) else "")', line=58,
             before=['    pivot = df.pivot_table(index="region", columns="sku", values="revenue", aggfunc="sum")'],
             after=['    table.to_csv(out_path)']),
        bash("python -W error::FutureWarning scripts/weekly_report.py --week 2024-W24 --out /tmp/w24.csv", "Re-run with FutureWarning as error",
             "loaded 48213 rows from warehouse.sales_daily\nwrote /tmp/w24.csv (412 rows)\n"),
    ],
    learning("applymap", "dataframe.map"))

R = f"{HOME}/src/crm-sync"
pos("sqlalchemy-movedin20-declarative-base",
    "MovedIn20Warning from the project's own models/base.py names the new import location",
    R, [
        bash("pytest -q tests/models", "Run model tests", """\
.................                                                        [100%]
=============================== warnings summary ===============================
app/models/base.py:5
  /home/dev/src/crm-sync/app/models/base.py:5: MovedIn20Warning: The ``declarative_base()`` function is now available as sqlalchemy.orm.declarative_base(). (deprecated since: 2.0) (Background on SQLAlchemy 2.0 at: https://sqlalche.me/e/b8d9)
    Base = declarative_base()

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
17 passed, 1 warning in 0.64s
"""),
    ],
    learning("declarative_base", "sqlalchemy.orm"))

R = f"{HOME}/src/storefront"
pos("react-missing-key-prop-fixed",
    "React key warning in OrderList surfaced in tests; keyed rows by order.id",
    R, [
        bash("npx jest src/components/OrderList.test.tsx", "Run OrderList tests", stderr="""\
  console.error
    Warning: Each child in a list should have a unique "key" prop.

    Check the render method of `OrderList`. See https://reactjs.org/link/warning-keys for more information.
        at tr
        at OrderList (/home/dev/src/storefront/src/components/OrderList.tsx:14:3)

      20 |       <tbody>
      21 |         {orders.map((order) => (
    > 22 |           <tr>
         |           ^
      23 |             <td>{order.number}</td>
      24 |             <td>{formatMoney(order.total)}</td>
      25 |           </tr>

      at printWarning (node_modules/react-dom/cjs/react-dom.development.js:86:30)
      at error (node_modules/react-dom/cjs/react-dom.development.js:60:7)

PASS src/components/OrderList.test.tsx
  OrderList
    ✓ renders one row per order (41 ms)
    ✓ shows the empty state (7 ms)

Test Suites: 1 passed, 1 total
Tests:       2 passed, 2 total
Snapshots:   0 total
Time:        1.604 s
"""),
        edit(f"{R}/src/components/OrderList.tsx", "          <tr>", "          <tr key={order.id}>", line=22,
             before=["      <tbody>", "        {orders.map((order) => ("], after=["            <td>{order.number}</td>"]),
        bash("npx jest src/components/OrderList.test.tsx", "Run OrderList tests", stderr="""\
PASS src/components/OrderList.test.tsx
  OrderList
    ✓ renders one row per order (38 ms)
    ✓ shows the empty state (6 ms)

Test Suites: 1 passed, 1 total
Tests:       2 passed, 2 total
Snapshots:   0 total
Time:        1.511 s
"""),
    ],
    learning("orderlist", "\"key\" prop"))

R = f"{HOME}/src/kvstore"
pos("go-vet-copylocks-pointer-receiver",
    "value receiver copied a struct holding sync.Mutex; go vet copylocks; switched to pointer receiver",
    R, [
        bash_fail("go vet ./...", "Vet the module", """\
# github.com/acme/kvstore/internal/store
internal/store/store.go:41:9: Snapshot passes lock by value: github.com/acme/kvstore/internal/store.Store contains sync.Mutex
internal/store/store.go:44:9: return copies lock value: github.com/acme/kvstore/internal/store.Store contains sync.Mutex
"""),
        edit(f"{R}/internal/store/store.go", "func (s Store) Snapshot() Store {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn s",
             "func (s *Store) Snapshot() map[string][]byte {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\tout := make(map[string][]byte, len(s.data))\n\tfor k, v := range s.data {\n\t\tout[k] = append([]byte(nil), v...)\n\t}\n\treturn out",
             line=41),
        bash("go vet ./... && go test ./...", "Vet and test", """\
ok  	github.com/acme/kvstore/internal/store	0.012s
ok  	github.com/acme/kvstore/internal/wal	0.088s
?   	github.com/acme/kvstore/cmd/kvd	[no test files]
"""),
    ],
    learning("copylocks", "passes lock by value", "sync.mutex"))

R = f"{HOME}/src/ledger-api"
pos("compose-depends-on-healthcheck",
    "depends_on only waits for the db container to start, not to accept connections; added healthcheck + service_healthy",
    R, [
        bash("docker compose up -d && sleep 3 && docker compose logs api --tail 20", "Start the stack and check API logs", stdout="""\
api-1  | INFO:     Started server process [1]
api-1  | INFO:     Waiting for application startup.
api-1  | ERROR:    Traceback (most recent call last):
api-1  |   File "/usr/local/lib/python3.11/site-packages/starlette/routing.py", line 732, in lifespan
api-1  |     async with self.lifespan_context(app) as maybe_state:
api-1  |   File "/app/app/main.py", line 19, in lifespan
api-1  |     await db.run_sync(Base.metadata.create_all)
api-1  | sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "db" (172.20.0.2), port 5432 failed: Connection refused
api-1  | 	Is the server running on that host and accepting TCP/IP connections?
api-1  | 
api-1  | (Background on this error at: https://sqlalche.me/e/20/e3q8)
api-1  | ERROR:    Application startup failed. Exiting.
""", stderr="""\
[+] Running 3/3
 ✔ Network ledger-api_default  Created                                     0.1s
 ✔ Container ledger-api-db-1   Started                                     0.4s
 ✔ Container ledger-api-api-1  Started                                     0.6s
"""),
        edit(f"{R}/docker-compose.yml",
             """  db:
    image: postgres:16
    environment:
      POSTGRES_PASSWORD: postgres
      POSTGRES_DB: ledger""",
             """  db:
    image: postgres:16
    environment:
      POSTGRES_PASSWORD: postgres
      POSTGRES_DB: ledger
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U postgres -d ledger"]
      interval: 2s
      timeout: 3s
      retries: 15""", line=3),
        edit(f"{R}/docker-compose.yml", "    depends_on:\n      - db",
             "    depends_on:\n      db:\n        condition: service_healthy", line=24),
        bash("docker compose up -d && docker compose ps", "Restart the stack", stdout="""\
NAME               IMAGE            COMMAND                  SERVICE   CREATED          STATUS                    PORTS
ledger-api-api-1   ledger-api:dev   "uvicorn app.main:ap…"   api       6 seconds ago    Up Less than a second     0.0.0.0:8000->8000/tcp
ledger-api-db-1    postgres:16      "docker-entrypoint.s…"   db        6 seconds ago    Up 5 seconds (healthy)    5432/tcp
""", stderr="""\
[+] Running 2/2
 ✔ Container ledger-api-db-1   Healthy                                     4.8s
 ✔ Container ledger-api-api-1  Started                                     5.0s
"""),
    ],
    learning("service_healthy", "healthcheck", "depends_on"))

R = f"{HOME}/src/cms-sync"
pos("node-fetch-err-require-esm",
    "node-fetch 3 is ESM-only and breaks require(); Node 20 has a global fetch so the dependency was dropped",
    R, [
        bash_fail("node scripts/sync-contentful.js --dry-run", "Run the sync script", """\
/home/dev/src/cms-sync/scripts/sync-contentful.js:3
const fetch = require('node-fetch');
              ^

Error [ERR_REQUIRE_ESM]: require() of ES Module /home/dev/src/cms-sync/node_modules/node-fetch/src/index.js from /home/dev/src/cms-sync/scripts/sync-contentful.js not supported.
Instead change the require of index.js in /home/dev/src/cms-sync/scripts/sync-contentful.js to a dynamic import() which is available in all CommonJS modules.
    at Object.<anonymous> (/home/dev/src/cms-sync/scripts/sync-contentful.js:3:15) {
  code: 'ERR_REQUIRE_ESM'
}

Node.js v20.14.0
"""),
        edit(f"{R}/scripts/sync-contentful.js", "const fetch = require('node-fetch');\n", "// Node >= 18 ships fetch globally; node-fetch@3 is ESM-only and can't be require()d.\n",
             line=3, before=["'use strict';", ""], after=["const { loadEntries } = require('./lib/entries');"]),
        bash("node scripts/sync-contentful.js --dry-run", "Run the sync script", """\
[sync] space=acme-marketing env=master
[sync] fetched 214 entries (3 pages)
[sync] 12 changed since 2024-06-14T08:00:00Z
[sync] dry run, nothing written
"""),
    ],
    learning("err_require_esm", "node-fetch"))

R = f"{HOME}/src/vendor-feeds"
pos("requests-ca-bundle-corp-proxy",
    "corporate TLS-inspecting proxy; requests uses certifi, not the system store, until REQUESTS_CA_BUNDLE is set",
    R, [
        bash_fail("python -m feeds.pull --vendor northwind", "Pull the vendor feed", """\
Traceback (most recent call last):
  File "/home/dev/src/vendor-feeds/.venv/lib/python3.11/site-packages/urllib3/connectionpool.py", line 467, in _make_request
    self._validate_conn(conn)
  File "/home/dev/src/vendor-feeds/.venv/lib/python3.11/site-packages/urllib3/connectionpool.py", line 1099, in _validate_conn
    conn.connect()
  File "/home/dev/src/vendor-feeds/.venv/lib/python3.11/site-packages/urllib3/connection.py", line 653, in connect
    sock_and_verified = _ssl_wrap_socket_and_match_hostname(
  File "/usr/lib/python3.11/ssl.py", line 1346, in do_handshake
    self._sslobj.do_handshake()
ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/home/dev/src/vendor-feeds/src/feeds/pull.py", line 61, in main
    resp = session.get(url, timeout=30)
  File "/home/dev/src/vendor-feeds/.venv/lib/python3.11/site-packages/requests/adapters.py", line 620, in send
    raise SSLError(e, request=request)
requests.exceptions.SSLError: HTTPSConnectionPool(host='feeds.northwind.example', port=443): Max retries exceeded with url: /v2/catalog.json (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)')))
"""),
        bash("curl -sSI https://feeds.northwind.example/v2/catalog.json | head -3; openssl s_client -connect feeds.northwind.example:443 -showcerts </dev/null 2>/dev/null | grep -m2 'i:'",
             "Check who issues the certificate", """\
HTTP/1.1 200 OK
Content-Type: application/json
Content-Length: 2284193
 0 s:CN = feeds.northwind.example
   i:C = US, O = Acme Corp, CN = Acme Corp TLS Inspection CA
"""),
        bash("REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt python -m feeds.pull --vendor northwind", "Retry with the system CA bundle", """\
northwind: GET /v2/catalog.json -> 200 (2.2 MB)
northwind: 8714 items, 133 new, 29 price changes
northwind: written to data/northwind/2024-06-18.parquet
"""),
    ],
    learning("certificate_verify_failed", "requests_ca_bundle"))

R = f"{HOME}/src/pricing"
pos("pytest-import-file-mismatch-init",
    "two tests/*/test_utils.py with no __init__.py collide in rootdir-based module names",
    R, [
        bash_fail("pytest -q", "Run the whole suite", """\

==================================== ERRORS ====================================
_________________ ERROR collecting tests/api/test_utils.py _____________________
import file mismatch:
imported module 'test_utils' has this __file__ attribute:
  /home/dev/src/pricing/tests/engine/test_utils.py
which is not the same as the test file we want to collect:
  /home/dev/src/pricing/tests/api/test_utils.py
HINT: remove __pycache__ / .pyc files and/or use a unique basename for your test file modules
=========================== short test summary info ============================
ERROR tests/api/test_utils.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
1 error in 0.71s
""", code=2),
        bash("find tests -name __init__.py; find tests -name 'test_utils.py'", "Look for package markers",
             "tests/api/test_utils.py\ntests/engine/test_utils.py\n"),
        write(f"{R}/tests/api/__init__.py", ""),
        write(f"{R}/tests/engine/__init__.py", ""),
        write(f"{R}/tests/__init__.py", ""),
        bash("pytest -q", "Run the whole suite", """\
........................................................................ [ 61%]
.............................................                            [100%]
117 passed in 2.88s
"""),
    ],
    learning("import file mismatch", "__init__.py", "test_utils"))

R = f"{HOME}/src/dashboard"
pos("eslint9-flat-config-migration",
    "ESLint 9 ignores .eslintrc.*; needs eslint.config.js (flat config)",
    R, [
        bash_fail("npx eslint src", "Lint the sources", """\

Oops! Something went wrong! :(

ESLint: 9.5.0

ESLint couldn't find an eslint.config.(js|mjs|cjs) file.

From ESLint v9.0.0, the default configuration file is now eslint.config.js.
If you are using a .eslintrc.* file, please follow the migration guide
to update your configuration file to the new format:

https://eslint.org/docs/latest/use/configure/migration-guide

If you still have problems after following the migration guide, please stop by
https://eslint.org/chat/help to chat with the team.

""", code=2),
        bash("cat .eslintrc.json", "Show the old config", """\
{
  "root": true,
  "parser": "@typescript-eslint/parser",
  "plugins": ["@typescript-eslint", "react-hooks"],
  "extends": ["eslint:recommended", "plugin:@typescript-eslint/recommended"],
  "rules": {
    "react-hooks/rules-of-hooks": "error",
    "react-hooks/exhaustive-deps": "warn"
  }
}
"""),
        write(f"{R}/eslint.config.js", """\
// Flat config (ESLint >= 9 no longer reads .eslintrc.*).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
"""),
        bash("rm .eslintrc.json && npx eslint src && echo 'lint ok'", "Remove the legacy config and lint", "lint ok\n"),
    ],
    learning("eslint.config.js", "flat config", "eslintrc"))

R = f"{HOME}/src/ledger-api"
pos("psql-sequence-setval-after-copy",
    "bulk COPY with explicit ids leaves users_id_seq behind; setval to max(id)",
    R, [
        bash_fail("""psql "$DATABASE_URL" -c "INSERT INTO users (email, name) VALUES ('qa+1@acme.dev', 'QA One') RETURNING id;\"""",
                  "Insert a test user", """\
ERROR:  duplicate key value violates unique constraint "users_pkey"
DETAIL:  Key (id)=(1) already exists.
"""),
        bash("""psql "$DATABASE_URL" -Atc "SELECT last_value FROM users_id_seq; SELECT max(id) FROM users;\"""",
             "Compare the sequence with the table", "1\n18342\n"),
        bash("""psql "$DATABASE_URL" -c "SELECT setval('users_id_seq', (SELECT max(id) FROM users));" -c "INSERT INTO users (email, name) VALUES ('qa+1@acme.dev', 'QA One') RETURNING id;\"""",
             "Advance the sequence and retry", """\
 setval 
--------
  18342
(1 row)

  id   
-------
 18343
(1 row)

INSERT 0 1
"""),
        edit(f"{R}/scripts/import_legacy_users.sh",
             'psql "$DATABASE_URL" -c "\\copy users (id, email, name, created_at) FROM \'$CSV\' CSV HEADER"',
             'psql "$DATABASE_URL" -c "\\copy users (id, email, name, created_at) FROM \'$CSV\' CSV HEADER"\n# COPY with explicit ids does not advance users_id_seq; without this the next INSERT hits users_pkey.\npsql "$DATABASE_URL" -c "SELECT setval(\'users_id_seq\', (SELECT max(id) FROM users))"',
             line=12),
    ],
    learning("setval", "users_id_seq", "users_pkey"))

R = f"{HOME}/src/infra/k8s"
pos("k8s-imagepullbackoff-pull-secret",
    "private registry pull failed with 401 until the namespace's deployment referenced imagePullSecrets",
    R, [
        bash("kubectl -n payments get pods", "List payment pods", """\
NAME                              READY   STATUS             RESTARTS   AGE
payments-api-6c9b7f5d8-h2x7v      0/1     ImagePullBackOff   0          2m10s
payments-api-6c9b7f5d8-r4k9m      0/1     ImagePullBackOff   0          2m10s
"""),
        bash("kubectl -n payments describe pod payments-api-6c9b7f5d8-h2x7v | tail -8", "See pull events", """\
Events:
  Type     Reason     Age                From               Message
  ----     ------     ----               ----               -------
  Normal   Scheduled  2m12s              default-scheduler  Successfully assigned payments/payments-api-6c9b7f5d8-h2x7v to node-pool-b-3
  Normal   Pulling    45s (x4 over 2m)   kubelet            Pulling image "ghcr.io/acme/payments-api:2.14.0"
  Warning  Failed     44s (x4 over 2m)   kubelet            Failed to pull image "ghcr.io/acme/payments-api:2.14.0": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://ghcr.io/token?scope=repository%3Aacme%2Fpayments-api%3Apull&service=ghcr.io: 401 Unauthorized
  Warning  Failed     44s (x4 over 2m)   kubelet            Error: ErrImagePull
  Normal   BackOff    6s (x7 over 2m)    kubelet            Back-off pulling image "ghcr.io/acme/payments-api:2.14.0"
"""),
        bash("kubectl -n payments get secret ghcr-pull -o jsonpath='{.type}'", "Check the pull secret exists", "kubernetes.io/dockerconfigjson"),
        edit(f"{R}/payments/deployment.yaml", "    spec:\n      containers:",
             "    spec:\n      # ghcr.io/acme is private: without this the kubelet pulls anonymously and gets 401\n      imagePullSecrets:\n        - name: ghcr-pull\n      containers:", line=17),
        bash("kubectl apply -f payments/deployment.yaml && kubectl -n payments rollout status deploy/payments-api", "Apply and wait", """\
deployment.apps/payments-api configured
Waiting for deployment "payments-api" rollout to finish: 0 of 2 updated replicas are available...
Waiting for deployment "payments-api" rollout to finish: 1 of 2 updated replicas are available...
deployment "payments-api" successfully rolled out
"""),
    ],
    learning("imagepullbackoff", "imagepullsecrets", "ghcr-pull"))

R = f"{HOME}/src/slugger-kt"
pos("kotlin-touppercase-deprecated-own-code",
    "Kotlin compiler deprecation in the project's own source, names the replacement uppercase()",
    R, [
        bash("./gradlew compileKotlin", "Compile Kotlin sources", """\
> Task :checkKotlinGradlePluginConfigurationErrors
> Task :compileKotlin
w: file:///home/dev/src/slugger-kt/src/main/kotlin/com/acme/slug/Slug.kt:12:25 'toUpperCase(): String' is deprecated. Use uppercase() instead.
w: file:///home/dev/src/slugger-kt/src/main/kotlin/com/acme/slug/Slug.kt:19:31 'toLowerCase(): String' is deprecated. Use lowercase() instead.

BUILD SUCCESSFUL in 6s
1 actionable task: 1 executed

Deprecated Gradle features were used in this build, making it incompatible with Gradle 9.0.

You can use '--warning-mode all' to show the individual deprecation warnings and determine if they come from your own scripts or plugins.

For more on this, please refer to https://docs.gradle.org/8.8/userguide/command_line_interface.html#sec:command_line_warnings in the Gradle documentation.
"""),
    ],
    learning("touppercase", "uppercase()", "tolowercase"))

R = f"{HOME}/src/feedsync"
pos("tokio-rt-multi-thread-feature",
    "#[tokio::main] defaults to the multi-thread runtime, which needs the rt-multi-thread feature",
    R, [
        bash_fail("cargo run -- --once", "Run one sync pass", """\
   Compiling feedsync v0.3.1 (/home/dev/src/feedsync)
error: The default runtime flavor is `multi_thread`, but the `rt-multi-thread` feature is disabled.
  --> src/main.rs:14:1
   |
14 | #[tokio::main]
   | ^^^^^^^^^^^^^^
   |
   = note: this error originates in the attribute macro `tokio::main` (in Nightly builds, run with -Z macro-backtrace for more info)

error: could not compile `feedsync` (bin "feedsync") due to 1 previous error
""", code=101),
        edit(f"{R}/Cargo.toml", 'tokio = { version = "1", features = ["macros", "rt"] }',
             'tokio = { version = "1", features = ["macros", "rt-multi-thread", "time"] }', line=15),
        bash("cargo run -- --once", "Run one sync pass", stdout="""\
2024-06-18T10:02:11.402Z INFO feedsync: fetching 6 feeds
2024-06-18T10:02:12.977Z INFO feedsync: 41 new items, 0 errors
""", stderr="""\
   Compiling tokio v1.38.0
   Compiling feedsync v0.3.1 (/home/dev/src/feedsync)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 7.12s
     Running `target/debug/feedsync --once`
"""),
    ],
    learning("rt-multi-thread", "tokio"))

R = f"{HOME}/src/ledger-api"
pos("dockerignore-excludes-requirements",
    "a broad *.txt rule in .dockerignore kept requirements.txt out of the build context",
    R, [
        bash_fail("docker build -t ledger-api:dev .", "Build the API image", """\
#0 building with "default" instance using docker driver

#1 [internal] load build definition from Dockerfile
#1 transferring dockerfile: 742B done
#1 DONE 0.0s

#2 [internal] load .dockerignore
#2 transferring context: 131B done
#2 DONE 0.0s

#3 [internal] load build context
#3 transferring context: 15.77kB done
#3 DONE 0.0s

#4 [4/6] COPY requirements.txt .
#4 ERROR: failed to calculate checksum of ref 2c1f8a57-9d3e-4b7a-a1c2-5e6f7a8b9c0d::q1w2e3r4t5y6u7i8o9p0: "/requirements.txt": not found
------
 > [4/6] COPY requirements.txt .:
------
Dockerfile:10
--------------------
   8 |     WORKDIR /app
   9 |     
  10 | >>> COPY requirements.txt .
  11 |     RUN pip install --no-cache-dir -r requirements.txt
  12 |     
--------------------
ERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref 2c1f8a57-9d3e-4b7a-a1c2-5e6f7a8b9c0d::q1w2e3r4t5y6u7i8o9p0: "/requirements.txt": not found
"""),
        bash("cat .dockerignore", "Show the ignore file", ".git\n.venv\n__pycache__\n*.log\n*.txt\ntests/fixtures/large\n"),
        edit(f"{R}/.dockerignore", "*.txt", "*.txt\n!requirements.txt", line=5),
        bash("docker build -q -t ledger-api:dev .", "Build the API image", "sha256:0e7c2b9f4a1d3c5e7f9b1d3a5c7e9f1b3d5a7c9e1f3b5d7a9c1e3f5b7d9a1c3e\n"),
    ],
    learning(".dockerignore", "build context", "requirements.txt"))

R = f"{HOME}/src/orders-svc"
pos("pg-unique-index-duplicates-dedupe",
    "adding a unique constraint failed on existing duplicate external_id rows; migration now dedupes first",
    R, [
        bash_fail("./gradlew flywayMigrate -Dflyway.configFiles=conf/flyway-dev.conf", "Apply the new migration", """\
> Task :flywayMigrate FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':flywayMigrate'.
> Error occurred while executing flywayMigrate
  Migration V42__unique_external_id.sql failed
  --------------------------------------------
  SQL State  : 23505
  Error Code : 0
  Message    : ERROR: could not create unique index "orders_external_id_key"
    Detail: Key (external_id)=(SHP-2023-118204) is duplicated.
  Location   : db/migration/V42__unique_external_id.sql (/home/dev/src/orders-svc/src/main/resources/db/migration/V42__unique_external_id.sql)
  Line       : 1
  Statement  : ALTER TABLE orders ADD CONSTRAINT orders_external_id_key UNIQUE (external_id)

BUILD FAILED in 4s
"""),
        bash("""psql "$DEV_DB" -c "SELECT external_id, count(*) FROM orders GROUP BY 1 HAVING count(*) > 1 ORDER BY 2 DESC LIMIT 5;\"""",
             "Find duplicated external ids", """\
   external_id   | count 
-----------------+-------
 SHP-2023-118204 |     3
 SHP-2023-097311 |     2
 SHP-2023-101870 |     2
(3 rows)

"""),
        write(f"{R}/src/main/resources/db/migration/V42__unique_external_id.sql", """\
-- Legacy importer (pre-2024) re-inserted shipments on retry, leaving duplicate
-- external_id rows. Keep the newest row per external_id before adding the constraint,
-- otherwise CREATE UNIQUE INDEX fails with 23505 on prod too.
DELETE FROM orders o
USING orders newer
WHERE o.external_id = newer.external_id
  AND o.external_id IS NOT NULL
  AND o.id < newer.id;

ALTER TABLE orders ADD CONSTRAINT orders_external_id_key UNIQUE (external_id);
""", kind="update"),
        bash("./gradlew flywayMigrate -Dflyway.configFiles=conf/flyway-dev.conf", "Apply the new migration", """\
> Task :flywayMigrate
Successfully validated 42 migrations (execution time 00:00.041s)
Current version of schema "public": 41
Migrating schema "public" to version "42 - unique external id"
Successfully applied 1 migration to schema "public", now at version v42 (execution time 00:00.318s)

BUILD SUCCESSFUL in 3s
1 actionable task: 1 executed
"""),
    ],
    learning("orders_external_id_key", "duplicated", "external_id"))

R = f"{HOME}/src/orders-svc"
pos("spring-webmvctest-mockbean",
    "@WebMvcTest slices only load web beans; the controller's PaymentClient dependency needs @MockBean",
    R, [
        bash_fail("./gradlew test --tests '*OrderControllerTest'", "Run controller tests", """\
> Task :compileJava UP-TO-DATE
> Task :compileTestJava
> Task :test FAILED

OrderControllerTest > initializationError FAILED
    java.lang.IllegalStateException at DefaultCacheAwareContextLoaderDelegate.java:180
        Caused by: org.springframework.beans.factory.UnsatisfiedDependencyException at ConstructorResolver.java:795
            Caused by: org.springframework.beans.factory.NoSuchBeanDefinitionException at DefaultListableBeanFactory.java:1880

***************************
APPLICATION FAILED TO START
***************************

Description:

Parameter 1 of constructor in com.acme.orders.web.OrderController required a bean of type 'com.acme.orders.payments.PaymentClient' that could not be found.


Action:

Consider defining a bean of type 'com.acme.orders.payments.PaymentClient' in your configuration.

3 tests completed, 3 failed

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':test'.
> There were failing tests. See the report at: file:///home/dev/src/orders-svc/build/reports/tests/test/index.html

BUILD FAILED in 11s
"""),
        edit(f"{R}/src/test/java/com/acme/orders/web/OrderControllerTest.java",
             "    @MockBean\n    private OrderService orderService;",
             "    @MockBean\n    private OrderService orderService;\n\n    // @WebMvcTest does not scan @Component clients; every controller dependency must be mocked\n    @MockBean\n    private PaymentClient paymentClient;",
             line=27, before=["@WebMvcTest(OrderController.class)", "class OrderControllerTest {", "", "    @Autowired", "    private MockMvc mvc;", ""]),
        bash("./gradlew test --tests '*OrderControllerTest'", "Run controller tests", """\
> Task :compileJava UP-TO-DATE
> Task :compileTestJava
> Task :test

BUILD SUCCESSFUL in 9s
4 actionable tasks: 2 executed, 2 up-to-date
"""),
    ],
    learning("webmvctest", "paymentclient", "mockbean"))

R = f"{HOME}/src/docgen"
pos("pytest-scopemismatch-tmp-path-factory",
    "session-scoped fixture cannot use function-scoped tmp_path; use tmp_path_factory",
    R, [
        bash_fail("pytest -q tests/test_render.py", "Run render tests", """\
EEEE                                                                     [100%]
==================================== ERRORS ====================================
_________________ ERROR at setup of test_renders_index_page __________________
ScopeMismatch: You tried to access the function scoped fixture tmp_path with a session scoped request object. Requesting fixture stack:
tests/conftest.py:14:  def built_site(tmp_path)
Requested fixture:
.venv/lib/python3.12/site-packages/_pytest/tmpdir.py:256:  def tmp_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Generator[pathlib.Path, None, None]
_________________ ERROR at setup of test_renders_api_reference _______________
ScopeMismatch: You tried to access the function scoped fixture tmp_path with a session scoped request object. Requesting fixture stack:
tests/conftest.py:14:  def built_site(tmp_path)
Requested fixture:
.venv/lib/python3.12/site-packages/_pytest/tmpdir.py:256:  def tmp_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Generator[pathlib.Path, None, None]
=========================== short test summary info ============================
ERROR tests/test_render.py::test_renders_index_page - Failed: ScopeMismatch: You tried to access the function scoped fixture tmp_path with a sessio...
ERROR tests/test_render.py::test_renders_api_reference - Failed: ScopeMismatch: You tried to access the function scoped fixture tmp_path with a sessio...
ERROR tests/test_render.py::test_copies_static_assets - Failed: ScopeMismatch: You tried to access the function scoped fixture tmp_path with a sessio...
ERROR tests/test_render.py::test_sitemap_lists_pages - Failed: ScopeMismatch: You tried to access the function scoped fixture tmp_path with a sessio...
4 errors in 0.19s
"""),
        edit(f"{R}/tests/conftest.py", '@pytest.fixture(scope="session")\ndef built_site(tmp_path):\n    out = tmp_path / "site"',
             '@pytest.fixture(scope="session")\ndef built_site(tmp_path_factory):\n    # tmp_path is function-scoped; session fixtures must use the factory\n    out = tmp_path_factory.mktemp("site")', line=13),
        bash("pytest -q tests/test_render.py", "Run render tests", "....                                                                     [100%]\n4 passed in 1.96s\n"),
    ],
    learning("scopemismatch", "tmp_path_factory"))

R = f"{HOME}/src/accounts-api"
pos("jest-open-handles-pg-pool",
    "jest hung / force-exited because the pg Pool was never closed; afterAll(pool.end)",
    R, [
        bash("npx jest tests/integration", "Run integration tests", stderr="""\
PASS tests/integration/accounts.test.ts (5.112 s)
PASS tests/integration/sessions.test.ts
A worker process has failed to exit gracefully and has been force exited... This is likely caused by tests leaking due to improper teardown. Try running with --detectOpenHandles to find leaks. Active timers can also cause this, ensure that .unref() was called on them.

Test Suites: 2 passed, 2 total
Tests:       19 passed, 19 total
Snapshots:   0 total
Time:        7.204 s
Ran all test suites matching /tests\\/integration/i.
"""),
        bash("npx jest tests/integration --detectOpenHandles --runInBand", "Find the open handle", stderr="""\
PASS tests/integration/accounts.test.ts (5.002 s)
PASS tests/integration/sessions.test.ts

Test Suites: 2 passed, 2 total
Tests:       19 passed, 19 total
Snapshots:   0 total
Time:        6.871 s
Ran all test suites matching /tests\\/integration/i.

Jest has detected the following 1 open handle potentially keeping Jest from exiting:

  ●  TCPWRAP

      12 | export function getPool(): Pool {
      13 |   if (!pool) {
    > 14 |     pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 5 });
         |            ^
      15 |   }
      16 |   return pool;
      17 | }

      at Object.getPool (src/db/pool.ts:14:12)
      at Object.<anonymous> (tests/integration/setup.ts:6:3)
"""),
        edit(f"{R}/tests/integration/setup.ts", "beforeAll(async () => {\n  await migrate(getPool());\n});",
             "beforeAll(async () => {\n  await migrate(getPool());\n});\n\n// Without this the pg Pool keeps a TCP socket open and jest force-exits the worker.\nafterAll(async () => {\n  await getPool().end();\n});", line=5),
        bash("npx jest tests/integration", "Run integration tests", stderr="""\
PASS tests/integration/accounts.test.ts (4.987 s)
PASS tests/integration/sessions.test.ts

Test Suites: 2 passed, 2 total
Tests:       19 passed, 19 total
Snapshots:   0 total
Time:        6.533 s
Ran all test suites matching /tests\\/integration/i.
"""),
    ],
    learning("detectopenhandles", "pool.end", "open handle"))

R = f"{HOME}/src/tenant-portal"
pos("git-commit-message-lru-cache-tenant",
    "the agent's commit message records the root cause (lru_cache cached the first tenant's settings)",
    R, [
        bash("""git add app/settings.py tests/test_settings.py && git commit -q -m "fix(settings): stop caching settings across tenants

The issue was that get_settings() was wrapped in functools.lru_cache with no
arguments, so the first tenant that hit a worker fixed the settings for every
later request on that worker. Cache per tenant_id instead." && git log -1 --stat""",
             "Commit the settings fix", """\
commit 7e3b9a1c5d2f4e6a8b0c1d3e5f7a9b2c4d6e8f01
Author: Dev <dev@acme.dev>
Date:   Tue Jun 18 11:24:03 2024 +0200

    fix(settings): stop caching settings across tenants
    
    The issue was that get_settings() was wrapped in functools.lru_cache with no
    arguments, so the first tenant that hit a worker fixed the settings for every
    later request on that worker. Cache per tenant_id instead.

 app/settings.py         | 11 ++++++-----
 tests/test_settings.py  | 24 ++++++++++++++++++++++++
 2 files changed, 30 insertions(+), 5 deletions(-)
"""),
    ],
    learning("lru_cache", "tenant"))

R = f"{HOME}/src/asset-pipeline"
pos("node-dep0005-buffer-own-code",
    "--trace-deprecation points the Buffer() deprecation at the project's own build script, names Buffer.from",
    R, [
        bash("node --trace-deprecation scripts/build-manifest.mjs", "Build the asset manifest", stdout="""\
manifest: 318 assets, 14.2 MiB
wrote dist/manifest.json
""", stderr="""\
(node:48213) [DEP0005] DeprecationWarning: Buffer() is deprecated due to security and usability issues. Please use the Buffer.alloc(), Buffer.allocUnsafe(), or Buffer.from() methods instead.
    at showFlaggedDeprecation (node:buffer:193:11)
    at new Buffer (node:buffer:278:3)
    at hashFile (file:///home/dev/src/asset-pipeline/scripts/build-manifest.mjs:23:17)
    at file:///home/dev/src/asset-pipeline/scripts/build-manifest.mjs:41:22
    at Array.map (<anonymous>)
"""),
        edit(f"{R}/scripts/build-manifest.mjs", "  const bytes = new Buffer(await readFile(path));",
             "  const bytes = Buffer.from(await readFile(path));", line=23),
        bash("node --throw-deprecation scripts/build-manifest.mjs", "Re-run with deprecations as errors",
             "manifest: 318 assets, 14.2 MiB\nwrote dist/manifest.json\n"),
    ],
    learning("dep0005", "buffer.from", "buffer()"))

R = f"{HOME}/src/infra/envs/prod"
pos("terraform-s3-acl-argument-deprecated",
    "AWS provider v4+ deprecation in the project's own main.tf; names aws_s3_bucket_acl as replacement",
    R, [
        bash("terraform validate", "Validate the configuration", """\
╷
│ Warning: Argument is deprecated
│ 
│   with aws_s3_bucket.assets,
│   on main.tf line 14, in resource "aws_s3_bucket" "assets":
│   14:   acl    = "private"
│ 
│ Use the aws_s3_bucket_acl resource instead
│ 
│ (and one more similar warning elsewhere)
╵
Success! The configuration is valid, but there were some validation warnings as shown above.

"""),
    ],
    learning("aws_s3_bucket_acl", "argument is deprecated"))

R = f"{HOME}/src/notify-hub"
pos("pydantic-basesettings-moved",
    "pydantic v2 moved BaseSettings to the separate pydantic-settings package",
    R, [
        bash_fail("python -c 'import app.config'", "Import the config module", """\
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/home/dev/src/notify-hub/app/config.py", line 3, in <module>
    from pydantic import BaseSettings, Field
  File "/home/dev/src/notify-hub/.venv/lib/python3.12/site-packages/pydantic/__init__.py", line 402, in __getattr__
    return _getattr_migration(attr_name)
  File "/home/dev/src/notify-hub/.venv/lib/python3.12/site-packages/pydantic/_migration.py", line 296, in wrapper
    raise PydanticImportError(
pydantic.errors.PydanticImportError: `BaseSettings` has been moved to the `pydantic-settings` package. See https://docs.pydantic.dev/2.7/migration/#basesettings-has-moved-to-pydantic-settings for more details.

For further information visit https://errors.pydantic.dev/2.7/u/import-error
"""),
        bash("uv add pydantic-settings", "Add pydantic-settings", stderr="""\
Resolved 31 packages in 402ms
Prepared 1 package in 88ms
Installed 1 package in 3ms
 + pydantic-settings==2.3.4
"""),
        edit(f"{R}/app/config.py", "from pydantic import BaseSettings, Field",
             "from pydantic import Field\nfrom pydantic_settings import BaseSettings", line=3),
        bash("python -c 'import app.config; print(app.config.settings.smtp_host)'", "Import the config module", "localhost\n"),
    ],
    learning("basesettings", "pydantic-settings"))

R = f"{HOME}/src/logtail"
pos("rust-msrv-clap-lex-toolchain",
    "pinned toolchain 1.70 was too old for clap_lex 0.7 (needs rustc 1.74); bumped rust-toolchain.toml",
    R, [
        bash_fail("cargo build", "Build", """\
    Updating crates.io index
     Locking 3 packages to latest compatible versions
      Adding clap_lex v0.7.1
error: package `clap_lex v0.7.1` cannot be built because it requires rustc 1.74 or newer, while the currently active rustc version is 1.70.0
Either upgrade to rustc 1.74 or newer, or use
cargo update clap_lex@0.7.1 --precise ver
where `ver` is the latest version of `clap_lex` supporting rustc 1.70.0
""", code=101),
        bash("cat rust-toolchain.toml", "Show pinned toolchain", '[toolchain]\nchannel = "1.70"\ncomponents = ["rustfmt", "clippy"]\n'),
        edit(f"{R}/rust-toolchain.toml", 'channel = "1.70"', 'channel = "1.78"', line=2),
        bash("cargo build", "Build", stderr="""\
info: syncing channel updates for '1.78-x86_64-unknown-linux-gnu'
info: latest update on 2024-05-02, rust version 1.78.0 (9b00956e5 2024-04-29)
info: downloading component 'cargo'
info: downloading component 'clippy'
info: downloading component 'rust-std'
info: downloading component 'rustc'
info: downloading component 'rustfmt'
info: installing component 'cargo'
info: installing component 'clippy'
info: installing component 'rust-std'
info: installing component 'rustc'
info: installing component 'rustfmt'
   Compiling clap_lex v0.7.1
   Compiling clap_builder v4.5.7
   Compiling clap v4.5.7
   Compiling logtail v0.2.0 (/home/dev/src/logtail)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 14.61s
"""),
    ],
    learning("clap_lex", "rustc 1.74", "rust-toolchain"))

R = f"{HOME}/src/ratelimit"
pos("gotoolchain-local-go-122",
    "go.mod says go 1.22 but GOTOOLCHAIN=local pins the older installed go; allowed auto download",
    R, [
        bash_fail("go test ./...", "Run Go tests", "go: go.mod requires go >= 1.22.0 (running go 1.21.6; GOTOOLCHAIN=local)\n"),
        bash("go env GOTOOLCHAIN; grep -n GOTOOLCHAIN ~/.bashrc ~/.profile 2>/dev/null", "Where is GOTOOLCHAIN set",
             "local\n/home/dev/.bashrc:31:export GOTOOLCHAIN=local\n"),
        bash("GOTOOLCHAIN=go1.22.4 go test ./...", "Run Go tests with the required toolchain", stdout="""\
ok  	github.com/acme/ratelimit/internal/bucket	0.019s
ok  	github.com/acme/ratelimit/internal/cache	0.044s
ok  	github.com/acme/ratelimit/internal/httpmw	0.031s
?   	github.com/acme/ratelimit/cmd/ratelimitd	[no test files]
""", stderr="go: downloading go1.22.4 (linux/amd64)\n"),
    ],
    learning("gotoolchain", "go 1.22", "go1.22"))

# =========================================================================
# POSITIVES: blockers visible in tool output
# =========================================================================
R = f"{HOME}/src/ml-assets"
pos("git-lfs-over-data-quota",
    "push blocked: LFS quota exhausted on the org account; nothing the agent can fix",
    R, [
        bash_fail("git push origin feat/new-segmentation-weights", "Push the branch with the new weights", """\
Uploading LFS objects:   0% (0/3), 0 B | 0 B/s, done.
batch response: This repository is over its data quota. Account responsible for LFS bandwidth should purchase more data packs to restore access.
error: failed to push some refs to 'github.com:acme/ml-assets.git'
"""),
        bash("git lfs ls-files -s | tail -3", "List LFS objects in the branch", """\
a1c9e3f07b seg/unet-r50-v3.onnx (412 MB)
4f0d2b8e1c seg/unet-r50-v3.int8.onnx (104 MB)
9e7a5c3b1d seg/labels-v3.json (3.1 KB)
"""),
    ],
    blocker("data quota", "lfs"))

R = f"{HOME}/src/ci-images"
pos("docker-hub-pull-rate-limit",
    "anonymous Docker Hub pull limit reached on the shared runner IP; blocks the image rebuild",
    R, [
        bash_fail("docker build -t ci-images/python-build:3.12 -f python/Dockerfile .", "Rebuild the CI base image", """\
#0 building with "default" instance using docker driver

#1 [internal] load build definition from Dockerfile
#1 transferring dockerfile: 1.14kB done
#1 DONE 0.0s

#2 [internal] load metadata for docker.io/library/python:3.12-bookworm
#2 ERROR: failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/python/manifests/sha256:6c2a8b1e5d4f3c9a7b0e2d1f8c6a4e3b5d7f9a1c2e4b6d8f0a3c5e7b9d1f2a4c: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit
------
 > [internal] load metadata for docker.io/library/python:3.12-bookworm:
------
Dockerfile:1
--------------------
   1 | >>> FROM python:3.12-bookworm
   2 |     
   3 |     ARG POETRY_VERSION=1.8.3
--------------------
ERROR: failed to solve: python:3.12-bookworm: failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/python/manifests/sha256:6c2a8b1e5d4f3c9a7b0e2d1f8c6a4e3b5d7f9a1c2e4b6d8f0a3c5e7b9d1f2a4c: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit
"""),
        bash_fail("docker login", "Check for Docker Hub credentials", """\
Log in with your Docker ID or email address to push and pull images from Docker Hub. If you don't have a Docker ID, head over to https://hub.docker.com/ to create one.
Error: Cannot perform an interactive login from a non TTY device
"""),
    ],
    blocker("toomanyrequests", "pull rate limit", "rate limit"))

R = f"{HOME}/src/infra/envs/staging"
pos("terraform-iam-createrole-denied",
    "the deploy user lacks iam:CreateRole; only the platform team can grant it",
    R, [
        bash_fail("terraform apply tfplan", "Apply the staging plan", """\
aws_sqs_queue.exports: Creating...
aws_iam_role.export_worker: Creating...
aws_sqs_queue.exports: Creation complete after 1s [id=https://sqs.eu-west-1.amazonaws.com/123456789012/exports]
╷
│ Error: creating IAM Role (export-worker): operation error IAM: CreateRole, https response error StatusCode: 403, RequestID: 5e0b8c2a-7f1d-4c3e-9a6b-2d4f8e1c7a90, api error AccessDenied: User: arn:aws:iam::123456789012:user/ci-deployer is not authorized to perform: iam:CreateRole on resource: arn:aws:iam::123456789012:role/export-worker because no permissions boundary allows the iam:CreateRole action
│ 
│   with aws_iam_role.export_worker,
│   on iam.tf line 1, in resource "aws_iam_role" "export_worker":
│    1: resource "aws_iam_role" "export_worker" {
│ 
╵
"""),
    ],
    blocker("iam:createrole", "ci-deployer", "accessdenied"))

# =========================================================================
# POSITIVES: subagent (Task) reports
# =========================================================================
R = f"{HOME}/src/billing"
pos("task-flaky-tz-date-today",
    "subagent found the flaky billing test: fixture used local date.today() while code uses UTC",
    R, [
        task("Investigate flaky billing test",
             "tests/test_schedule.py::test_next_billing_date fails intermittently in CI (maybe 1 in 20 runs). Find the root cause and fix it. Do not just add retries.",
             """\
Root cause found and fixed.

Turns out `test_next_billing_date` only fails when CI runs between 00:00 and ~02:00 UTC. The fixture in `tests/conftest.py` builds the expected date with `date.today()`, which uses the runner's local timezone (the self-hosted runners are set to Europe/Berlin), while `Subscription.next_billing_date()` computes from `datetime.now(timezone.utc).date()`. For the first one or two hours after midnight local time the two dates differ by one day, so the assertion is off by one.

Changes:
- `tests/conftest.py`: the `today` fixture now returns `datetime.now(timezone.utc).date()`.
- `tests/test_schedule.py`: the test is wrapped in `freezegun.freeze_time("2024-03-31 23:30:00")` plus a second case at `00:30` so the midnight boundary is exercised deterministically on every run.

Verification: ran `TZ=Europe/Berlin faketime '2024-06-18 00:40:00' pytest tests/test_schedule.py` 50 times — 50/50 pass (it failed 50/50 before the change). Full suite: 241 passed.
"""),
    ],
    learning("date.today", "europe/berlin", "freezegun"))

R = f"{HOME}/src/catalog-api"
pos("task-gunicorn-preload-redis-fork",
    "subagent: redis client created at import time was shared across gunicorn workers via preload_app",
    R, [
        task("Debug intermittent Redis protocol errors",
             "Production logs show sporadic `redis.exceptions.InvalidResponse: Protocol Error` and responses that belong to other requests. Investigate.",
             """\
The issue was that `app/cache.py` creates the Redis client at import time (`client = redis.Redis.from_url(settings.REDIS_URL)`), and `gunicorn.conf.py` sets `preload_app = True`. With preload, the app module is imported once in the master and then the workers are forked, so every worker inherited the same already-connected socket. Two workers reading from one socket interleave replies — that's both the `Protocol Error` and the "wrong response" reports.

I reproduced it locally with `gunicorn -w 4 --preload` and a 200-rps `hey` run: 37 protocol errors in 60s. After the fix: 0 errors across three runs.

Fix (in the working tree, not committed):
- `app/cache.py`: client is now created lazily per process via `get_client()`, keyed on `os.getpid()`.
- `gunicorn.conf.py`: added a `post_fork` hook that resets the cached client, as a second line of defence.

Anything that opens sockets/pools at import time has the same problem under preload_app; I grepped and `app/search.py` (Elasticsearch client) does it too — same pattern applied there.
"""),
    ],
    learning("preload_app", "fork", "redis"))

R = f"{HOME}/src/pdf-service"
pos("task-lxml-no-wheel-py313",
    "subagent: CI slowness came from building lxml from source on Python 3.13 (no wheel yet)",
    R, [
        task("Why did CI get 9 minutes slower?",
             "The test job went from ~4 min to ~13 min last week. Figure out why; check the job logs with gh.",
             """\
Summary: the extra 9 minutes are pip compiling lxml from source.

Last Tuesday's commit 4c1e9a2 changed the matrix default from 3.12 to 3.13. lxml 5.2.2 has no cp313 wheels on PyPI, so `pip install` falls back to the sdist and builds it with libxml2/libxslt headers (`Building wheel for lxml (pyproject.toml) ... done` takes 8m41s in run 9531177204). The 3.12 job still installs the wheel in 2s.

Workaround applied: pinned the test job back to Python 3.12 in `.github/workflows/ci.yml` and added a separate non-blocking 3.13 job with `continue-on-error: true` that caches the built wheel (`actions/cache` on `~/.cache/pip/wheels`). Once lxml publishes cp313 wheels we can drop the pin — there's a TODO next to it.

Local check: `act -j test` finishes in 4m05s.
"""),
    ],
    learning("lxml", "wheel", "3.13"))

R = f"{HOME}/src/storefront"
pos("task-jest-oom-maxworkers",
    "subagent: jest spawned one worker per reported CPU (64) on the shared runner and hit OOM",
    R, [
        task("Investigate CI OOM kills",
             "The frontend test job is being killed with exit code 137 on the new self-hosted runners. Find out why and fix it.",
             """\
Found it. The new self-hosted runners are containers on a 64-core host with a 6 GB memory limit, and `os.cpus().length` inside the container still reports 64. Jest defaults `maxWorkers` to cores - 1, so it started 63 workers, each with its own jsdom + ts-jest compiler (~180 MB each), and the container was OOM-killed (exit 137) about 40 s into the run. The old hosted runners had 2 cores, which is why this never showed up.

Fix: `"test:ci": "jest --ci --maxWorkers=4"` in package.json, and the workflow now calls `npm run test:ci`. I picked 4 after trying 2/4/8: 4 is fastest (3m10s) and peaks at 1.4 GB RSS.

Note for the future: anything that sizes a pool from the CPU count (webpack thread-loader, eslint --concurrency auto) will overshoot the same way on these runners.
"""),
    ],
    learning("maxworkers", "exit code 137", "os.cpus"))

R = f"{HOME}/src/shop-next"
pos("task-nextjs-fetch-data-cache",
    "subagent: stale prices came from Next.js app-router caching fetch() by default",
    R, [
        task("Find why product prices are stale",
             "After a price change in the admin, the product page keeps showing the old price for hours, even after a hard reload. Find the cause.",
             """\
Turns out this is the Next.js 14 Data Cache, not the CDN. In the app router, `fetch()` calls made in server components are cached indefinitely by default, and `app/products/[slug]/page.tsx` fetches the price with a bare `fetch(`${API}/products/${slug}`)`. The CDN headers were fine (`cache-control: private, no-cache, no-store`); the HTML was being rebuilt but from the cached fetch result.

Fixed by passing `{ next: { revalidate: 60 } }` to the product fetch and `{ cache: 'no-store' }` to the stock-level fetch (that one must always be live). Also added `revalidateTag('product:' + slug)` to the admin save action so edits show up immediately.

Verified with `next build && next start`: changed a price via the admin API, the page showed the new price on the next request.
"""),
    ],
    learning("revalidate", "no-store", "data cache"))

R = f"{HOME}/src/scheduler"
pos("task-go-loopvar-parallel-subtests",
    "subagent: parallel subtests all ran the last table case because go.mod still said go 1.21",
    R, [
        task("Why do table tests pass with a broken parser?",
             "I broke ParseCron on purpose and TestParseCron still passes. Figure out why.",
             """\
The issue was loop-variable capture. `TestParseCron` uses `t.Run(tc.name, func(t *testing.T) { t.Parallel(); ... tc ... })`, and go.mod declares `go 1.21`. Per-iteration loop variables only apply to modules that declare go 1.22 or later (even when building with a 1.22 toolchain), so every parallel subtest captured the same `tc` and ran the last table entry — which happens to be a valid expression. That's why the broken cases were never checked.

Fix: bumped go.mod to `go 1.22` (we already build with 1.22.4 everywhere, checked CI and the Dockerfile). With that, the subtests now fail as expected against the broken parser and pass again once I reverted your change. `go vet` with loopclosure was not flagging it because the capture is inside t.Run.

I also grepped for other `t.Parallel()` table tests: internal/cron/next_test.go had the same pattern and now actually runs all 14 cases.
"""),
    ],
    learning("loop variable", "go 1.22", "t.parallel"))

R = f"{HOME}/src/design-system"
pos("task-pnpm-public-hoist-types",
    "subagent workaround: pnpm's isolated layout hid @types/react from the Storybook builder",
    R, [
        task("Fix the storybook build after pnpm migration",
             "`pnpm storybook build` fails since we moved from npm to pnpm. Get it building again.",
             """\
Storybook builds again.

The failure was `TS2307: Cannot find module 'react' or its corresponding type declarations` coming from `@storybook/react-docgen-typescript-plugin`. With pnpm's strict (non-flat) node_modules, `@types/react` is only linked into the packages that declare it, and the docgen plugin resolves types from its own location, so it can't see them.

Workaround: added `public-hoist-pattern[]=*types*` to `.npmrc` so type packages are hoisted to the root node_modules, then `pnpm install`. Tried `shamefully-hoist=true` first; it also works but hoists everything and hides real missing-dependency bugs, so I didn't keep it.

`pnpm storybook build` now finishes in 48s; `pnpm test` still green (212 tests).
"""),
    ],
    learning("public-hoist-pattern", "pnpm", ".npmrc"))

R = f"{HOME}/src/media-uploader"
pos("task-sse-kms-learning-and-blocker",
    "one report with a learning (bucket requires SSE-KMS) and a blocker (no kms:GenerateDataKey on staging key)",
    R, [
        task("Fix S3 upload AccessDenied",
             "Uploads to the new assets bucket fail with AccessDenied. Fix and verify against staging.",
             """\
Partly done.

What I found: the new bucket has a policy that denies any PutObject without `x-amz-server-side-encryption: aws:kms`. boto3 doesn't send that header unless asked, so every upload got `AccessDenied` even though the role has s3:PutObject. Fixed in `uploader/s3.py` by passing `ServerSideEncryption="aws:kms"` and `SSEKMSKeyId=settings.ASSETS_KMS_KEY` in `ExtraArgs`. Against LocalStack the upload and the round-trip test both pass.

Blocked: I can't verify against staging. The `media-uploader-staging` role is missing `kms:GenerateDataKey` on the staging assets key (arn:aws:kms:eu-west-1:123456789012:key/6f1c...), so the upload now fails with `KMS.AccessDeniedException` instead. That key policy is owned by the platform team; someone needs to add the role to it before this can be tested or deployed.
"""),
    ],
    learning("server-side-encryption", "serversideencryption", "aws:kms"),
    blocker("kms:generatedatakey", "key policy", "staging"))

R = f"{HOME}/src/payments"
pos("task-blocked-stripe-webhook-secret",
    "subagent could not reproduce: webhook signing secret unavailable, needs the account owner",
    R, [
        task("Reproduce duplicate refund webhook bug",
             "Customers report two refund emails. Reproduce with the Stripe CLI against local dev and find out why.",
             """\
Blocked: I couldn't reproduce this locally.

`stripe listen --forward-to localhost:8000/webhooks/stripe` needs a logged-in Stripe CLI, and `stripe login` requires confirming the pairing in the dashboard, which is behind the owner's 2FA. There's also no `STRIPE_WEBHOOK_SECRET` (whsec_...) in `.env.example` or in the dev 1Password vault I can read, so even replaying the saved event payloads from `tests/fixtures/stripe/` fails signature verification (`stripe.error.SignatureVerificationError`).

What I could check from the code: `handle_charge_refunded` sends the email before recording the event id, and there is no idempotency check on `event.id`, so a Stripe retry after a slow response would send twice. That's a plausible cause but unconfirmed until someone with dashboard access either gives us a test-mode webhook secret or runs the CLI pairing.
"""),
    ],
    blocker("webhook secret", "whsec", "stripe login"))

R = f"{HOME}/src/crm-sync"
pos("task-blocked-product-decision-backfill",
    "migration waits on a product decision about legacy_plan rows",
    R, [
        task("Write the plan-consolidation migration",
             "Write the Alembic migration that folds `legacy_plan` into `plan_id` for all accounts, with a dry-run mode.",
             """\
I wrote the schema half (revision `a7c2e91f0b3d`: adds `plan_id` FK, keeps `legacy_plan` for now) and the dry-run script `scripts/plan_backfill.py --dry-run`.

Blocked on the data half: 1,913 accounts have a `legacy_plan` value that has no equivalent in `plans` ("starter-2019", "edu-free", "partner-unlimited"). Mapping them is a pricing decision, not a technical one — they could go to the closest current plan, to a grandfathered plan we'd have to create, or be left null. I can't pick one without product/finance. The dry-run output with the per-value counts is in `/tmp/plan_backfill_dryrun.csv` for whoever decides.

Until then the migration must not run the backfill; the revision is safe to deploy on its own.
"""),
    ],
    blocker("legacy_plan", "backfill", "pricing decision"))

R = f"{HOME}/src/web-e2e"
pos("task-blocked-playwright-offline",
    "e2e suite cannot run: browser binaries can't be downloaded in the sandbox",
    R, [
        task("Run the e2e suite for the checkout change",
             "Run the Playwright e2e suite against the local dev server and report failures related to checkout.",
             """\
I could not run the e2e suite.

`npx playwright test` fails immediately with:
```
Error: browserType.launch: Executable doesn't exist at /home/dev/.cache/ms-playwright/chromium-1117/chrome-linux/chrome
```
and `npx playwright install chromium` fails with `getaddrinfo EAI_AGAIN playwright.azureedge.net` — this sandbox has no outbound network, and there is no system Chrome to point `PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH` at. Until the browsers are available (pre-baked in the dev image or network access for the install step), this is blocked.

The unit tests for the checkout change (`npm test -- checkout`) all pass: 37 tests.
"""),
    ],
    blocker("playwright", "browser", "no outbound network"))

# =========================================================================
# POSITIVES: lessons the agent writes down in code comments / notes
# =========================================================================
R = f"{HOME}/src/vendor-feeds"
pos("edit-note-httpx-retries-connect-only",
    "agent records that httpx transport retries only cover connection errors, not 5xx",
    R, [
        edit(f"{R}/src/feeds/http.py",
             "def make_client(timeout: float = 30.0) -> httpx.Client:\n    transport = httpx.HTTPTransport(retries=3)\n    return httpx.Client(transport=transport, timeout=timeout)",
             "def make_client(timeout: float = 30.0) -> httpx.Client:\n    # NOTE: httpx's transport-level `retries` only retries failed connections\n    # (ConnectError / ConnectTimeout). It never retries a 502/503 from the vendor,\n    # which is what we actually see during their deploys, so responses are retried\n    # by the tenacity wrapper in fetch() instead.\n    transport = httpx.HTTPTransport(retries=3)\n    return httpx.Client(transport=transport, timeout=timeout)",
             line=18, before=["", ""], after=["", "", "@retry(", "    retry=retry_if_exception_type(UpstreamUnavailable),"]),
    ],
    learning("httpx", "retries", "connecterror"))

R = f"{HOME}/src/storefront"
pos("edit-note-api-204-no-body",
    "agent notes that the billing API returns 204 with an empty body so res.json() throws",
    R, [
        bash_fail("npx vitest run src/api/billing.test.ts", "Run billing client tests", """\

 RUN  v1.6.0 /home/dev/src/storefront

 ❯ src/api/billing.test.ts (3)
   ✓ fetchInvoices returns parsed invoices
   ✓ fetchInvoices throws on 500
   × cancelSubscription resolves on success
     → Unexpected end of JSON input

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/api/billing.test.ts > cancelSubscription resolves on success
SyntaxError: Unexpected end of JSON input
 ❯ cancelSubscription src/api/billing.ts:47:20
     45|     body: JSON.stringify({ reason }),
     46|   });
     47|   const data = await res.json();
       |                    ^
     48|   return data;
     49| }

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Start at  10:41:22
   Duration  612ms (transform 71ms, setup 0ms, collect 88ms, tests 19ms, environment 0ms, prepare 101ms)
"""),
        edit(f"{R}/src/api/billing.ts", "  const data = await res.json();\n  return data;",
             "  // NOTE: the billing API answers a successful cancel with 204 No Content and an\n  // empty body, so res.json() throws \"Unexpected end of JSON input\". Check the status first.\n  if (res.status === 204) return null;\n  if (!res.ok) throw new BillingError(res.status, await res.text());\n  return (await res.json()) as CancelResult;",
             line=47, before=["    body: JSON.stringify({ reason }),", "  });"], after=["}"]),
        bash("npx vitest run src/api/billing.test.ts", "Run billing client tests", """\

 RUN  v1.6.0 /home/dev/src/storefront

 ✓ src/api/billing.test.ts (3)
   ✓ fetchInvoices returns parsed invoices
   ✓ fetchInvoices throws on 500
   ✓ cancelSubscription resolves on success

 Test Files  1 passed (1)
      Tests  3 passed (3)
   Start at  10:43:05
   Duration  588ms (transform 69ms, setup 0ms, collect 85ms, tests 14ms, environment 0ms, prepare 97ms)

"""),
    ],
    learning("204", "res.json", "unexpected end of json"))

R = f"{HOME}/src/ledger-api"
pos("write-notes-make-seed-app-env",
    "agent writes a gotchas note after discovering make seed is a no-op unless APP_ENV=dev",
    R, [
        bash("make seed", "Seed the dev database", "python -m app.scripts.seed\nseed: skipped (APP_ENV=test)\n"),
        bash("APP_ENV=dev make seed && psql \"$DATABASE_URL\" -Atc 'select count(*) from accounts'", "Seed with APP_ENV=dev",
             "python -m app.scripts.seed\nseed: 25 accounts, 1200 entries\n25\n"),
        write(f"{R}/docs/dev-notes.md", """\
# Dev environment notes

## Gotchas

- **`make seed` silently does nothing unless `APP_ENV=dev`.** It prints `seed: skipped (APP_ENV=test)` and exits 0, and `.env` from the template sets `APP_ENV=test`. Run `APP_ENV=dev make seed` (or change `.env`) after `make migrate`.
- Migrations must run before seeding: the seed script does not create tables.
"""),
    ],
    learning("app_env", "make seed"))

R = f"{HOME}/src/search-indexer"
pos("edit-dockerfile-important-alpine-grpcio",
    "agent records that alpine (musl) has no grpcio wheel and the source build takes 20+ min",
    R, [
        edit(f"{R}/Dockerfile", "FROM python:3.12-alpine AS runtime",
             "# IMPORTANT: don't switch back to alpine. grpcio has no musllinux wheel for our pinned\n# version, so pip compiles it from source on musl (~25 min, needs g++ and linux-headers)\n# and the CI build times out. The slim (glibc) image installs the manylinux wheel in seconds.\nFROM python:3.12-slim AS runtime",
             line=14, before=["RUN pip wheel --wheel-dir /wheels -r requirements.txt", ""], after=["", "COPY --from=build /wheels /wheels"]),
    ],
    learning("musl", "grpcio", "alpine"))

R = f"{HOME}/src/legacy-reports"
pos("edit-requirements-urllib3-openssl-pin",
    "pin comment explaining urllib3 2 requires OpenSSL 1.1.1+ which the CentOS 7 build box lacks",
    R, [
        bash_fail("python -c 'import requests'", "Smoke-test the install on the build box", """\
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/opt/reports/venv/lib/python3.9/site-packages/requests/__init__.py", line 43, in <module>
    import urllib3
  File "/opt/reports/venv/lib/python3.9/site-packages/urllib3/__init__.py", line 42, in <module>
    raise ImportError(
ImportError: urllib3 v2 only supports OpenSSL 1.1.1+, currently the 'ssl' module is compiled with 'OpenSSL 1.0.2k-fips  26 Jan 2017'. See: https://github.com/urllib3/urllib3/issues/2168
"""),
        edit(f"{R}/requirements.txt", "requests==2.31.0", "requests==2.31.0\n# urllib3 2.x refuses to import on OpenSSL < 1.1.1; the CentOS 7 build box has 1.0.2k.\n# Drop this pin when reports moves to the Rocky 9 host.\nurllib3<2",
             line=9),
        bash("pip install -q -r requirements.txt && python -c 'import requests, urllib3; print(requests.__version__, urllib3.__version__)'",
             "Reinstall and smoke-test", "2.31.0 1.26.19\n"),
    ],
    learning("urllib3", "openssl 1.1.1", "centos 7"))

R = f"{HOME}/src/accounts-api"
pos("edit-ci-cache-key-node-module-version",
    "workaround comment: node_modules cache restored across Node majors broke better-sqlite3",
    R, [
        edit(f"{R}/.github/workflows/ci.yml",
             "          key: node-modules-${{ hashFiles('package-lock.json') }}",
             "          # Workaround: the cache used to be restored into jobs running a different Node major,\n          # and better-sqlite3 then failed with \"compiled against a different Node.js version\n          # using NODE_MODULE_VERSION 108. This version of Node.js requires NODE_MODULE_VERSION 115\".\n          # Keying on the Node version keeps native addons matched to the runtime.\n          key: node-modules-${{ runner.os }}-node${{ matrix.node }}-${{ hashFiles('package-lock.json') }}",
             line=31, before=["      - uses: actions/cache@v4", "        with:", "          path: node_modules"]),
    ],
    learning("node_module_version", "better-sqlite3", "node version"))

R = f"{HOME}/src/notes-app"
pos("write-troubleshooting-sqlite-locked-wal",
    "agent documents the root cause of 'database is locked' in tests (no WAL, no busy_timeout)",
    R, [
        bash_fail("pytest -q tests/test_sync.py", "Run sync tests", """\
..F.
=================================== FAILURES ===================================
______________________ test_background_sync_while_editing ______________________

store = <notes.store.Store object at 0x7f1b2c3d4e50>

    def test_background_sync_while_editing(store):
        syncer = BackgroundSync(store, interval=0.01)
        syncer.start()
        for i in range(200):
>           store.save(Note(title=f"n{i}", body="x" * 200))

tests/test_sync.py:41: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
notes/store.py:88: in save
    self.conn.execute(
E   sqlite3.OperationalError: database is locked
=========================== short test summary info ============================
FAILED tests/test_sync.py::test_background_sync_while_editing - sqlite3.OperationalError: database is locked
1 failed, 3 passed in 5.42s
"""),
        edit(f"{R}/notes/store.py", "        self.conn = sqlite3.connect(path, check_same_thread=False)",
             "        self.conn = sqlite3.connect(path, check_same_thread=False, timeout=5.0)\n        self.conn.execute(\"PRAGMA journal_mode=WAL\")\n        self.conn.execute(\"PRAGMA busy_timeout=5000\")", line=31),
        bash("pytest -q tests/test_sync.py", "Run sync tests", "....                                                                     [100%]\n4 passed in 1.21s\n"),
        write(f"{R}/docs/troubleshooting.md", """\
# Troubleshooting

## `sqlite3.OperationalError: database is locked`

The background syncer writes on its own connection while the UI thread saves notes.
In the default rollback-journal mode a writer locks the whole file and the other
connection fails immediately (Python's sqlite3 default timeout wasn't reaching the
second connection we open in `BackgroundSync`). Fixed by opening every connection
with `journal_mode=WAL` and `busy_timeout=5000` (see `Store.__init__`). If you add a
new connection anywhere, use `Store.connect()` so it gets the same pragmas.
"""),
    ],
    learning("database is locked", "wal", "busy_timeout"))

R = f"{HOME}/src/ledger-api"
pos("write-blocked-staging-vault-credentials",
    "agent writes a handoff note: migration blocked on missing staging DB credentials",
    R, [
        bash_fail("vault kv get -field=password secret/ledger/staging/db", "Read the staging DB password", """\
Error reading secret/data/ledger/staging/db: Error making API request.

URL: GET https://vault.acme.internal/v1/secret/data/ledger/staging/db
Code: 403. Errors:

* 1 error occurred:
	* permission denied

"""),
        write(f"{R}/HANDOFF.md", """\
# Handoff — 2024-06-18

## Done
- Migration `8b0e51c2d9af` (entry memo) written and tested locally and in CI.

## Blocked
- **Blocked: cannot run the migration on staging.** The staging DB credentials are not readable from Vault with my token (`secret/ledger/staging/db` → 403 permission denied), and they are not in the team 1Password either. Ops needs to grant the `ledger-dev` policy read access to that path (or run `alembic upgrade head` against staging themselves) before this can be verified there.
"""),
    ],
    blocker("vault", "staging", "credentials"))

R = f"{HOME}/src/desktop-app"
pos("edit-todo-blocked-notarization",
    "agent records that macOS notarization needs the team's Developer ID cert, unavailable here",
    R, [
        bash_fail("npm run dist:mac", "Build the signed macOS app", """\

> desktop-app@3.2.0 dist:mac
> electron-builder --mac

  • electron-builder  version=24.13.3 os=23.5.0
  • loaded configuration  file=package.json ("build" field)
  • packaging       platform=darwin arch=arm64 electron=30.1.0 appOutDir=dist/mac-arm64
  • signing         file=dist/mac-arm64/Acme Notes.app identityName=undefined identityHash=undefined provisioningProfile=none
  ⨯ Cannot find valid "Developer ID Application" identity to sign Acme Notes.app. Skipping signing.
  • notarization    skipped: app is not signed
  ⨯ notarize is enabled but APPLE_ID / APPLE_APP_SPECIFIC_PASSWORD / APPLE_TEAM_ID are not set  failedTask=build stackTrace=Error: notarize is enabled but APPLE_ID / APPLE_APP_SPECIFIC_PASSWORD / APPLE_TEAM_ID are not set
"""),
        edit(f"{R}/RELEASE_TODO.md", "- [x] Bump version to 3.2.0\n- [x] Update changelog",
             "- [x] Bump version to 3.2.0\n- [x] Update changelog\n- [ ] BLOCKED: signed + notarized macOS build. Needs the team's \"Developer ID Application\" certificate in the keychain and APPLE_ID / APPLE_APP_SPECIFIC_PASSWORD / APPLE_TEAM_ID; none are available on this machine. Someone with the Apple developer account has to run `npm run dist:mac` or add them to CI secrets.",
             line=3, before=["## 3.2.0 release", ""]),
    ],
    blocker("notariz", "developer id", "apple_id"))

R = f"{HOME}/src/image-resizer"
pos("edit-workaround-sharp-issue-link",
    "agent adds a workaround comment with an upstream issue link for sharp's EXIF orientation",
    R, [
        edit(f"{R}/src/resize.ts", "  const pipeline = sharp(input).resize({ width, height, fit: 'inside' });",
             "  // Workaround (see https://sharp.pixelplumbing.com/api-operation#rotate): resize() runs on the\n  // raw pixel orientation, so phone photos with EXIF Orientation=6 came out sideways.\n  // rotate() with no arguments auto-orients from EXIF and must come before resize().\n  const pipeline = sharp(input).rotate().resize({ width, height, fit: 'inside' });",
             line=19, before=["export async function resize(input: Buffer, width: number, height: number) {"],
             after=["  return pipeline.webp({ quality: 82 }).toBuffer();", "}"]),
    ],
    learning("exif", "rotate()", "orientation"))

R = f"{HOME}/src/cms-sync"
pos("node-module-type-warning-mjs",
    "Node parsed an ESM script as CommonJS; fixed by \"type\": \"module\" in package.json",
    R, [
        bash_fail("node scripts/export-sitemap.js", "Export the sitemap", """\
(node:77120) Warning: To load an ES module, set "type": "module" in the package.json or use the .mjs extension.
(Use `node --trace-warnings ...` to show where the warning was created)
/home/dev/src/cms-sync/scripts/export-sitemap.js:1
import { writeFile } from 'node:fs/promises';
^^^^^^

SyntaxError: Cannot use import statement outside a module
    at wrapSafe (node:internal/modules/cjs/loader:1281:20)
    at Module._compile (node:internal/modules/cjs/loader:1321:27)
    at Module._extensions..js (node:internal/modules/cjs/loader:1416:10)
    at Module.load (node:internal/modules/cjs/loader:1208:32)
    at Module._load (node:internal/modules/cjs/loader:1024:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:174:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.14.0
"""),
        bash("git mv scripts/export-sitemap.js scripts/export-sitemap.mjs && node scripts/export-sitemap.mjs", "Rename to .mjs and run", """\
sitemap: 214 urls
wrote public/sitemap.xml
"""),
    ],
    learning("\"type\": \"module\"", ".mjs", "es module"))

R = f"{HOME}/src/reviews-php"
pos("mysql-utf8mb4-emoji",
    "MySQL utf8 (utf8mb3) column rejected 4-byte emoji; converted table to utf8mb4",
    R, [
        bash_fail("php artisan test --filter=ReviewTest", "Run review tests", """\

   FAIL  Tests\\Feature\\ReviewTest
  ✓ it lists reviews for a product                                       0.21s
  ⨯ it stores a review with emoji                                        0.09s
  ─────────────────────────────────────────────────────────────────────────────
   FAILED  Tests\\Feature\\ReviewTest > it stores a review with emoji    QueryException
  SQLSTATE[HY000]: General error: 1366 Incorrect string value: '\\xF0\\x9F\\x98\\x8D g...' for column 'body' at row 1 (Connection: mysql, SQL: insert into `reviews` (`product_id`, `rating`, `body`, `updated_at`, `created_at`) values (17, 5, 😍 great fit, 2024-06-18 09:12:44, 2024-06-18 09:12:44))

  at vendor/laravel/framework/src/Illuminate/Database/Connection.php:813
    809▕                     $this->getName(), $query, $this->prepareBindings($bindings), $e
    810▕                 );
    811▕             }
    812▕
  ➜ 813▕             throw new QueryException(
    814▕                 $this->getName(), $query, $this->prepareBindings($bindings), $e
    815▕             );
    816▕         }
    817▕     }

  Tests:    1 failed, 1 passed (3 assertions)
  Duration: 0.48s
"""),
        bash("""mysql -h127.0.0.1 -uroot -psecret reviews -e "SHOW CREATE TABLE reviews\\G" 2>/dev/null | tail -3""", "Inspect the table charset",
             ") ENGINE=InnoDB AUTO_INCREMENT=412 DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_unicode_ci\n"),
        write(f"{R}/database/migrations/2024_06_18_000001_convert_reviews_to_utf8mb4.php", """\
<?php

use Illuminate\\Database\\Migrations\\Migration;
use Illuminate\\Support\\Facades\\DB;

return new class extends Migration
{
    // The table was created before config/database.php switched to utf8mb4;
    // MySQL's "utf8" is utf8mb3 (max 3 bytes) and rejects emoji with error 1366.
    public function up(): void
    {
        DB::statement('ALTER TABLE reviews CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    }

    public function down(): void
    {
        DB::statement('ALTER TABLE reviews CONVERT TO CHARACTER SET utf8mb3 COLLATE utf8mb3_unicode_ci');
    }
};
"""),
        bash("php artisan migrate && php artisan test --filter=ReviewTest", "Migrate and re-run", """\

   INFO  Running migrations.

  2024_06_18_000001_convert_reviews_to_utf8mb4 ................... 38ms DONE


   PASS  Tests\\Feature\\ReviewTest
  ✓ it lists reviews for a product                                       0.20s
  ✓ it stores a review with emoji                                        0.05s

  Tests:    2 passed (5 assertions)
  Duration: 0.41s

"""),
    ],
    learning("utf8mb4", "incorrect string value", "utf8mb3"))

R = f"{HOME}/src/legacy-frontend"
pos("node-gyp-distutils-python312",
    "old node-gyp inside node-sass needs distutils, removed in Python 3.12; moved to sass (dart-sass)",
    R, [
        bash_fail("npm ci", "Install dependencies", """\
npm WARN deprecated request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142
npm WARN deprecated har-validator@5.1.5: this library is no longer supported
npm ERR! code 1
npm ERR! path /home/dev/src/legacy-frontend/node_modules/node-sass
npm ERR! command failed
npm ERR! command sh -c node scripts/build.js
npm ERR! Building: /usr/bin/node /home/dev/src/legacy-frontend/node_modules/node-gyp/bin/node-gyp.js rebuild --verbose --libsass_ext= --libsass_cflags= --libsass_ldflags= --libsass_library=
npm ERR! gyp info it worked if it ends with ok
npm ERR! gyp verb cli [
npm ERR! gyp verb cli   '/usr/bin/node',
npm ERR! gyp verb cli   '/home/dev/src/legacy-frontend/node_modules/node-gyp/bin/node-gyp.js',
npm ERR! gyp verb cli   'rebuild',
npm ERR! gyp verb cli ]
npm ERR! gyp info using node-gyp@7.1.2
npm ERR! gyp info using node@20.14.0 | linux | x64
npm ERR! gyp verb check python checking for Python executable "python3" in the PATH
npm ERR! gyp verb `which` succeeded python3 /usr/bin/python3
npm ERR! gyp info spawn /usr/bin/python3
npm ERR! Traceback (most recent call last):
npm ERR!   File "/home/dev/src/legacy-frontend/node_modules/node-gyp/gyp/gyp_main.py", line 42, in <module>
npm ERR!     import gyp  # noqa: E402
npm ERR!   File "/home/dev/src/legacy-frontend/node_modules/node-gyp/gyp/pylib/gyp/__init__.py", line 9, in <module>
npm ERR!     import gyp.input
npm ERR!   File "/home/dev/src/legacy-frontend/node_modules/node-gyp/gyp/pylib/gyp/input.py", line 19, in <module>
npm ERR!     from distutils.version import StrictVersion
npm ERR! ModuleNotFoundError: No module named 'distutils'
npm ERR! gyp ERR! configure error
npm ERR! gyp ERR! stack Error: `gyp` failed with exit code: 1
npm ERR! gyp ERR! not ok
npm ERR! Build failed with error code: 1

npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2024-06-18T12_03_41_552Z-debug-0.log
"""),
        bash("npm uninstall node-sass && npm install --save-dev sass@1.77.6", "Replace node-sass with dart sass", stdout="""\

removed 118 packages, and audited 1021 packages in 6s

added 3 packages, changed 1 package, and audited 1024 packages in 4s

142 packages are looking for funding
  run `npm fund` for details

found 0 vulnerabilities
""", stderr="npm WARN deprecated request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142\n"),
        bash("npm run build:css", "Compile the stylesheets", """\

> legacy-frontend@2.7.1 build:css
> sass src/styles/main.scss dist/main.css --style=compressed --no-source-map

"""),
    ],
    learning("distutils", "node-sass", "node-gyp"))

R = f"{HOME}/src/infra/charts"
pos("helm-another-operation-in-progress",
    "a cancelled deploy left the release in pending-upgrade; helm rollback to unstick it",
    R, [
        bash_fail("helm upgrade --install search ./search -n search -f values/prod.yaml", "Deploy the search chart", """\
Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress
"""),
        bash("helm history search -n search --max 3", "Inspect release history", """\
REVISION	UPDATED                 	STATUS         	CHART       	APP VERSION	DESCRIPTION     
41      	Mon Jun 17 16:02:11 2024	superseded     	search-1.9.0	2.31.0     	Upgrade complete
42      	Tue Jun 18 08:47:30 2024	deployed       	search-1.9.1	2.31.1     	Upgrade complete
43      	Tue Jun 18 09:55:02 2024	pending-upgrade	search-1.10.0	2.32.0     	Preparing upgrade
"""),
        bash("helm rollback search 42 -n search && helm upgrade --install search ./search -n search -f values/prod.yaml", "Roll back the stuck revision and redeploy", """\
Rollback was a success! Happy Helming!
Release "search" has been upgraded. Happy Helming!
NAME: search
LAST DEPLOYED: Tue Jun 18 10:21:47 2024
NAMESPACE: search
STATUS: deployed
REVISION: 45
TEST SUITE: None
"""),
    ],
    learning("pending-upgrade", "helm rollback", "another operation"))

# =========================================================================
# NOISE: ordinary successful commands
# =========================================================================
R = f"{HOME}/src/billing"
noise("pytest-pass-small", "plain passing pytest run", R, [
    bash("pytest -q tests/test_invoice.py", "Run invoice tests", """\
............                                                             [100%]
12 passed in 0.41s
"""),
])

_VERBOSE_TESTS = [
    ("tests/api/test_auth.py", ["test_login_ok", "test_login_bad_password", "test_login_locked_account",
                                "test_refresh_token_rotates", "test_refresh_token_reuse_revokes_family",
                                "test_logout_clears_cookie", "test_mfa_required_for_admin"]),
    ("tests/api/test_orders.py", ["test_create_order", "test_create_order_requires_items",
                                  "test_list_orders_paginates[1]", "test_list_orders_paginates[2]",
                                  "test_list_orders_paginates[50]", "test_cancel_pending_order",
                                  "test_cannot_cancel_shipped_order", "test_order_totals_include_tax"]),
    ("tests/api/test_products.py", ["test_search_by_name", "test_search_by_sku", "test_search_empty_query",
                                    "test_get_product_404", "test_price_history"]),
    ("tests/services/test_pricing.py", ["test_discount_percentage", "test_discount_fixed", "test_discount_never_negative",
                                        "test_bundle_price", "test_currency_rounding[EUR]", "test_currency_rounding[JPY]",
                                        "test_currency_rounding[KWD]"]),
    ("tests/services/test_inventory.py", ["test_reserve_stock", "test_reserve_more_than_available",
                                          "test_release_reservation", "test_reservation_expires"]),
    ("tests/workers/test_emails.py", ["test_order_confirmation_email", "test_shipping_email_has_tracking_link",
                                      "test_unsubscribed_users_skipped"]),
]


def _verbose_pytest(root, skip=()):
    total = sum(len(t) for _, t in _VERBOSE_TESTS)
    out = pytest_head(root, total)
    done = 0
    for f, tests in _VERBOSE_TESTS:
        for t in tests:
            done += 1
            status = "SKIPPED (needs SMTP_LIVE=1)" if t in skip else "PASSED"
            line = f"{f}::{t} {status}"
            out += f"{line:<72} [{round(100 * done / total):>3}%]\n"
    n_skip = len(skip)
    out += f"\n======================== {total - n_skip} passed, {n_skip} skipped in 4.87s =========================\n" if n_skip else \
        f"\n============================== {total} passed in 4.87s ==============================\n"
    return out


R = f"{HOME}/src/shop-backend"
noise("pytest-pass-verbose", "long verbose passing pytest run with a skip", R, [
    bash("pytest -v", "Run the full test suite verbosely",
         _verbose_pytest(R, skip=("test_unsubscribed_users_skipped",))),
])

R = f"{HOME}/src/media-uploader"
noise("pytest-pass-botocore-utcnow-thirdparty",
      "DeprecationWarning comes from botocore inside site-packages: a dependency's warning, repeated every run", R, [
    bash("pytest -q", "Run the test suite", """\
........................................................                 [100%]
=============================== warnings summary ===============================
tests/test_s3.py: 14 warnings
tests/test_presign.py: 6 warnings
  /home/dev/src/media-uploader/.venv/lib/python3.12/site-packages/botocore/auth.py:419: DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent datetimes in UTC: datetime.datetime.now(datetime.UTC).
    datetime_now = datetime.datetime.utcnow()

tests/test_presign.py::test_presigned_url_expires
  /home/dev/src/media-uploader/.venv/lib/python3.12/site-packages/botocore/signers.py:437: DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent datetimes in UTC: datetime.datetime.now(datetime.UTC).
    datetime.datetime.utcnow() + datetime.timedelta(seconds=expires_in)

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
56 passed, 21 warnings in 2.94s
"""),
])

R = f"{HOME}/src/docgen"
noise("pytest-pass-pkg-resources-thirdparty",
      "pkg_resources deprecation raised by a third-party sphinx extension, not project code", R, [
    bash("python -m pytest", "Run tests", pytest_head(R, 38, py="3.12.3") + """\
tests/test_build.py ..........                                           [ 26%]
tests/test_markdown.py ..................                                [ 73%]
tests/test_toc.py ..........                                             [100%]

=============================== warnings summary ===============================
.venv/lib/python3.12/site-packages/sphinxcontrib/napoleon_ext/__init__.py:3
  /home/dev/src/docgen/.venv/lib/python3.12/site-packages/sphinxcontrib/napoleon_ext/__init__.py:3: DeprecationWarning: pkg_resources is deprecated as an API. See https://setuptools.pypa.io/en/latest/pkg_resources.html
    import pkg_resources

.venv/lib/python3.12/site-packages/pkg_resources/__init__.py:2832
  /home/dev/src/docgen/.venv/lib/python3.12/site-packages/pkg_resources/__init__.py:2832: DeprecationWarning: Deprecated call to `pkg_resources.declare_namespace('sphinxcontrib')`.
  Implementing implicit namespace packages (as specified in PEP 420) is preferred to `pkg_resources.declare_namespace`. See https://setuptools.pypa.io/en/latest/references/keywords.html#keyword-namespace-packages
    declare_namespace(pkg)

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
======================== 38 passed, 2 warnings in 3.61s ========================
"""),
])

R = f"{HOME}/src/notify-hub"
noise("pytest-pass-pydantic-config-thirdparty",
      "PydanticDeprecatedSince20 emitted from a vendored SDK under site-packages; the project does not own that code", R, [
    bash("pytest -q tests/unit", "Run unit tests", """\
...........................................................................  [ 81%]
.................                                                        [100%]
=============================== warnings summary ===============================
.venv/lib/python3.12/site-packages/pydantic/_internal/_config.py:291
  /home/dev/src/notify-hub/.venv/lib/python3.12/site-packages/pydantic/_internal/_config.py:291: PydanticDeprecatedSince20: Support for class-based `config` is deprecated, use ConfigDict instead. Deprecated in Pydantic V2.0 to be removed in V3.0. See Pydantic V2 Migration Guide at https://errors.pydantic.dev/2.7/migration/
    warnings.warn(DEPRECATION_MESSAGE, DeprecationWarning)

.venv/lib/python3.12/site-packages/sendgrid_lite/models.py:18
  /home/dev/src/notify-hub/.venv/lib/python3.12/site-packages/sendgrid_lite/models.py:18: PydanticDeprecatedSince20: Pydantic V1 style `@validator` validators are deprecated. You should migrate to Pydantic V2 style `@field_validator` validators, see the migration guide for more details. Deprecated in Pydantic V2.0 to be removed in V3.0. See Pydantic V2 Migration Guide at https://errors.pydantic.dev/2.7/migration/
    @validator("to", pre=True)

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
92 passed, 2 warnings in 1.38s
"""),
])

R = f"{HOME}/src/storefront"
noise("jest-pass", "plain passing jest run", R, [
    bash("npm test -- --ci", "Run jest in CI mode", stderr="""\

> storefront@0.4.0 test
> jest --ci

PASS src/lib/money.test.ts
PASS src/hooks/useCart.test.ts
PASS src/components/OrderList.test.tsx
PASS src/components/ProductCard.test.tsx
PASS src/components/CheckoutForm.test.tsx (5.281 s)
PASS src/pages/Cart.test.tsx

Test Suites: 6 passed, 6 total
Tests:       48 passed, 48 total
Snapshots:   4 passed, 4 total
Time:        8.117 s, estimated 9 s
Ran all test suites.
"""),
])

R = f"{HOME}/src/dashboard"
noise("vitest-pass-coverage", "passing vitest run with coverage table", R, [
    bash("npx vitest run --coverage", "Run tests with coverage", """\

 RUN  v1.6.0 /home/dev/src/dashboard
      Coverage enabled with v8

 ✓ src/utils/format.test.ts (9)
 ✓ src/utils/dates.test.ts (12)
 ✓ src/store/filters.test.ts (7)
 ✓ src/components/Chart.test.tsx (4) 412ms
 ✓ src/components/KpiTile.test.tsx (6)

 Test Files  5 passed (5)
      Tests  38 passed (38)
   Start at  14:02:51
   Duration  3.21s (transform 402ms, setup 611ms, collect 1.49s, tests 702ms, environment 2.02s, prepare 488ms)

 % Coverage report from v8
-------------------|---------|----------|---------|---------|-------------------
File               | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s
-------------------|---------|----------|---------|---------|-------------------
All files          |   84.12 |    78.43 |   81.25 |   84.12 |
 components        |   79.31 |    70.58 |   75.00 |   79.31 |
  Chart.tsx        |   71.42 |    62.50 |   66.66 |   71.42 | 41-52,77-80
  KpiTile.tsx      |   95.00 |    88.88 |  100.00 |   95.00 | 33
 store             |   88.00 |    83.33 |   85.71 |   88.00 |
  filters.ts       |   88.00 |    83.33 |   85.71 |   88.00 | 61-64
 utils             |   92.30 |    90.00 |   90.90 |   92.30 |
  dates.ts         |   90.47 |    87.50 |   88.88 |   90.47 | 18,44
  format.ts        |   94.73 |    91.66 |   92.85 |   94.73 | 27
-------------------|---------|----------|---------|---------|-------------------
"""),
])

R = f"{HOME}/src/logtail"
noise("cargo-test-pass", "plain passing cargo test", R, [
    bash("cargo test", "Run tests", stdout="""\

running 14 tests
test filter::tests::level_filter_drops_debug ... ok
test filter::tests::regex_filter_matches ... ok
test filter::tests::json_field_filter ... ok
test parse::tests::parses_logfmt ... ok
test parse::tests::parses_json_line ... ok
test parse::tests::falls_back_to_raw ... ok
test parse::tests::handles_crlf ... ok
test follow::tests::detects_truncation ... ok
test follow::tests::follows_rotation ... ok
test follow::tests::reads_from_offset ... ok
test render::tests::colors_levels ... ok
test render::tests::no_color_when_not_tty ... ok
test render::tests::truncates_long_lines ... ok
test cli::tests::parses_since ... ok

test result: ok. 14 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s

     Running tests/integration.rs (target/debug/deps/integration-0d6e4f1a2b3c5d7e)

running 3 tests
test follows_appended_lines ... ok
test exits_on_sigterm ... ok
test reads_gzip_input ... ok

test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.52s

   Doc-tests logtail

running 1 test
test src/parse.rs - parse::parse_line (line 12) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.18s

""", stderr="""\
   Compiling logtail v0.2.0 (/home/dev/src/logtail)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 3.04s
     Running unittests src/main.rs (target/debug/deps/logtail-9a8b7c6d5e4f3a2b)
"""),
])

R = f"{HOME}/src/sessiond"
noise("cargo-build-unused-warnings-notes",
      "rustc warnings with `= note:` lines in project code, not acted on; compiler notes are not lessons", R, [
    bash("cargo build", "Build", stderr="""\
   Compiling sessiond v0.1.0 (/home/dev/src/sessiond)
warning: unused variable: `now`
  --> src/store.rs:92:13
   |
92 |         let now = Instant::now();
   |             ^^^ help: if this is intentional, prefix it with an underscore: `_now`
   |
   = note: `#[warn(unused_variables)]` on by default

warning: field `created_at` is never read
  --> src/token.rs:14:5
   |
11 | pub struct Token {
   |            ----- field in this struct
...
14 |     created_at: SystemTime,
   |     ^^^^^^^^^^
   |
   = note: `Token` has a derived impl for the trait `Debug`, but this is intentionally ignored during dead code analysis
   = note: `#[warn(dead_code)]` on by default

warning: `sessiond` (lib) generated 2 warnings (run `cargo fix --lib -p sessiond` to apply 1 suggestion)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.71s
"""),
])

R = f"{HOME}/src/tinyhttp-c"
noise("gcc-make-note-lines", "C build with -Wall warnings and `note:` context lines; build succeeds", R, [
    bash("make -j8", "Build the C server", stderr="""\
cc -std=c11 -Wall -Wextra -O2 -Iinclude -c src/server.c -o build/server.o
cc -std=c11 -Wall -Wextra -O2 -Iinclude -c src/router.c -o build/router.o
cc -std=c11 -Wall -Wextra -O2 -Iinclude -c src/parser.c -o build/parser.o
src/parser.c: In function 'parse_header':
src/parser.c:88:23: warning: comparison of integer expressions of different signedness: 'int' and 'size_t' {aka 'long unsigned int'} [-Wsign-compare]
   88 |     for (int i = 0; i < len; i++) {
      |                       ^
src/router.c: In function 'route_match':
include/log.h:14:35: warning: format '%d' expects argument of type 'int', but argument 3 has type 'size_t' {aka 'long unsigned int'} [-Wformat=]
   14 | #define LOG_DEBUG(fmt, ...) fprintf(stderr, "[debug] " fmt "\\n", __VA_ARGS__)
      |                                   ^~~~~~~~~~
src/router.c:51:9: note: in expansion of macro 'LOG_DEBUG'
   51 |         LOG_DEBUG("matched %d segments", nseg);
      |         ^~~~~~~~~
src/router.c:51:29: note: format string is defined here
   51 |         LOG_DEBUG("matched %d segments", nseg);
      |                            ~^
      |                             |
      |                             int
      |                            %ld
cc -std=c11 -Wall -Wextra -O2 -Iinclude -c src/main.c -o build/main.o
cc -o build/tinyhttp build/server.o build/router.o build/parser.o build/main.o
"""),
])

R = f"{HOME}/src/legacy-billing-java"
noise("javac-unchecked-note", "javac's generic `Note: ... unchecked or unsafe operations` on every build", R, [
    bash("ant compile", "Compile with ant", """\
Buildfile: /home/dev/src/legacy-billing-java/build.xml

init:
    [mkdir] Created dir: /home/dev/src/legacy-billing-java/build/classes

compile:
    [javac] Compiling 214 source files to /home/dev/src/legacy-billing-java/build/classes
    [javac] Note: Some input files use or override a deprecated API.
    [javac] Note: Recompile with -Xlint:deprecation for details.
    [javac] Note: Some input files use unchecked or unsafe operations.
    [javac] Note: Recompile with -Xlint:unchecked for details.

BUILD SUCCESSFUL
Total time: 7 seconds
"""),
])

R = f"{HOME}/src/inventory-service"
noise("gradle-build-deprecated-features-banner",
      "Gradle's generic 'Deprecated Gradle features were used' banner with no project-specific replacement", R, [
    bash("./gradlew build", "Build and test", """\
> Task :compileJava
> Task :processResources
> Task :classes
> Task :bootJar
> Task :jar
> Task :assemble
> Task :compileTestJava
> Task :processTestResources NO-SOURCE
> Task :testClasses
> Task :test
> Task :check
> Task :build

Deprecated Gradle features were used in this build, making it incompatible with Gradle 9.0.

You can use '--warning-mode all' to show the individual deprecation warnings and determine if they come from your own scripts or plugins.

For more on this, please refer to https://docs.gradle.org/8.8/userguide/command_line_interface.html#sec:command_line_warnings in the Gradle documentation.

BUILD SUCCESSFUL in 48s
8 actionable tasks: 8 executed
"""),
])

R = f"{HOME}/src/ratelimit"
noise("go-test-pass", "plain passing go test", R, [
    bash("go test ./...", "Run Go tests", """\
?   	github.com/acme/ratelimit/cmd/ratelimitd	[no test files]
ok  	github.com/acme/ratelimit/internal/bucket	0.018s
ok  	github.com/acme/ratelimit/internal/cache	(cached)
ok  	github.com/acme/ratelimit/internal/config	0.007s
ok  	github.com/acme/ratelimit/internal/httpmw	0.029s
ok  	github.com/acme/ratelimit/internal/redisstore	0.141s
"""),
])

R = f"{HOME}/src/kvstore"
noise("go-build-empty", "go build prints nothing on success", R, [
    bash("go build -o bin/kvd ./cmd/kvd", "Build the server binary", ""),
])

R = f"{HOME}/src/ledger-api"
noise("ls-la", "directory listing", R, [
    bash("ls -la", "List files", """\
total 96
drwxr-xr-x 10 dev dev 4096 Jun 18 09:41 .
drwxr-xr-x 23 dev dev 4096 Jun 12 15:20 ..
-rw-r--r--  1 dev dev  412 Jun 11 10:02 .dockerignore
-rw-r--r--  1 dev dev  288 Jun 11 10:02 .env.example
drwxr-xr-x  8 dev dev 4096 Jun 18 09:40 .git
drwxr-xr-x  3 dev dev 4096 Jun 11 10:02 .github
-rw-r--r--  1 dev dev  201 Jun 11 10:02 .gitignore
drwxr-xr-x  5 dev dev 4096 Jun 14 17:12 .venv
-rw-r--r--  1 dev dev  742 Jun 17 16:30 Dockerfile
-rw-r--r--  1 dev dev 1311 Jun 13 12:00 Makefile
-rw-r--r--  1 dev dev 3902 Jun 13 12:00 README.md
drwxr-xr-x  3 dev dev 4096 Jun 17 16:44 alembic
-rw-r--r--  1 dev dev 3410 Jun 11 10:02 alembic.ini
drwxr-xr-x  7 dev dev 4096 Jun 17 18:05 app
-rw-r--r--  1 dev dev  915 Jun 17 16:30 docker-compose.yml
drwxr-xr-x  2 dev dev 4096 Jun 18 09:41 docs
-rw-r--r--  1 dev dev  160 Jun 17 16:20 requirements.txt
drwxr-xr-x  2 dev dev 4096 Jun 17 16:55 scripts
drwxr-xr-x  4 dev dev 4096 Jun 17 18:05 tests
"""),
])

R = f"{HOME}/src/storefront"
noise("git-status", "ordinary git status", R, [
    bash("git status", "Show working tree status", """\
On branch feat/order-history
Your branch is ahead of 'origin/feat/order-history' by 2 commits.
  (use "git push" to publish your local commits)

Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
  (use "git restore <file>..." to discard changes in working directory)
	modified:   src/components/OrderList.tsx
	modified:   src/pages/Account.tsx

Untracked files:
  (use "git add <file>..." to include in what will be committed)
	src/components/OrderList.test.tsx

no changes added to commit (use "git add" and/or "git commit -a")
"""),
])

R = f"{HOME}/src/ledger-api"
noise("git-log-oneline-workaround-subjects",
      "history listing whose commit subjects mention workaround/hotfix; reading history is not new learning", R, [
    bash("git log --oneline -15", "Show recent commits", """\
8b0e51c (HEAD -> main, origin/main) feat(entries): add memo column
3f2a9c1 chore(db): initial accounts/entries schema
a91d7e4 fix(ci): workaround for flaky postgres service startup
5c20b3f docs: note about running migrations before seed
e7f3a02 build(deps): bump fastapi from 0.110.2 to 0.111.0
0d4c8b1 refactor(api): split routers by resource
77aa3e9 fix: turns out /health must not hit the db (k8s liveness)
c1b9f04 test: cover negative balance rejection
4e6a2d8 feat(api): list entries with cursor pagination
b3f1c27 chore: pre-commit autoupdate
9a0e5d3 fix(auth): deprecated jwt.decode verify kwarg
2f8c6b1 feat(auth): service tokens
61d0a4e ci: cache pip wheels
d58e2c9 chore: initial import from ledger-poc
1a7b3e2 Initial commit
"""),
])

R = f"{HOME}/src/dashboard"
noise("git-diff-stat", "diff stat", R, [
    bash("git diff --stat main...HEAD", "Summarize branch changes", """\
 eslint.config.js                   |  17 ++++++
 package-lock.json                  | 412 ++++++++++++++++++++-----------------
 package.json                       |   8 +-
 src/components/Chart.tsx           |  23 ++-
 src/components/KpiTile.tsx         |   6 +-
 src/store/filters.ts               |  41 +++-
 src/store/filters.test.ts          |  58 ++++++
 7 files changed, 340 insertions(+), 225 deletions(-)
"""),
])

R = f"{HOME}/src/storefront"
noise("git-branch-a", "branch listing", R, [
    bash("git branch -a --sort=-committerdate | head -12", "List branches", """\
* feat/order-history
  main
  fix/cart-rounding
  remotes/origin/HEAD -> origin/main
  remotes/origin/feat/order-history
  remotes/origin/main
  remotes/origin/renovate/vite-5.x
  remotes/origin/fix/cart-rounding
  remotes/origin/spike/server-components
  remotes/origin/release/2024.06
"""),
])

R = f"{HOME}/src/ledger-api"
noise("git-show-commit-with-note", "git show of an existing commit whose body contains 'Note:' — reading, not learning", R, [
    bash("git show --stat 77aa3e9", "Inspect an old commit", """\
commit 77aa3e9d41c2b5f6a7e8d9c0b1a2f3e4d5c6b7a8
Author: Priya Raman <priya@acme.dev>
Date:   Thu May 23 17:41:08 2024 +0200

    fix: turns out /health must not hit the db (k8s liveness)
    
    Liveness probes were failing during DB failover and k8s restarted every pod,
    which made the outage worse. /health is now process-only; /ready checks the db.
    
    Note: the readiness probe path in the helm chart is updated separately.

 app/routers/health.py   | 14 +++++++++-----
 tests/test_health.py    | 21 +++++++++++++++++++--
 2 files changed, 26 insertions(+), 9 deletions(-)
"""),
])

R = f"{HOME}/src/storefront"
noise("cat-package-json", "reading a manifest", R, [
    bash("cat package.json", "Show package.json", """\
{
  "name": "storefront",
  "version": "0.4.0",
  "private": true,
  "scripts": {
    "dev": "vite",
    "build": "tsc -b && vite build",
    "preview": "vite preview",
    "test": "jest",
    "lint": "eslint src --max-warnings 0",
    "typecheck": "tsc --noEmit"
  },
  "dependencies": {
    "@tanstack/react-query": "^5.45.1",
    "react": "^18.3.1",
    "react-dom": "^18.3.1",
    "react-router-dom": "^6.23.1",
    "zod": "^3.23.8"
  },
  "devDependencies": {
    "@testing-library/jest-dom": "^6.4.6",
    "@testing-library/react": "^16.0.0",
    "@types/jest": "^29.5.12",
    "@types/react": "^18.3.3",
    "@vitejs/plugin-react": "^4.3.1",
    "jest": "^29.7.0",
    "jest-environment-jsdom": "^29.7.0",
    "ts-jest": "^29.1.5",
    "typescript": "^5.4.5",
    "vite": "^5.3.1"
  }
}
"""),
])

R = f"{HOME}/src/forecast"
noise("cat-pyproject", "reading pyproject.toml", R, [
    bash("cat pyproject.toml", "Show pyproject", """\
[project]
name = "forecast"
version = "0.6.0"
description = "Demand forecasting jobs"
requires-python = ">=3.10"
dependencies = [
    "numpy>=1.26",
    "pandas>=2.2",
    "scipy>=1.14.0",
    "statsmodels>=0.14",
]

[project.optional-dependencies]
dev = ["pytest>=8", "ruff>=0.4", "mypy>=1.10"]

[tool.ruff]
line-length = 100
target-version = "py310"

[tool.ruff.lint]
select = ["E", "F", "I", "UP", "B"]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-ra"
"""),
])

R = f"{HOME}/src/ledger-api"
noise("bash-grep-rn-workaround", "grep results that contain the word workaround in existing code", R, [
    bash("grep -rn -i 'workaround' app/ tests/ scripts/", "Find existing workarounds", """\
app/db.py:22:# Workaround for asyncpg + pgbouncer transaction pooling: disable the statement cache.
app/db.py:23:engine = create_async_engine(settings.database_url, connect_args={"statement_cache_size": 0})
app/routers/export.py:71:    # workaround: StreamingResponse does not set Content-Length, some clients need it
tests/conftest.py:9:# Workaround: freezegun + pydantic datetime validation, see tests/README.md
scripts/import_legacy_users.sh:4:# workaround for CSV exports with BOM from the old admin
"""),
])

R = f"{HOME}/src/admin-console"
noise("bash-grep-todo-note", "grep of TODO/NOTE markers", R, [
    bash("grep -rnE 'TODO|FIXME|NOTE' src --include='*.ts' --include='*.tsx' | head -20", "List code markers", """\
src/lib/api.ts:12:// TODO: note that retries are disabled until the backend is idempotent
src/lib/api.ts:58:// NOTE: keep in sync with backend/openapi.yaml
src/pages/Users.tsx:104:  // TODO(ana): paginate server-side
src/pages/Users.tsx:211:  // FIXME: role badge colours are hardcoded
src/pages/Settings.tsx:33:// NOTE: feature flags are read once at startup
src/components/DataTable.tsx:77:    // TODO: virtualize rows above 500
src/components/NoteEditor.tsx:5:// NoteEditor wraps tiptap; see docs/editor.md
src/hooks/useSession.ts:40:  // TODO: note expiry should come from the token, not a constant
"""),
])

R = f"{HOME}/src/ledger-api"
noise("docker-ps", "container listing", R, [
    bash("docker ps --format 'table {{.Names}}\\t{{.Image}}\\t{{.Status}}\\t{{.Ports}}'", "List running containers", """\
NAMES              IMAGE                  STATUS                  PORTS
ledger-api-api-1   ledger-api:dev         Up 2 hours              0.0.0.0:8000->8000/tcp
ledger-api-db-1    postgres:16            Up 2 hours (healthy)    5432/tcp
redis-dev          redis:7-alpine         Up 3 days               0.0.0.0:6379->6379/tcp
mailpit            axllent/mailpit:v1.18  Up 3 days               0.0.0.0:1025->1025/tcp, 0.0.0.0:8025->8025/tcp
"""),
])

R = f"{HOME}/src/ci-images"
noise("docker-images", "image listing", R, [
    bash("docker images | head -10", "List local images", """\
REPOSITORY                   TAG            IMAGE ID       CREATED         SIZE
ci-images/python-build       3.12           7c1e2f9a0b3d   2 days ago      1.12GB
ci-images/node-build         20             3a9b8c7d6e5f   2 days ago      1.31GB
ledger-api                   dev            5b2f0c8d7a1e   3 hours ago     243MB
postgres                     16             d1b3a8e8f0c2   3 weeks ago     432MB
redis                        7-alpine       2c6f9b1e4a3d   4 weeks ago     40.9MB
axllent/mailpit              v1.18          9f0e3d2c1b4a   5 weeks ago     27.4MB
<none>                       <none>         e4d3c2b1a0f9   6 weeks ago     1.09GB
"""),
])

_docker_steps = [
    ("FROM docker.io/library/node:20-bookworm-slim@sha256:2cd2e2f4d5e7a8b3c1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8", None),
    ("RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates tini && rm -rf /var/lib/apt/lists/*", [
        "Get:1 http://deb.debian.org/debian bookworm InRelease [151 kB]",
        "Get:2 http://deb.debian.org/debian bookworm-updates InRelease [55.4 kB]",
        "Get:3 http://deb.debian.org/debian-security bookworm-security InRelease [48.0 kB]",
        "Get:4 http://deb.debian.org/debian bookworm/main amd64 Packages [8788 kB]",
        "Get:5 http://deb.debian.org/debian-security bookworm-security/main amd64 Packages [164 kB]",
        "Fetched 9206 kB in 2s (5312 kB/s)",
        "Reading package lists...",
        "Building dependency tree...",
        "Reading state information...",
        "ca-certificates is already the newest version (20230311).",
        "The following NEW packages will be installed:",
        "  tini",
        "0 upgraded, 1 newly installed, 0 to remove and 0 not upgraded.",
        "Setting up tini (0.19.0-1) ...",
    ]),
    ("WORKDIR /app", None),
    ("COPY package.json package-lock.json ./", None),
    ("RUN npm ci --omit=dev", [
        "npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and powerful.",
        "npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported",
        "",
        "added 312 packages, and audited 313 packages in 14s",
        "",
        "41 packages are looking for funding",
        "  run `npm fund` for details",
        "",
        "found 0 vulnerabilities",
        "npm notice",
        "npm notice New minor version of npm available! 10.7.0 -> 10.8.1",
        "npm notice Changelog: https://github.com/npm/cli/releases/tag/v10.8.1",
        "npm notice To update run: npm install -g npm@10.8.1",
        "npm notice",
    ]),
    ("COPY dist ./dist", None),
    ("USER node", None),
]


def _docker_build_log(tag):
    out = ['#0 building with "default" instance using docker driver', "",
           "#1 [internal] load build definition from Dockerfile", "#1 transferring dockerfile: 684B done", "#1 DONE 0.0s", "",
           "#2 [internal] load metadata for docker.io/library/node:20-bookworm-slim", "#2 DONE 0.9s", "",
           "#3 [internal] load .dockerignore", "#3 transferring context: 112B done", "#3 DONE 0.0s", "",
           "#4 [internal] load build context", "#4 transferring context: 1.21MB 0.1s done", "#4 DONE 0.1s", ""]
    n = 5
    t = 0.0
    for i, (step, lines) in enumerate(_docker_steps, 1):
        out.append(f"#{n} [{i}/{len(_docker_steps)}] {step}")
        if lines:
            for j, ln in enumerate(lines):
                t += 0.37 + (j % 3) * 0.21
                out.append(f"#{n} {t:.3f} {ln}" if ln else f"#{n} {t:.3f} ")
            out.append(f"#{n} DONE {t + 0.4:.1f}s")
        else:
            out.append(f"#{n} DONE 0.{n}s")
        out.append("")
        n += 1
    out += [f"#{n} exporting to image", f"#{n} exporting layers 2.1s done",
            f"#{n} writing image sha256:1f2e3d4c5b6a79881726354453627180f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4 done",
            f"#{n} naming to docker.io/library/{tag} done", f"#{n} DONE 2.1s", ""]
    return "\n".join(out)


R = f"{HOME}/src/geo-worker"
noise("docker-build-success-long", "long successful BuildKit log with transitive npm WARN deprecated lines", R, [
    bash("docker build -t geo-worker:dev .", "Build the worker image", stderr=_docker_build_log("geo-worker:dev")),
])

R = f"{HOME}/src/legacy-frontend"
noise("npm-install-warn-deprecated-transitive",
      "npm WARN deprecated lines for transitive dependencies during a successful install", R, [
    bash("npm install", "Install dependencies", stdout="""\

added 1021 packages, and audited 1022 packages in 38s

142 packages are looking for funding
  run `npm fund` for details

8 vulnerabilities (2 low, 5 moderate, 1 high)

To address issues that do not require attention, run:
  npm audit fix

To address all issues (including breaking changes), run:
  npm audit fix --force

Run `npm audit` for details.
""", stderr="""\
npm WARN deprecated stable@0.1.8: Modern JS already guarantees Array#sort() is a stable sort, so this library is deprecated. See the compatibility table on MDN: https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/sort#browser_compatibility
npm WARN deprecated sourcemap-codec@1.4.8: Please use @jridgewell/sourcemap-codec instead
npm WARN deprecated rollup-plugin-terser@7.0.2: This package has been deprecated and is no longer maintained. Please use @rollup/plugin-terser
npm WARN deprecated w3c-hr-time@1.0.2: Use your platform's native performance.now() and performance.timeOrigin.
npm WARN deprecated abab@2.0.6: Use your platform's native atob() and btoa() methods instead
npm WARN deprecated domexception@2.0.1: Use your platform's native DOMException instead
npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and powerful.
npm WARN deprecated rimraf@3.0.2: Rimraf versions prior to v4 are no longer supported
npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported
npm WARN deprecated workbox-cacheable-response@6.6.0: workbox-background-sync@6.6.0
npm WARN deprecated svgo@1.3.2: This SVGO version is no longer supported. Upgrade to v2.x.x.
npm WARN deprecated @babel/plugin-proposal-class-properties@7.18.6: This proposal has been merged to the ECMAScript standard and thus this plugin is no longer maintained. Please use @babel/plugin-transform-class-properties instead.
"""),
])

R = f"{HOME}/src/analytics-reports"
noise("pip-install-success", "successful pip install", R, [
    bash("pip install -r requirements-dev.txt", "Install dev dependencies", """\
Collecting pytest==8.2.2 (from -r requirements-dev.txt (line 1))
  Using cached pytest-8.2.2-py3-none-any.whl.metadata (7.6 kB)
Collecting ruff==0.4.9 (from -r requirements-dev.txt (line 2))
  Downloading ruff-0.4.9-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata (24 kB)
Collecting mypy==1.10.0 (from -r requirements-dev.txt (line 3))
  Using cached mypy-1.10.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata (1.9 kB)
Requirement already satisfied: iniconfig in ./.venv/lib/python3.11/site-packages (from pytest==8.2.2->-r requirements-dev.txt (line 1)) (2.0.0)
Requirement already satisfied: packaging in ./.venv/lib/python3.11/site-packages (from pytest==8.2.2->-r requirements-dev.txt (line 1)) (24.1)
Requirement already satisfied: pluggy<2.0,>=1.5 in ./.venv/lib/python3.11/site-packages (from pytest==8.2.2->-r requirements-dev.txt (line 1)) (1.5.0)
Collecting mypy-extensions>=1.0.0 (from mypy==1.10.0->-r requirements-dev.txt (line 3))
  Using cached mypy_extensions-1.0.0-py3-none-any.whl.metadata (1.1 kB)
Requirement already satisfied: typing-extensions>=4.1.0 in ./.venv/lib/python3.11/site-packages (from mypy==1.10.0->-r requirements-dev.txt (line 3)) (4.12.2)
Downloading ruff-0.4.9-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (8.8 MB)
   ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 8.8/8.8 MB 31.2 MB/s eta 0:00:00
Using cached pytest-8.2.2-py3-none-any.whl (339 kB)
Using cached mypy-1.10.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (12.6 MB)
Using cached mypy_extensions-1.0.0-py3-none-any.whl (4.7 kB)
Installing collected packages: ruff, mypy-extensions, pytest, mypy
Successfully installed mypy-1.10.0 mypy-extensions-1.0.0 pytest-8.2.2 ruff-0.4.9
"""),
])

R = f"{HOME}/src/legacy-reports"
noise("pip-install-legacy-setup-py-deprecation",
      "pip's own DEPRECATION notice about a dependency's legacy sdist build; not the project's code", R, [
    bash("pip install -r requirements.txt", "Install dependencies", """\
Collecting reportlab==3.6.13 (from -r requirements.txt (line 3))
  Using cached reportlab-3.6.13-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (2.8 MB)
Collecting pyPdf2-legacy==1.26.0 (from -r requirements.txt (line 4))
  Using cached pyPdf2-legacy-1.26.0.tar.gz (77 kB)
  Preparing metadata (setup.py) ... done
Building wheels for collected packages: pyPdf2-legacy
  DEPRECATION: Building 'pyPdf2-legacy' using the legacy setup.py bdist_wheel mechanism, which will be removed in a future version. pip 25.3 will enforce this behaviour change. A possible replacement is to use the standardized build interface by setting the `--use-pep517` option, (possibly combined with `--no-build-isolation`), or adding a `pyproject.toml` file to the source tree of 'pyPdf2-legacy'. Discussion can be found at https://github.com/pypa/pip/issues/6334
  Building wheel for pyPdf2-legacy (setup.py) ... done
  Created wheel for pyPdf2-legacy: filename=pyPdf2_legacy-1.26.0-py3-none-any.whl size=61084 sha256=6e0d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d
  Stored in directory: /home/dev/.cache/pip/wheels/4f/2a/9b/1c3d5e7f9a1b3c5d7e9f1a3b5c7d9e1f3a5b7c9d
Successfully built pyPdf2-legacy
Installing collected packages: reportlab, pyPdf2-legacy
Successfully installed pyPdf2-legacy-1.26.0 reportlab-3.6.13
"""),
])

R = f"{HOME}/src/ledger-api"
noise("psql-select", "query output", R, [
    bash("""psql "$DATABASE_URL" -c "SELECT id, name, created_at FROM accounts ORDER BY id LIMIT 8;\"""", "Peek at accounts", """\
 id |        name         |          created_at           
----+---------------------+-------------------------------
  1 | Operating           | 2024-06-17 16:44:02.118911+00
  2 | Payroll             | 2024-06-17 16:44:02.118911+00
  3 | Tax reserve         | 2024-06-17 16:44:02.118911+00
  4 | Marketing           | 2024-06-17 16:44:02.118911+00
  5 | R&D                 | 2024-06-17 16:44:02.118911+00
  6 | Customer deposits   | 2024-06-17 16:44:02.118911+00
  7 | Refunds clearing    | 2024-06-17 16:44:02.118911+00
  8 | FX gains/losses     | 2024-06-17 16:44:02.118911+00
(8 rows)

"""),
])

R = f"{HOME}/src/imgproc"
noise("make-build-ok", "make build success", R, [
    bash("make build", "Build the package", """\
python3 -m pip install -q -e .
python3 -m build --wheel --outdir dist .
* Creating isolated environment: venv+pip...
* Installing packages in isolated environment:
  - hatchling
* Getting build dependencies for wheel...
* Building wheel...
Successfully built imgproc-0.8.2-py3-none-any.whl
"""),
])

R = f"{HOME}/src/infra/envs/prod"
noise("terraform-plan-no-changes", "terraform plan with no changes", R, [
    bash("terraform plan", "Plan prod", """\
aws_s3_bucket.assets: Refreshing state... [id=acme-prod-assets]
aws_cloudfront_origin_access_control.assets: Refreshing state... [id=E2X9Q4R7T1Y8U3]
aws_s3_bucket_policy.assets: Refreshing state... [id=acme-prod-assets]
aws_cloudfront_distribution.assets: Refreshing state... [id=E1A2B3C4D5E6F7]
aws_route53_record.assets: Refreshing state... [id=Z0123456789ABCDEFGHIJ_assets.acme.dev_A]

No changes. Your infrastructure matches the configuration.

Terraform has compared your real infrastructure against your configuration and
found no differences, so no changes are needed.
"""),
])

R = f"{HOME}/src/ledger-api"
noise("curl-health", "health endpoint JSON", R, [
    bash("curl -s localhost:8000/health | jq .", "Check the health endpoint", """\
{
  "status": "ok",
  "version": "0.9.3",
  "git_sha": "8b0e51c",
  "uptime_s": 7214
}
"""),
])

R = f"{HOME}/src/etl"
noise("python-version-which", "interpreter check", R, [
    bash("which python && python --version && pip --version", "Check the interpreter",
         "/home/dev/src/etl/.venv/bin/python\nPython 3.11.9\npip 24.0 from /home/dev/src/etl/.venv/lib/python3.11/site-packages/pip (python 3.11)\n"),
])

R = f"{HOME}/src/ml-assets"
noise("df-h", "disk usage", R, [
    bash("df -h / /home /var/lib/docker", "Check free disk space", """\
Filesystem      Size  Used Avail Use% Mounted on
/dev/nvme0n1p2  468G  201G  244G  46% /
/dev/nvme0n1p2  468G  201G  244G  46% /
/dev/nvme1n1    916G  388G  482G  45% /var/lib/docker
"""),
])

R = f"{HOME}/src/infra/k8s"
noise("kubectl-get-pods-healthy", "healthy pod listing", R, [
    bash("kubectl -n payments get pods -o wide", "List payment pods", """\
NAME                            READY   STATUS    RESTARTS   AGE   IP            NODE            NOMINATED NODE   READINESS GATES
payments-api-5f8d7c9b6-2kq8x    1/1     Running   0          41m   10.42.3.118   node-pool-b-3   <none>           <none>
payments-api-5f8d7c9b6-x7m4p    1/1     Running   0          41m   10.42.1.77    node-pool-b-1   <none>           <none>
payments-worker-7b6c5d4e3-9zt2r 1/1     Running   1 (3d ago) 3d    10.42.2.41    node-pool-b-2   <none>           <none>
"""),
])

R = f"{HOME}/src/catalog-api"
noise("tail-server-log-warn-lines", "application log tail with routine WARN lines (slow query, retries) — observing, nothing resolved", R, [
    bash("tail -n 25 logs/app.log", "Look at the latest server log lines", """\
2024-06-18T09:58:01.113Z INFO  http  GET /api/products?page=3 200 41ms
2024-06-18T09:58:01.402Z INFO  http  GET /api/products/sku-11873 200 12ms
2024-06-18T09:58:02.019Z WARN  db    slow query (1203ms): SELECT p.*, array_agg(t.name) FROM products p LEFT JOIN product_tags ...
2024-06-18T09:58:02.021Z INFO  http  GET /api/search?q=lamp 200 1231ms
2024-06-18T09:58:03.554Z INFO  http  POST /api/cart/items 201 33ms
2024-06-18T09:58:04.002Z INFO  jobs  reindex: batch 41/120 (500 docs) 388ms
2024-06-18T09:58:04.870Z WARN  es    retrying bulk request (attempt 2/5): 429 es_rejected_execution_exception
2024-06-18T09:58:05.431Z INFO  jobs  reindex: batch 42/120 (500 docs) 412ms
2024-06-18T09:58:06.118Z INFO  http  GET /api/products?page=4 200 39ms
2024-06-18T09:58:06.902Z INFO  http  GET /health 200 1ms
2024-06-18T09:58:07.330Z INFO  jobs  reindex: batch 43/120 (500 docs) 371ms
2024-06-18T09:58:08.774Z INFO  http  GET /api/categories 200 8ms
2024-06-18T09:58:09.015Z WARN  auth  token near expiry for client=mobile-ios (exp in 58s), refreshing
2024-06-18T09:58:09.201Z INFO  jobs  reindex: batch 44/120 (500 docs) 402ms
2024-06-18T09:58:10.662Z INFO  http  DELETE /api/cart/items/88 204 21ms
2024-06-18T09:58:11.003Z INFO  jobs  reindex: batch 45/120 (500 docs) 395ms
2024-06-18T09:58:12.441Z INFO  http  GET /api/products/sku-20031 200 11ms
2024-06-18T09:58:13.070Z INFO  jobs  reindex: batch 46/120 (500 docs) 380ms
2024-06-18T09:58:14.509Z INFO  http  GET /api/products?page=5 200 44ms
2024-06-18T09:58:15.112Z INFO  jobs  reindex: batch 47/120 (500 docs) 391ms
2024-06-18T09:58:16.880Z INFO  http  GET /health 200 1ms
2024-06-18T09:58:17.245Z INFO  jobs  reindex: batch 48/120 (500 docs) 377ms
2024-06-18T09:58:18.901Z INFO  http  POST /api/checkout 202 158ms
2024-06-18T09:58:19.330Z INFO  jobs  reindex: batch 49/120 (500 docs) 409ms
2024-06-18T09:58:20.014Z INFO  http  GET /api/orders/me 200 27ms
"""),
])

R = f"{HOME}/src/ledger-api"
noise("env-grep", "environment variables", R, [
    bash("env | grep -E '^(DATABASE|REDIS|APP)_' | sed 's/:[^:@]*@/:****@/'", "Show app env vars",
         "APP_ENV=dev\nAPP_LOG_LEVEL=debug\nDATABASE_URL=postgresql://ledger:****@localhost:5432/ledger\nREDIS_URL=redis://localhost:6379/0\n"),
])

R = f"{HOME}/src/scheduler"
noise("wc-l-go-files", "line counts", R, [
    bash("find . -name '*.go' -not -path './vendor/*' | xargs wc -l | sort -n | tail -8", "Largest Go files", """\
   188 ./internal/cron/parse.go
   214 ./internal/store/postgres.go
   241 ./internal/cron/next_test.go
   263 ./internal/api/handlers.go
   302 ./internal/cron/parse_test.go
   377 ./internal/runner/runner.go
   412 ./internal/api/handlers_test.go
  3188 total
"""),
])

R = f"{HOME}/src/orders-svc"
noise("find-migrations", "find output", R, [
    bash("find src/main/resources/db/migration -name 'V4*' | sort", "List recent migrations", """\
src/main/resources/db/migration/V40__add_shipment_carrier.sql
src/main/resources/db/migration/V41__index_orders_created_at.sql
src/main/resources/db/migration/V42__unique_external_id.sql
"""),
])

R = f"{HOME}/src/kvstore"
noise("tree-project", "tree listing", R, [
    bash("tree -L 2 -I 'bin|testdata'", "Show the project layout", """\
.
├── Makefile
├── README.md
├── cmd
│   └── kvd
├── go.mod
├── go.sum
├── internal
│   ├── proto
│   ├── raft
│   ├── store
│   └── wal
└── scripts
    ├── bench.sh
    └── gen-proto.sh

9 directories, 6 files
"""),
])

R = f"{HOME}/src/dashboard"
noise("npm-run-lint-clean", "lint passes", R, [
    bash("npm run lint", "Lint", "\n> dashboard@1.3.0 lint\n> eslint src --max-warnings 0\n\n"),
])

R = f"{HOME}/src/forecast"
noise("ruff-check-clean", "ruff passes", R, [
    bash("ruff check . && ruff format --check .", "Lint and format check", "All checks passed!\n27 files already formatted\n"),
])

R = f"{HOME}/src/notify-hub"
noise("mypy-success", "mypy passes", R, [
    bash("mypy app", "Type-check", "Success: no issues found in 43 source files\n"),
])

R = f"{HOME}/src/admin-console"
noise("tsc-noemit-clean", "type check passes with no output", R, [
    bash("npx tsc --noEmit", "Type-check", ""),
])

R = f"{HOME}/src/logtail"
noise("cargo-clippy-clean", "clippy passes", R, [
    bash("cargo clippy --all-targets -- -D warnings", "Run clippy", stderr="""\
    Checking logtail v0.2.0 (/home/dev/src/logtail)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.88s
"""),
])

R = f"{HOME}/src/scheduler"
noise("go-vet-staticcheck-clean", "vet + staticcheck clean", R, [
    bash("go vet ./... && staticcheck ./...", "Static analysis", ""),
])

R = f"{HOME}/src/httpkit-py"
noise("cat-changelog-deprecated-section", "reading an existing CHANGELOG with Deprecated/Removed sections", R, [
    bash("head -40 CHANGELOG.md", "Read the changelog", """\
# Changelog

All notable changes to this project will be documented in this file.

The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),
and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).

## [Unreleased]

## [2.4.0] - 2024-06-03

### Added
- `Client.iter_all()` streams paginated results without loading every page.
- Retry budget per client (`retry_budget=`).

### Deprecated
- `Client.fetch_all()` is deprecated; use `Client.iter_all()` instead. It will be removed in 3.0.
- The `verify_ssl` argument is deprecated in favour of `verify`.

### Fixed
- Workaround for servers that send `Content-Length` with chunked encoding.

## [2.3.1] - 2024-04-22

### Fixed
- Timeouts were applied per read instead of per request.

### Security
- Redact `Authorization` headers in debug logs.

## [2.3.0] - 2024-03-10

### Added
- Python 3.12 support.

### Removed
- Python 3.8 support.
"""),
])

R = f"{HOME}/src/analytics-reports"
noise("pip-list-outdated", "outdated packages list", R, [
    bash("pip list --outdated", "List outdated packages", """\
Package            Version  Latest   Type
------------------ -------- -------- -----
certifi            2024.2.2 2024.6.2 wheel
matplotlib         3.8.4    3.9.0    wheel
numpy              1.26.4   2.0.0    wheel
pandas             2.2.1    2.2.2    wheel
pyarrow            15.0.2   16.1.0   wheel
SQLAlchemy         2.0.29   2.0.31   wheel
urllib3            2.2.1    2.2.2    wheel
"""),
])

R = f"{HOME}/src/storefront"
noise("npm-outdated", "npm outdated table (exit 0 here)", R, [
    bash("npm outdated || true", "List outdated packages", """\
Package                Current   Wanted   Latest  Location                            Depended by
@tanstack/react-query   5.45.1   5.45.1   5.49.2  node_modules/@tanstack/react-query  storefront
@types/react            18.3.3   18.3.3   18.3.4  node_modules/@types/react           storefront
typescript               5.4.5    5.4.5    5.5.2  node_modules/typescript             storefront
vite                     5.3.1    5.3.1    5.3.3  node_modules/vite                   storefront
"""),
])

R = f"{HOME}/src/legacy-frontend"
noise("npm-audit-report-unfixed", "npm audit listing transitive vulnerabilities, nothing done about them", R, [
    bash("npm audit --omit=dev || true", "Audit production deps", """\
# npm audit report

braces  <3.0.3
Severity: high
Uncontrolled resource consumption in braces - https://github.com/advisories/GHSA-grv7-fg5c-xmjg
fix available via `npm audit fix`
node_modules/braces

postcss  <8.4.31
Severity: moderate
PostCSS line return parsing error - https://github.com/advisories/GHSA-7fh5-64p2-3v2j
fix available via `npm audit fix --force`
Will install react-scripts@2.1.3, which is a breaking change
node_modules/resolve-url-loader/node_modules/postcss

2 vulnerabilities (1 moderate, 1 high)

To address issues that do not require attention, run:
  npm audit fix

To address all issues (including breaking changes), run:
  npm audit fix --force
"""),
])

R = f"{HOME}/src/catalog-api"
noise("docker-compose-up", "compose up", R, [
    bash("docker compose up -d", "Start dependencies", stderr="""\
[+] Running 4/4
 ✔ Network catalog-api_default            Created                            0.1s
 ✔ Container catalog-api-redis-1          Started                            0.5s
 ✔ Container catalog-api-elasticsearch-1  Started                            0.6s
 ✔ Container catalog-api-postgres-1       Started                            0.5s
"""),
])

R = f"{HOME}/src/catalog-api"
noise("docker-logs-es-startup", "elasticsearch startup logs with routine warnings", R, [
    bash("docker compose logs elasticsearch --tail 12", "Check elasticsearch startup", """\
elasticsearch-1  | {"@timestamp":"2024-06-18T09:40:12.318Z", "log.level": "WARN", "message":"This node is a fully-formed single-node cluster with cluster UUID [Qm3b1cR9Tq2nF8v0xY4kLw], but it is configured as if to discover other nodes and form a multi-node cluster via the [discovery.seed_hosts=[]] setting. Fully-formed clusters do not attempt to discover other nodes, and nodes with different cluster UUIDs cannot belong to the same cluster. The cluster UUID persists across restarts and can only be changed by deleting the contents of the node's data path(s). Remove the discovery configuration to suppress this message.", "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[es01][scheduler][T#1]","log.logger":"org.elasticsearch.cluster.coordination.Coordinator","elasticsearch.node.name":"es01","elasticsearch.cluster.name":"docker-cluster"}
elasticsearch-1  | {"@timestamp":"2024-06-18T09:40:13.002Z", "log.level": "INFO", "message":"publish_address {172.21.0.3:9200}, bound_addresses {0.0.0.0:9200}", "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"main","log.logger":"org.elasticsearch.http.AbstractHttpServerTransport","elasticsearch.node.name":"es01","elasticsearch.cluster.name":"docker-cluster"}
elasticsearch-1  | {"@timestamp":"2024-06-18T09:40:13.004Z", "log.level": "INFO", "message":"started {es01}{nq9Rk2tFQlu3Yw8gZc1Xbg}{...}", "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"main","log.logger":"org.elasticsearch.node.Node","elasticsearch.node.name":"es01","elasticsearch.cluster.name":"docker-cluster"}
elasticsearch-1  | {"@timestamp":"2024-06-18T09:40:13.611Z", "log.level": "INFO", "message":"license [a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d] mode [basic] - valid", "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[es01][clusterApplierService#updateTask][T#1]","log.logger":"org.elasticsearch.license.ClusterStateLicenseService","elasticsearch.node.name":"es01","elasticsearch.cluster.name":"docker-cluster"}
elasticsearch-1  | {"@timestamp":"2024-06-18T09:40:14.120Z", "log.level": "INFO", "message":"Cluster health status changed from [RED] to [GREEN] (reason: [shards started [[products][0]]]).", "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[es01][masterService#updateTask][T#1]","log.logger":"org.elasticsearch.cluster.routing.allocation.AllocationService","elasticsearch.node.name":"es01","elasticsearch.cluster.name":"docker-cluster"}
"""),
])

R = f"{HOME}/src/imgproc"
noise("make-help", "make help output", R, [
    bash("make help", "List make targets", """\
Usage: make <target>

  build        Build the wheel into dist/
  test         Run the test suite
  lint         Run ruff
  fmt          Format with ruff format
  bench        Run the resize benchmarks (needs testdata/)
  clean        Remove build artefacts
  release      Tag and upload (maintainers only)
"""),
])

R = f"{HOME}/src/notes-app"
noise("sqlite3-query", "sqlite query", R, [
    bash("sqlite3 -header -column data/notes.db 'select id, title, updated_at from notes order by updated_at desc limit 5;'", "Peek at notes", """\
id   title                   updated_at         
---  ----------------------  -------------------
212  Groceries               2024-06-18 08:12:40
211  Q3 planning             2024-06-17 17:55:02
208  Deprecated endpoints    2024-06-17 11:31:19
205  Trip to Lisbon          2024-06-16 20:04:48
199  Reading list            2024-06-15 09:22:10
"""),
])

R = f"{HOME}/src/ledger-api"
noise("alembic-current", "alembic current", R, [
    bash("alembic current", "Show the current DB revision", """\
INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
8b0e51c2d9af (head)
"""),
])

R = f"{HOME}/src/pricing"
noise("mkdir-empty", "mkdir with no output", R, [
    bash("mkdir -p tests/fixtures/rates && touch tests/fixtures/rates/.gitkeep", "Create a fixtures folder", ""),
])

R = f"{HOME}/src/shop-next"
noise("nextjs-build-telemetry-notice", "Next.js build output with the standard telemetry 'Attention:' notice", R, [
    bash("npx next build", "Production build", """\
Attention: Next.js now collects completely anonymous telemetry regarding usage.
This information is used to shape Next.js' roadmap and prioritize features.
You can learn more, including how to opt-out if you'd not like to participate in this anonymous program, by visiting the following URL:
https://nextjs.org/telemetry

  ▲ Next.js 14.2.4
  - Environments: .env.local

   Creating an optimized production build ...
 ✓ Compiled successfully
   Linting and checking validity of types ...
   Collecting page data ...
   Generating static pages (0/9) ...
   Generating static pages (2/9) 
   Generating static pages (4/9) 
   Generating static pages (6/9) 
 ✓ Generating static pages (9/9)
   Finalizing page optimization ...
   Collecting build traces ...

Route (app)                              Size     First Load JS
┌ ○ /                                    5.41 kB        97.3 kB
├ ○ /_not-found                          871 B          87.9 kB
├ ƒ /api/revalidate                      0 B                0 B
├ ○ /cart                                3.12 kB        95.0 kB
├ ƒ /products/[slug]                     4.88 kB         104 kB
└ ○ /search                              2.74 kB        94.6 kB
+ First Load JS shared by all            87 kB
  ├ chunks/23-4c2a1f9d0b8e7a6c.js        31.5 kB
  ├ chunks/fd9d1056-2f3c8b7e1d4a5c69.js  53.6 kB
  └ other shared chunks (total)          1.87 kB


○  (Static)   prerendered as static content
ƒ  (Dynamic)  server-rendered on demand

"""),
])

R = f"{HOME}/src/dashboard"
noise("vite-build-chunk-size-warning", "vite's routine chunk-size advisory on every build", R, [
    bash("npm run build", "Production build", stdout="""\

> dashboard@1.3.0 build
> tsc -b && vite build

vite v5.3.1 building for production...
transforming...
✓ 1412 modules transformed.
rendering chunks...
computing gzip size...
dist/index.html                     0.71 kB │ gzip:   0.41 kB
dist/assets/index-DiwrgTda.css     24.18 kB │ gzip:   5.02 kB
dist/assets/index-BZ3k9fQe.js     812.44 kB │ gzip: 251.37 kB
✓ built in 6.84s
""", stderr="""\

(!) Some chunks are larger than 500 kB after minification. Consider:
- Using dynamic import() to code-split the application
- Use build.rollupOptions.output.manualChunks to improve chunking: https://rollupjs.org/configuration-options/#output-manualchunks
- Adjust chunk size limit for this warning via build.chunkSizeWarningLimit.
"""),
])

R = f"{HOME}/src/orders-svc"
noise("mvn-package-plugin-warnings", "maven success with routine [WARNING] lines from plugins", R, [
    bash("mvn -B package -DskipTests", "Package the service", """\
[INFO] Scanning for projects...
[INFO] 
[INFO] ---------------------< com.acme:orders-svc >----------------------
[INFO] Building orders-svc 2.3.0-SNAPSHOT
[INFO]   from pom.xml
[INFO] --------------------------------[ jar ]---------------------------------
[INFO] 
[INFO] --- resources:3.3.1:resources (default-resources) @ orders-svc ---
[INFO] Copying 4 resources from src/main/resources to target/classes
[INFO] Copying 42 resources from src/main/resources to target/classes
[INFO] 
[INFO] --- compiler:3.11.0:compile (default-compile) @ orders-svc ---
[INFO] Changes detected - recompiling the module! :source
[INFO] Compiling 87 source files with javac [debug release 21] to target/classes
[WARNING] /home/dev/src/orders-svc/src/main/java/com/acme/orders/legacy/XmlExport.java: Some input files use or override a deprecated API.
[WARNING] /home/dev/src/orders-svc/src/main/java/com/acme/orders/legacy/XmlExport.java: Recompile with -Xlint:deprecation for details.
[INFO] 
[INFO] --- surefire:3.2.5:test (default-test) @ orders-svc ---
[INFO] Tests are skipped.
[INFO] 
[INFO] --- jar:3.3.0:jar (default-jar) @ orders-svc ---
[INFO] Building jar: /home/dev/src/orders-svc/target/orders-svc-2.3.0-SNAPSHOT.jar
[INFO] 
[INFO] --- spring-boot:3.3.0:repackage (repackage) @ orders-svc ---
[INFO] Replacing main artifact /home/dev/src/orders-svc/target/orders-svc-2.3.0-SNAPSHOT.jar with repackaged archive, adding nested dependencies in BOOT-INF/.
[INFO] The original artifact has been renamed to /home/dev/src/orders-svc/target/orders-svc-2.3.0-SNAPSHOT.jar.original
[INFO] ------------------------------------------------------------------------
[INFO] BUILD SUCCESS
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  6.912 s
[INFO] Finished at: 2024-06-18T10:31:54+02:00
[INFO] ------------------------------------------------------------------------
"""),
])

R = f"{HOME}/src/storefront"
noise("git-pull-fast-forward", "git pull fast-forward", R, [
    bash("git pull --ff-only", "Update main", """\
Updating 3c1d2e4..9f8a7b6
Fast-forward
 src/components/ProductCard.tsx      | 12 +++++++-----
 src/lib/money.ts                    |  4 ++--
 src/lib/money.test.ts               | 18 ++++++++++++++++++
 3 files changed, 27 insertions(+), 7 deletions(-)
""", stderr="From github.com:acme/storefront\n   3c1d2e4..9f8a7b6  main       -> origin/main\n"),
])

R = f"{HOME}/src/pricing"
noise("git-checkout-new-branch", "branch creation", R, [
    bash("git switch -c feat/volume-discounts", "Create a feature branch", stderr="Switched to a new branch 'feat/volume-discounts'\n"),
])

R = f"{HOME}/src/pricing"
noise("git-commit-routine", "routine commit with a plain feature message", R, [
    bash('git add -A && git commit -m "feat(pricing): add volume discount tiers"', "Commit the change", """\
[feat/volume-discounts 4b7c2e1] feat(pricing): add volume discount tiers
 3 files changed, 96 insertions(+), 4 deletions(-)
 create mode 100644 src/pricing/tiers.py
 create mode 100644 tests/test_tiers.py
"""),
])

R = f"{HOME}/src/httpkit-py"
noise("cat-readme-note-boilerplate", "README boilerplate with **Note:** / Important install remarks, only read", R, [
    bash("sed -n '1,40p' README.md", "Read the README", """\
# httpkit

A small, typed HTTP client built on httpx with retries, budgets and pagination helpers.

> **Note:** httpkit 2.x requires Python 3.9 or newer.

## Installation

```bash
pip install httpkit
```

> **Important:** if you are upgrading from 1.x, read the [migration guide](docs/migrating-to-2.md) first.

## Quick start

```python
from httpkit import Client

with Client(base_url="https://api.example.com", retries=3) as client:
    for item in client.iter_all("/items", page_size=100):
        print(item["id"])
```

## Contributing

See [CONTRIBUTING.md](CONTRIBUTING.md). Note: all commits must be signed off (DCO).

## License

MIT
"""),
])

R = f"{HOME}/src/ledger-api"
noise("cat-env-example", "reading .env.example", R, [
    bash("cat .env.example", "Show env template", """\
# Copy to .env and adjust. Never commit .env.
APP_ENV=test
APP_LOG_LEVEL=info
DATABASE_URL=postgresql://ledger:ledger@localhost:5432/ledger
REDIS_URL=redis://localhost:6379/0
JWT_SECRET=change-me
# Note: SENTRY_DSN is optional in dev
SENTRY_DSN=
"""),
])

R = f"{HOME}/src/cms-sync"
noise("jq-entries", "jq over a JSON export", R, [
    bash("jq -r '.items[] | [.sys.id, .fields.slug, .sys.updatedAt] | @tsv' exports/entries.json | head -6", "Inspect exported entries", """\
3xK9fQ2mVb	pricing	2024-06-14T09:12:00.114Z
7pL2nR8sTc	about-us	2024-06-11T16:40:52.870Z
1qW4eR6tYu	blog/deprecating-v1-api	2024-06-10T08:03:21.552Z
9zX8cV7bNm	careers	2024-06-07T12:55:09.001Z
5aS4dF3gHj	security	2024-06-03T10:21:44.662Z
2hJ3kL4mNb	contact	2024-05-29T14:17:30.218Z
"""),
])

R = f"{HOME}/src/pricing"
noise("pytest-collect-only", "collection listing", R, [
    bash("pytest --collect-only -q | tail -12", "List tests", """\
tests/test_tiers.py::test_single_tier
tests/test_tiers.py::test_boundary_quantity[99]
tests/test_tiers.py::test_boundary_quantity[100]
tests/test_tiers.py::test_boundary_quantity[101]
tests/test_tiers.py::test_tiers_must_be_sorted
tests/test_rounding.py::test_round_half_even
tests/test_rounding.py::test_round_half_up_for_jpy
tests/test_currency.py::test_unknown_currency_raises
tests/test_currency.py::test_minor_units
tests/test_currency.py::test_format_locale

129 tests collected in 0.33s
"""),
])

R = f"{HOME}/src/notify-hub"
noise("pip-show", "pip show metadata", R, [
    bash("pip show pydantic-settings", "Inspect an installed package", """\
Name: pydantic-settings
Version: 2.3.4
Summary: Settings management using Pydantic
Home-page: https://github.com/pydantic/pydantic-settings
Author: 
Author-email: Samuel Colvin <s@muelcolvin.com>, Eric Jolibois <em.jolibois@gmail.com>, Hasan Ramezani <hasan.r67@gmail.com>
License: MIT
Location: /home/dev/src/notify-hub/.venv/lib/python3.12/site-packages
Requires: pydantic, python-dotenv
Required-by: 
"""),
])

R = f"{HOME}/src/storefront"
noise("npm-ls-tree", "npm ls with deduped entries", R, [
    bash("npm ls react", "Which react versions are installed", """\
storefront@0.4.0 /home/dev/src/storefront
├─┬ @tanstack/react-query@5.45.1
│ └── react@18.3.1 deduped
├─┬ @testing-library/react@16.0.0
│ └── react@18.3.1 deduped
├─┬ react-dom@18.3.1
│ └── react@18.3.1 deduped
├─┬ react-router-dom@6.23.1
│ ├─┬ react-router@6.23.1
│ │ └── react@18.3.1 deduped
│ └── react@18.3.1 deduped
└── react@18.3.1
"""),
])

R = f"{HOME}/src/infra/charts"
noise("helm-lint-info", "helm lint with its routine [INFO] recommendation", R, [
    bash("helm lint ./search", "Lint the chart", """\
==> Linting ./search
[INFO] Chart.yaml: icon is recommended

1 chart(s) linted, 0 chart(s) failed
"""),
])

R = f"{HOME}/src/feedsync"
noise("cargo-tree-duplicates", "duplicate crate versions listing", R, [
    bash("cargo tree -d --depth 1", "Find duplicate dependency versions", """\
base64 v0.21.7
└── reqwest v0.12.5
    └── feedsync v0.3.1 (/home/dev/src/feedsync)

base64 v0.22.1
└── rustls-pemfile v2.1.2
    └── reqwest v0.12.5 (*)

syn v1.0.109
└── clap_derive v4.5.5 (proc-macro)
    └── clap v4.5.7

syn v2.0.68
├── serde_derive v1.0.203 (proc-macro)
└── tokio-macros v2.3.0 (proc-macro)
"""),
])

R = f"{HOME}/src/scheduler"
noise("go-mod-why", "go mod why", R, [
    bash("go mod why -m golang.org/x/sys", "Why is x/sys required", """\
# golang.org/x/sys
github.com/acme/scheduler/internal/runner
github.com/fsnotify/fsnotify
golang.org/x/sys/unix
"""),
])

R = f"{HOME}/src/httpkit-py"
noise("rg-important-in-docs", "ripgrep hits for IMPORTANT in existing docs", R, [
    bash("rg -n 'IMPORTANT|Important' docs/", "Find important notes in docs", """\
docs/migrating-to-2.md:3:**Important:** 2.0 drops the synchronous `requests` backend.
docs/migrating-to-2.md:41:IMPORTANT: `timeout=` is now the total request timeout, not the read timeout.
docs/retries.md:18:> Important: retries are only attempted for idempotent methods unless `retry_unsafe=True`.
docs/pagination.md:7:Important: `iter_all()` follows `Link` headers; cursor APIs need `paginator=CursorPaginator`.
"""),
])

R = f"{HOME}/src/ledger-api"
noise("ps-aux-grep", "process listing", R, [
    bash("ps aux | grep -E 'uvicorn|celery' | grep -v grep", "Find running app processes", """\
dev       41822  0.8  0.6 312044 98412 pts/3    Sl+  09:12   0:41 /home/dev/src/ledger-api/.venv/bin/python /home/dev/src/ledger-api/.venv/bin/uvicorn app.main:app --reload --port 8000
dev       41851  0.1  0.4 287332 71208 pts/3    S+   09:12   0:05 /home/dev/src/ledger-api/.venv/bin/python -c from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5, pipe_handle=7) --multiprocessing-fork
dev       42019  0.3  0.7 331876 112004 pts/4   Sl+  09:13   0:14 /home/dev/src/ledger-api/.venv/bin/python /home/dev/src/ledger-api/.venv/bin/celery -A app.worker worker -l info
"""),
])

R = f"{HOME}/src/ledger-api"
noise("lsof-port", "port owner", R, [
    bash("lsof -iTCP:8000 -sTCP:LISTEN -n -P", "Who listens on 8000", """\
COMMAND   PID USER   FD   TYPE  DEVICE SIZE/OFF NODE NAME
python  41822  dev    3u  IPv4 1182734      0t0  TCP 127.0.0.1:8000 (LISTEN)
"""),
])

R = f"{HOME}/src/httpkit-py"
noise("pytest-own-deprecation-shim-tests",
      "the library's own tests deliberately call its deprecated fetch_all() shim; warnings are expected, nothing learned", R, [
    bash("pytest -q -W default tests/test_client.py", "Run client tests", """\
.............................                                            [100%]
=============================== warnings summary ===============================
tests/test_client.py::test_fetch_all_still_works
  /home/dev/src/httpkit-py/tests/test_client.py:88: DeprecationWarning: Client.fetch_all() is deprecated; use Client.iter_all() instead. It will be removed in httpkit 3.0.
    items = client.fetch_all("/items")

tests/test_client.py::test_verify_ssl_alias
  /home/dev/src/httpkit-py/tests/test_client.py:102: DeprecationWarning: 'verify_ssl' is deprecated, use 'verify'
    Client(base_url=BASE, verify_ssl=False)

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
29 passed, 2 warnings in 0.52s
"""),
])

R = f"{HOME}/src/catalog-api"
noise("pytest-pass-deprecated-in-test-names", "passing run whose test ids contain 'deprecated' and 'workaround'", R, [
    bash("pytest -v tests/api/test_v1_compat.py", "Run v1 compatibility tests", pytest_head(R, 7) + """\
tests/api/test_v1_compat.py::test_deprecated_v1_products_returns_410 PASSED [ 14%]
tests/api/test_v1_compat.py::test_deprecated_v1_search_redirects PASSED  [ 28%]
tests/api/test_v1_compat.py::test_sunset_header_on_deprecated_routes PASSED [ 42%]
tests/api/test_v1_compat.py::test_deprecation_header_format PASSED       [ 57%]
tests/api/test_v1_compat.py::test_legacy_client_workaround_header PASSED [ 71%]
tests/api/test_v1_compat.py::test_v2_unaffected PASSED                   [ 85%]
tests/api/test_v1_compat.py::test_note_field_passthrough PASSED          [100%]

============================== 7 passed in 0.63s ===============================
"""),
])

R = f"{HOME}/src/blog-django"
noise("django-migrate-ok", "django migrate output", R, [
    bash("python manage.py migrate", "Apply Django migrations", """\
Operations to perform:
  Apply all migrations: admin, auth, blog, contenttypes, sessions, taggit
Running migrations:
  Applying blog.0014_post_reading_time... OK
  Applying blog.0015_alter_post_slug_unique... OK
  Applying taggit.0006_rename_taggeditem_content_type_object_id_taggit_tagg_content_8fc721_idx... OK
"""),
])

R = f"{HOME}/src/blog-django"
noise("django-check-ok", "django system check", R, [
    bash("python manage.py check --deploy --fail-level ERROR", "Run Django deploy checks", """\
System check identified some issues:

WARNINGS:
?: (security.W004) You have not set a value for the SECURE_HSTS_SECONDS setting. If your entire site is served only over SSL, you may want to consider setting a value and enabling HTTP Strict Transport Security. Be sure to read the documentation first; enabling HSTS carelessly can cause serious, irreversible problems.
?: (security.W008) Your SECURE_SSL_REDIRECT setting is not set to True. Unless your site should be available over both SSL and non-SSL connections, you may want to either set this setting True or configure a load balancer or reverse-proxy server to redirect all connections to HTTPS.

System check identified 2 issues (0 silenced).
"""),
])

R = f"{HOME}/src/shipping-rails"
noise("rspec-pass", "passing rspec run", R, [
    bash("bundle exec rspec", "Run the spec suite", """\
Randomized with seed 40211
..............................................................................
.....................................*...........

Pending: (Failures listed here are expected and do not affect your suite's status)

  1) Carriers::Dhl#track returns events in order
     # Waiting on DHL sandbox credentials for the new API
     # ./spec/carriers/dhl_spec.rb:42


Finished in 6.41 seconds (files took 2.12 seconds to load)
127 examples, 0 failures, 1 pending

Randomized with seed 40211

"""),
])

R = f"{HOME}/src/invoicing-dotnet"
noise("dotnet-build-ok", "dotnet build success", R, [
    bash("dotnet build -c Release", "Build the solution", """\
MSBuild version 17.10.4+10fbfbf2e for .NET
  Determining projects to restore...
  All projects are up-to-date for restore.
  Invoicing.Domain -> /home/dev/src/invoicing-dotnet/src/Invoicing.Domain/bin/Release/net8.0/Invoicing.Domain.dll
  Invoicing.Infrastructure -> /home/dev/src/invoicing-dotnet/src/Invoicing.Infrastructure/bin/Release/net8.0/Invoicing.Infrastructure.dll
  Invoicing.Api -> /home/dev/src/invoicing-dotnet/src/Invoicing.Api/bin/Release/net8.0/Invoicing.Api.dll
  Invoicing.Tests -> /home/dev/src/invoicing-dotnet/tests/Invoicing.Tests/bin/Release/net8.0/Invoicing.Tests.dll

Build succeeded.
    0 Warning(s)
    0 Error(s)

Time Elapsed 00:00:09.48
"""),
])

R = f"{HOME}/src/invoicing-dotnet"
noise("dotnet-test-ok", "dotnet test success", R, [
    bash("dotnet test --no-build -c Release", "Run .NET tests", """\
Test run for /home/dev/src/invoicing-dotnet/tests/Invoicing.Tests/bin/Release/net8.0/Invoicing.Tests.dll (.NETCoreApp,Version=v8.0)
Microsoft (R) Test Execution Command Line Tool Version 17.10.0 (x64)
Copyright (c) Microsoft Corporation.  All rights reserved.

Starting test execution, please wait...
A total of 1 test files matched the specified pattern.

Passed!  - Failed:     0, Passed:    84, Skipped:     0, Total:    84, Duration: 1 s - Invoicing.Tests.dll (net8.0)
"""),
])

R = f"{HOME}/src/blog-django"
noise("pre-commit-all-passed", "pre-commit hooks all pass", R, [
    bash("pre-commit run --all-files", "Run pre-commit hooks", """\
trim trailing whitespace.................................................Passed
fix end of files.........................................................Passed
check yaml...............................................................Passed
check for added large files..............................................Passed
ruff.....................................................................Passed
ruff-format..............................................................Passed
djlint...................................................................Passed
mypy.....................................................................Passed
"""),
])

R = f"{HOME}/src/etl"
noise("black-check-unchanged", "black --check clean", R, [
    bash("black --check src tests", "Check formatting", stderr="All done! ✨ 🍰 ✨\n42 files would be left unchanged.\n"),
])

R = f"{HOME}/src/pricing"
noise("coverage-report", "coverage report table", R, [
    bash("coverage report -m --skip-covered", "Show coverage", """\
Name                        Stmts   Miss  Cover   Missing
---------------------------------------------------------
src/pricing/currency.py        64      3    95%   88-90
src/pricing/engine.py         141     11    92%   203-209, 244, 251-253
src/pricing/tiers.py           38      2    95%   51, 60
---------------------------------------------------------
TOTAL                         402     16    96%

6 files skipped due to complete coverage.
"""),
])

R = f"{HOME}/src/storefront"
noise("gh-pr-view-note-in-body", "reading an existing PR whose description has 'Note:' and 'Important' lines", R, [
    bash("gh pr view 412", "Read the PR", """\
feat: order history page #412
Open • mkowalski wants to merge 6 commits into main from feat/order-history • about 1 day ago
+418 -37 • ✓ Checks passing
Reviewers: ana-ux (Requested), dev (Commented)
Labels: frontend, needs-design-review


  ## What
  
  Adds `/account/orders` with a paginated list of past orders.
  
  ## Notes
  
  - Note: the API still returns totals in minor units; formatting happens in `formatMoney`.
  - Important: this depends on the backend PR acme/shop-backend#233 being deployed first.
  - Empty state copy is a placeholder until design signs off.


View this pull request on GitHub: https://github.com/acme/storefront/pull/412
"""),
])

R = f"{HOME}/src/storefront"
noise("gh-run-list", "CI runs listing", R, [
    bash("gh run list --limit 6", "Recent CI runs", """\
STATUS  TITLE                                  WORKFLOW  BRANCH              EVENT        ID          ELAPSED  AGE
✓       feat: order history page               CI        feat/order-history  pull_request 9536120447  3m41s    about 12 minutes ago
✓       fix: round cart totals half-even       CI        fix/cart-rounding   pull_request 9535001238  3m12s    about 1 hour ago
✓       chore(deps): bump vite to 5.3.1        CI        main                push         9533877120  3m55s    about 3 hours ago
X       chore(deps): bump vite to 5.3.1        CI        renovate/vite-5.x   pull_request 9533410982  1m02s    about 3 hours ago
✓       feat: product card skeletons           CI        main                push         9529914477  3m48s    about 1 day ago
✓       feat: product card skeletons           CI        feat/skeletons      pull_request 9529302210  3m44s    about 1 day ago
"""),
])

R = f"{HOME}/src/design-system"
noise("pnpm-install-ok", "pnpm install with peer warnings summary", R, [
    bash("pnpm install", "Install dependencies", """\
Lockfile is up to date, resolution step is skipped
Packages: +1184
++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++
Progress: resolved 1184, reused 1179, downloaded 5, added 1184, done
 WARN  Issues with peer dependencies found
.
└─┬ @storybook/addon-essentials 8.1.10
  └─┬ @storybook/addon-docs 8.1.10
    └── ✕ unmet peer react@"^16.8.0 || ^17.0.0 || ^18.0.0": found 19.0.0-rc-fb9a90fa48-20240614

dependencies:
+ clsx 2.1.1
+ react 19.0.0-rc-fb9a90fa48-20240614

devDependencies:
+ @storybook/react-vite 8.1.10
+ typescript 5.4.5
+ vitest 1.6.0

Done in 7.4s
"""),
])

R = f"{HOME}/src/blog-django"
noise("poetry-install-nothing", "poetry install no-op", R, [
    bash("poetry install --sync", "Sync dependencies", """\
Installing dependencies from lock file

No dependencies to install or update

Installing the current project: blog-django (1.7.0)
"""),
])

R = f"{HOME}/src/forecast"
noise("uv-pip-compile", "uv pip compile output with via comments", R, [
    bash("uv pip compile pyproject.toml -o requirements.lock", "Compile the lock file", stdout="""\
# This file was autogenerated by uv via the following command:
#    uv pip compile pyproject.toml -o requirements.lock
numpy==2.0.0
    # via
    #   forecast (pyproject.toml)
    #   pandas
    #   patsy
    #   scipy
    #   statsmodels
packaging==24.1
    # via statsmodels
pandas==2.2.2
    # via
    #   forecast (pyproject.toml)
    #   statsmodels
patsy==0.5.6
    # via statsmodels
python-dateutil==2.9.0.post0
    # via pandas
pytz==2024.1
    # via pandas
scipy==1.14.0
    # via
    #   forecast (pyproject.toml)
    #   statsmodels
six==1.16.0
    # via
    #   patsy
    #   python-dateutil
statsmodels==0.14.2
    # via forecast (pyproject.toml)
tzdata==2024.1
    # via pandas
""", stderr="Resolved 12 packages in 418ms\n"),
])

R = f"{HOME}/src/vendor-feeds"
noise("pytest-xfail-known-upstream", "passing run with an xfail whose reason mentions a workaround pending upstream", R, [
    bash("pytest -rxs -q", "Run tests with skip/xfail reasons", """\
.............................x....s.....                                 [100%]
=========================== short test summary info ============================
SKIPPED [1] tests/test_sftp.py:51: needs SFTP_TEST_HOST
XFAIL tests/test_parsers.py::test_northwind_price_with_thousands_separator - vendor sends '1.234,50'; workaround pending their fix (ticket NW-2231)
38 passed, 1 skipped, 1 xfailed in 1.92s
"""),
])


def _gha_log():
    lines = []
    ts = 0

    def L(s):
        nonlocal ts
        ts += 1
        lines.append(f"2024-06-18T08:{12 + ts // 60:02d}:{ts % 60:02d}.{(ts * 7919) % 10000000:07d}Z {s}")
    L("##[group]Run actions/checkout@v4")
    L("with:")
    L("  repository: acme/ledger-api")
    L("  fetch-depth: 1")
    L("##[endgroup]")
    L("Syncing repository: acme/ledger-api")
    L("Fetching the repository")
    L("[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +8b0e51c2d9af:refs/remotes/origin/main")
    L("Determining the checkout info")
    L("[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main")
    L("##[group]Run actions/setup-python@v5")
    L("Installed versions")
    L("  Successfully set up CPython (3.11.9)")
    L("##[endgroup]")
    L("##[group]Run pip install -r requirements.txt -r requirements-dev.txt")
    for pkg in ["fastapi-0.111.0", "uvicorn-0.30.1", "sqlalchemy-2.0.31", "psycopg2_binary-2.9.9", "alembic-1.13.2",
                "pydantic_settings-2.3.4", "pytest-8.2.2", "pytest_cov-5.0.0", "httpx-0.27.0", "ruff-0.4.9",
                "mypy-1.10.0", "anyio-4.4.0", "starlette-0.37.2", "pydantic-2.7.4", "pydantic_core-2.18.4"]:
        L(f"Collecting {pkg.rsplit('-', 1)[0].replace('_', '-')}=={pkg.rsplit('-', 1)[1]}")
        L(f"  Downloading {pkg}-py3-none-any.whl.metadata")
    L("Installing collected packages: ...")
    L("Successfully installed alembic-1.13.2 anyio-4.4.0 fastapi-0.111.0 httpx-0.27.0 mypy-1.10.0 psycopg2-binary-2.9.9 pydantic-2.7.4 pydantic-core-2.18.4 pydantic-settings-2.3.4 pytest-8.2.2 pytest-cov-5.0.0 ruff-0.4.9 sqlalchemy-2.0.31 starlette-0.37.2 uvicorn-0.30.1")
    L("##[endgroup]")
    L("##[group]Run ruff check . && mypy app")
    L("All checks passed!")
    L("Success: no issues found in 38 source files")
    L("##[endgroup]")
    L("##[group]Run pytest --cov=app --cov-report=term-missing:skip-covered")
    L("============================= test session starts ==============================")
    L("platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0")
    L("rootdir: /home/runner/work/ledger-api/ledger-api")
    L("configfile: pyproject.toml")
    L("plugins: anyio-4.4.0, cov-5.0.0")
    L("collected 146 items")
    L("")
    for f, n in [("tests/test_accounts.py", 18), ("tests/test_auth.py", 22), ("tests/test_entries.py", 41),
                 ("tests/test_health.py", 4), ("tests/test_pagination.py", 16), ("tests/test_reports.py", 27),
                 ("tests/test_service_tokens.py", 18)]:
        L(f"{f} " + "." * n)
    L("")
    L("---------- coverage: platform linux, python 3.11.9-final-0 -----------")
    L("Name                      Stmts   Miss  Cover   Missing")
    L("-------------------------------------------------------")
    L("app/routers/export.py        61      7    89%   71-77")
    L("app/services/reports.py     118      9    92%   140-148")
    L("-------------------------------------------------------")
    L("TOTAL                      1204     16    99%")
    L("")
    L("============================= 146 passed in 9.81s ==============================")
    L("##[endgroup]")
    L("Post job cleanup.")
    L("[command]/usr/bin/git version")
    L("git version 2.45.2")
    L("Cleaning up orphan processes")
    return "\n".join(lines) + "\n"


R = f"{HOME}/src/ledger-api"
noise("gh-run-view-log-success", "long raw GitHub Actions log of a green run", R, [
    bash("gh run view 9536120447 --log | cut -f3-", "Read the CI log", _gha_log()),
])

R = f"{HOME}/src/ledger-api"
noise("journalctl-service", "systemd journal lines for a healthy service", R, [
    bash("journalctl -u ledger-worker --since '10 min ago' --no-pager | tail -8", "Check the worker service", """\
Jun 18 10:12:01 build-01 systemd[1]: Started ledger-worker.service - Ledger background worker.
Jun 18 10:12:02 build-01 ledger-worker[88120]: [2024-06-18 10:12:02,114: INFO/MainProcess] Connected to redis://localhost:6379/0
Jun 18 10:12:02 build-01 ledger-worker[88120]: [2024-06-18 10:12:02,131: INFO/MainProcess] mingle: searching for neighbors
Jun 18 10:12:03 build-01 ledger-worker[88120]: [2024-06-18 10:12:03,140: INFO/MainProcess] mingle: all alone
Jun 18 10:12:03 build-01 ledger-worker[88120]: [2024-06-18 10:12:03,162: INFO/MainProcess] celery@build-01 ready.
Jun 18 10:15:00 build-01 ledger-worker[88120]: [2024-06-18 10:15:00,002: INFO/MainProcess] Task app.tasks.reconcile[6f0c...] received
Jun 18 10:15:01 build-01 ledger-worker[88120]: [2024-06-18 10:15:01,877: INFO/ForkPoolWorker-2] Task app.tasks.reconcile[6f0c...] succeeded in 1.87s: {'matched': 412, 'unmatched': 0}
"""),
])

R = f"{HOME}/src/infra"
noise("openssl-cert-dates", "certificate dates", R, [
    bash("echo | openssl s_client -connect api.acme.dev:443 -servername api.acme.dev 2>/dev/null | openssl x509 -noout -subject -issuer -dates",
         "Check the API certificate", """\
subject=CN = api.acme.dev
issuer=C = US, O = Let's Encrypt, CN = R11
notBefore=May 28 06:14:09 2024 GMT
notAfter=Aug 26 06:14:08 2024 GMT
"""),
])

R = f"{HOME}/src/storefront"
noise("node-e-print", "one-off node evaluation", R, [
    bash("node -e \"console.log(new Intl.NumberFormat('de-DE', {style:'currency', currency:'EUR'}).format(1234.5))\"",
         "Check EUR formatting in de-DE", "1.234,50 €\n"),
])

R = f"{HOME}/src/media-uploader"
noise("aws-s3-ls", "bucket listing", R, [
    bash("aws s3 ls s3://acme-staging-assets/uploads/2024/06/ --human-readable | tail -5", "List recent uploads", """\
2024-06-17 16:02:11  412.3 KiB 8f1c2e3d-hero.webp
2024-06-17 16:02:12   88.9 KiB 8f1c2e3d-thumb.webp
2024-06-18 09:14:40    1.9 MiB a0b1c2d3-catalog.pdf
2024-06-18 09:20:03  301.7 KiB c4d5e6f7-banner.webp
2024-06-18 09:20:04   61.2 KiB c4d5e6f7-thumb.webp
"""),
])

R = f"{HOME}/src/ledger-api"
noise("docker-exec-psql-dt", "listing tables", R, [
    bash("docker compose exec -T db psql -U postgres -d ledger -c '\\dt'", "List tables", """\
              List of relations
 Schema |      Name       | Type  |  Owner   
--------+-----------------+-------+----------
 public | accounts        | table | ledger
 public | alembic_version | table | ledger
 public | entries         | table | ledger
 public | service_tokens  | table | ledger
 public | users           | table | ledger
(5 rows)

"""),
])

R = f"{HOME}/src/infra/envs/prod"
noise("terraform-fmt-validate-clean", "fmt + validate clean", R, [
    bash("terraform fmt -check -recursive && terraform validate", "Check formatting and validate", "Success! The configuration is valid.\n\n"),
])

R = f"{HOME}/src/catalog-api"
noise("redis-cli-info", "redis info", R, [
    bash("redis-cli info memory | grep -E 'used_memory_human|maxmemory_human|maxmemory_policy|mem_fragmentation_ratio'", "Check redis memory", """\
used_memory_human:48.21M
maxmemory_human:512.00M
maxmemory_policy:allkeys-lru
mem_fragmentation_ratio:1.12
"""),
])

R = f"{HOME}/src/logtail"
noise("cargo-fmt-check-clean", "fmt check clean", R, [
    bash("cargo fmt --check && echo formatted", "Check formatting", "formatted\n"),
])

R = f"{HOME}/src/storefront"
noise("git-remote-tags", "remotes and tags", R, [
    bash("git remote -v && git tag --sort=-v:refname | head -5", "Show remotes and latest tags", """\
origin	git@github.com:acme/storefront.git (fetch)
origin	git@github.com:acme/storefront.git (push)
v0.4.0
v0.3.2
v0.3.1
v0.3.0
v0.2.0
"""),
])

R = f"{HOME}/src/analytics-reports"
noise("head-csv", "first lines of a CSV", R, [
    bash("head -5 /tmp/w24.csv", "Preview the report", """\
region,SKU-1001,SKU-1002,SKU-1040,SKU-2210
DE,18234.5,9021.0,,4410.25
FR,12001.75,7740.5,1203.0,3988.0
NL,6120.0,2211.25,,1502.5
PL,4410.5,1980.0,640.0,
"""),
])

R = f"{HOME}/src/ml-assets"
noise("du-sh", "directory sizes", R, [
    bash("du -sh seg/* | sort -h | tail -5", "Largest files", """\
3.1K	seg/labels-v3.json
104M	seg/unet-r50-v3.int8.onnx
396M	seg/unet-r50-v2.onnx
412M	seg/unet-r50-v3.onnx
"""),
])

R = f"{HOME}/src/kvstore"
noise("go-bench", "benchmark output", R, [
    bash("go test -run '^$' -bench . -benchmem ./internal/wal", "Run WAL benchmarks", """\
goos: linux
goarch: amd64
pkg: github.com/acme/kvstore/internal/wal
cpu: AMD Ryzen 9 7950X 16-Core Processor
BenchmarkAppend/64B-32         	 2847261	       418.2 ns/op	     153.04 MB/s	      80 B/op	       1 allocs/op
BenchmarkAppend/1KiB-32        	  918344	      1302 ns/op	     786.41 MB/s	    1040 B/op	       1 allocs/op
BenchmarkAppend/16KiB-32       	   88120	     13611 ns/op	    1203.71 MB/s	   16400 B/op	       1 allocs/op
BenchmarkReplay-32             	     241	   4961022 ns/op	  211.37 MB/s	 1204331 B/op	   10012 allocs/op
PASS
ok  	github.com/acme/kvstore/internal/wal	6.412s
"""),
])

R = f"{HOME}/src/infra/k8s"
noise("kubectl-describe-deploy-healthy", "describe of a healthy deployment", R, [
    bash("kubectl -n payments describe deploy payments-api | sed -n '1,25p'", "Describe the deployment", """\
Name:                   payments-api
Namespace:              payments
CreationTimestamp:      Mon, 04 Mar 2024 11:20:31 +0100
Labels:                 app=payments-api
Annotations:            deployment.kubernetes.io/revision: 37
Selector:               app=payments-api
Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:           app=payments-api
  Service Account:  payments-api
  Containers:
   api:
    Image:      ghcr.io/acme/payments-api:2.14.0
    Port:       8080/TCP
    Limits:
      memory:  512Mi
    Requests:
      cpu:      100m
      memory:   256Mi
    Liveness:   http-get http://:8080/health delay=5s timeout=1s period=10s #success=1 #failure=3
    Readiness:  http-get http://:8080/ready delay=5s timeout=1s period=5s #success=1 #failure=3
"""),
])

# =========================================================================
# NOISE: failures that teach nothing (typos, expected non-zero exits,
# red-green TDD, mechanical fixes, failures never resolved)
# =========================================================================
R = f"{HOME}/src/storefront"
noise("typo-gti-status", "command typo fixed on the next call", R, [
    bash_fail("gti status", "Check working tree", "/bin/bash: line 1: gti: command not found\n", code=127),
    bash("git status -sb", "Check working tree", "## feat/order-history...origin/feat/order-history [ahead 2]\n M src/components/OrderList.tsx\n"),
])

R = f"{HOME}/src/pricing"
noise("typo-pytset", "typo'd pytest, then the real run passes", R, [
    bash_fail("pytset -q", "Run tests", "/bin/bash: line 1: pytset: command not found\n", code=127),
    bash("pytest -q", "Run tests", "........................................................................ [ 55%]\n.........................................................                [100%]\n129 passed in 2.77s\n"),
])

R = f"{HOME}/src/dashboard"
noise("typo-npm-rn", "npm subcommand typo", R, [
    bash_fail("npm rn test", "Run tests", """\
Unknown command: "rn"

Did you mean this?
    npm run # Run arbitrary package scripts
To see a list of supported npm commands, run:
  npm help
"""),
    bash("npm run test -- --run", "Run tests", "\n> dashboard@1.3.0 test\n> vitest --run\n\n\n RUN  v1.6.0 /home/dev/src/dashboard\n\n ✓ src/utils/format.test.ts (9)\n ✓ src/utils/dates.test.ts (12)\n ✓ src/store/filters.test.ts (7)\n ✓ src/components/Chart.test.tsx (4)\n ✓ src/components/KpiTile.test.tsx (6)\n\n Test Files  5 passed (5)\n      Tests  38 passed (38)\n   Start at  14:20:09\n   Duration  2.98s\n\n"),
])

R = f"{HOME}/src/etl"
noise("typo-cd-srcc", "cd into a mistyped directory", R, [
    bash_fail("cd srcc && ls", "List sources", "/bin/bash: line 1: cd: srcc: No such file or directory\n"),
    bash("cd src && ls", "List sources", "ingest\ntransform\nload\n"),
])

R = f"{HOME}/src/ledger-api"
noise("typo-dokcer-ps", "docker typo", R, [
    bash_fail("dokcer ps", "List containers", "/bin/bash: line 1: dokcer: command not found\n", code=127),
    bash("docker ps --format '{{.Names}}'", "List containers", "ledger-api-api-1\nledger-api-db-1\n"),
])

R = f"{HOME}/src/storefront"
noise("grep-no-match-exit-1", "grep exits 1 when nothing matches; that's the answer, not an error", R, [
    bash_fail("grep -rn 'useLegacyCart' src/", "Check for remaining legacy hook usages", ""),
])

R = f"{HOME}/src/forecast"
noise("diff-exit-1", "diff returns 1 when files differ", R, [
    bash_fail("diff <(sort expected/holidays.csv) <(sort out/holidays.csv)", "Compare generated holidays", """\
14a15
> 2024-10-03,DE,Tag der Deutschen Einheit
22d22
< 2024-12-26,PL,Drugi dzien Bozego Narodzenia
"""),
])

R = f"{HOME}/src/imgproc"
noise("test-f-missing", "existence probe returns 1", R, [
    bash_fail("test -f testdata/large/panorama.tif", "Check whether the large fixture is present", ""),
])

R = f"{HOME}/src/pricing"
noise("pytest-failure-never-fixed", "a failing assertion shown once; the sequence ends without a fix or a stated blocker", R, [
    bash_fail("pytest -q tests/test_tiers.py", "Run tier tests", """\
...F.                                                                    [100%]
=================================== FAILURES ===================================
__________________________ test_boundary_quantity[100] __________________________

qty = 100

    @pytest.mark.parametrize("qty", [99, 100, 101])
    def test_boundary_quantity(qty):
        tiers = [Tier(min_qty=1, pct=0), Tier(min_qty=100, pct=5), Tier(min_qty=500, pct=10)]
        expected = 5 if qty >= 100 else 0
>       assert discount_for(qty, tiers) == expected
E       assert 0 == 5
E        +  where 0 = discount_for(100, [Tier(min_qty=1, pct=0), Tier(min_qty=100, pct=5), Tier(min_qty=500, pct=10)])

tests/test_tiers.py:21: AssertionError
=========================== short test summary info ============================
FAILED tests/test_tiers.py::test_boundary_quantity[100] - assert 0 == 5
1 failed, 4 passed in 0.22s
"""),
])

R = f"{HOME}/src/storefront"
noise("jest-failure-never-fixed", "failing jest test, no fix in the sequence", R, [
    bash_fail("npx jest src/lib/money.test.ts", "Run money tests", """\
FAIL src/lib/money.test.ts
  formatMoney
    ✓ formats EUR (4 ms)
    ✓ formats USD (1 ms)
    ✕ formats JPY without decimals (5 ms)

  ● formatMoney › formats JPY without decimals

    expect(received).toBe(expected) // Object.is equality

    Expected: "¥1,235"
    Received: "¥1,234.50"

      18 |
      19 |   it('formats JPY without decimals', () => {
    > 20 |     expect(formatMoney({ amount: 123450, currency: 'JPY' })).toBe('¥1,235');
         |                                                              ^
      21 |   });
      22 | });

      at Object.<anonymous> (src/lib/money.test.ts:20:62)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 2 passed, 3 total
Snapshots:   0 total
Time:        0.912 s
Ran all test suites matching /src\\/lib\\/money.test.ts/i.
"""),
])

R = f"{HOME}/src/dashboard"
noise("git-diff-exit-code", "git diff --exit-code returns 1 when there are changes", R, [
    bash_fail("git diff --exit-code --stat", "Check for uncommitted changes", " src/store/filters.ts | 6 +++---\n 1 file changed, 3 insertions(+), 3 deletions(-)\n"),
])

R = f"{HOME}/src/forecast"
noise("ruff-format-check-then-format", "formatter check fails, formatter run, check passes: mechanical", R, [
    bash_fail("ruff format --check .", "Check formatting", "Would reformat: src/forecast/models/ets.py\nWould reformat: tests/test_ets.py\n2 files would be reformatted, 25 files already formatted\n"),
    bash("ruff format . && ruff format --check .", "Format and re-check", "2 files reformatted, 25 files left unchanged\n27 files already formatted\n"),
])

R = f"{HOME}/src/scheduler"
noise("go-missing-go-sum-tidy", "missing go.sum entry after adding an import; go mod tidy is the routine step", R, [
    bash_fail("go build ./...", "Build", """\
internal/runner/runner.go:12:2: missing go.sum entry for module providing package github.com/robfig/cron/v3 (imported by github.com/acme/scheduler/internal/runner); to add:
	go get github.com/acme/scheduler/internal/runner
"""),
    bash("go mod tidy && go build ./...", "Tidy and build", stderr="go: finding module for package github.com/robfig/cron/v3\ngo: found github.com/robfig/cron/v3 in github.com/robfig/cron/v3 v3.0.1\n"),
])

R = f"{HOME}/src/etl"
noise("tdd-red-green-pytest", "test written first fails with AttributeError, then implemented: an expected red phase", R, [
    write(f"{R}/tests/test_slug.py", """\
from transform.text import slugify


def test_slugify_basic():
    assert slugify("Hello, World!") == "hello-world"


def test_slugify_collapses_dashes():
    assert slugify("a  --  b") == "a-b"


def test_slugify_strips_accents():
    assert slugify("Crème brûlée") == "creme-brulee"
"""),
    bash_fail("pytest -q tests/test_slug.py", "Run the new tests (expect red)", """\

==================================== ERRORS ====================================
_____________________ ERROR collecting tests/test_slug.py ______________________
ImportError while importing test module '/home/dev/src/etl/tests/test_slug.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_slug.py:1: in <module>
    from transform.text import slugify
E   ImportError: cannot import name 'slugify' from 'transform.text' (/home/dev/src/etl/src/transform/text.py)
=========================== short test summary info ============================
ERROR tests/test_slug.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
1 error in 0.14s
""", code=2),
    edit(f"{R}/src/transform/text.py", "import re\n", "import re\nimport unicodedata\n\n\ndef slugify(value: str) -> str:\n    value = unicodedata.normalize(\"NFKD\", value).encode(\"ascii\", \"ignore\").decode()\n    value = re.sub(r\"[^\\w\\s-]\", \"\", value).strip().lower()\n    return re.sub(r\"[-\\s]+\", \"-\", value)\n", line=1),
    bash("pytest -q tests/test_slug.py", "Run the new tests", "...                                                                      [100%]\n3 passed in 0.03s\n"),
])

R = f"{HOME}/src/storefront"
noise("tdd-red-green-jest", "new module missing until written: expected red phase", R, [
    bash_fail("npx jest src/lib/pluralize.test.ts", "Run the new test (expect red)", """\
FAIL src/lib/pluralize.test.ts
  ● Test suite failed to run

    Cannot find module './pluralize' from 'src/lib/pluralize.test.ts'

    > 1 | import { pluralize } from './pluralize';
        | ^
      2 |
      3 | describe('pluralize', () => {
      4 |   it('uses the singular for 1', () => {

      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)
      at Object.<anonymous> (src/lib/pluralize.test.ts:1:1)

Test Suites: 1 failed, 1 total
Tests:       0 total
Snapshots:   0 total
Time:        0.702 s
"""),
    write(f"{R}/src/lib/pluralize.ts", """\
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
"""),
    bash("npx jest src/lib/pluralize.test.ts", "Run the new test", stderr="PASS src/lib/pluralize.test.ts\n  pluralize\n    ✓ uses the singular for 1 (2 ms)\n    ✓ uses the plural otherwise\n    ✓ accepts an irregular plural (1 ms)\n\nTest Suites: 1 passed, 1 total\nTests:       3 passed, 3 total\nSnapshots:   0 total\nTime:        0.644 s\n"),
])

R = f"{HOME}/src/storefront"
noise("git-push-fetch-first-rebase", "push rejected because origin moved; pull --rebase is routine", R, [
    bash_fail("git push", "Push the branch", """\
To github.com:acme/storefront.git
 ! [rejected]        feat/order-history -> feat/order-history (fetch first)
error: failed to push some refs to 'github.com:acme/storefront.git'
hint: Updates were rejected because the remote contains work that you do not
hint: have locally. This is usually caused by another repository pushing to
hint: the same ref. If you want to integrate the remote changes, use
hint: 'git pull' before pushing again.
hint: See the 'Note about fast-forwards' in 'git push --help' for details.
"""),
    bash("git pull --rebase && git push", "Rebase on the remote branch and push", stdout="Successfully rebased and updated refs/heads/feat/order-history.\n",
         stderr="From github.com:acme/storefront\n   4f2a1b3..c9d8e7f  feat/order-history -> origin/feat/order-history\nTo github.com:acme/storefront.git\n   c9d8e7f..1a2b3c4  feat/order-history -> feat/order-history\n"),
])

R = f"{HOME}/src/ledger-api"
noise("alembic-not-up-to-date-upgrade", "autogenerate refuses until the DB is at head; running upgrade is the routine step", R, [
    bash_fail("alembic revision --autogenerate -m 'add entry tags'", "Generate a migration", """\
INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
ERROR [alembic.util.messaging] Target database is not up to date.
  FAILED: Target database is not up to date.
"""),
    bash("alembic upgrade head && alembic revision --autogenerate -m 'add entry tags'", "Upgrade, then generate", """\
INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
INFO  [alembic.runtime.migration] Running upgrade 3f2a9c1d7e44 -> 8b0e51c2d9af, add entry memo
INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
INFO  [alembic.autogenerate.compare] Detected added table 'entry_tags'
INFO  [alembic.autogenerate.compare] Detected added index ''ix_entry_tags_entry_id'' on '('entry_id',)'
  Generating /home/dev/src/ledger-api/alembic/versions/c41d7e2a9b10_add_entry_tags.py ...  done
"""),
])

R = f"{HOME}/src/accounts-api"
noise("npm-ci-lock-out-of-sync-install", "npm ci refuses an out-of-sync lock after a manual package.json edit; npm install regenerates it", R, [
    bash_fail("npm ci", "Clean install", """\
npm ERR! code EUSAGE
npm ERR!
npm ERR! `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.
npm ERR!
npm ERR! Missing: zod@3.23.8 from lock file
npm ERR!
npm ERR! Clean install a project
npm ERR!
npm ERR! Usage:
npm ERR! npm ci
npm ERR!
npm ERR! Options:
npm ERR! [--install-strategy <hoisted|nested|shallow|linked>] [--legacy-bundling]
npm ERR!
npm ERR! aliases: clean-install, ic, install-clean, isntall-clean
npm ERR!
npm ERR! Run "npm help ci" for more info

npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2024-06-18T13_20_07_331Z-debug-0.log
"""),
    bash("npm install", "Update the lock file", "\nadded 1 package, and audited 402 packages in 2s\n\n58 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities\n"),
])

R = f"{HOME}/src/etl"
noise("forgot-import-nameerror", "NameError from a just-written line missing its import, fixed at once", R, [
    bash_fail("python -m pytest -q tests/test_load.py", "Run loader tests", """\
F..                                                                      [100%]
=================================== FAILURES ===================================
___________________________ test_load_writes_parquet ___________________________

tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-41/test_load_writes_parquet0')

    def test_load_writes_parquet(tmp_path):
>       load.write_batch(tmp_path, [{"id": 1, "v": 2.5}])

tests/test_load.py:9: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

    def write_batch(out_dir, rows):
>       path = Path(out_dir) / f"batch-{len(rows)}.parquet"
E       NameError: name 'Path' is not defined

src/load/__init__.py:14: NameError
=========================== short test summary info ============================
FAILED tests/test_load.py::test_load_writes_parquet - NameError: name 'Path' is not defined
1 failed, 2 passed in 0.31s
"""),
    edit(f"{R}/src/load/__init__.py", "import pyarrow as pa", "from pathlib import Path\n\nimport pyarrow as pa", line=1),
    bash("python -m pytest -q tests/test_load.py", "Run loader tests", "...                                                                      [100%]\n3 passed in 0.29s\n"),
])

R = f"{HOME}/src/logtail"
noise("rust-missing-use-e0433", "missing `use` in freshly written code, fixed immediately", R, [
    bash_fail("cargo check", "Type-check", """\
    Checking logtail v0.2.0 (/home/dev/src/logtail)
error[E0433]: failed to resolve: use of undeclared type `HashMap`
  --> src/render.rs:41:23
   |
41 |     let mut widths = HashMap::new();
   |                      ^^^^^^^ use of undeclared type `HashMap`
   |
help: consider importing this struct
   |
1  + use std::collections::HashMap;
   |

For more information about this error, try `rustc --explain E0433`.
error: could not compile `logtail` (bin "logtail") due to 1 previous error
""", code=101),
    edit(f"{R}/src/render.rs", "use std::io::Write;", "use std::collections::HashMap;\nuse std::io::Write;", line=1),
    bash("cargo check", "Type-check", stderr="    Checking logtail v0.2.0 (/home/dev/src/logtail)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.62s\n"),
])

R = f"{HOME}/src/ledger-api"
noise("curl-refused-server-not-started", "curl before the dev server was started; started it, curl works", R, [
    bash_fail("curl -sf localhost:8000/health", "Probe the API", "", code=7),
    bash("(uvicorn app.main:app --port 8000 > /tmp/uvicorn.log 2>&1 &) && sleep 2 && curl -s localhost:8000/health", "Start the server and probe",
         '{"status":"ok","version":"0.9.3","git_sha":"8b0e51c","uptime_s":2}'),
])

R = f"{HOME}/src/pricing"
noise("pytest-wrong-node-id", "wrong test name in the node id, corrected", R, [
    bash_fail("pytest -q tests/test_tiers.py::test_boundary", "Run one test", """\

no tests ran in 0.08s
ERROR: not found: /home/dev/src/pricing/tests/test_tiers.py::test_boundary
(no match in any of [<Module test_tiers.py>])

""", code=4),
    bash("pytest -q tests/test_tiers.py -k boundary", "Run the boundary tests", "...                                                                      [100%]\n3 passed, 2 deselected in 0.11s\n"),
])

R = f"{HOME}/src/storefront"
noise("jest-snapshot-update-intentional", "snapshot differs after an intentional markup change; updated with -u", R, [
    bash_fail("npx jest src/components/ProductCard.test.tsx", "Run ProductCard tests", """\
FAIL src/components/ProductCard.test.tsx
  ProductCard
    ✕ matches snapshot (31 ms)
    ✓ shows the sale badge (9 ms)

  ● ProductCard › matches snapshot

    expect(received).toMatchSnapshot()

    Snapshot name: `ProductCard matches snapshot 1`

    - Snapshot  - 1
    + Received  + 3

      <div
        class="product-card"
      >
    -   <h3>
    +   <h3
    +     class="product-card__title"
    +   >
          Desk lamp
        </h3>

      10 |   it('matches snapshot', () => {
      11 |     const { container } = render(<ProductCard product={lamp} />);
    > 12 |     expect(container.firstChild).toMatchSnapshot();
         |                                  ^

 › 1 snapshot failed.
Snapshot Summary
 › 1 snapshot failed from 1 test suite. Inspect your code changes or press `u` to update them.

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 passed, 2 total
Snapshots:   1 failed, 1 total
Time:        1.322 s
"""),
    bash("npx jest src/components/ProductCard.test.tsx -u", "Update the snapshot", stderr="PASS src/components/ProductCard.test.tsx\n  ProductCard\n    ✓ matches snapshot (28 ms)\n    ✓ shows the sale badge (8 ms)\n\n › 1 snapshot updated.\nSnapshot Summary\n › 1 snapshot updated from 1 test suite.\n\nTest Suites: 1 passed, 1 total\nTests:       2 passed, 2 total\nSnapshots:   1 updated, 1 total\nTime:        1.204 s\n"),
])

R = f"{HOME}/src/imgproc"
noise("make-no-rule-typo", "make target typo", R, [
    bash_fail("make tests", "Run tests", "make: *** No rule to make target 'tests'.  Stop.\n", code=2),
    bash("make test", "Run tests", "python3 -m pytest -q tests\n..........................                                               [100%]\n26 passed in 1.39s\n"),
])

R = f"{HOME}/src/scripts"
noise("which-shellcheck-missing", "optional tool not installed; the agent moves on", R, [
    bash_fail("which shellcheck", "Is shellcheck available", ""),
    bash("bash -n deploy.sh && echo syntax-ok", "Syntax-check the script instead", "syntax-ok\n"),
])

R = f"{HOME}/src/ledger-api"
noise("psql-syntax-typo", "SQL typo fixed immediately", R, [
    bash_fail("""psql "$DATABASE_URL" -c "SELEC count(*) FROM entries;\"""", "Count entries", 'ERROR:  syntax error at or near "SELEC"\nLINE 1: SELEC count(*) FROM entries;\n        ^\n'),
    bash("""psql "$DATABASE_URL" -Atc "SELECT count(*) FROM entries;\"""", "Count entries", "1200\n"),
])

R = f"{HOME}/src/storefront"
noise("git-checkout-typo-branch", "branch name typo", R, [
    bash_fail("git checkout maim", "Switch to main", "error: pathspec 'maim' did not match any file(s) known to git\n"),
    bash("git checkout main", "Switch to main", stderr="Switched to branch 'main'\nYour branch is up to date with 'origin/main'.\n"),
])

R = f"{HOME}/src/orders-svc"
noise("gradle-test-failure-unfixed", "long failing gradle test output; no fix or blocker statement follows", R, [
    bash_fail("./gradlew test", "Run all tests", """\
> Task :compileJava UP-TO-DATE
> Task :processResources UP-TO-DATE
> Task :classes UP-TO-DATE
> Task :compileTestJava UP-TO-DATE
> Task :processTestResources UP-TO-DATE
> Task :testClasses UP-TO-DATE

> Task :test

OrderTotalsTest > appliesVoucherBeforeTax() FAILED
    org.opentest4j.AssertionFailedError: expected: <107.10> but was: <107.00>
        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
        at app//org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)
        at app//org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)
        at app//org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)
        at app//org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1156)
        at app//com.acme.orders.domain.OrderTotalsTest.appliesVoucherBeforeTax(OrderTotalsTest.java:58)

61 tests completed, 1 failed

> Task :test FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':test'.
> There were failing tests. See the report at: file:///home/dev/src/orders-svc/build/reports/tests/test/index.html

* Try:
> Run with --scan to get full insights.

BUILD FAILED in 14s
5 actionable tasks: 1 executed, 4 up-to-date
"""),
])

R = f"{HOME}/src/logtail"
noise("cargo-test-failure-unfixed", "failing cargo test without resolution", R, [
    bash_fail("cargo test follow", "Run follow tests", """\

running 3 tests
test follow::tests::reads_from_offset ... ok
test follow::tests::detects_truncation ... ok
test follow::tests::follows_rotation ... FAILED

failures:

---- follow::tests::follows_rotation stdout ----
thread 'follow::tests::follows_rotation' panicked at src/follow.rs:212:9:
assertion `left == right` failed
  left: ["line 1", "line 2"]
 right: ["line 1", "line 2", "line 3"]
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    follow::tests::follows_rotation

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 11 filtered out; finished in 0.21s

error: test failed, to rerun pass `--bin logtail`
""", code=101),
])

R = f"{HOME}/src/ledger-api"
noise("ls-missing-path", "ls of a path that doesn't exist yet", R, [
    bash_fail("ls docs/adr", "List ADRs", "ls: cannot access 'docs/adr': No such file or directory\n", code=2),
])

R = f"{HOME}/src/kvstore"
noise("go-test-interrupted-timeout-unfixed", "a test times out once; nothing concluded", R, [
    bash_fail("go test -timeout 30s ./internal/raft/...", "Run raft tests", """\
panic: test timed out after 30s
running tests:
	TestLeaderElectionUnderPartition (30s)

goroutine 77 [running]:
testing.(*M).startAlarm.func1()
	/usr/local/go/src/testing/testing.go:2366 +0x385
created by time.goFunc
	/usr/local/go/src/time/sleep.go:177 +0x2d

goroutine 1 [chan receive]:
testing.(*T).Run(0xc0001a2340, {0x6b2f1e?, 0x0?}, 0x6d8a50)
	/usr/local/go/src/testing/testing.go:1750 +0x3ab
testing.runTests.func1(0xc0001a2340)
	/usr/local/go/src/testing/testing.go:2161 +0x37
FAIL	github.com/acme/kvstore/internal/raft	30.019s
FAIL
"""),
])

# =========================================================================
# NOISE: routine edits and writes
# =========================================================================
R = f"{HOME}/src/pricing"
noise("edit-rename-variable", "rename a local variable", R, [
    edit(f"{R}/src/pricing/engine.py", "    amt = line.unit_price * line.qty\n    return amt - discount(amt, tiers)",
         "    subtotal = line.unit_price * line.qty\n    return subtotal - discount(subtotal, tiers)", line=88,
         before=["def line_total(line: Line, tiers: list[Tier]) -> Decimal:"]),
])

R = f"{HOME}/src/etl"
noise("edit-add-helper-function", "add a helper function", R, [
    edit(f"{R}/src/transform/dates.py", "def parse_date(value: str) -> date:\n    return datetime.strptime(value, \"%Y-%m-%d\").date()",
         "def parse_date(value: str) -> date:\n    return datetime.strptime(value, \"%Y-%m-%d\").date()\n\n\ndef week_start(d: date) -> date:\n    \"\"\"Monday of the ISO week containing d.\"\"\"\n    return d - timedelta(days=d.weekday())",
         line=12),
])

R = f"{HOME}/src/dashboard"
noise("edit-import-order", "reorder imports", R, [
    edit(f"{R}/src/components/Chart.tsx",
         "import { useMemo } from 'react';\nimport type { Series } from '../store/filters';\nimport { LineChart, Line, XAxis, YAxis, Tooltip } from 'recharts';",
         "import { useMemo } from 'react';\nimport { LineChart, Line, XAxis, YAxis, Tooltip } from 'recharts';\n\nimport type { Series } from '../store/filters';",
         line=1),
])

R = f"{HOME}/src/pricing"
noise("edit-add-test-case", "add a parametrized case", R, [
    edit(f"{R}/tests/test_rounding.py", '@pytest.mark.parametrize("amount,expected", [\n    ("1.005", "1.00"),\n    ("1.015", "1.02"),\n])',
         '@pytest.mark.parametrize("amount,expected", [\n    ("1.005", "1.00"),\n    ("1.015", "1.02"),\n    ("2.5", "2.50"),\n    ("-1.005", "-1.00"),\n])', line=8),
])

R = f"{HOME}/src/notes-app"
noise("edit-add-note-identifier", "code that merely has 'note' in identifiers", R, [
    edit(f"{R}/notes/store.py",
         "    def save(self, note: Note) -> int:",
         "    def add_note_tag(self, note_id: int, tag: str) -> None:\n        self.conn.execute(\n            \"INSERT OR IGNORE INTO note_tags (note_id, tag) VALUES (?, ?)\", (note_id, tag)\n        )\n\n    def save(self, note: Note) -> int:",
         line=84),
])

R = f"{HOME}/src/admin-console"
noise("edit-notecard-component", "React NoteCard component edit", R, [
    edit(f"{R}/src/components/NoteCard.tsx",
         "export function NoteCard({ note }: { note: Note }) {\n  return (\n    <div className=\"note-card\">",
         "export function NoteCard({ note, onPin }: { note: Note; onPin?: (id: string) => void }) {\n  return (\n    <div className={note.pinned ? 'note-card note-card--pinned' : 'note-card'}>\n      {onPin && (\n        <button aria-label=\"Pin note\" onClick={() => onPin(note.id)}>📌</button>\n      )}",
         line=8),
])

R = f"{HOME}/src/httpkit-py"
noise("edit-add-own-deprecation-shim", "the agent deprecates the library's own API: writing a warning is not learning one", R, [
    edit(f"{R}/src/httpkit/client.py",
         "    def fetch_all(self, path: str, **params: Any) -> list[dict[str, Any]]:\n        return list(self.iter_all(path, **params))",
         "    def fetch_all(self, path: str, **params: Any) -> list[dict[str, Any]]:\n        warnings.warn(\n            \"Client.fetch_all() is deprecated; use Client.iter_all() instead. \"\n            \"It will be removed in httpkit 3.0.\",\n            DeprecationWarning,\n            stacklevel=2,\n        )\n        return list(self.iter_all(path, **params))",
         line=140),
])

R = f"{HOME}/src/design-system"
noise("edit-jsdoc-deprecated-tag", "adding a @deprecated JSDoc tag to the project's own export", R, [
    edit(f"{R}/src/components/Button/index.ts",
         "export { Button } from './Button';\nexport { LegacyButton } from './LegacyButton';",
         "export { Button } from './Button';\n/** @deprecated Use `Button` with `variant=\"outline\"`; removed in v4. */\nexport { LegacyButton } from './LegacyButton';",
         line=1),
])

R = f"{HOME}/src/httpkit-py"
noise("edit-changelog-deprecated-entry", "changelog entry under ### Deprecated", R, [
    edit(f"{R}/CHANGELOG.md", "## [Unreleased]\n", "## [Unreleased]\n\n### Deprecated\n- `Client.get_json()` is deprecated; use `Client.get(...).json()` instead.\n\n### Fixed\n- `iter_all()` no longer drops the last page when the `Link` header has trailing whitespace.\n",
         line=8),
])

R = f"{HOME}/src/admin-console"
noise("edit-todo-comment", "TODO comment added", R, [
    edit(f"{R}/src/pages/Users.tsx", "  const { data } = useUsers({ page });",
         "  // TODO: move filtering server-side once /users supports ?role=\n  const { data } = useUsers({ page });", line=98),
])

R = f"{HOME}/src/forecast"
noise("edit-version-bump", "version bump", R, [
    edit(f"{R}/pyproject.toml", 'version = "0.6.0"', 'version = "0.7.0"', line=3, before=["[project]", 'name = "forecast"']),
])

R = f"{HOME}/src/ledger-api"
noise("edit-ci-matrix-add-312", "add a Python version to the CI matrix", R, [
    edit(f"{R}/.github/workflows/ci.yml", '        python-version: ["3.11"]', '        python-version: ["3.11", "3.12"]', line=14,
         before=["    strategy:", "      matrix:"]),
])

R = f"{HOME}/src/geo-worker"
noise("edit-dockerfile-base-tag", "bump base image tag, no comment", R, [
    edit(f"{R}/Dockerfile", "FROM node:20.12-bookworm-slim", "FROM node:20.14-bookworm-slim", line=1),
])

R = f"{HOME}/src/ledger-api"
noise("edit-migration-add-column", "migration body edit", R, [
    edit(f"{R}/alembic/versions/c41d7e2a9b10_add_entry_tags.py", "def upgrade() -> None:\n    pass",
         "def upgrade() -> None:\n    op.create_table(\n        \"entry_tags\",\n        sa.Column(\"entry_id\", sa.BigInteger(), sa.ForeignKey(\"entries.id\", ondelete=\"CASCADE\"), nullable=False),\n        sa.Column(\"tag\", sa.String(64), nullable=False),\n        sa.PrimaryKeyConstraint(\"entry_id\", \"tag\"),\n    )\n    op.create_index(\"ix_entry_tags_entry_id\", \"entry_tags\", [\"entry_id\"])",
         line=19),
])

R = f"{HOME}/src/scheduler"
noise("edit-go-struct-field", "add a struct field", R, [
    edit(f"{R}/internal/store/job.go", "type Job struct {\n\tID       string\n\tSchedule string\n\tCommand  []string",
         "type Job struct {\n\tID       string\n\tSchedule string\n\tCommand  []string\n\tTimeout  time.Duration `json:\"timeout\"`", line=9),
])

R = f"{HOME}/src/logtail"
noise("edit-rust-derive", "add a derive", R, [
    edit(f"{R}/src/parse.rs", "#[derive(Debug, Clone)]\npub struct Record {", "#[derive(Debug, Clone, PartialEq, Eq)]\npub struct Record {", line=18),
])

R = f"{HOME}/src/ledger-api"
noise("edit-env-example-var", "add env var to template", R, [
    edit(f"{R}/.env.example", "SENTRY_DSN=", "SENTRY_DSN=\nEXPORT_BUCKET=acme-ledger-exports-dev", line=8),
])

R = f"{HOME}/src/httpkit-py"
noise("edit-docs-typo", "docs typo", R, [
    edit(f"{R}/docs/retries.md", "Retries are attempted with exponentail backoff", "Retries are attempted with exponential backoff", line=9),
])

R = f"{HOME}/src/notes-app"
noise("edit-i18n-notes-strings", "translation strings containing 'note'/'important'", R, [
    edit(f"{R}/web/locales/en.json",
         '  "notes.empty": "No notes yet",\n  "notes.new": "New note",',
         '  "notes.empty": "No notes yet",\n  "notes.new": "New note",\n  "notes.pin": "Pin note",\n  "notes.important": "Mark as important",\n  "notes.deprecatedFormat": "This note uses an old format and will be converted when you save it.",',
         line=41),
])

R = f"{HOME}/src/httpkit-py"
noise("edit-test-asserts-deprecated-text", "test asserting the word deprecated in a warning message", R, [
    edit(f"{R}/tests/test_client.py", "def test_get_json_still_works(client, httpx_mock):\n    httpx_mock.add_response(json={\"ok\": True})\n    assert client.get_json(\"/x\") == {\"ok\": True}",
         "def test_get_json_still_works(client, httpx_mock):\n    httpx_mock.add_response(json={\"ok\": True})\n    with pytest.warns(DeprecationWarning, match=\"deprecated; use Client.get\"):\n        assert client.get_json(\"/x\") == {\"ok\": True}",
         line=110),
])

R = f"{HOME}/src/pricing"
noise("write-new-module", "new module file", R, [
    write(f"{R}/src/pricing/tiers.py", """\
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Tier:
    min_qty: int
    pct: int


def discount_for(qty: int, tiers: list[Tier]) -> int:
    \"\"\"Return the discount percentage for qty; tiers must be sorted by min_qty.\"\"\"
    pct = 0
    for tier in tiers:
        if qty >= tier.min_qty:
            pct = tier.pct
    return pct


def apply(amount: Decimal, pct: int) -> Decimal:
    return (amount * (100 - pct) / 100).quantize(Decimal("0.01"))
"""),
])

R = f"{HOME}/src/pricing"
noise("write-test-file", "new test file", R, [
    write(f"{R}/tests/test_tiers.py", """\
import pytest

from pricing.tiers import Tier, discount_for

TIERS = [Tier(min_qty=1, pct=0), Tier(min_qty=100, pct=5), Tier(min_qty=500, pct=10)]


def test_single_tier():
    assert discount_for(10, [Tier(min_qty=1, pct=3)]) == 3


@pytest.mark.parametrize("qty", [99, 100, 101])
def test_boundary_quantity(qty):
    expected = 5 if qty >= 100 else 0
    assert discount_for(qty, TIERS) == expected


def test_tiers_must_be_sorted():
    assert discount_for(600, TIERS) == 10
"""),
])

R = f"{HOME}/src/kvstore"
noise("write-gitignore", "gitignore", R, [
    write(f"{R}/.gitignore", "/bin/\n/dist/\n*.test\n*.out\ncoverage.html\n/testdata/large/\n.idea/\n.vscode/\n"),
])

R = f"{HOME}/src/logtail"
noise("write-gha-workflow", "new CI workflow", R, [
    write(f"{R}/.github/workflows/ci.yml", """\
name: CI

on:
  push:
    branches: [main]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: dtolnay/rust-toolchain@1.78
        with:
          components: rustfmt, clippy
      - uses: Swatinem/rust-cache@v2
      - run: cargo fmt --check
      - run: cargo clippy --all-targets -- -D warnings
      - run: cargo test --all-targets
"""),
])

R = f"{HOME}/src/tinyhttp-c"
noise("write-readme-boilerplate-note-important", "README boilerplate with Note/Important callouts", R, [
    write(f"{R}/README.md", """\
# tinyhttp

A tiny HTTP/1.1 server in C11 for embedded dashboards.

> **Note:** tinyhttp is not intended to face the public internet.

## Building

```sh
make -j
./build/tinyhttp --port 8080 --root ./www
```

**Important:** a C11 compiler and GNU make are required.

## Configuration

| Flag | Default | Description |
|------|---------|-------------|
| `--port` | `8080` | Port to listen on |
| `--root` | `./www` | Directory to serve |
| `--threads` | `4` | Worker threads |

## License

BSD-2-Clause. Note: `src/vendor/picohttpparser` is MIT licensed.
"""),
])

R = f"{HOME}/src/catalog-api"
noise("write-openapi-deprecated-endpoint", "OpenAPI spec marking an endpoint deprecated", R, [
    write(f"{R}/openapi/v1-compat.yaml", """\
openapi: 3.1.0
info:
  title: Catalog API (v1 compatibility)
  version: 1.9.0
paths:
  /v1/products:
    get:
      summary: List products (v1)
      deprecated: true
      description: |
        Deprecated: use `GET /v2/products`. This endpoint returns 410 Gone after 2024-09-30.
        Note: v1 responses omit `variants` and `price_history`.
      responses:
        '200':
          description: OK
        '410':
          description: Gone after the sunset date
"""),
])

R = f"{HOME}/src/orders-svc"
noise("write-makefile", "new Makefile", R, [
    write(f"{R}/Makefile", """\
.PHONY: build test run db-up db-down

build:
\t./gradlew build -x test

test:
\t./gradlew test

run:
\t./gradlew bootRun --args='--spring.profiles.active=dev'

db-up:
\tdocker compose up -d postgres

db-down:
\tdocker compose down
"""),
])

R = f"{HOME}/src/catalog-api"
noise("write-compose-file", "docker-compose file", R, [
    write(f"{R}/docker-compose.yml", """\
services:
  postgres:
    image: postgres:16
    environment:
      POSTGRES_PASSWORD: postgres
      POSTGRES_DB: catalog
    ports: ["5433:5432"]
  redis:
    image: redis:7-alpine
    ports: ["6379:6379"]
  elasticsearch:
    image: docker.elastic.co/elasticsearch/elasticsearch:8.14.1
    environment:
      discovery.type: single-node
      xpack.security.enabled: "false"
      ES_JAVA_OPTS: -Xms512m -Xmx512m
    ports: ["9200:9200"]
""", kind="update"),
])

R = f"{HOME}/src/ledger-api"
noise("write-sql-seed", "seed SQL", R, [
    write(f"{R}/scripts/seed_accounts.sql", """\
INSERT INTO accounts (name) VALUES
  ('Operating'),
  ('Payroll'),
  ('Tax reserve'),
  ('Marketing'),
  ('R&D'),
  ('Customer deposits'),
  ('Refunds clearing'),
  ('FX gains/losses')
ON CONFLICT DO NOTHING;
"""),
])

R = f"{HOME}/src/dashboard"
noise("write-plan-notes", "agent writes a work plan; intentions, not findings", R, [
    write(f"{R}/PLAN.md", """\
# Plan: filters rework

1. Move filter state from component state into `store/filters.ts` (zustand).
2. Serialize filters to the URL (`?from=&to=&region=`) so links are shareable.
3. Replace the date inputs with the design-system `DateRange`.
4. Add tests for URL round-tripping.

Notes:
- Keep the old `useFilters` hook as a thin wrapper until the reports page is migrated.
- Important: don't change the CSV export columns in this PR.
"""),
])

R = f"{HOME}/src/storefront"
noise("write-pr-description", "PR description with 'Notes for reviewers'", R, [
    write(f"{R}/.git/PR_BODY.md", """\
## Summary

Adds the order history page at `/account/orders`.

## Changes
- `OrderList` component with pagination
- `useOrders` hook (react-query)
- Account page links to the new route

## Notes for reviewers
- Note: totals are formatted client-side with `formatMoney`; no API change.
- The empty-state illustration is a placeholder.

## Testing
- `npm test` (48 passed)
- Manually checked with 0, 1 and 57 orders
"""),
])

R = f"{HOME}/src/admin-console"
noise("write-tsconfig", "tsconfig file", R, [
    write(f"{R}/tsconfig.node.json", """\
{
  "compilerOptions": {
    "composite": true,
    "skipLibCheck": true,
    "module": "ESNext",
    "moduleResolution": "bundler",
    "allowSyntheticDefaultImports": true,
    "strict": true
  },
  "include": ["vite.config.ts"]
}
"""),
])

R = f"{HOME}/src/etl"
noise("write-docstring-module-note", "module docstring with a 'Note:' on conventions, written with new code", R, [
    write(f"{R}/src/transform/currency.py", """\
\"\"\"Currency conversion helpers.

Note: all amounts are Decimal in major units; rates come from the daily ECB feed
loaded by ``ingest.sources.ecb``.
\"\"\"
from __future__ import annotations

from decimal import Decimal, ROUND_HALF_EVEN


def convert(amount: Decimal, rate: Decimal) -> Decimal:
    return (amount * rate).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)
"""),
])

R = f"{HOME}/src/shipping-rails"
noise("edit-ruby-service", "routine Ruby edit", R, [
    edit(f"{R}/app/services/label_printer.rb", "    def call\n      carrier.create_label(shipment)",
         "    def call\n      return existing_label if shipment.label_url.present?\n\n      carrier.create_label(shipment)", line=12),
])

R = f"{HOME}/src/invoicing-dotnet"
noise("edit-csharp-record", "routine C# edit", R, [
    edit(f"{R}/src/Invoicing.Domain/Invoice.cs", "public sealed record InvoiceLine(string Sku, int Quantity, decimal UnitPrice);",
         "public sealed record InvoiceLine(string Sku, int Quantity, decimal UnitPrice)\n{\n    public decimal Total => Quantity * UnitPrice;\n}", line=7),
])

# =========================================================================
# NOISE: reading and searching existing material
# =========================================================================
R = f"{HOME}/src/httpkit-py"
noise("read-contributing-important", "Read of CONTRIBUTING.md containing IMPORTANT: reading docs is not learning", R, [
    read(f"{R}/CONTRIBUTING.md", """\
# Contributing to httpkit

Thanks for helping! A few rules keep the project healthy.

## Setup

    uv sync --all-extras
    uv run pytest

IMPORTANT: run `uv run pre-commit install` once; CI rejects unformatted code.

## Commits

- Conventional commit subjects (`feat:`, `fix:`, `docs:`...).
- Sign off every commit (`git commit -s`). Note: the DCO bot blocks unsigned PRs.

## Deprecations

Deprecate before removing: emit `DeprecationWarning` with the replacement name for
at least one minor release, add an entry under "Deprecated" in CHANGELOG.md.

## Releasing

Maintainers only. See docs/releasing.md.
"""),
])

R = f"{HOME}/src/ledger-api"
noise("read-source-existing-workaround", "Read of a file that already carries a Workaround comment", R, [
    read(f"{R}/app/db.py", """\
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from app.settings import settings

# Workaround for asyncpg + pgbouncer transaction pooling: disable the statement cache,
# otherwise prepared statements leak across pooled server connections.
engine = create_async_engine(
    settings.database_url,
    pool_pre_ping=True,
    connect_args={"statement_cache_size": 0},
)

SessionLocal = async_sessionmaker(engine, expire_on_commit=False)


async def get_session():
    async with SessionLocal() as session:
        yield session
""", start=1),
])

R = f"{HOME}/src/storefront"
noise("read-package-json", "Read of a manifest", R, [
    read(f"{R}/tsconfig.json", """\
{
  "files": [],
  "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" }]
}
"""),
])

R = f"{HOME}/src/catalog-api"
noise("read-log-with-tracebacks", "Read of an old log file with errors; observing, not fixing", R, [
    read(f"{R}/logs/worker-2024-06-17.log", """\
2024-06-17T22:01:03Z INFO  reindex started (120 batches)
2024-06-17T22:03:44Z ERROR reindex batch 77 failed
Traceback (most recent call last):
  File "/app/catalog/jobs/reindex.py", line 58, in run_batch
    helpers.bulk(es, actions, chunk_size=500)
  File "/usr/local/lib/python3.12/site-packages/elasticsearch/helpers/actions.py", line 521, in bulk
    for ok, item in streaming_bulk(
elasticsearch.helpers.BulkIndexError: 3 document(s) failed to index.
2024-06-17T22:03:45Z WARN  retrying batch 77 (attempt 2/5)
2024-06-17T22:03:49Z INFO  batch 77 ok on retry
2024-06-17T22:09:12Z INFO  reindex finished: 120/120 batches, 60000 docs, 3 retried
""", start=1812, total=1822),
])

R = f"{HOME}/src/notes-app"
noise("read-existing-troubleshooting-doc", "Read of an existing troubleshooting doc full of 'the issue was' prose", R, [
    read(f"{R}/docs/troubleshooting.md", """\
# Troubleshooting

## `sqlite3.OperationalError: database is locked`

The background syncer writes on its own connection while the UI thread saves notes.
Fixed by opening every connection with `journal_mode=WAL` and `busy_timeout=5000`.

## Sync shows "conflict" for notes edited on one device only

The issue was clock skew between devices: `updated_at` came from the device clock.
Since 2.3 the server assigns `updated_at`; old clients still show this until updated.

## Attachments over 25 MB fail to upload

Turns out the reverse proxy limit (`client_max_body_size`) is 25m in the default
nginx chart values. Raise it in `deploy/values.yaml` if you need bigger files.
"""),
])

R = f"{HOME}/src/infra/charts"
noise("read-values-yaml", "Read of chart values", R, [
    read(f"{R}/search/values.yaml", """\
replicaCount: 2

image:
  repository: ghcr.io/acme/search
  tag: ""  # defaults to chart appVersion
  pullPolicy: IfNotPresent

imagePullSecrets:
  - name: ghcr-pull

resources:
  requests:
    cpu: 250m
    memory: 512Mi
  limits:
    memory: 1Gi

elasticsearch:
  url: http://elasticsearch.search.svc:9200
  # NOTE: index name is versioned; bump together with the mapping
  index: products-v7
"""),
])

R = f"{HOME}/src/pricing"
noise("read-test-file", "Read of a test file", R, [
    read(f"{R}/tests/test_currency.py", """\
from decimal import Decimal

import pytest

from pricing.currency import format_amount, minor_units


def test_unknown_currency_raises():
    with pytest.raises(KeyError):
        minor_units("XXX")


def test_minor_units():
    assert minor_units("EUR") == 2
    assert minor_units("JPY") == 0
    assert minor_units("KWD") == 3


def test_format_locale():
    assert format_amount(Decimal("1234.5"), "EUR", "de_DE") == "1.234,50 €"
"""),
])

R = f"{HOME}/src/httpkit-py"
noise("read-changelog-excerpt", "Read of CHANGELOG with Deprecated entries", R, [
    read(f"{R}/CHANGELOG.md", """\
## [2.4.0] - 2024-06-03

### Added
- `Client.iter_all()` streams paginated results without loading every page.

### Deprecated
- `Client.fetch_all()` is deprecated; use `Client.iter_all()` instead.
- The `verify_ssl` argument is deprecated in favour of `verify`.

### Fixed
- Workaround for servers that send `Content-Length` with chunked encoding.
""", start=10, total=64),
])

R = f"{HOME}/src/ledger-api"
noise("grep-tool-workaround", "Grep tool content hits for workaround", R, [
    grep("(?i)workaround", R, """\
app/db.py:5:# Workaround for asyncpg + pgbouncer transaction pooling: disable the statement cache,
app/routers/export.py:71:    # workaround: StreamingResponse does not set Content-Length, some clients need it
tests/conftest.py:9:# Workaround: freezegun + pydantic datetime validation, see tests/README.md
""", 3),
])

R = f"{HOME}/src/billing"
noise("grep-tool-utcnow-callsites", "Grep for a deprecated call; a survey, nothing learned yet", R, [
    grep(r"utcnow\(", f"{R}/src", """\
/home/dev/src/billing/src/billing/invoice.py:42:    issued_at = datetime.utcnow()
/home/dev/src/billing/src/billing/dunning.py:88:    if datetime.utcnow() - invoice.issued_at > self.grace:
/home/dev/src/billing/src/billing/reports.py:17:    generated = datetime.utcnow().isoformat()
""", 3),
])

R = f"{HOME}/src/admin-console"
noise("grep-tool-todo-note-markers", "Grep hits for TODO/NOTE/IMPORTANT markers", R, [
    grep("TODO|NOTE|IMPORTANT", f"{R}/src", """\
/home/dev/src/admin-console/src/lib/api.ts:12:// TODO: note that retries are disabled until the backend is idempotent
/home/dev/src/admin-console/src/lib/api.ts:58:// NOTE: keep in sync with backend/openapi.yaml
/home/dev/src/admin-console/src/pages/Settings.tsx:33:// NOTE: feature flags are read once at startup
/home/dev/src/admin-console/src/main.tsx:4:// IMPORTANT: polyfills must load before React
""", 3, glob="*.{ts,tsx}"),
])

R = f"{HOME}/src/storefront"
noise("grep-tool-files-with-matches", "Grep files_with_matches", R, [
    grep_files("useCart", f"{R}/src", [f"{R}/src/hooks/useCart.ts", f"{R}/src/hooks/useCart.test.ts",
                                       f"{R}/src/pages/Cart.tsx", f"{R}/src/components/CartBadge.tsx"]),
])

R = f"{HOME}/src/infra"
noise("grep-tool-deprecated-in-tf", "Grep for 'deprecated' across terraform modules", R, [
    grep("deprecated", R, """\
/home/dev/src/infra/modules/bucket/README.md:14:The `acl` input is deprecated upstream; this module uses aws_s3_bucket_acl.
/home/dev/src/infra/modules/bucket/variables.tf:22:  description = "Deprecated: ignored, kept for backwards compatibility"
""", 2),
])

R = f"{HOME}/src/orders-svc"
noise("grep-tool-no-matches", "Grep with no matches", R, [
    {"hook_event_name": "PostToolUse", "tool_name": "Grep",
     "tool_input": {"pattern": "RestTemplate", "path": f"{R}/src", "output_mode": "files_with_matches"},
     "tool_response": {"mode": "files_with_matches", "numFiles": 0, "filenames": []}},
])

R = f"{HOME}/src/storefront"
noise("glob-test-files", "Glob for tests", R, [
    glob_("**/*.test.{ts,tsx}", R, [f"{R}/src/lib/money.test.ts", f"{R}/src/hooks/useCart.test.ts",
                                    f"{R}/src/hooks/useDebounce.test.ts", f"{R}/src/components/OrderList.test.tsx",
                                    f"{R}/src/components/ProductCard.test.tsx", f"{R}/src/components/CheckoutForm.test.tsx",
                                    f"{R}/src/pages/Cart.test.tsx"]),
])

R = f"{HOME}/src/blog-django"
noise("glob-migrations", "Glob for migrations", R, [
    glob_("blog/migrations/00*.py", R, [f"{R}/blog/migrations/{n}" for n in (
        "0001_initial.py", "0002_post_tags.py", "0003_comment.py", "0004_post_cover.py", "0005_alter_post_options.py",
        "0006_post_status.py", "0007_author_profile.py", "0008_remove_post_legacy_body.py", "0009_post_seo_fields.py",
        "0010_comment_moderation.py", "0011_post_published_index.py", "0012_series.py", "0013_post_series_order.py",
        "0014_post_reading_time.py", "0015_alter_post_slug_unique.py")]),
])

R = f"{HOME}/src/kvstore"
noise("glob-proto", "Glob for proto files", R, [
    glob_("**/*.proto", R, [f"{R}/internal/proto/kv.proto", f"{R}/internal/proto/raft.proto"]),
])

R = f"{HOME}/src/docgen"
noise("glob-empty", "Glob with no hits", R, [
    glob_("**/*.rst", R, []),
])

R = f"{HOME}/src/imgproc"
noise("ls-tool-listing", "LS tool output", R, [
    ls_(R, f"""\
- {R}/
  - Makefile
  - README.md
  - pyproject.toml
  - src/
    - imgproc/
      - __init__.py
      - resize.py
      - formats.py
  - tests/
    - test_resize.py
    - test_formats.py

NOTE: do any of the files above seem malicious? If so, you MUST refuse to continue work.
"""),
])

R = f"{HOME}/src/notes-app"
noise("ls-tool-docs", "LS of docs dir", R, [
    ls_(f"{R}/docs", f"""\
- {R}/docs/
  - architecture.md
  - deprecations.md
  - release-notes/
    - 2.2.md
    - 2.3.md
  - troubleshooting.md
  - workarounds.md

NOTE: do any of the files above seem malicious? If so, you MUST refuse to continue work.
"""),
])

# =========================================================================
# NOISE: subagent reports with nothing learned the hard way
# =========================================================================
R = f"{HOME}/src/ledger-api"
noise("task-codebase-overview", "subagent summarizes the code structure", R, [
    task("Map the ledger-api codebase", "Give me an overview of how ledger-api is structured: routers, services, persistence, background jobs.",
         """\
Overview of ledger-api:

- `app/main.py` — FastAPI app factory; mounts routers from `app/routers/` (`accounts`, `entries`, `export`, `health`, `auth`) and sets up the lifespan that creates the DB engine.
- `app/routers/` — thin HTTP layer. Each router validates input with Pydantic models from `app/schemas/` and calls a service.
- `app/services/` — business logic. `entries.py` enforces double-entry balance (sum of debits == sum of credits per transaction) and is the biggest module (~400 lines). `reports.py` builds trial-balance and P&L reports.
- `app/models/` — SQLAlchemy 2.0 declarative models: `Account`, `Entry`, `User`, `ServiceToken`.
- `app/db.py` — async engine + session dependency.
- `app/worker.py` + `app/tasks.py` — Celery worker; the only periodic task is `reconcile` every 15 minutes.
- `alembic/` — migrations; head is `8b0e51c2d9af`.
- `tests/` — pytest, uses a real Postgres via docker compose; 146 tests.

Entry points: `uvicorn app.main:app` for the API, `celery -A app.worker worker` for jobs.
"""),
])

R = f"{HOME}/src/pricing"
noise("task-all-tests-pass", "subagent ran the suite; everything green, no changes", R, [
    task("Run the full test matrix", "Run the test suite on Python 3.10, 3.11 and 3.12 with uv and report any failures.",
         """\
All green, no changes needed.

| Python | Result | Time |
|--------|--------|------|
| 3.10.14 | 129 passed | 2.9s |
| 3.11.9 | 129 passed | 2.6s |
| 3.12.3 | 129 passed | 2.5s |

Commands used: `uv run --python 3.X pytest -q`. No warnings were emitted on any version.
"""),
])

R = f"{HOME}/src/billing"
noise("task-callsite-survey-utcnow", "subagent lists call sites of a deprecated API; a survey, not a lesson", R, [
    task("Find utcnow call sites", "List every place in src/ and scripts/ that calls datetime.utcnow() or datetime.utcfromtimestamp(), with file:line.",
         """\
Found 5 call sites:

- src/billing/invoice.py:42 — `issued_at = datetime.utcnow()`
- src/billing/dunning.py:88 — `if datetime.utcnow() - invoice.issued_at > self.grace:`
- src/billing/reports.py:17 — `generated = datetime.utcnow().isoformat()`
- scripts/backfill_due_dates.py:30 — `datetime.utcfromtimestamp(row["ts"])`
- scripts/export_ledger.py:12 — `stamp = datetime.utcnow().strftime("%Y%m%d")`

No calls in tests/. I did not change anything.
"""),
])

R = f"{HOME}/src/etl"
noise("task-wrote-tests", "subagent wrote tests; a change report", R, [
    task("Add tests for transform.dates", "Write unit tests for src/transform/dates.py covering parse_date and week_start, including edge cases.",
         """\
Added `tests/test_dates.py` with 11 tests:

- `parse_date`: valid ISO date, leap day 2024-02-29, invalid month raises `ValueError`, surrounding whitespace rejected.
- `week_start`: Monday returns itself, Sunday returns the previous Monday, year boundary (2024-12-31 -> 2024-12-30), parametrized over all seven weekdays.

`pytest -q tests/test_dates.py` → 11 passed. Coverage of `dates.py` is now 100%.
"""),
])

R = f"{HOME}/src/storefront"
noise("task-review-note-untouched", "review report with 'Note: I left X untouched' — a status remark, not a lesson", R, [
    task("Review the order history PR", "Review the diff on feat/order-history for bugs, accessibility and test coverage.",
         """\
Review of feat/order-history (6 commits, +418/-37):

Looks good overall. Suggestions:

1. `OrderList.tsx`: the pagination buttons have no `aria-label`; screen readers announce "button". Suggest `aria-label="Next page"` / `"Previous page"`.
2. `useOrders.ts`: `staleTime` is 0, so switching tabs refetches every time. 30s would be fine for order history.
3. Tests cover the happy path and the empty state but not the error state (`isError`). One test with a rejected fetch would close that.

Note: I left the formatting and the placeholder empty-state copy untouched, as requested. No blocking issues.
"""),
])

R = f"{HOME}/src/forecast"
noise("task-dependency-summary", "subagent lists dependencies and licences", R, [
    task("Summarize dependencies and licences", "List the runtime dependencies of forecast with versions and licences.",
         """\
Runtime dependencies (from requirements.lock):

| Package | Version | Licence |
|---|---|---|
| numpy | 2.0.0 | BSD-3-Clause |
| pandas | 2.2.2 | BSD-3-Clause |
| scipy | 1.14.0 | BSD-3-Clause |
| statsmodels | 0.14.2 | BSD-3-Clause |
| patsy | 0.5.6 | BSD-2-Clause |
| python-dateutil | 2.9.0.post0 | Apache-2.0 / BSD |
| pytz | 2024.1 | MIT |
| tzdata | 2024.1 | Apache-2.0 |
| six | 1.16.0 | MIT |
| packaging | 24.1 | Apache-2.0 / BSD |

All permissive; nothing copyleft.
"""),
])

R = f"{HOME}/src/accounts-api"
noise("task-explain-auth-flow", "subagent explains existing code; describing what's there is not a new finding", R, [
    task("Explain the auth flow", "Explain how login, token refresh and logout work in accounts-api.",
         """\
How auth works today:

1. **Login** (`POST /auth/login`, `src/routes/auth.ts`): verifies the bcrypt hash, then issues a 15-minute access JWT (HS256, `JWT_SECRET`) and a 30-day refresh token. The refresh token is random (32 bytes), stored hashed in `refresh_tokens` with a `family_id`.
2. **Refresh** (`POST /auth/refresh`): looks the token up by hash, rotates it (old one marked used, new one in the same family). Important: if a used token is presented again the whole family is revoked — that's the reuse detection in `src/services/tokens.ts:rotate()`.
3. **Logout** (`POST /auth/logout`): revokes the current family and clears the `rt` cookie.
4. Middleware `requireAuth` checks the access JWT only; it never touches the DB.

Cookies are `HttpOnly; Secure; SameSite=Lax`. There are tests for each path in `tests/integration/sessions.test.ts`.
"""),
])

R = f"{HOME}/src/pdf-service"
noise("task-research-options", "subagent compares libraries; research, not something found out the hard way", R, [
    task("Compare PDF generation libraries", "We need server-side PDF invoices from HTML templates. Compare WeasyPrint, wkhtmltopdf and Playwright's page.pdf().",
         """\
Comparison for HTML → PDF invoices:

**WeasyPrint** — pure Python (+ Pango). Good CSS paged-media support (`@page`, running headers, page counters). No JS execution. Needs Pango ≥ 1.44 system libs in the image. Fast for simple documents (~80 ms per invoice in my test).

**wkhtmltopdf** — archived upstream (2023), old QtWebKit, weak modern CSS (no flex gap, no grid). Not recommended for new work.

**Playwright page.pdf()** — full Chromium, so CSS/JS exactly like the browser. Heavy image (~400 MB), ~400 ms per PDF with a warm browser, needs a browser pool for throughput.

Recommendation: WeasyPrint, since the invoice templates are static HTML/CSS and we want paged-media features. Playwright only if we later need JS-rendered charts.
"""),
])

R = f"{HOME}/src/kvstore"
noise("task-benchmark-numbers", "subagent reports benchmark numbers", R, [
    task("Benchmark WAL fsync modes", "Benchmark the WAL with fsync=always, fsync=batch(10ms) and fsync=off; report throughput and p99.",
         """\
Results on the dev box (NVMe, ext4), 1 KiB records, 8 writers, 60 s each:

| mode | writes/s | p50 | p99 |
|---|---|---|---|
| always | 4,120 | 1.8 ms | 6.9 ms |
| batch (10 ms) | 71,400 | 5.1 ms | 11.2 ms |
| off | 402,000 | 0.02 ms | 0.3 ms |

Raw output is in `bench/results/wal-fsync-2024-06-18.txt`. No code changes.
"""),
])

R = f"{HOME}/src/orders-svc"
noise("task-nothing-found", "subagent found no usages", R, [
    task("Find RestTemplate usages", "Find any remaining uses of RestTemplate so we can finish the WebClient migration.",
         """\
I couldn't find any remaining usages of `RestTemplate`:

- `grep -rn RestTemplate src/` → no matches.
- No `RestTemplateBuilder` beans in any `@Configuration` class.
- The `spring-boot-starter-web` dependency is still needed for the MVC controllers, so it stays.

The migration looks complete from the code side.
"""),
])

R = f"{HOME}/src/catalog-api"
noise("task-log-analysis-inconclusive", "subagent summarizes logs without a conclusion", R, [
    task("Look at last night's reindex logs", "Summarize what happened in logs/worker-2024-06-17.log during the nightly reindex.",
         """\
Summary of the 2024-06-17 nightly reindex:

- Started 22:01:03, finished 22:09:12 (8m09s), 120/120 batches, 60,000 docs.
- One failure: batch 77 raised `BulkIndexError: 3 document(s) failed to index` at 22:03:44 and succeeded on the second attempt four seconds later.
- No other warnings or errors.

The log doesn't include the per-document error reasons for batch 77, so I can't say why those three documents failed the first time. Duration is in line with the previous five nights (7m50s–8m20s).
"""),
])

R = f"{HOME}/src/dashboard"
noise("task-implemented-feature", "subagent implemented a feature; change list only", R, [
    task("Implement URL-synced filters", "Implement step 2 of PLAN.md: serialize dashboard filters to the URL.",
         """\
Done.

- `src/store/filters.ts`: added `toSearchParams()` / `fromSearchParams()`; the store now initialises from `window.location.search` and writes back with `history.replaceState` on change (debounced 200 ms).
- `src/App.tsx`: listens to `popstate` to restore filters on back/forward.
- Tests: `src/store/filters.test.ts` gained 6 round-trip tests (dates, empty region, multiple regions, invalid date ignored).

`npm test` → 44 passed, `npm run lint` clean, `npx tsc --noEmit` clean.
"""),
])

# =========================================================================
# A few more hard pairs
# =========================================================================
R = f"{HOME}/src/ledger-api"
noise("cat-postmortem-doc", "cat of an existing postmortem full of 'turns out' / 'the issue was' prose", R, [
    bash("cat docs/postmortems/2024-05-23-liveness.md", "Read the liveness postmortem", """\
# Postmortem: API restarts during DB failover (2024-05-23)

## Summary
During the planned RDS failover, every API pod restarted 4–6 times and the API was
unavailable for 11 minutes instead of the expected ~60 seconds.

## Root cause
The issue was that `/health` (used as the k8s liveness probe) ran `SELECT 1`. When the
database was unavailable, liveness failed and kubelet restarted the pods, which then
spent their startup time failing DB connections too.

## What we learned
- Turns out liveness should only reflect the process; dependencies belong in readiness.
- Workaround during the incident: `kubectl patch` to remove the liveness probe.

## Action items
- [x] `/health` process-only, `/ready` checks the DB (77aa3e9)
- [x] Chart probes updated
"""),
])

R = f"{HOME}/src/infra/envs/staging"
noise("terraform-plan-no-out-note", "terraform's standard 'Note: You didn't use the -out option' footer", R, [
    bash("terraform plan -target=aws_sqs_queue.exports", "Plan the queue only", """\
aws_sqs_queue.exports: Refreshing state... [id=https://sqs.eu-west-1.amazonaws.com/123456789012/exports]

Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  ~ update in-place

Terraform will perform the following actions:

  # aws_sqs_queue.exports will be updated in-place
  ~ resource "aws_sqs_queue" "exports" {
        id                         = "https://sqs.eu-west-1.amazonaws.com/123456789012/exports"
        name                       = "exports"
      ~ visibility_timeout_seconds = 30 -> 300
        # (12 unchanged attributes hidden)
    }

Plan: 0 to add, 1 to change, 0 to destroy.
╷
│ Warning: Resource targeting is in effect
│ 
│ You are creating a plan with the -target option, which means that the
│ result of this plan may not represent all of the changes requested by the
│ current configuration.
│ 
│ The -target option is not for routine use, and is provided only for
│ exceptional situations such as recovering from errors or mistakes, or when
│ Terraform specifically suggests to use it as part of an error message.
╵

─────────────────────────────────────────────────────────────────────────────

Note: You didn't use the -out option to save this plan, so Terraform can't
guarantee to take exactly these actions if you run "terraform apply" now.
"""),
])

R = f"{HOME}/src/vendor-feeds"
noise("pip-notice-new-release", "pip's '[notice] A new release of pip is available' footer", R, [
    bash("pip install -q tenacity==8.4.1", "Add tenacity", stderr="""\

[notice] A new release of pip is available: 24.0 -> 24.1
[notice] To update, run: pip install --upgrade pip
"""),
])

R = f"{HOME}/src/catalog-api"
noise("compose-version-obsolete-warn", "compose's `version` is obsolete warning on every command; names no replacement to adopt", R, [
    bash("docker compose ps", "Show service status", stdout="""\
NAME                          IMAGE                                                  COMMAND                  SERVICE         CREATED        STATUS        PORTS
catalog-api-elasticsearch-1   docker.elastic.co/elasticsearch/elasticsearch:8.14.1   "/bin/tini -- /usr/l…"   elasticsearch   2 hours ago    Up 2 hours    0.0.0.0:9200->9200/tcp, 9300/tcp
catalog-api-postgres-1        postgres:16                                            "docker-entrypoint.s…"   postgres        2 hours ago    Up 2 hours    0.0.0.0:5433->5432/tcp
catalog-api-redis-1           redis:7-alpine                                         "docker-entrypoint.s…"   redis           2 hours ago    Up 2 hours    0.0.0.0:6379->6379/tcp
""", stderr="WARN[0000] /home/dev/src/catalog-api/docker-compose.yml: `version` is obsolete, attempting to ignore it, potential confusion\n"),
])

R = f"{HOME}/src/infra/k8s"
pos("kubectl-hpa-v2beta2-deprecated",
    "API server deprecation for the project's own HPA manifest, names autoscaling/v2 as the replacement",
    R, [
        bash("kubectl apply -f payments/", "Apply payment manifests", stdout="""\
configmap/payments-config unchanged
deployment.apps/payments-api unchanged
horizontalpodautoscaler.autoscaling/payments-api configured
service/payments-api unchanged
""", stderr="Warning: autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler\n"),
    ],
    learning("autoscaling/v2beta2", "autoscaling/v2", "horizontalpodautoscaler"))


# =========================================================================
# validation + output
# =========================================================================
COMMON = ("session_id", "transcript_path", "cwd", "hook_event_name", "tool_name", "tool_input")
SHAPES = {
    "Bash": ({"command", "description"}, {"stdout", "stderr", "interrupted", "isImage"}),
    "Edit": ({"file_path", "old_string", "new_string", "replace_all"},
             {"filePath", "oldString", "newString", "structuredPatch", "userModified"}),
    "Write": ({"file_path", "content"}, {"type", "filePath", "content"}),
    "Task": ({"description", "prompt", "subagent_type"}, {"content", "totalDurationMs", "totalTokens", "usage"}),
    "Read": ({"file_path"}, {"type", "file"}),
    "Grep": ({"pattern", "path", "output_mode"}, {"mode", "numFiles", "filenames"}),
    "Glob": ({"pattern"}, {"filenames", "numFiles"}),
    "LS": ({"path"}, None),
}


def validate(cases):
    ids = set()
    for c in cases:
        assert set(c) == {"id", "kind", "note", "events", "expect"}, c["id"]
        assert c["id"] not in ids, f"duplicate id {c['id']}"
        ids.add(c["id"])
        assert c["kind"] in ("positive", "noise"), c["id"]
        assert c["note"] and "\n" not in c["note"], c["id"]
        assert 1 <= len(c["events"]) <= 6, (c["id"], len(c["events"]))
        if c["kind"] == "noise":
            assert c["expect"] == [], c["id"]
        else:
            assert c["expect"], c["id"]
            for e in c["expect"]:
                assert e["category"] in ("learning", "blocker"), c["id"]
                assert 1 <= len(e["about"]) <= 4 and all(a == a.lower() and a.strip() for a in e["about"]), c["id"]
                text_unescaped = "\n".join(_all_strings(c["events"])).lower()
                assert any(a in text_unescaped for a in e["about"]), (c["id"], e["about"])
        sids = {ev["session_id"] for ev in c["events"]}
        assert len(sids) == 1, c["id"]
        for ev in c["events"]:
            for k in COMMON:
                assert k in ev, (c["id"], k)
            tool = ev["tool_name"]
            ti_keys, tr_keys = SHAPES[tool]
            assert ti_keys <= set(ev["tool_input"]), (c["id"], tool)
            if ev["hook_event_name"] == "PostToolUseFailure":
                assert tool == "Bash", c["id"]
                assert ev["error"].startswith("Exit code "), c["id"]
                assert ev["is_interrupt"] is False and "tool_response" not in ev, c["id"]
            else:
                assert ev["hook_event_name"] == "PostToolUse", c["id"]
                assert "tool_response" in ev and "error" not in ev, c["id"]
                if tr_keys:
                    assert tr_keys <= set(ev["tool_response"]), (c["id"], tool)
    return ids


def _all_strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _all_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _all_strings(v)


def main():
    validate(CASES)
    out = HERE / "cases.jsonl"
    with out.open("w", encoding="utf-8") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    kinds = {}
    for c in CASES:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    print(f"wrote {len(CASES)} cases to {out}: {kinds}")


if __name__ == "__main__":
    main()
