"""Held-out capture benchmark set (``heldout.jsonl``).

A second, independent set of hook payload sequences for the learnable-moment
detector, written by hand after the labelling rules in ``README.md`` and without
looking at the tuning set (``cases.jsonl``), its generator or the detector.
Scenarios deliberately come from other ecosystems (Elixir, Swift/Xcode,
Android, Deno, Bun, Poetry/Hatch, Ansible, nginx, systemd, Redis, Kafka,
GraphQL, gRPC, WebAssembly, CUDA, Bazel, pnpm, Nix, line endings, time zones,
locale, Unicode normalisation, CI caches).

Deterministic and offline: no network, no randomness, no clock. Token counts and
durations in Task payloads are derived from hashes.

    python bench/capture/make_heldout.py     # rewrites heldout.jsonl, prints counts
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import textwrap
import uuid
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "heldout.jsonl")
NAMESPACE = uuid.UUID("3b7f5a52-9d0e-5c41-8a6b-2f4e1d9c7a10")

CASES: list[dict] = []


# ----------------------------------------------------------------- helpers


def D(text: str) -> str:
    """Dedent a triple-quoted block and drop the surrounding blank lines."""
    return textwrap.dedent(text).strip("\n")


def new(cid: str, kind: str, note: str, project: str) -> dict:
    case = {
        "id": cid,
        "kind": kind,
        "note": note,
        "events": [],
        "expect": [],
        "_cwd": f"/home/dev/src/{project}",
    }
    CASES.append(case)
    return case


def _base(c: dict, hook: str, tool: str, tool_input: dict) -> dict:
    sid = str(uuid.uuid5(NAMESPACE, c["id"]))
    cwd = c["_cwd"]
    return {
        "session_id": sid,
        "transcript_path": f"/home/dev/.claude/projects/{cwd.replace('/', '-')}/{sid}.jsonl",
        "cwd": cwd,
        "hook_event_name": hook,
        "tool_name": tool,
        "tool_input": tool_input,
    }


def _abs(c: dict, path: str) -> str:
    return path if path.startswith("/") else f"{c['_cwd']}/{path}"


def bash(c: dict, command: str, description: str, stdout: str = "", stderr: str = "") -> None:
    ev = _base(c, "PostToolUse", "Bash", {"command": command, "description": description})
    ev["tool_response"] = {"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False}
    c["events"].append(ev)


def bash_fail(c: dict, command: str, description: str, code: int, output: str = "") -> None:
    ev = _base(c, "PostToolUseFailure", "Bash", {"command": command, "description": description})
    ev["error"] = f"Exit code {code}\n{output}" if output else f"Exit code {code}"
    ev["is_interrupt"] = False
    c["events"].append(ev)


def edit(c: dict, path: str, old: str, new_: str, start: int,
         before: tuple | list = (), after: tuple | list = ()) -> None:
    fp = _abs(c, path)
    old_lines = old.split("\n")
    new_lines = new_.split("\n")
    lines = ([" " + l for l in before] + ["-" + l for l in old_lines]
             + ["+" + l for l in new_lines] + [" " + l for l in after])
    hunk = {
        "oldStart": start,
        "oldLines": len(before) + len(old_lines) + len(after),
        "newStart": start,
        "newLines": len(before) + len(new_lines) + len(after),
        "lines": lines,
    }
    ev = _base(c, "PostToolUse", "Edit",
               {"file_path": fp, "old_string": old, "new_string": new_, "replace_all": False})
    ev["tool_response"] = {
        "filePath": fp,
        "oldString": old,
        "newString": new_,
        "structuredPatch": [hunk],
        "userModified": False,
        "replaceAll": False,
    }
    c["events"].append(ev)


def write(c: dict, path: str, content: str, kind: str = "create") -> None:
    fp = _abs(c, path)
    ev = _base(c, "PostToolUse", "Write", {"file_path": fp, "content": content})
    ev["tool_response"] = {"type": kind, "filePath": fp, "content": content, "structuredPatch": []}
    c["events"].append(ev)


def task(c: dict, description: str, prompt: str, text: str,
         subagent_type: str = "general-purpose") -> None:
    h = int(hashlib.sha256(f"{c['id']}|{len(c['events'])}|{text}".encode()).hexdigest(), 16)
    usage = {
        "input_tokens": 4 + h % 37,
        "cache_creation_input_tokens": 900 + (h // 41) % 8000,
        "cache_read_input_tokens": 12000 + (h // 53) % 70000,
        "output_tokens": 250 + (h // 67) % 2400,
        "service_tier": "standard",
    }
    total = sum(v for k, v in usage.items() if k.endswith("tokens"))
    ev = _base(c, "PostToolUse", "Task",
               {"description": description, "prompt": prompt, "subagent_type": subagent_type})
    ev["tool_response"] = {
        "content": [{"type": "text", "text": text}],
        "totalDurationMs": 15000 + (h // 71) % 240000,
        "totalTokens": total,
        "totalToolUseCount": 2 + (h // 79) % 35,
        "usage": usage,
    }
    c["events"].append(ev)


def read(c: dict, path: str, content: str, start: int = 1, total: int | None = None) -> None:
    fp = _abs(c, path)
    n = content.count("\n") + 1
    ev = _base(c, "PostToolUse", "Read", {"file_path": fp})
    ev["tool_response"] = {"type": "text", "file": {
        "filePath": fp, "content": content, "numLines": n, "startLine": start,
        "totalLines": total if total is not None else start + n - 1}}
    c["events"].append(ev)


def grep(c: dict, pattern: str, path: str, mode: str, filenames: list,
         content: str | None = None, glob: str | None = None) -> None:
    ti = {"pattern": pattern, "path": _abs(c, path), "output_mode": mode}
    if mode == "content":
        ti["-n"] = True
    if glob:
        ti["glob"] = glob
    files = [_abs(c, f) for f in filenames]
    resp = {"mode": mode, "numFiles": len(files), "filenames": files}
    if content is not None:
        resp["content"] = content
        resp["numLines"] = content.count("\n") + 1
    ev = _base(c, "PostToolUse", "Grep", ti)
    ev["tool_response"] = resp
    c["events"].append(ev)


def glob(c: dict, pattern: str, filenames: list, duration_ms: int = 12) -> None:
    files = [_abs(c, f) for f in filenames]
    ev = _base(c, "PostToolUse", "Glob", {"pattern": pattern, "path": c["_cwd"]})
    ev["tool_response"] = {"filenames": files, "durationMs": duration_ms,
                           "numFiles": len(files), "truncated": False}
    c["events"].append(ev)


def ls(c: dict, path: str, tree: str) -> None:
    ev = _base(c, "PostToolUse", "LS", {"path": _abs(c, path)})
    ev["tool_response"] = tree
    c["events"].append(ev)


def learning(c: dict, *about: str) -> None:
    c["expect"].append({"category": "learning", "about": list(about)})


def blocker(c: dict, *about: str) -> None:
    c["expect"].append({"category": "blocker", "about": list(about)})


# =============================================================== positives
# --- errors that were then fixed (failure -> change -> passing re-run) ----

c = new("h-mix-erlang-without-openssl", "positive",
        "mix deps.get fails because asdf built Erlang without OpenSSL (:crypto missing); "
        "libssl-dev + rebuilding Erlang fixes it", "ledger_ex")
bash_fail(c, "mix deps.get", "Fetch Hex dependencies", 1, D("""
    16:02:11.481 [error] Unable to load crypto library. Failed with error:
    ":load_failed, Failed to load NIF library: '/home/dev/.asdf/installs/erlang/26.2.1/lib/crypto-5.4/priv/lib/crypto.so: cannot open shared object file: No such file or directory'"
    OpenSSL might not be installed on this system.

    16:02:11.489 [warning] The on_load function for module crypto returned:
    {:error, {:load_failed, ~c"Failed to load NIF library: '/home/dev/.asdf/installs/erlang/26.2.1/lib/crypto-5.4/priv/lib/crypto.so: cannot open shared object file: No such file or directory'"}}

    ** (UndefinedFunctionError) function :crypto.hash/2 is undefined (module :crypto is not available)
        (crypto 5.4) :crypto.hash(:sha256, <<131, 104, 2, 100, 0, 4, 104, 101, 120, 97>>)
        (hex 2.0.6) lib/hex/registry/server.ex:284: Hex.Registry.Server.verify_and_decode/2
        (mix 1.16.1) lib/mix/dep/loader.ex:350: Mix.Dep.Loader.mix_dep/2
"""))
bash_fail(c, "dpkg -s libssl-dev", "Check whether OpenSSL headers are installed", 1,
          "dpkg-query: package 'libssl-dev' is not installed and no information is available\n"
          "Use dpkg --info (= dpkg-deb --info) to examine archive files.")
bash(c, "sudo apt-get install -y libssl-dev && asdf uninstall erlang 26.2.1 && asdf install erlang 26.2.1",
     "Install OpenSSL headers and rebuild Erlang", D("""
    Reading package lists...
    Building dependency tree...
    The following NEW packages will be installed:
      libssl-dev
    Setting up libssl-dev:amd64 (3.0.13-0ubuntu3.1) ...
    Downloading OTP-26.2.1.tar.gz to /home/dev/.asdf/downloads/erlang/26.2.1...
    Extracting source code
    Building Erlang/OTP 26.2.1 (asdf_26.2.1), please wait...
    APPLICATIONS DISABLED (See: /home/dev/.asdf/plugins/erlang/kerl-home/builds/asdf_26.2.1/otp_build_26.2.1.log)
     * jinterface     : No Java compiler found
     * odbc           : ODBC library - link check failed

    Erlang/OTP 26.2.1 (asdf_26.2.1) has been successfully built
    Cleaning up compilation products for 26.2.1
    Erlang/OTP 26.2.1 successfully installed
"""))
bash(c, "mix deps.get", "Fetch Hex dependencies", D("""
    Resolving Hex dependencies...
    Resolution completed in 0.214s
    Unchanged:
      decimal 2.1.1
      ecto 3.11.2
      ecto_sql 3.11.1
      jason 1.4.1
      postgrex 0.17.5
      telemetry 1.2.1
    All dependencies are up to date
"""))
learning(c, "crypto", "libssl-dev", "openssl")

c = new("h-xcodebuild-commandlinetools", "positive",
        "xcodebuild refuses to run while xcode-select points at the Command Line Tools; "
        "switching the developer directory fixes the build", "PocketLedger")
bash_fail(c, "xcodebuild -scheme PocketLedger -destination 'platform=iOS Simulator,name=iPhone 15' build",
          "Build the app for the simulator", 1,
          "xcode-select: error: tool 'xcodebuild' requires Xcode, but active developer directory "
          "'/Library/Developer/CommandLineTools' is a command line tools instance")
bash(c, "xcode-select -p && ls /Applications | grep -i xcode", "Show active developer dir and installed Xcodes",
     "/Library/Developer/CommandLineTools\nXcode.app")
bash(c, "sudo xcode-select -s /Applications/Xcode.app/Contents/Developer && xcode-select -p",
     "Point xcode-select at Xcode.app", "/Applications/Xcode.app/Contents/Developer")
bash(c, "xcodebuild -scheme PocketLedger -destination 'platform=iOS Simulator,name=iPhone 15' build | tail -4",
     "Build the app for the simulator", D("""
    Touch /home/dev/Library/Developer/Xcode/DerivedData/PocketLedger-dxqfhbkzrcyv/Build/Products/Debug-iphonesimulator/PocketLedger.app (in target 'PocketLedger' from project 'PocketLedger')
        cd /home/dev/src/PocketLedger
        /usr/bin/touch -c /home/dev/Library/Developer/Xcode/DerivedData/PocketLedger-dxqfhbkzrcyv/Build/Products/Debug-iphonesimulator/PocketLedger.app
    ** BUILD SUCCEEDED **
"""))
learning(c, "xcode-select", "commandlinetools")

c = new("h-agp-requires-java17", "positive",
        "Android Gradle plugin 8 refuses to run on JDK 11; re-running with JAVA_HOME on JDK 17 builds",
        "fieldnotes-android")
bash_fail(c, "./gradlew assembleDebug", "Build the debug APK", 1, D("""
    FAILURE: Build failed with an exception.

    * Where:
    Build file '/home/dev/src/fieldnotes-android/app/build.gradle.kts' line: 1

    * What went wrong:
    An exception occurred applying plugin request [id: 'com.android.application']
    > Failed to apply plugin 'com.android.internal.application'.
       > Android Gradle plugin requires Java 17 to run. You are currently using Java 11.
          Your current JDK is located in /usr/lib/jvm/java-11-openjdk-amd64
          You can try some of the following options:
           - changing the IDE settings.
           - changing the JAVA_HOME environment variable.
           - changing `org.gradle.java.home` in `gradle.properties`.

    * Try:
    > Run with --stacktrace option to get the stack trace.
    > Run with --info or --debug option to get more log output.
    > Run with --scan to get full insights.
    > Get more help at https://help.gradle.org.

    BUILD FAILED in 4s
"""))
bash(c, "ls /usr/lib/jvm/", "List installed JDKs",
     "java-1.11.0-openjdk-amd64\njava-1.17.0-openjdk-amd64\njava-11-openjdk-amd64\njava-17-openjdk-amd64\nopenjdk-11\nopenjdk-17")
bash(c, "export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 && ./gradlew assembleDebug",
     "Build the debug APK with JDK 17", D("""
    > Task :app:preBuild UP-TO-DATE
    > Task :app:preDebugBuild UP-TO-DATE
    > Task :app:mergeDebugNativeDebugMetadata NO-SOURCE
    > Task :app:compileDebugKotlin
    > Task :app:compileDebugJavaWithJavac
    > Task :app:dexBuilderDebug
    > Task :app:mergeDexDebug
    > Task :app:packageDebug
    > Task :app:createDebugApkListingFileRedirect
    > Task :app:assembleDebug

    BUILD SUCCESSFUL in 1m 12s
    38 actionable tasks: 38 executed
"""))
learning(c, "java 17", "java_home")

c = new("h-deno-allow-net", "positive",
        "deno task fails with PermissionDenied for api.github.com; adding --allow-net=api.github.com "
        "to the task fixes it", "release-bot")
bash_fail(c, "deno task sync", "Run the release sync task", 1, D("""
    Task sync deno run --allow-read --allow-write=CHANGELOG.md --allow-env src/sync.ts
    error: Uncaught (in promise) PermissionDenied: Requires net access to "api.github.com:443", run again with the --allow-net flag
        at mainFetch (ext:deno_fetch/26_fetch.js:170:43)
        at eventLoopTick (ext:core/01_core.js:168:7)
        at async fetch (ext:deno_fetch/26_fetch.js:391:7)
        at async listReleases (file:///home/dev/src/release-bot/src/github.ts:18:15)
        at async main (file:///home/dev/src/release-bot/src/sync.ts:9:20)
"""))
edit(c, "deno.json",
     '    "sync": "deno run --allow-read --allow-write=CHANGELOG.md --allow-env src/sync.ts",',
     '    "sync": "deno run --allow-read --allow-write=CHANGELOG.md --allow-env --allow-net=api.github.com src/sync.ts",',
     2, before=["{", '  "tasks": {'],
     after=['    "test": "deno test --allow-read src/"', "  },"])
bash(c, "deno task sync", "Run the release sync task", D("""
    Task sync deno run --allow-read --allow-write=CHANGELOG.md --allow-env --allow-net=api.github.com src/sync.ts
    fetched 14 releases from acme-labs/release-bot
    CHANGELOG.md: 2 new entries (v0.9.0, v0.9.1)
"""))
learning(c, "allow-net", "permissiondenied")

c = new("h-bun-better-sqlite3", "positive",
        "bun test fails because better-sqlite3 is not supported in Bun; switching to bun:sqlite fixes it",
        "tally-api")
bash_fail(c, "bun test", "Run the test suite under Bun", 1, D("""
    bun test v1.0.25 (a8ff7be6)

    test/store.test.ts:
    error: 'better-sqlite3' is not yet supported in Bun.
    Track the status in https://github.com/oven-sh/bun/issues/4290
    In the meantime, you could try bun:sqlite which has a similar API.
          at /home/dev/src/tally-api/src/store.ts:1:0

     0 pass
     1 fail
     1 error
    Ran 1 tests across 1 files. [38.00ms]
"""))
edit(c, "src/store.ts",
     'import Database from "better-sqlite3";\n\nconst db = new Database(process.env.TALLY_DB ?? "tally.db");\ndb.pragma("journal_mode = WAL");',
     'import { Database } from "bun:sqlite";\n\nconst db = new Database(process.env.TALLY_DB ?? "tally.db", { create: true });\ndb.exec("PRAGMA journal_mode = WAL;");',
     1, after=["", "export function addTally(name: string, delta: number) {"])
bash(c, "bun test", "Run the test suite under Bun", D("""
    bun test v1.0.25 (a8ff7be6)

    test/store.test.ts:
    ✓ addTally > creates a counter [0.41ms]
    ✓ addTally > increments an existing counter [0.12ms]
    ✓ topTallies > orders by count [0.30ms]

    test/routes.test.ts:
    ✓ GET /tallies returns json [2.10ms]
    ✓ POST /tallies/:name validates delta [0.88ms]

     5 pass
     0 fail
     9 expect() calls
    Ran 5 tests across 2 files. [61.00ms]
"""))
learning(c, "better-sqlite3", "bun:sqlite")

c = new("h-poetry-install-no-root-docker", "positive",
        "poetry install in the Docker deps layer fails because the README is not copied yet; "
        "--no-root fixes the layer", "geoclip")
bash_fail(c, "docker build -t geoclip:dev .", "Build the dev image", 1, D("""
    #0 building with "default" instance using docker driver
    #7 [builder 3/6] COPY pyproject.toml poetry.lock ./
    #7 DONE 0.0s

    #8 [builder 4/6] RUN poetry install --only main --no-interaction
    #8 0.812 Installing dependencies from lock file
    #8 1.402
    #8 1.402 Package operations: 24 installs, 0 updates, 0 removals
    #8 9.771   - Installing shapely (2.0.3)
    #8 10.114   - Installing pyproj (3.6.1)
    #8 10.552
    #8 10.553 Installing the current project: geoclip (0.4.0)
    #8 10.561 Error: The current project could not be installed: Readme path `/app/README.md` does not exist.
    #8 ERROR: process "/bin/sh -c poetry install --only main --no-interaction" did not complete successfully: exit code: 1
    ------
     > [builder 4/6] RUN poetry install --only main --no-interaction:
    ------
    Dockerfile:12
    ERROR: failed to solve: process "/bin/sh -c poetry install --only main --no-interaction" did not complete successfully: exit code: 1
"""))
edit(c, "Dockerfile",
     "RUN poetry install --only main --no-interaction",
     "# Dependencies only: the project itself (which needs README.md and src/) is installed\n"
     "# after the full COPY below, so this layer stays cached when code changes.\n"
     "RUN poetry install --only main --no-root --no-interaction",
     12, before=["WORKDIR /app", "COPY pyproject.toml poetry.lock ./"],
     after=["COPY . .", "RUN poetry install --only main --no-interaction"])
bash(c, "docker build -t geoclip:dev . 2>&1 | tail -6", "Build the dev image", D("""
    #10 [builder 6/6] RUN poetry install --only main --no-interaction
    #10 1.130 Installing the current project: geoclip (0.4.0)
    #10 DONE 1.4s
    #12 exporting to image
    #12 writing image sha256:4be1f0c7d2a9e8b3c6d5f4a1e2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1 done
    #12 naming to docker.io/library/geoclip:dev done
"""))
learning(c, "--no-root", "readme path")

c = new("h-setuptools-scm-shallow-checkout", "positive",
        "release job built 0.1.devN because actions/checkout is shallow and setuptools-scm sees no tags; "
        "PyPI rejects the local version; fetch-depth: 0 fixes it", "tinyq")
bash(c, "gh run view 9812345 --log-failed | tail -14", "Show the failed release job log", D("""
    publish	Build sdist and wheel	2024-03-12T10:12:51.2031911Z Successfully built tinyq-0.1.dev1+g3f2a9c1.tar.gz and tinyq-0.1.dev1+g3f2a9c1-py3-none-any.whl
    publish	Publish to PyPI	2024-03-12T10:12:58.9917356Z Uploading distributions to https://upload.pypi.org/legacy/
    publish	Publish to PyPI	2024-03-12T10:12:59.4410087Z Uploading tinyq-0.1.dev1+g3f2a9c1-py3-none-any.whl
    publish	Publish to PyPI	2024-03-12T10:13:00.1022342Z WARNING  Error during upload. Retry with the --verbose option for more details.
    publish	Publish to PyPI	2024-03-12T10:13:00.1025517Z ERROR    HTTPError: 400 Bad Request from https://upload.pypi.org/legacy/
    publish	Publish to PyPI	2024-03-12T10:13:00.1025911Z          The use of local versions in <Version('0.1.dev1+g3f2a9c1')> is not allowed. See
    publish	Publish to PyPI	2024-03-12T10:13:00.1026202Z          https://packaging.python.org/specifications/core-metadata for more information.
    publish	Publish to PyPI	2024-03-12T10:13:00.1187734Z ##[error]Process completed with exit code 1.
"""))
bash(c, "git describe --tags && git rev-parse --is-shallow-repository", "Check tags locally",
     "v1.4.0\nfalse")
edit(c, ".github/workflows/release.yml",
     "      - uses: actions/checkout@v4",
     "      - uses: actions/checkout@v4\n"
     "        with:\n"
     "          # setuptools-scm derives the version from tags; the default shallow\n"
     "          # clone has none and produced 0.1.devN+g<sha>, which PyPI rejects.\n"
     "          fetch-depth: 0",
     14, before=["  publish:", "    runs-on: ubuntu-latest", "    steps:"],
     after=["      - uses: actions/setup-python@v5", "        with:", '          python-version: "3.12"'])
bash(c, "gh run watch 9812399 --exit-status", "Watch the re-run of the release job", D("""
    ✓ v1.4.0 release · 9812399
    Triggered via push about 2 minutes ago

    JOBS
    ✓ publish in 41s (ID 26871234501)
      ✓ Set up job
      ✓ Run actions/checkout@v4
      ✓ Build sdist and wheel
      ✓ Publish to PyPI
      ✓ Complete job
"""))
learning(c, "setuptools-scm", "fetch-depth", "local versions")

c = new("h-ansible-become-unprivileged-acl", "positive",
        "become_user: postgres fails because the host lacks setfacl; adding the acl package fixes the play",
        "infra-ansible")
bash_fail(c, "ansible-playbook -i inventories/staging site.yml --limit db1", "Run the playbook against db1", 2, D("""
    PLAY [db] **********************************************************************

    TASK [Gathering Facts] *********************************************************
    ok: [db1]

    TASK [common : install base packages] ******************************************
    ok: [db1]

    TASK [postgresql : create application role] ************************************
    fatal: [db1]: FAILED! => {"msg": "Failed to set permissions on the temporary files Ansible needs to create when becoming an unprivileged user (rc: 1, err: chmod: invalid mode: 'A+user:postgres:rx:allow'\\nTry 'chmod --help' for more information.\\n}). For information on working around this, consult https://docs.ansible.com/ansible-core/2.16/playbook_guide/playbooks_privilege_escalation.html#risks-of-becoming-an-unprivileged-user"}

    PLAY RECAP *********************************************************************
    db1                        : ok=2    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0
"""))
edit(c, "roles/common/tasks/main.yml",
     "      - python3-psycopg2\n      - curl",
     "      - python3-psycopg2\n      - curl\n"
     "      # become_user to an unprivileged account (postgres) needs setfacl on the host\n"
     "      - acl",
     4, before=["- name: install base packages", "  ansible.builtin.apt:", "    name:"],
     after=["    state: present", "    update_cache: true"])
bash(c, "ansible-playbook -i inventories/staging site.yml --limit db1", "Run the playbook against db1", D("""
    PLAY [db] **********************************************************************

    TASK [Gathering Facts] *********************************************************
    ok: [db1]

    TASK [common : install base packages] ******************************************
    changed: [db1]

    TASK [postgresql : create application role] ************************************
    changed: [db1]

    TASK [postgresql : grant schema privileges] ************************************
    changed: [db1]

    PLAY RECAP *********************************************************************
    db1                        : ok=4    changed=3    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
"""))
learning(c, "acl", "unprivileged user", "setfacl")

c = new("h-nginx-proxy-pass-regex-location", "positive",
        "nginx -t rejects proxy_pass with a URI inside a regex location; rewrite + bare proxy_pass fixes it",
        "edge-proxy")
bash_fail(c, "sudo nginx -t -c /home/dev/src/edge-proxy/nginx.conf", "Validate nginx config", 1, D("""
    nginx: [emerg] "proxy_pass" cannot have URI part in location given by regular expression, or inside named location, or inside "if" statement, or inside "limit_except" block in /home/dev/src/edge-proxy/conf.d/api.conf:14
    nginx: configuration file /home/dev/src/edge-proxy/nginx.conf test failed
"""))
read(c, "conf.d/api.conf", D("""
    upstream api_upstream {
        server 127.0.0.1:8081;
        keepalive 32;
    }

    server {
        listen 80;
        server_name api.local;

        access_log /var/log/nginx/api.access.log main;

        location ~ ^/api/v[12]/ {
            proxy_set_header Host $host;
            proxy_pass http://api_upstream/;
        }
    }
"""))
edit(c, "conf.d/api.conf",
     "        proxy_pass http://api_upstream/;",
     "        rewrite ^/api/(.*)$ /$1 break;\n        proxy_pass http://api_upstream;",
     12, before=["        location ~ ^/api/v[12]/ {", "            proxy_set_header Host $host;"],
     after=["    }", "}"])
bash(c, "sudo nginx -t -c /home/dev/src/edge-proxy/nginx.conf && sudo nginx -s reload", "Validate and reload nginx",
     stderr=D("""
    nginx: the configuration file /home/dev/src/edge-proxy/nginx.conf syntax is ok
    nginx: configuration file /home/dev/src/edge-proxy/nginx.conf test is successful
"""))
learning(c, "proxy_pass", "uri part")

c = new("h-systemd-protecthome-chdir", "positive",
        "service fails with status=200/CHDIR because ProtectHome=true hides /home; read-only fixes it",
        "metrics-agent")
bash_fail(c, "sudo systemctl restart metrics-agent", "Restart the agent service", 1,
          'Job for metrics-agent.service failed because the control process exited with error code.\n'
          'See "systemctl status metrics-agent.service" and "journalctl -xeu metrics-agent.service" for details.')
bash(c, "journalctl -u metrics-agent -n 6 --no-pager", "Show the last journal lines for the unit", D("""
    Mar 12 10:41:07 build-01 systemd[1]: Starting metrics-agent.service - Metrics push agent...
    Mar 12 10:41:07 build-01 (s-agent)[48211]: metrics-agent.service: Changing to the requested working directory failed: Permission denied
    Mar 12 10:41:07 build-01 (s-agent)[48211]: metrics-agent.service: Failed at step CHDIR spawning /home/dev/src/metrics-agent/bin/metrics-agent: Permission denied
    Mar 12 10:41:07 build-01 systemd[1]: metrics-agent.service: Main process exited, code=exited, status=200/CHDIR
    Mar 12 10:41:07 build-01 systemd[1]: metrics-agent.service: Failed with result 'exit-code'.
    Mar 12 10:41:07 build-01 systemd[1]: Failed to start metrics-agent.service - Metrics push agent.
"""))
edit(c, "deploy/metrics-agent.service",
     "ProtectHome=true",
     "# ProtectHome=true makes /home inaccessible to the unit, and the agent lives under\n"
     "# /home/dev (status=200/CHDIR). read-only keeps the hardening without hiding it.\n"
     "ProtectHome=read-only",
     9, before=["WorkingDirectory=/home/dev/src/metrics-agent", "ExecStart=/home/dev/src/metrics-agent/bin/metrics-agent",
                "ProtectSystem=strict"],
     after=["PrivateTmp=true", "Restart=on-failure"])
bash(c, "sudo cp deploy/metrics-agent.service /etc/systemd/system/ && sudo systemctl daemon-reload "
        "&& sudo systemctl restart metrics-agent && systemctl is-active metrics-agent",
     "Install the unit and restart", "active")
learning(c, "protecthome", "200/chdir")

c = new("h-redis-misconf-bind-mount", "positive",
        "integration tests hit Redis MISCONF because the bind-mounted /data is root-owned; "
        "a named volume fixes it", "sessions-svc")
bash_fail(c, "pytest tests/integration -q", "Run integration tests", 1, D("""
    ........F.........                                                       [100%]
    =================================== FAILURES ===================================
    ____________________________ test_session_refresh _____________________________

    redis_client = Redis<ConnectionPool<Connection<host=localhost,port=6379,db=0>>>

        def test_session_refresh(redis_client):
            store = SessionStore(redis_client)
    >       store.put("s-1", {"user": 7}, ttl=60)

    tests/integration/test_sessions.py:31:
    _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
    .venv/lib/python3.12/site-packages/redis/connection.py:532: in read_response
        raise response
    E   redis.exceptions.ResponseError: MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.
    =========================== short test summary info ============================
    FAILED tests/integration/test_sessions.py::test_session_refresh - redis.exceptions.ResponseError: MISCONF Redis is configured to save RDB snapshots, but...
    1 failed, 17 passed in 2.88s
"""))
bash(c, "docker compose logs redis | tail -4", "Look at the Redis container log", D("""
    redis-1  | 1:M 12 Mar 2024 10:02:11.201 * 1 changes in 3600 seconds. Saving...
    redis-1  | 1:M 12 Mar 2024 10:02:11.201 * Background saving started by pid 212
    redis-1  | 212:C 12 Mar 2024 10:02:11.203 # Failed opening the temp RDB file temp-212.rdb (in server root dir /data) for saving: Permission denied
    redis-1  | 1:M 12 Mar 2024 10:02:11.302 # Background saving error
"""))
bash(c, "ls -ldn .data/redis", "Check owner of the bind-mounted data dir",
     "drwxr-xr-x 2 0 0 4096 Mar 12 09:58 .data/redis")
edit(c, "docker-compose.yml",
     "    volumes:\n      - ./.data/redis:/data",
     "    volumes:\n"
     "      # named volume: the ./.data bind mount was root-owned, redis (uid 999) could not\n"
     "      # write dump.rdb and every write failed with MISCONF\n"
     "      - redis-data:/data",
     9, before=["  redis:", "    image: redis:7.2-alpine", "    ports: [\"6379:6379\"]"],
     after=["", "volumes:", "  redis-data:"])
bash(c, "docker compose up -d redis && pytest tests/integration -q", "Recreate Redis and re-run integration tests",
     D("""
    ..................                                                       [100%]
    18 passed in 2.61s
"""), stderr=" Container sessions-svc-redis-1  Recreate\n Container sessions-svc-redis-1  Recreated\n Container sessions-svc-redis-1  Starting\n Container sessions-svc-redis-1  Started")
learning(c, "misconf", "rdb", "redis-data")

c = new("h-kafka-advertised-listeners-host", "positive",
        "producer on the host cannot resolve kafka:9092 (advertised listener is the compose hostname); "
        "an EXTERNAL listener on localhost fixes it", "orders-stream")
bash_fail(c, "python scripts/produce_sample.py --count 10", "Produce sample orders to local Kafka", 1, D("""
    %3|1710241321.431|FAIL|rdkafka#producer-1| [thrd:kafka:9092/1001]: kafka:9092/1001: Failed to resolve 'kafka:9092': Name or service not known (after 2ms in state CONNECT)
    %3|1710241322.433|FAIL|rdkafka#producer-1| [thrd:kafka:9092/1001]: kafka:9092/1001: Failed to resolve 'kafka:9092': Name or service not known (after 1ms in state CONNECT, 1 identical error(s) suppressed)
    Traceback (most recent call last):
      File "/home/dev/src/orders-stream/scripts/produce_sample.py", line 41, in <module>
        raise SystemExit(f"{remaining} messages not delivered")
    SystemExit: 10 messages not delivered
"""))
edit(c, "docker-compose.yml",
     "      KAFKA_LISTENERS: PLAINTEXT://0.0.0.0:9092\n"
     "      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092",
     "      # clients get the ADVERTISED address back from the bootstrap broker, so host-side\n"
     "      # tools need their own listener that advertises localhost\n"
     "      KAFKA_LISTENERS: PLAINTEXT://0.0.0.0:9092,EXTERNAL://0.0.0.0:29092\n"
     "      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092,EXTERNAL://localhost:29092\n"
     "      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: PLAINTEXT:PLAINTEXT,EXTERNAL:PLAINTEXT",
     14, before=["    image: confluentinc/cp-kafka:7.6.0", "    ports:", '      - "9092:9092"', "    environment:"],
     after=["      KAFKA_BROKER_ID: 1", "      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181"])
bash(c, "docker compose up -d kafka && python scripts/produce_sample.py --count 10 --bootstrap localhost:29092",
     "Restart Kafka and produce via the external listener",
     "delivered 10/10 messages to orders.v1 (partitions 0-2)",
     " Container orders-stream-kafka-1  Recreate\n Container orders-stream-kafka-1  Started")
learning(c, "advertised_listeners", "kafka:9092")

c = new("h-protoc-gen-go-not-on-path", "positive",
        "protoc cannot find protoc-gen-go because $(go env GOPATH)/bin is not on PATH; Makefile fix",
        "billing-grpc")
bash_fail(c, "protoc -I proto --go_out=gen --go_opt=paths=source_relative --go-grpc_out=gen "
             "--go-grpc_opt=paths=source_relative proto/billing/v1/*.proto",
          "Generate Go stubs", 1, D("""
    protoc-gen-go: program not found or is not executable
    Please specify a program using absolute path or make sure the program is available in your PATH system variable
    --go_out: protoc-gen-go: Plugin failed with status code 1.
"""))
bash(c, "ls $(go env GOPATH)/bin", "List Go-installed binaries",
     "dlv\ngopls\nprotoc-gen-go\nprotoc-gen-go-grpc\nstaticcheck")
edit(c, "Makefile",
     "PROTO_FILES := $(wildcard proto/billing/v1/*.proto)",
     "PROTO_FILES := $(wildcard proto/billing/v1/*.proto)\n"
     "# protoc looks plugins up on PATH only; `go install` puts protoc-gen-go and\n"
     "# protoc-gen-go-grpc in $(go env GOPATH)/bin, which is not on PATH by default.\n"
     "export PATH := $(shell go env GOPATH)/bin:$(PATH)",
     1, after=["", "proto: $(PROTO_FILES)", "\tprotoc -I proto --go_out=gen --go_opt=paths=source_relative \\"])
bash(c, "make proto && git status --short gen/", "Regenerate stubs via make",
     "protoc -I proto --go_out=gen --go_opt=paths=source_relative --go-grpc_out=gen --go-grpc_opt=paths=source_relative proto/billing/v1/billing.proto\n"
     " M gen/billing/v1/billing.pb.go\n M gen/billing/v1/billing_grpc.pb.go")
learning(c, "protoc-gen-go", "gopath")

c = new("h-getrandom-wasm-js-feature", "positive",
        "wasm-pack build fails in getrandom for wasm32-unknown-unknown; enabling the js feature fixes it",
        "hexmap-wasm")
bash_fail(c, "wasm-pack build --target web", "Build the wasm package", 1, D("""
    [INFO]: 🎯  Checking for the Wasm target...
    [INFO]: 🌀  Compiling to Wasm...
       Compiling getrandom v0.2.12
    error: the wasm32-unknown-unknown target is not supported by default, you may need to enable the "js" feature. For more information see: https://docs.rs/getrandom/#webassembly-support
       --> /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/getrandom-0.2.12/src/lib.rs:342:9
        |
    342 | /         compile_error!("the wasm32-unknown-unknown target is not supported by \\
    343 | |                         default, you may need to enable the \\"js\\" feature. \\
    344 | |                         For more information see: \\
    345 | |                         https://docs.rs/getrandom/#webassembly-support");
        | |________________________________________________________________________^

    error[E0433]: failed to resolve: use of undeclared crate or module `imp`
       --> /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/getrandom-0.2.12/src/lib.rs:398:9
        |
    398 |         imp::getrandom_inner(dest)?;
        |         ^^^ use of undeclared crate or module `imp`

    For more information about this error, try `rustc --explain E0433`.
    error: could not compile `getrandom` (lib) due to 2 previous errors
    Error: Compiling your crate to WebAssembly failed
    Caused by: Compiling your crate to WebAssembly failed
    Caused by: failed to execute `cargo build`: exited with exit status: 101
      full command: cd "/home/dev/src/hexmap-wasm" && "cargo" "build" "--lib" "--release" "--target" "wasm32-unknown-unknown"
"""))
bash(c, "cargo tree -i getrandom --target wasm32-unknown-unknown", "Find who pulls in getrandom", D("""
    getrandom v0.2.12
    └── rand_core v0.6.4
        ├── rand v0.8.5
        │   └── hexmap-wasm v0.1.0 (/home/dev/src/hexmap-wasm)
        └── rand_chacha v0.3.1
            └── rand v0.8.5 (*)
"""))
edit(c, "Cargo.toml",
     'rand = "0.8"',
     'rand = "0.8"\n'
     '# rand -> getrandom has no entropy source on wasm32-unknown-unknown unless the\n'
     '# "js" feature routes it to crypto.getRandomValues.\n'
     'getrandom = { version = "0.2", features = ["js"] }',
     9, before=["[dependencies]", 'wasm-bindgen = "0.2"'], after=['serde = { version = "1", features = ["derive"] }'])
bash(c, "wasm-pack build --target web", "Build the wasm package", stderr=D("""
    [INFO]: 🎯  Checking for the Wasm target...
    [INFO]: 🌀  Compiling to Wasm...
       Compiling getrandom v0.2.12
       Compiling rand_core v0.6.4
       Compiling hexmap-wasm v0.1.0 (/home/dev/src/hexmap-wasm)
        Finished release [optimized] target(s) in 9.84s
    [INFO]: ⬇️  Installing wasm-bindgen...
    [INFO]: Optimizing wasm binaries with `wasm-opt`...
    [INFO]: ✨   Done in 14.22s
    [INFO]: 📦   Your wasm pkg is ready to publish at /home/dev/src/hexmap-wasm/pkg.
"""))
learning(c, "getrandom", "wasm32-unknown-unknown")

c = new("h-cuda-no-kernel-image", "positive",
        "custom CUDA extension built only for sm_75/sm_86 fails on an H100 with 'no kernel image'; "
        "setting TORCH_CUDA_ARCH_LIST and rebuilding fixes it", "fastnms")
bash_fail(c, "python -m pytest tests/test_nms_cuda.py -q", "Run CUDA NMS tests", 1, D("""
    F.....                                                                   [100%]
    =================================== FAILURES ===================================
    ______________________________ test_nms_matches_cpu ______________________________

        def test_nms_matches_cpu():
            boxes, scores = random_boxes(4096, device="cuda")
    >       keep = fastnms.nms(boxes, scores, 0.5)

    tests/test_nms_cuda.py:18:
    _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
    src/fastnms/__init__.py:22: in nms
        return _C.nms_forward(boxes, scores, float(iou_threshold))
    E   RuntimeError: CUDA error: no kernel image is available for execution on the device
    E   CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
    E   For debugging consider passing CUDA_LAUNCH_BLOCKING=1.
    E   Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
    =========================== short test summary info ============================
    FAILED tests/test_nms_cuda.py::test_nms_matches_cpu - RuntimeError: CUDA error: no kernel image is available for execution on the device
    1 failed, 5 passed in 3.02s
"""))
bash(c, "nvidia-smi --query-gpu=name,compute_cap --format=csv && cuobjdump --list-elf src/fastnms/_C*.so",
     "Compare GPU compute capability with the archs in the built extension", D("""
    name, compute_cap
    NVIDIA H100 80GB HBM3, 9.0
    ELF file    1: _C.cpython-311-x86_64-linux-gnu.1.sm_75.cubin
    ELF file    2: _C.cpython-311-x86_64-linux-gnu.2.sm_86.cubin
"""))
edit(c, "setup.py",
     "from torch.utils.cpp_extension import BuildExtension, CUDAExtension",
     "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\n"
     "# Without an explicit list torch builds only for the GPUs visible at build time\n"
     "# (the build box has T4/A10), and the .so then fails on H100 with\n"
     "# 'no kernel image is available'. Keep PTX for forward compatibility.\n"
     'os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "7.5;8.0;8.6;9.0+PTX")',
     3, before=["import os", ""], after=["", "setup("])
bash(c, "pip install -e . --no-build-isolation -q && python -m pytest tests/test_nms_cuda.py -q",
     "Rebuild the extension and re-run CUDA tests", "......                                                                   [100%]\n6 passed in 4.87s")
learning(c, "torch_cuda_arch_list", "no kernel image")

c = new("h-bazel-rules-python-root", "positive",
        "rules_python hermetic interpreter refuses to run as root in the CI container; "
        "ignore_root_user_error in MODULE.bazel fixes the build", "monorepo")
bash_fail(c, "bazel build //services/ingest:server", "Build the ingest server", 1, D("""
    INFO: Repository rules_python~~python~python_3_11_x86_64-unknown-linux-gnu instantiated at:
      <builtin>: in <toplevel>
    Repository rule python_repository defined at:
      /root/.cache/bazel/_bazel_root/1c2f9a7e4b/external/rules_python~/python/repositories.bzl:443:36: in <toplevel>
    ERROR: An error occurred during the fetch of repository 'rules_python~~python~python_3_11_x86_64-unknown-linux-gnu':
       Traceback (most recent call last):
    	File "/root/.cache/bazel/_bazel_root/1c2f9a7e4b/external/rules_python~/python/repositories.bzl", line 221, column 25, in _python_repository_impl
    		fail("The current user is root, please run as non-root when using the hermetic Python interpreter. See https://github.com/bazelbuild/rules_python/pull/713.")
    Error in fail: The current user is root, please run as non-root when using the hermetic Python interpreter. See https://github.com/bazelbuild/rules_python/pull/713.
    ERROR: no such package '@@rules_python~~python~python_3_11_x86_64-unknown-linux-gnu//': The current user is root, please run as non-root when using the hermetic Python interpreter. See https://github.com/bazelbuild/rules_python/pull/713.
    INFO: Elapsed time: 4.102s
    INFO: 0 processes.
    FAILED: Build did NOT complete successfully (0 packages loaded)
"""))
edit(c, "MODULE.bazel",
     'python.toolchain(python_version = "3.11")',
     "python.toolchain(\n"
     "    # CI builds run as root inside the container; the hermetic interpreter refuses\n"
     "    # root (read-only pyc check) unless this is set.\n"
     "    ignore_root_user_error = True,\n"
     '    python_version = "3.11",\n'
     ")",
     7, before=['bazel_dep(name = "rules_python", version = "0.31.0")', "",
                'python = use_extension("@rules_python//python/extensions:python.bzl", "python")'],
     after=['use_repo(python, "python_3_11")'])
bash(c, "bazel build //services/ingest:server", "Build the ingest server", stderr=D("""
    INFO: Analyzed target //services/ingest:server (142 packages loaded, 6810 targets configured).
    INFO: Found 1 target...
    Target //services/ingest:server up-to-date:
      bazel-bin/services/ingest/server
    INFO: Elapsed time: 61.874s, Critical Path: 18.20s
    INFO: 318 processes: 97 internal, 221 linux-sandbox.
    INFO: Build completed successfully, 318 total actions
"""))
learning(c, "ignore_root_user_error", "rules_python")

c = new("h-pnpm-phantom-dependency", "positive",
        "next build fails under pnpm because a dependency imports prop-types without declaring it; "
        "pnpm.packageExtensions fixes it", "acme-web")
bash_fail(c, "pnpm --filter dashboard build", "Build the dashboard app", 1, D("""
    > dashboard@0.3.0 build /home/dev/src/acme-web/apps/dashboard
    > next build

       ▲ Next.js 14.1.3

       Creating an optimized production build ...
    Failed to compile.

    ../../node_modules/.pnpm/legacy-datepicker@3.1.0_react-dom@18.2.0_react@18.2.0/node_modules/legacy-datepicker/dist/index.js
    Module not found: Can't resolve 'prop-types'

    https://nextjs.org/docs/messages/module-not-found

    Import trace for requested module:
    ./src/components/RangePicker.tsx


    > Build failed because of webpack errors
    /home/dev/src/acme-web/apps/dashboard:
     ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  dashboard@0.3.0 build: `next build`
    Exit status 1
"""))
bash(c, "jq '.dependencies, .peerDependencies' node_modules/.pnpm/legacy-datepicker@3.1.0_react-dom@18.2.0_react@18.2.0/node_modules/legacy-datepicker/package.json",
     "Check what legacy-datepicker declares", '{\n  "date-fns": "^2.30.0"\n}\n{\n  "react": ">=16.8",\n  "react-dom": ">=16.8"\n}')
edit(c, "package.json",
     '  "pnpm": {\n    "overrides": {\n      "semver": "^7.5.4"\n    }\n  }',
     '  "pnpm": {\n    "overrides": {\n      "semver": "^7.5.4"\n    },\n'
     '    "packageExtensions": {\n'
     '      "legacy-datepicker@3": {\n'
     '        "dependencies": { "prop-types": "^15.8.1" }\n'
     '      }\n'
     '    }\n  }',
     18, before=['    "typescript": "5.4.2"', "  },"], after=["}"])
bash(c, "pnpm install && pnpm --filter dashboard build", "Reinstall and build the dashboard", D("""
    Scope: all 6 workspace projects
    Lockfile is up to date, resolution step is skipped
    Packages: +1
    +
    Progress: resolved 1, reused 1, downloaded 0, added 1, done
    Done in 2.1s

    > dashboard@0.3.0 build /home/dev/src/acme-web/apps/dashboard
    > next build

       ▲ Next.js 14.1.3

       Creating an optimized production build ...
     ✓ Compiled successfully
     ✓ Linting and checking validity of types
     ✓ Generating static pages (7/7)
"""))
learning(c, "packageextensions", "prop-types")

c = new("h-nix-flake-untracked-file", "positive",
        "nix build cannot see a new file because flakes only copy git-tracked files; "
        "git add --intent-to-add fixes it", "devbox-nix")
bash_fail(c, "nix build .#cli", "Build the CLI package", 1, D("""
    error:
           … while calling the 'import' builtin
             at /nix/store/6yq3r0d7xk2a0i7f3m5n1c9w4z8p2b1v-source/flake.nix:21:20:
               20|       overlays = [
               21|         (import ./nix/overlay.nix)
                 |                    ^
               22|       ];

           error: path '/nix/store/6yq3r0d7xk2a0i7f3m5n1c9w4z8p2b1v-source/nix/overlay.nix' does not exist
"""))
bash(c, "ls nix/ && git status --short nix/", "Check the file exists and its git state",
     "overlay.nix\npackages.nix\n?? nix/overlay.nix")
bash(c, "git add --intent-to-add nix/overlay.nix && nix build .#cli && ls -l result/bin",
     "Make the file visible to the flake and rebuild",
     "total 8\n-r-xr-xr-x 1 root root 6431 Jan  1  1970 devbox",
     "warning: Git tree '/home/dev/src/devbox-nix' is dirty")
learning(c, "flake", "intent-to-add")

c = new("h-crlf-shebang", "positive",
        "script checked out with CRLF fails with env: 'bash\\r'; .gitattributes eol=lf plus normalising fixes it",
        "ops-scripts")
bash_fail(c, "./scripts/rotate-logs.sh --dry-run", "Dry-run the log rotation script", 127,
          "/usr/bin/env: 'bash\\r': No such file or directory\n"
          "/usr/bin/env: use -[v]S to pass options in shebang lines")
bash(c, "file scripts/*.sh", "Inspect script encodings", D("""
    scripts/backup-db.sh:   Bourne-Again shell script, ASCII text executable
    scripts/rotate-logs.sh: Bourne-Again shell script, ASCII text executable, with CRLF line terminators
"""))
write(c, ".gitattributes", D("""
    # rotate-logs.sh was committed from a Windows checkout with CRLF endings; the
    # kernel then looks for an interpreter named "bash\\r". Force LF for scripts.
    *.sh   text eol=lf
    *.ps1  text eol=crlf
""") + "\n")
bash(c, "git add --renormalize scripts/ && sed -i 's/\\r$//' scripts/rotate-logs.sh && ./scripts/rotate-logs.sh --dry-run",
     "Normalise line endings and re-run", "would rotate 4 files in /var/log/app (dry run)")
learning(c, "crlf", "eol=lf")

c = new("h-jest-timezone-dst", "positive",
        "DST-crossing test fails in a developer's time zone; pinning TZ=UTC in a jest globalSetup fixes it",
        "shift-planner")
bash_fail(c, "TZ=America/New_York npx jest src/schedule", "Run schedule tests in a US time zone", 1, D("""
     FAIL  src/schedule/expand.test.ts
      expandShift
        ✓ keeps a day shift on the same date (3 ms)
        ✕ spans the DST change as 8 wall-clock hours (4 ms)

      ● expandShift › spans the DST change as 8 wall-clock hours

        expect(received).toEqual(expected)

        Expected: "2024-03-10T09:00"
        Received: "2024-03-10T10:00"

          13 |     const start = parseLocal("2024-03-10T01:00");
          14 |     const end = expandShift(start, { hours: 8 });
        > 15 |     expect(formatLocal(end)).toEqual("2024-03-10T09:00");
             |                              ^
          16 |   });

    Test Suites: 1 failed, 1 total
    Tests:       1 failed, 1 passed, 2 total
"""))
write(c, "jest.global-setup.ts", D("""
    // The expected values in src/schedule are written in UTC. Tests passed in CI (UTC) and
    // failed on laptops in America/New_York, where the DST-crossing cases move by an hour.
    // process.env.TZ has to be set here, before any worker starts; setupFiles is too late.
    export default function globalSetup(): void {
      process.env.TZ = "UTC";
    }
""") + "\n")
edit(c, "jest.config.ts",
     '  testEnvironment: "node",',
     '  testEnvironment: "node",\n  globalSetup: "<rootDir>/jest.global-setup.ts",',
     3, before=["const config: Config = {", '  preset: "ts-jest",'], after=["};", "", "export default config;"])
bash(c, "TZ=America/New_York npx jest src/schedule", "Re-run schedule tests in a US time zone", stderr=D("""
     PASS  src/schedule/expand.test.ts
      expandShift
        ✓ keeps a day shift on the same date (2 ms)
        ✓ spans the DST change as 8 wall-clock hours (1 ms)

    Test Suites: 1 passed, 1 total
    Tests:       2 passed, 2 total
    Snapshots:   0 total
    Time:        0.912 s
"""))
learning(c, "globalsetup", "process.env.tz", "dst")

c = new("h-java-turkish-locale-uppercase", "positive",
        "header normaliser breaks under tr_TR (dotted capital I); toUpperCase(Locale.ROOT) fixes it",
        "invoice-core")
bash_fail(c, "./mvnw -q test -Duser.language=tr -Duser.country=TR -Dtest=HeaderNormalizerTest",
          "Run the normaliser test under a Turkish locale", 1, D("""
    [ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.052 s <<< FAILURE! -- in com.acme.invoice.HeaderNormalizerTest
    [ERROR] com.acme.invoice.HeaderNormalizerTest.normalizesInvoiceIdHeader -- Time elapsed: 0.011 s <<< FAILURE!
    org.opentest4j.AssertionFailedError: expected: <X-INVOICE-ID> but was: <X-İNVOİCE-İD>
    	at org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
    	at org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)
    	at com.acme.invoice.HeaderNormalizerTest.normalizesInvoiceIdHeader(HeaderNormalizerTest.java:27)

    [ERROR] Failures:
    [ERROR]   HeaderNormalizerTest.normalizesInvoiceIdHeader:27 expected: <X-INVOICE-ID> but was: <X-İNVOİCE-İD>
    [ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0
"""))
edit(c, "src/main/java/com/acme/invoice/HeaderNormalizer.java",
     "        return name.trim().toUpperCase();",
     "        // Locale.ROOT: with the JVM default locale tr_TR, 'i' upper-cases to dotted 'İ'\n"
     "        return name.trim().toUpperCase(Locale.ROOT);",
     18, before=["    public static String normalize(String name) {", "        Objects.requireNonNull(name, \"name\");"],
     after=["    }", "}"])
bash(c, "./mvnw -q test -Duser.language=tr -Duser.country=TR -Dtest=HeaderNormalizerTest",
     "Re-run under a Turkish locale", D("""
    [INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.048 s -- in com.acme.invoice.HeaderNormalizerTest
    [INFO]
    [INFO] Results:
    [INFO]
    [INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0
"""))
learning(c, "locale.root", "touppercase", "tr_tr")

c = new("h-unicode-nfd-filenames", "positive",
        "lookup of an accented filename fails because the directory listing returns NFD names; "
        "normalising keys to NFC fixes it", "photo-index")
bash_fail(c, "pytest tests/test_lookup.py -q", "Run lookup tests", 1, D("""
    F.                                                                       [100%]
    =================================== FAILURES ===================================
    ________________________ test_lookup_accented_filename _________________________

    tmp_path = PosixPath('/private/var/folders/x1/k3w9/T/pytest-of-dev/pytest-12/test_lookup_accented_filename0')

        def test_lookup_accented_filename(tmp_path):
            (tmp_path / "café.jpg").write_bytes(b"\\xff\\xd8\\xff")
            index = build_index(tmp_path)
    >       assert index.lookup("café.jpg") is not None
    E       AssertionError: assert None is not None
    E        +  where None = <bound method PhotoIndex.lookup of PhotoIndex(1 entries)>('café.jpg')

    tests/test_lookup.py:14: AssertionError
    =========================== short test summary info ============================
    FAILED tests/test_lookup.py::test_lookup_accented_filename - AssertionError: assert None is not None
    1 failed, 1 passed in 0.09s
"""))
bash(c, "python -c \"from photo_index import build_index; print([ascii(k) for k in build_index('tests/fixtures/accents').keys()])\"",
     "Print the raw index keys", "[\"'cafe\\\\u0301.jpg'\", \"'na\\\\u0303o.jpg'\"]")
edit(c, "src/photo_index/index.py",
     "        key = entry.name",
     "        # NOTE: names from the macOS file APIs can come back decomposed (NFD: 'e' + U+0301)\n"
     "        # while callers type composed text, so keys are normalised to NFC.\n"
     '        key = unicodedata.normalize("NFC", entry.name)',
     27, before=["    for entry in os.scandir(root):", "        if not entry.is_file():", "            continue"],
     after=["        index[key] = PhotoEntry.from_dir_entry(entry)", "    return PhotoIndex(index)"])
bash(c, "pytest tests/test_lookup.py -q", "Re-run lookup tests", "..                                                                       [100%]\n2 passed in 0.07s")
learning(c, "nfc", "nfd", "unicodedata")

c = new("h-apollo4-express-json-middleware", "positive",
        "Apollo Server 4 returns 500 because express.json() is not mounted before expressMiddleware; "
        "adding it fixes the endpoint", "catalog-graphql")
bash_fail(c, "curl -sf -X POST localhost:4000/graphql -H 'content-type: application/json' "
             "-d '{\"query\":\"{ products(first: 2) { id name } }\"}'",
          "Query the GraphQL endpoint", 22, "curl: (22) The requested URL returned error: 500")
bash(c, "curl -s -X POST localhost:4000/graphql -H 'content-type: application/json' "
        "-d '{\"query\":\"{ products(first: 2) { id name } }\"}'",
     "Query again without -f to see the body",
     "`req.body` is not set; this probably means you forgot to set up the `json` middleware before the Apollo Server middleware.")
edit(c, "src/server.ts",
     '  app.use("/graphql", cors<cors.CorsRequest>(), expressMiddleware(server, { context }));',
     "  // Apollo Server 4 no longer parses bodies itself: express.json() must run first.\n"
     '  app.use("/graphql", cors<cors.CorsRequest>(), express.json(), expressMiddleware(server, { context }));',
     24, before=["  await server.start();", ""], after=["", "  httpServer.listen({ port: 4000 });"])
bash(c, "curl -sf -X POST localhost:4000/graphql -H 'content-type: application/json' "
        "-d '{\"query\":\"{ products(first: 2) { id name } }\"}'",
     "Query the GraphQL endpoint",
     '{"data":{"products":[{"id":"p_1","name":"Desk lamp"},{"id":"p_2","name":"Monitor arm"}]}}')
learning(c, "express.json", "expressmiddleware", "req.body")

c = new("h-grpcurl-needs-reflection", "positive",
        "grpcurl cannot list services because the Go server does not register reflection; "
        "reflection.Register fixes it", "billing-grpc")
bash_fail(c, "grpcurl -plaintext localhost:50051 list", "List services on the local server", 1,
          "Failed to list services: server does not support the reflection API")
edit(c, "cmd/server/main.go",
     '\t"google.golang.org/grpc"',
     '\t"google.golang.org/grpc"\n\t"google.golang.org/grpc/reflection"',
     5, before=["import (", '\t"log"', '\t"net"'], after=["", '\tbillingv1 "github.com/acme-labs/billing-grpc/gen/billing/v1"'])
edit(c, "cmd/server/main.go",
     "\tbillingv1.RegisterInvoiceServiceServer(s, svc)",
     "\tbillingv1.RegisterInvoiceServiceServer(s, svc)\n"
     "\t// grpcurl / Postman discover services through reflection; without it they\n"
     "\t// need the .proto files passed explicitly.\n"
     "\treflection.Register(s)",
     31, before=["\ts := grpc.NewServer(grpc.UnaryInterceptor(logging))", "\tsvc := invoices.NewService(store)"],
     after=["", "\tlog.Printf(\"listening on %s\", lis.Addr())"])
bash(c, "go build -o bin/server ./cmd/server && (./bin/server &) && sleep 1 && grpcurl -plaintext localhost:50051 list",
     "Rebuild, start and list services",
     "billing.v1.InvoiceService\ngrpc.reflection.v1.ServerReflection\ngrpc.reflection.v1alpha.ServerReflection",
     "2024/03/12 11:04:19 listening on [::]:50051")
learning(c, "reflection", "grpcurl")

c = new("h-ci-cache-optional-deps-per-os", "positive",
        "CI linux build fails on missing @rollup/rollup-linux-x64-gnu because node_modules cache is shared "
        "across OSes; adding runner.os/arch to the cache key fixes it", "acme-web")
bash(c, "gh run view 8123456 --log-failed | tail -9", "Show the failed CI job log", D("""
    build (ubuntu-latest)	Build	2024-03-11T16:20:03.1181256Z > acme-web@2.3.0 build
    build (ubuntu-latest)	Build	2024-03-11T16:20:03.1182004Z > vite build
    build (ubuntu-latest)	Build	2024-03-11T16:20:03.9901337Z Error: Cannot find module @rollup/rollup-linux-x64-gnu. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). Please try `npm i` again after removing both package-lock.json and node_modules directory.
    build (ubuntu-latest)	Build	2024-03-11T16:20:03.9902981Z     at requireWithFriendlyError (/home/runner/work/acme-web/acme-web/node_modules/rollup/dist/native.js:59:9)
    build (ubuntu-latest)	Build	2024-03-11T16:20:03.9903350Z     at Object.<anonymous> (/home/runner/work/acme-web/acme-web/node_modules/rollup/dist/native.js:68:76)
    build (ubuntu-latest)	Build	2024-03-11T16:20:03.9903711Z     at Module._compile (node:internal/modules/cjs/loader:1256:14)
    build (ubuntu-latest)	Build	2024-03-11T16:20:03.9904012Z   code: 'MODULE_NOT_FOUND'
    build (ubuntu-latest)	Build	2024-03-11T16:20:03.9904377Z }
    build (ubuntu-latest)	Build	2024-03-11T16:20:04.0121556Z ##[error]Process completed with exit code 1.
"""))
read(c, ".github/workflows/ci.yml", D("""
    name: CI
    on: [push, pull_request]

    jobs:
      build:
        strategy:
          matrix:
            os: [ubuntu-latest, macos-latest]
        runs-on: ${{ matrix.os }}
        steps:
          - uses: actions/checkout@v4
          - uses: actions/setup-node@v4
            with:
              node-version: 20
          - uses: actions/cache@v4
            id: nm
            with:
              path: node_modules
              key: node-modules-${{ hashFiles('package-lock.json') }}
          - if: steps.nm.outputs.cache-hit != 'true'
            run: npm ci
          - name: Build
            run: npm run build
"""))
edit(c, ".github/workflows/ci.yml",
     "          key: node-modules-${{ hashFiles('package-lock.json') }}",
     "          # node_modules contains platform-specific optional deps (@rollup/rollup-<os>-<arch>);\n"
     "          # a cache saved by the macOS job and restored on ubuntu had no linux binary.\n"
     "          key: node-modules-${{ runner.os }}-${{ runner.arch }}-${{ hashFiles('package-lock.json') }}",
     19, before=["            id: nm", "            with:", "              path: node_modules"],
     after=["          - if: steps.nm.outputs.cache-hit != 'true'", "            run: npm ci"])
bash(c, "gh run watch 8123502 --exit-status", "Watch the new CI run", D("""
    ✓ main CI · 8123502
    Triggered via push about 3 minutes ago

    JOBS
    ✓ build (ubuntu-latest) in 1m12s (ID 22311870012)
    ✓ build (macos-latest) in 1m48s (ID 22311870188)
"""))
learning(c, "rollup-linux-x64-gnu", "runner.os", "optional dependencies")

c = new("h-submodule-ssh-in-docker-build", "positive",
        "docker build cannot clone an ssh submodule (Host key verification failed); "
        "switching .gitmodules to https fixes it", "firmware-tools")
bash_fail(c, "docker build -t fwtools:ci .", "Build the CI image", 1, D("""
    #9 [builder 4/7] RUN git submodule update --init --recursive
    #9 0.412 Submodule 'vendor/libcbor' (git@github.com:PJK/libcbor.git) registered for path 'vendor/libcbor'
    #9 0.418 Cloning into '/src/vendor/libcbor'...
    #9 0.988 Host key verification failed.
    #9 0.989 fatal: Could not read from remote repository.
    #9 0.989
    #9 0.989 Please make sure you have the correct access rights
    #9 0.989 and the repository exists.
    #9 0.991 fatal: clone of 'git@github.com:PJK/libcbor.git' into submodule path '/src/vendor/libcbor' failed
    #9 ERROR: process "/bin/sh -c git submodule update --init --recursive" did not complete successfully: exit code: 128
    ------
    ERROR: failed to solve: process "/bin/sh -c git submodule update --init --recursive" did not complete successfully: exit code: 128
"""))
edit(c, ".gitmodules",
     "\turl = git@github.com:PJK/libcbor.git",
     "\turl = https://github.com/PJK/libcbor.git",
     1, before=['[submodule "vendor/libcbor"]', "\tpath = vendor/libcbor"])
bash(c, "git submodule sync && docker build -t fwtools:ci . 2>&1 | tail -5", "Sync submodule URL and rebuild", D("""
    Synchronizing submodule url for 'vendor/libcbor'
    #9 [builder 4/7] RUN git submodule update --init --recursive
    #9 0.431 Cloning into '/src/vendor/libcbor'...
    #9 DONE 2.3s
    #14 naming to docker.io/library/fwtools:ci done
"""))
learning(c, "host key verification failed", ".gitmodules", "submodule")

# --- Task reports with a root cause / workaround / blocker -----------------

c = new("h-task-kafka-max-poll-interval", "positive",
        "subagent finds the rebalance loop comes from exceeding max.poll.interval.ms; workaround max.poll.records",
        "orders-stream")
task(c, "Investigate consumer rebalancing loop",
     "The orders-enricher consumer keeps rebalancing in staging and we see duplicate enriched orders. "
     "Find the root cause using the consumer logs in logs/staging/ and the code in enricher/.",
     D("""
    Root cause found.

    The issue was that `enrich_batch()` takes 6–9 minutes for a full 500-record poll when the pricing API is
    slow, which exceeds `max.poll.interval.ms` (default 300000). The client then leaves the group
    ("Application maximum poll interval (300000ms) exceeded by 212ms" appears 41 times in
    logs/staging/enricher-2024-03-11.log), its partitions are reassigned, and the batch whose offsets were
    never committed is processed again by the next member — that is where the duplicates come from.

    Workaround applied in config/consumer.yaml: `max.poll.records: 50` (a batch now takes about 50 s).
    Longer term the pricing calls should move off the poll loop. Unit tests pass.
"""))
learning(c, "max.poll.interval.ms", "max.poll.records")

c = new("h-task-swiftui-published-background-thread", "positive",
        "subagent traces a crash to @Published mutation from a URLSession delegate queue; fix with @MainActor",
        "PocketLedger")
task(c, "Find cause of sync crash",
     "Debug builds crash intermittently right after a sync finishes (EXC_BREAKPOINT). Reproduce with the "
     "SyncServiceTests and find out why.",
     D("""
    Turns out the crash is not in the chart code. `SyncService.urlSession(_:dataTask:didReceive:)` is a
    URLSessionDataDelegate callback and runs on the session's delegate queue (a background OperationQueue),
    and it assigns `store.lastSync`, a `@Published` property that SwiftUI observes. In debug builds that hits
    `dispatch_assert_queue` with "Publishing changes from background threads is not allowed".

    Fix: marked `LedgerStore` as `@MainActor` and the delegate now hops with `await MainActor.run { ... }`.
    Ran SyncServiceTests 20 times in a row: no crash.
"""))
learning(c, "mainactor", "publishing changes from background threads", "dispatch_assert_queue")

c = new("h-task-dataloader-cache-across-requests", "positive",
        "subagent finds stale GraphQL data came from module-level DataLoader caches shared across requests",
        "catalog-graphql")
task(c, "Stale product names after update",
     "After `updateProduct` the next `products` query sometimes still shows the old name, until the pod "
     "restarts. Find out why.",
     D("""
    The issue was that the DataLoaders in src/loaders.ts are created once at module load
    (`export const productLoader = new DataLoader(batchProducts)`), so their per-key memo cache lives for the
    whole process and is shared by every request. After `updateProduct` the row changes in Postgres but
    `productLoader.load(id)` keeps returning the cached object until the pod restarts.

    Fix: build the loaders per request in the context function (`context: async () => ({ loaders:
    createLoaders(db) })`) and drop the module-level instances. Added a regression test in
    test/products.test.ts (update then query returns the new name); the suite passes.
"""))
learning(c, "dataloader", "per request")

c = new("h-task-blocked-ios-distribution-cert", "positive",
        "subagent cannot archive for TestFlight: no distribution certificate and no access to the Apple team",
        "PocketLedger")
task(c, "Prepare TestFlight build",
     "Bump the build number, archive PocketLedger with the Release configuration and upload it to TestFlight.",
     D("""
    Version bumped to 2.4.0 (build 131) and CHANGELOG updated.

    The archive step fails at code signing:
    `error: No signing certificate "iOS Distribution" found: No "iOS Distribution" signing certificate matching
    team ID "7QX2M4K9LP" with a private key was found.`
    The keychain on this machine only has an Apple Development certificate, and the App Store provisioning
    profile for com.acme.pocketledger is not installed either.

    Blocked: creating or downloading a distribution certificate needs the Admin role on the Apple Developer
    team, which this account does not have. Someone with access has to export the certificate (.p12) and the
    provisioning profile into the CI signing secrets before the upload can happen.
"""))
blocker(c, "ios distribution", "provisioning profile", "signing certificate")

c = new("h-task-schema-registry-learning-and-blocker", "positive",
        "subagent explains the BACKWARD_TRANSITIVE rejection (learning) and is blocked by a Schema Registry ACL",
        "orders-stream")
task(c, "Register orders v2 schema",
     "Register schemas/OrderPlaced.avsc (v2) for orders.v1-value in the local and the staging Schema "
     "Registry. The CI job fails on it; find out why.",
     D("""
    The issue was the removed `discount_code` field. The subject orders.v1-value has compatibility level
    BACKWARD_TRANSITIVE, and deleting a field that has no default is rejected ("Schema being registered is
    incompatible with an earlier schema for subject "orders.v1-value"; error code: 409"). Keeping the field as
    `["null", "string"]` with `"default": null` makes it compatible; checked against the local registry with
    `POST /compatibility/subjects/orders.v1-value/versions?verbose=true` → `is_compatible: true`, and
    schemas/OrderPlaced.avsc is updated.

    Blocked: registering in staging fails with `User is denied operation Write on Subject: orders.v1-value;
    error code: 40301`. The orders-ci service account only has read access to the staging Schema Registry.
    The platform team owns those ACLs and has to grant write (or register the schema for us).
"""))
learning(c, "backward_transitive", "discount_code")
blocker(c, "40301", "schema registry")

# --- blockers from Bash output ---------------------------------------------

c = new("h-blocked-ghcr-token-scope", "positive",
        "docker push to GHCR denied: token lacks write:packages; agent records it as blocked on an org owner",
        "tally-api")
bash_fail(c, "docker push ghcr.io/acme-labs/tally-api:1.8.0", "Push the release image", 1, D("""
    The push refers to repository [ghcr.io/acme-labs/tally-api]
    5f70bf18a086: Preparing
    a3ed95caeb02: Preparing
    9c27e219663c: Preparing
    denied: permission_denied: The token provided does not match expected scopes.
"""))
bash(c, "gh auth status", "Check token scopes", stderr=D("""
    github.com
      ✓ Logged in to github.com account dev-bot (GH_TOKEN)
      - Active account: true
      - Git operations protocol: https
      - Token: ghp_************************************
      - Token scopes: 'read:org', 'repo'
"""))
write(c, "RELEASE-NOTES-1.8.0.md", D("""
    # tally-api 1.8.0 release status

    - [x] version bump, changelog, tag v1.8.0
    - [x] image built locally (ghcr.io/acme-labs/tally-api:1.8.0)
    - [ ] image pushed

    Blocked: pushing to ghcr.io needs a token with `write:packages` on the acme-labs org. The dev-bot
    token only has `repo` and `read:org`, and I cannot create tokens for the org. An org owner has to
    add the scope, or push from the release workflow instead.
""") + "\n")
blocker(c, "write:packages", "ghcr")

c = new("h-blocked-hf-gated-repo", "positive",
        "model download fails: gated repo, account not in the authorized list (access must be requested)",
        "eval-harness")
bash_fail(c, "huggingface-cli download meta-llama/Llama-3.1-8B-Instruct --include '*.safetensors' --local-dir models/llama31",
          "Download model weights for the eval", 1, D("""
    Traceback (most recent call last):
      File "/home/dev/src/eval-harness/.venv/lib/python3.11/site-packages/huggingface_hub/utils/_errors.py", line 304, in hf_raise_for_status
        response.raise_for_status()
      File "/home/dev/src/eval-harness/.venv/lib/python3.11/site-packages/requests/models.py", line 1024, in raise_for_status
        raise HTTPError(http_error_msg, response=self)
    requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/model-00001-of-00004.safetensors

    The above exception was the direct cause of the following exception:

    huggingface_hub.utils._errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-66a1f2c3-4d5e6f7a8b9c0d1e2f3a4b5c)

    Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/model-00001-of-00004.safetensors.
    Access to model meta-llama/Llama-3.1-8B-Instruct is restricted and you are not in the authorized list. Visit https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct to ask for access.
"""))
blocker(c, "gatedrepoerror", "gated repo", "authorized list")

c = new("h-blocked-gcp-gpu-quota", "positive",
        "instance creation fails on a GPU quota of 0 in the region; only a quota increase can unblock it",
        "train-infra")
bash_fail(c, "gcloud compute instances create train-h100-1 --zone us-central1-a --machine-type a3-highgpu-8g "
             "--image-family pytorch-latest-gpu --image-project deeplearning-platform-release",
          "Create the training VM", 1, D("""
    ERROR: (gcloud.compute.instances.create) Could not fetch resource:
     - Quota 'NVIDIA_H100_GPUS' exceeded.  Limit: 0.0 in region us-central1.
    	metric name = compute.googleapis.com/nvidia_h100_gpus
    	limit name = NVIDIA-H100-GPUS-per-project-region
    	limit = 0.0
    	dimensions = region: us-central1
    Try your request in another zone, or view documentation on how to increase quotas: https://cloud.google.com/compute/quotas.
"""))
blocker(c, "nvidia_h100_gpus", "quota")

# --- lessons the agent writes down ---------------------------------------

c = new("h-note-ioredis-offline-queue", "positive",
        "agent adds a NOTE that ioredis' offline queue makes health checks hang instead of failing",
        "tally-api")
edit(c, "src/redis.ts",
     "  maxRetriesPerRequest: 2,\n});",
     "  maxRetriesPerRequest: 2,\n"
     "  // NOTE: with ioredis' default enableOfflineQueue, commands issued while Redis is down\n"
     "  // are queued instead of rejected, so /healthz hung until the k8s probe timed out\n"
     "  // instead of answering 503. Fail fast.\n"
     "  enableOfflineQueue: false,\n});",
     5, before=['import Redis from "ioredis";', "", "export const redis = new Redis(process.env.REDIS_URL!, {"],
     after=["", "redis.on(\"error\", (err) => log.warn({ err }, \"redis error\"));"])
learning(c, "enableofflinequeue", "ioredis")

c = new("h-note-nginx-sse-buffering", "positive",
        "agent records that SSE behind nginx needs proxy_buffering off", "edge-proxy")
edit(c, "conf.d/events.conf",
     "    location /events/ {\n        proxy_pass http://notify_upstream;",
     "    location /events/ {\n"
     "        # IMPORTANT: SSE needs proxy_buffering off. With buffering on, nginx held events\n"
     "        # until its 8k buffer filled and clients saw notifications minutes late.\n"
     "        proxy_buffering off;\n"
     "        proxy_read_timeout 1h;\n"
     "        proxy_pass http://notify_upstream;",
     8, before=["server {", "    listen 80;", "    server_name notify.local;", ""],
     after=["    }", "}"])
learning(c, "proxy_buffering", "sse")

c = new("h-note-protobuf-pin-reason", "positive",
        "agent pins protobuf<4 with the reason (old generated stubs raise 'Descriptors cannot be created directly')",
        "billing-py")
edit(c, "requirements/base.in",
     "grpcio==1.48.2\ngrpcio-tools==1.48.2\nprotobuf",
     "grpcio==1.48.2\ngrpcio-tools==1.48.2\n"
     "# Pinned below 4: the _pb2 modules generated by grpcio-tools 1.48 raise\n"
     '# "TypeError: Descriptors cannot be created directly" under protobuf>=4.\n'
     "# Regenerate the stubs with a newer grpcio-tools before lifting this.\n"
     "protobuf>=3.20,<4",
     3, before=["fastapi==0.110.0", "uvicorn[standard]==0.29.0"], after=["sqlalchemy==2.0.28"])
learning(c, "protobuf", "descriptors cannot be created directly")

c = new("h-note-troubleshooting-journald-ratelimit", "positive",
        "agent adds a troubleshooting entry: journald rate limiting drops the agent's debug logs",
        "metrics-agent")
edit(c, "docs/troubleshooting.md",
     "Restart the agent after changing `push_url`; it is only read at startup.",
     "Restart the agent after changing `push_url`; it is only read at startup.\n\n"
     "## Log lines missing from `journalctl -u metrics-agent`\n\n"
     "journald rate-limits each unit (by default 10000 messages per 30 s). At `debug` level the\n"
     "agent exceeds that during a flush, and the journal shows `Suppressed 48213 messages from\n"
     "metrics-agent.service` instead of the lines. Run at `info`, or raise `RateLimitBurst=` /\n"
     "`RateLimitIntervalSec=` in `/etc/systemd/journald.conf` on the host (a per-unit\n"
     "`LogRateLimitBurst=` needs systemd 240 or later).",
     22, before=["## Metrics arrive with a delay", "", "The agent batches for `flush_interval` (default 15 s)."])
learning(c, "ratelimitburst", "journald", "suppressed")

c = new("h-commit-message-cloudflare-websocket-idle", "positive",
        "commit message records that Cloudflare closes idle websockets after 100 s", "live-scores")
bash(c, 'git commit -am "$(cat <<\'EOF\'\nfix(ws): keep websocket connections alive behind Cloudflare\n\n'
        "The issue was that Cloudflare closes websocket connections that carry no\n"
        "message for 100 seconds, so clients watching a quiet match were dropped\n"
        "every few minutes. The server now sends a ping frame every 30 s.\nEOF\n)\"",
     "Commit the keepalive fix",
     "[main 4e1c9a2] fix(ws): keep websocket connections alive behind Cloudflare\n 2 files changed, 18 insertions(+), 2 deletions(-)")
learning(c, "cloudflare", "websocket", "ping")

c = new("h-note-tzdata-dependency", "positive",
        "agent adds tzdata with the reason: zoneinfo has no tz database on Windows/slim images",
        "rota-api")
edit(c, "pyproject.toml",
     '    "httpx>=0.27",',
     '    "httpx>=0.27",\n'
     "    # zoneinfo reads the OS tz database; Windows and python:3.12-slim have none, and\n"
     '    # ZoneInfo("Europe/Berlin") raised ZoneInfoNotFoundError there.\n'
     '    "tzdata>=2024.1",',
     8, before=["dependencies = [", '    "fastapi>=0.110",'], after=["]"])
learning(c, "tzdata", "zoneinfonotfounderror")

# --- deprecations in the project's own code, naming a replacement --------

c = new("h-deprecation-elixir-logger-warn", "positive",
        "mix compile warns Logger.warn/1 is deprecated in lib/, naming Logger.warning/2", "ledger_ex")
bash(c, "mix compile --force", "Recompile the project", "Generated ledger app", D("""
    Compiling 38 files (.ex)
        warning: Logger.warn/1 is deprecated. Use Logger.warning/2 instead
        │
     42 │         Logger.warn("retrying ledger sync in #{delay}ms")
        │                ~
        │
        └─ lib/ledger/sync_worker.ex:42:16: Ledger.SyncWorker.handle_info/2
"""))
learning(c, "logger.warn", "logger.warning")

c = new("h-deprecation-swiftui-navigationlink", "positive",
        "build warns that NavigationLink(destination:isActive:) in the app's own view is deprecated, "
        "naming navigationDestination", "PocketLedger")
bash(c, "xcodebuild -scheme PocketLedger -destination 'platform=iOS Simulator,name=iPhone 15' build 2>&1 "
        "| grep -E 'warning:|BUILD'",
     "Build and show warnings", D("""
    /home/dev/src/PocketLedger/PocketLedger/Views/AccountList.swift:48:21: warning: 'init(destination:isActive:label:)' was deprecated in iOS 16.0: use NavigationLink(value:label:), or navigationDestination(isPresented:destination:), inside a NavigationStack or NavigationSplitView
    ** BUILD SUCCEEDED **
"""))
learning(c, "navigationlink", "navigationdestination")

c = new("h-deprecation-k8s-pdb-v1beta1", "positive",
        "kubectl apply of the project's manifest warns policy/v1beta1 PDB is deprecated, use policy/v1; fixed",
        "platform-manifests")
bash(c, "kubectl apply -f k8s/api/", "Apply the api manifests",
     "deployment.apps/api configured\nservice/api unchanged\npoddisruptionbudget.policy/api created",
     "Warning: policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget")
edit(c, "k8s/api/pdb.yaml", "apiVersion: policy/v1beta1", "apiVersion: policy/v1", 1,
     after=["kind: PodDisruptionBudget", "metadata:", "  name: api"])
learning(c, "policy/v1beta1", "poddisruptionbudget")

c = new("h-deprecation-gha-set-output", "positive",
        "the project's own workflow step uses ::set-output; warning names Environment Files; fixed with GITHUB_OUTPUT",
        "tinyq")
bash(c, "gh run view 9813001 --log | grep -i 'warning'", "Look for warnings in the latest run",
     "build\tCompute version\t2024-03-12T10:12:44.1234567Z ##[warning]The `set-output` command is deprecated and "
     "will be disabled soon. Please upgrade to using Environment Files. For more information see: "
     "https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/")
edit(c, ".github/workflows/build.yml",
     '        run: echo "::set-output name=version::$(hatch version)"',
     '        run: echo "version=$(hatch version)" >> "$GITHUB_OUTPUT"',
     21, before=["      - name: Compute version", "        id: version"],
     after=["      - name: Build", "        run: hatch build"])
learning(c, "set-output", "github_output")

c = new("h-deprecation-ansible-include", "positive",
        "playbook run warns that 'include' is deprecated, use include_tasks/import_tasks; the project's role is fixed",
        "infra-ansible")
bash(c, "ansible-playbook -i inventories/staging site.yml --check --limit web", "Dry-run the web play", D("""
    PLAY [web] *********************************************************************

    TASK [Gathering Facts] *********************************************************
    ok: [web1]

    TASK [nginx : include] *********************************************************
    included: /home/dev/src/infra-ansible/roles/nginx/tasks/vhosts.yml for web1

    TASK [nginx : render vhost] ****************************************************
    ok: [web1] => (item=api)

    PLAY RECAP *********************************************************************
    web1                       : ok=3    changed=0    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
"""), D("""
    [DEPRECATION WARNING]: "include" is deprecated, use include_tasks/import_tasks
    instead. See https://docs.ansible.com/ansible-core/2.14/user_guide/playbooks_reuse_includes.html
     for details. This feature will be removed in version 2.16. Deprecation warnings
     can be disabled by setting deprecation_warnings=False in ansible.cfg.
"""))
grep(c, r"^\s*- include:", "roles", "content", ["roles/nginx/tasks/main.yml"],
     "roles/nginx/tasks/main.yml:6:- include: vhosts.yml")
edit(c, "roles/nginx/tasks/main.yml", "- include: vhosts.yml", "- ansible.builtin.include_tasks: vhosts.yml", 6,
     before=["- name: install nginx", "  ansible.builtin.apt:", "    name: nginx", ""])
learning(c, "include_tasks", "import_tasks")

c = new("h-deprecation-deno-run", "positive",
        "deno warns the project's src/git.ts uses deprecated Deno.run(), hinting Deno.Command()", "release-bot")
bash(c, "deno task changelog", "Generate the changelog section", D("""
    Task changelog deno run --allow-run=git --allow-read src/changelog.ts
    ## v0.9.1
    - fix: skip draft releases (#41)
    - chore: bump std to 0.219.0 (#40)
"""), D("""
    warning: Use of deprecated "Deno.run()" API. This API will be removed in Deno 2.

    See the Deno 1 to 2 Migration Guide for more information at https://docs.deno.com/runtime/manual/advanced/migrate_deprecations

    Hint: Use "Deno.Command()" API instead.

    Stack trace:
      at file:///home/dev/src/release-bot/src/git.ts:9:22
"""))
learning(c, "deno.run", "deno.command")


# =================================================================== noise
# --- successful ordinary output, including repeating tool chatter -------

c = new("h-n-mix-test-pass", "noise", "passing ExUnit run", "ledger_ex")
bash(c, "mix test", "Run the test suite", D("""
    Running ExUnit with seed: 418223, max_cases: 16

    ..........................................................................
    ..................
    Finished in 1.9 seconds (0.6s async, 1.3s sync)
    92 tests, 0 failures
"""))

c = new("h-n-swift-test-pass", "noise", "passing swift test run", "PocketLedger")
bash(c, "swift test --package-path Packages/LedgerKit", "Run LedgerKit package tests", D("""
    Building for debugging...
    [12/12] Linking LedgerKitPackageTests
    Build complete! (6.41s)
    Test Suite 'All tests' started at 2024-03-12 10:44:01.102.
    Test Suite 'LedgerKitPackageTests.xctest' started at 2024-03-12 10:44:01.103.
    Test Suite 'MoneyTests' passed at 2024-03-12 10:44:01.109.
    	 Executed 14 tests, with 0 failures (0 unexpected) in 0.005 (0.006) seconds
    Test Suite 'CategoryRulesTests' passed at 2024-03-12 10:44:01.121.
    	 Executed 9 tests, with 0 failures (0 unexpected) in 0.011 (0.011) seconds
    Test Suite 'All tests' passed at 2024-03-12 10:44:01.121.
    	 Executed 23 tests, with 0 failures (0 unexpected) in 0.016 (0.019) seconds
"""))

c = new("h-n-gradle-test-deprecated-features-banner", "noise",
        "passing gradle test with the generic 'Deprecated Gradle features' banner", "fieldnotes-android")
bash(c, "./gradlew testDebugUnitTest", "Run unit tests", D("""
    > Task :app:compileDebugUnitTestKotlin
    > Task :app:testDebugUnitTest

    Deprecated Gradle features were used in this build, making it incompatible with Gradle 9.0.

    You can use '--warning-mode all' to show the individual deprecation warnings and determine if they come from your own scripts or plugins.

    For more on this, please refer to https://docs.gradle.org/8.6/userguide/command_line_interface.html#sec:command_line_warnings in the Gradle documentation.

    BUILD SUCCESSFUL in 38s
    52 actionable tasks: 9 executed, 43 up-to-date
"""))

c = new("h-n-deno-test-pass", "noise", "passing deno test", "release-bot")
bash(c, "deno test --allow-read src/", "Run deno tests", D("""
    running 3 tests from ./src/changelog_test.ts
    groups commits by type ... ok (2ms)
    skips draft releases ... ok (0ms)
    renders breaking changes first ... ok (1ms)
    running 2 tests from ./src/github_test.ts
    parses next link header ... ok (0ms)
    retries on 502 ... ok (12ms)

    ok | 5 passed | 0 failed (61ms)
"""))

c = new("h-n-bun-install", "noise", "ordinary bun install", "tally-api")
bash(c, "bun install", "Install dependencies", D("""
    bun install v1.0.25 (a8ff7be6)
     + @types/bun@1.0.8
     + hono@4.0.10
     + ioredis@5.3.2
     + zod@3.22.4

     41 packages installed [812.00ms]
"""))

c = new("h-n-poetry-install", "noise", "ordinary poetry install", "geoclip")
bash(c, "poetry install --sync", "Install project dependencies", D("""
    Installing dependencies from lock file

    Package operations: 3 installs, 1 update, 0 removals

      - Updating certifi (2024.2.2 -> 2024.6.2)
      - Installing shapely (2.0.4)
      - Installing pyproj (3.6.1)
      - Installing rtree (1.2.0)

    Installing the current project: geoclip (0.4.0)
"""))

c = new("h-n-hatch-build", "noise", "ordinary hatch build", "tinyq")
bash(c, "hatch build", "Build sdist and wheel", D("""
    ────────────────────────────────────── sdist ───────────────────────────────────────
    dist/tinyq-1.4.0.tar.gz
    ────────────────────────────────────── wheel ───────────────────────────────────────
    dist/tinyq-1.4.0-py3-none-any.whl
"""))

c = new("h-n-ansible-recap-ok", "noise", "idempotent ansible run, nothing changed", "infra-ansible")
bash(c, "ansible-playbook -i inventories/staging site.yml --limit web", "Apply the web play", D("""
    PLAY [web] *********************************************************************

    TASK [Gathering Facts] *********************************************************
    ok: [web1]
    ok: [web2]

    TASK [nginx : install nginx] ***************************************************
    ok: [web1]
    ok: [web2]

    TASK [nginx : render vhost] ****************************************************
    ok: [web1] => (item=api)
    ok: [web2] => (item=api)

    PLAY RECAP *********************************************************************
    web1                       : ok=3    changed=0    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
    web2                       : ok=3    changed=0    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
"""))

c = new("h-n-nginx-t-ok", "noise", "nginx config test passes", "edge-proxy")
bash(c, "sudo nginx -t -c /home/dev/src/edge-proxy/nginx.conf", "Validate nginx config", stderr=D("""
    nginx: the configuration file /home/dev/src/edge-proxy/nginx.conf syntax is ok
    nginx: configuration file /home/dev/src/edge-proxy/nginx.conf test is successful
"""))

c = new("h-n-systemctl-status-active", "noise", "healthy systemd unit status", "metrics-agent")
bash(c, "systemctl status metrics-agent --no-pager", "Check the service", D("""
    ● metrics-agent.service - Metrics push agent
         Loaded: loaded (/etc/systemd/system/metrics-agent.service; enabled; preset: enabled)
         Active: active (running) since Tue 2024-03-12 10:52:30 UTC; 2h 4min ago
       Main PID: 49102 (metrics-agent)
          Tasks: 9 (limit: 38291)
         Memory: 21.4M
            CPU: 41.233s
         CGroup: /system.slice/metrics-agent.service
                 └─49102 /home/dev/src/metrics-agent/bin/metrics-agent --config /etc/metrics-agent.toml

    Mar 12 12:55:30 build-01 metrics-agent[49102]: flushed 1840 samples to https://push.metrics.internal (212ms)
    Mar 12 12:55:45 build-01 metrics-agent[49102]: flushed 1838 samples to https://push.metrics.internal (198ms)
"""))

c = new("h-n-redis-info-memory", "noise", "redis-cli INFO output", "sessions-svc")
bash(c, "redis-cli INFO memory | head -8", "Check Redis memory use", D("""
    # Memory
    used_memory:1523880
    used_memory_human:1.45M
    used_memory_rss:9703424
    used_memory_rss_human:9.25M
    used_memory_peak:1604512
    used_memory_peak_human:1.53M
    maxmemory_policy:allkeys-lru
"""))

c = new("h-n-kafka-topics-describe", "noise", "kafka-topics --describe output", "orders-stream")
bash(c, "docker compose exec kafka kafka-topics --bootstrap-server kafka:9092 --describe --topic orders.v1",
     "Describe the orders topic", D("""
    Topic: orders.v1	TopicId: 8vQk3nZ2Rk6n4yJr0aZc1g	PartitionCount: 3	ReplicationFactor: 1	Configs: retention.ms=604800000
    	Topic: orders.v1	Partition: 0	Leader: 1	Replicas: 1	Isr: 1
    	Topic: orders.v1	Partition: 1	Leader: 1	Replicas: 1	Isr: 1
    	Topic: orders.v1	Partition: 2	Leader: 1	Replicas: 1	Isr: 1
"""))

c = new("h-n-grpcurl-describe", "noise", "grpcurl describe output", "billing-grpc")
bash(c, "grpcurl -plaintext localhost:50051 describe billing.v1.InvoiceService", "Describe the invoice service", D("""
    billing.v1.InvoiceService is a service:
    service InvoiceService {
      rpc CreateInvoice ( .billing.v1.CreateInvoiceRequest ) returns ( .billing.v1.Invoice );
      rpc GetInvoice ( .billing.v1.GetInvoiceRequest ) returns ( .billing.v1.Invoice );
      rpc ListInvoices ( .billing.v1.ListInvoicesRequest ) returns ( .billing.v1.ListInvoicesResponse );
    }
"""))

c = new("h-n-buf-lint-clean", "noise", "buf lint with no findings (empty output)", "billing-grpc")
bash(c, "buf lint && buf breaking --against '.git#branch=main'", "Lint protos and check for breaking changes")

c = new("h-n-wasm-pack-done-readme-warn", "noise", "wasm-pack build with its usual 'no README' warning", "hexmap-wasm")
bash(c, "wasm-pack build --target web --release", "Build the wasm package", stderr=D("""
    [INFO]: 🎯  Checking for the Wasm target...
    [INFO]: 🌀  Compiling to Wasm...
        Finished release [optimized] target(s) in 0.21s
    [WARN]: ⚠️   origin crate has no README
    [INFO]: ⬇️  Installing wasm-bindgen...
    [INFO]: Optimizing wasm binaries with `wasm-opt`...
    [INFO]: ✨   Done in 3.10s
    [INFO]: 📦   Your wasm pkg is ready to publish at /home/dev/src/hexmap-wasm/pkg.
"""))

c = new("h-n-nvidia-smi", "noise", "nvidia-smi status table", "fastnms")
bash(c, "nvidia-smi", "Check GPU state", D("""
    Tue Mar 12 11:20:41 2024
    +---------------------------------------------------------------------------------------+
    | NVIDIA-SMI 535.161.07             Driver Version: 535.161.07   CUDA Version: 12.2     |
    |-----------------------------------------+----------------------+----------------------+
    | GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
    | Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
    |=========================================+======================+======================|
    |   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |
    | N/A   34C    P0              71W / 700W |      4MiB / 81559MiB |      0%      Default |
    +-----------------------------------------+----------------------+----------------------+
    | Processes:                                                                            |
    |  GPU   GI   CI        PID   Type   Process name                            GPU Memory |
    |=======================================================================================|
    |  No running processes found                                                           |
    +---------------------------------------------------------------------------------------+
"""))

c = new("h-n-bazel-build-debug-chatter", "noise",
        "successful bazel build with the recurring 'canonical reproducible form' DEBUG line", "monorepo")
bash(c, "bazel build //services/...", "Build all services", stderr=D("""
    DEBUG: Rule 'com_github_grpc_ecosystem_grpc_gateway' indicated that a canonical reproducible form can be obtained by modifying arguments shallow_since = "1707861394 +0000"
    DEBUG: Repository com_github_grpc_ecosystem_grpc_gateway instantiated at:
      /home/dev/src/monorepo/WORKSPACE:58:15: in <toplevel>
    INFO: Analyzed 14 targets (0 packages loaded, 0 targets configured).
    INFO: Found 14 targets...
    INFO: Elapsed time: 2.311s, Critical Path: 0.88s
    INFO: 3 processes: 1 internal, 2 linux-sandbox.
    INFO: Build completed successfully, 3 total actions
"""))

c = new("h-n-pnpm-unmet-peer", "noise", "pnpm install with unmet peer dependency warnings", "acme-web")
bash(c, "pnpm install", "Install workspace dependencies", D("""
    Scope: all 6 workspace projects
    Lockfile is up to date, resolution step is skipped
    Already up to date
     WARN  Issues with peer dependencies found
    apps/dashboard
    └─┬ @storybook/react 7.6.17
      └── ✕ unmet peer react@"^16.8.0 || ^17.0.0 || ^18.0.0": found 19.0.0-rc-4c2e457c7c-20240522

    Done in 1.4s
"""))

c = new("h-n-nix-dirty-tree", "noise", "nix develop with the usual dirty-tree warning", "devbox-nix")
bash(c, "nix develop --command go version", "Check the toolchain inside the dev shell",
     "go version go1.22.1 linux/amd64", "warning: Git tree '/home/dev/src/devbox-nix' is dirty")

c = new("h-n-git-log-trigger-words", "noise",
        "git log whose messages contain 'workaround' and 'deprecated' (reading history)", "acme-web")
bash(c, "git log --oneline -8", "Recent history", D("""
    b41c0e2 ci: key node_modules cache per OS
    7ad93f1 chore(deps): bump vite to 5.1.6
    3f0e8c4 fix(dashboard): workaround for Safari date input (see #212)
    e12d9a7 refactor: drop deprecated formatMoney helper
    98a1b3c feat(ui): RangePicker component
    6c7d210 docs: note about pnpm 9 in CONTRIBUTING
    1b2e3f4 test: cover empty state of OrdersTable
    0a9f8e7 chore: release 2.3.0
"""))

c = new("h-n-git-show-the-issue-was", "noise",
        "git show of an old commit whose message says 'The issue was' (someone already wrote it down)", "live-scores")
bash(c, "git show --stat 1d2e3f4", "Inspect an older fix", D("""
    commit 1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e
    Author: Priya Raman <priya@acme.dev>
    Date:   Thu Feb 8 14:02:51 2024 +0100

        fix(api): stop double-counting goals after VAR review

        The issue was that the feed sends a second GOAL event with the same
        event_id after a review, and we only deduplicated on (match_id, minute).

     src/feed/ingest.ts       | 14 +++++++++-----
     test/feed/ingest.test.ts | 22 ++++++++++++++++++++++
     2 files changed, 31 insertions(+), 5 deletions(-)
"""))

c = new("h-n-kubectl-get-pods", "noise", "kubectl get pods", "platform-manifests")
bash(c, "kubectl get pods -n api -o wide", "List api pods", D("""
    NAME                   READY   STATUS    RESTARTS   AGE   IP            NODE                  NOMINATED NODE   READINESS GATES
    api-7d9c8b5f4d-2xkqp   1/1     Running   0          3h    10.42.1.17    pool-a-8f2k1-7xq2d    <none>           <none>
    api-7d9c8b5f4d-8mzrt   1/1     Running   0          3h    10.42.2.31    pool-a-8f2k1-m4p9c    <none>           <none>
    api-7d9c8b5f4d-qv6ws   1/1     Running   1          3h    10.42.0.22    pool-a-8f2k1-tt7rz    <none>           <none>
"""))

c = new("h-n-compose-version-obsolete", "noise", "docker compose up with the 'version is obsolete' warning", "sessions-svc")
bash(c, "docker compose up -d", "Start the stack", stderr=D("""
    WARN[0000] /home/dev/src/sessions-svc/docker-compose.yml: `version` is obsolete
    [+] Running 3/3
     ✔ Network sessions-svc_default    Created
     ✔ Container sessions-svc-redis-1  Started
     ✔ Container sessions-svc-api-1    Started
"""))

c = new("h-n-curl-graphql-ok", "noise", "successful GraphQL query with curl", "catalog-graphql")
bash(c, "curl -s localhost:4000/graphql -H 'content-type: application/json' "
        "-d '{\"query\":\"{ category(slug: \\\"lighting\\\") { name productCount } }\"}' | jq .",
     "Query a category", D("""
    {
      "data": {
        "category": {
          "name": "Lighting",
          "productCount": 37
        }
      }
    }
"""))

c = new("h-n-jq-package-scripts", "noise", "jq over package.json", "acme-web")
bash(c, "jq '.scripts' apps/dashboard/package.json", "Show dashboard scripts", D("""
    {
      "dev": "next dev -p 3001",
      "build": "next build",
      "start": "next start",
      "lint": "next lint",
      "test": "vitest run"
    }
"""))

c = new("h-n-du-sh", "noise", "du output", "fastnms")
bash(c, "du -sh build/ src/ tests/ .venv/", "Check directory sizes", "412M\tbuild/\n1.9M\tsrc/\n312K\ttests/\n5.1G\t.venv/")

c = new("h-n-df-h", "noise", "df output", "monorepo")
bash(c, "df -h / /home", "Check free disk space", D("""
    Filesystem      Size  Used Avail Use% Mounted on
    /dev/nvme0n1p2  468G  301G  144G  68% /
    /dev/nvme1n1    938G  512G  379G  58% /home
"""))

c = new("h-n-terraform-plan-out-note", "noise", "terraform plan with the recurring '-out' note", "train-infra")
bash(c, "terraform plan", "Plan infrastructure changes", D("""
    google_storage_bucket.checkpoints: Refreshing state... [id=acme-train-checkpoints]
    google_compute_network.train: Refreshing state... [id=projects/acme-train/global/networks/train]

    Terraform used the selected providers to generate the following execution plan. Resource actions are
    indicated with the following symbols:
      ~ update in-place

    Terraform will perform the following actions:

      # google_storage_bucket.checkpoints will be updated in-place
      ~ resource "google_storage_bucket" "checkpoints" {
            id                          = "acme-train-checkpoints"
          ~ labels                      = {
              + "team" = "ml-platform"
            }
            name                        = "acme-train-checkpoints"
            # (12 unchanged attributes hidden)
        }

    Plan: 0 to add, 1 to change, 0 to destroy.

    ─────────────────────────────────────────────────────────────────────────────

    Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly these
    actions if you run "terraform apply" now.
"""))

c = new("h-n-pip-new-release-notice", "noise", "pip install with the new-release notice", "eval-harness")
bash(c, "pip install -r requirements.txt", "Install requirements", D("""
    Requirement already satisfied: datasets==2.18.0 in ./.venv/lib/python3.11/site-packages (from -r requirements.txt (line 1)) (2.18.0)
    Requirement already satisfied: huggingface_hub==0.21.4 in ./.venv/lib/python3.11/site-packages (from -r requirements.txt (line 2)) (0.21.4)
    Collecting rich==13.7.1 (from -r requirements.txt (line 5))
      Using cached rich-13.7.1-py3-none-any.whl.metadata (18 kB)
    Installing collected packages: rich
    Successfully installed rich-13.7.1
"""), D("""

    [notice] A new release of pip is available: 24.0 -> 24.1.2
    [notice] To update, run: pip install --upgrade pip
"""))

c = new("h-n-pip-legacy-setup-py-dependency", "noise",
        "pip's legacy setup.py DEPRECATION for a dependency, not for the project", "billing-py")
bash(c, "pip install -r requirements/base.txt", "Install base requirements", D("""
    Collecting sqlalchemy==2.0.28 (from -r requirements/base.txt (line 14))
      Using cached SQLAlchemy-2.0.28-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata (9.6 kB)
    Collecting python-crontab==3.0.0 (from -r requirements/base.txt (line 11))
      Using cached python-crontab-3.0.0.tar.gz (57 kB)
      Preparing metadata (setup.py) ... done
    Building wheels for collected packages: python-crontab
      Building wheel for python-crontab (setup.py) ... done
      Created wheel for python-crontab: filename=python_crontab-3.0.0-py3-none-any.whl size=26431 sha256=2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c
    Successfully built python-crontab
    Installing collected packages: sqlalchemy, python-crontab
    Successfully installed python-crontab-3.0.0 sqlalchemy-2.0.28
"""), D("""
      DEPRECATION: Building 'python-crontab' using the legacy setup.py bdist_wheel mechanism, which will be removed in a future version. pip 25.3 will enforce this behaviour change. A possible replacement is to use the standardized build interface by setting the `--use-pep517` option, (possibly combined with `--no-build-isolation`), or adding a `pyproject.toml` file to the source tree of 'python-crontab'. Discussion can be found at https://github.com/pypa/pip/issues/6334
"""))

c = new("h-n-npm-warn-deprecated-transitive", "noise", "npm WARN deprecated for transitive deps", "catalog-graphql")
bash(c, "npm install", "Install dependencies", D("""
    added 412 packages, and audited 413 packages in 9s

    58 packages are looking for funding
      run `npm fund` for details

    found 0 vulnerabilities
"""), D("""
    npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and powerful.
    npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported
    npm WARN deprecated @apollo/server-plugin-landing-page-graphql-playground@4.0.0: The use of GraphQL Playground in Apollo Server was supported in previous versions, but this is no longer the case as of December 31, 2022.
"""))

c = new("h-n-pytest-thirdparty-utcfromtimestamp", "noise",
        "passing pytest with a DeprecationWarning raised inside site-packages (naming a replacement)", "rota-api")
bash(c, "pytest -q", "Run the test suite", D("""
    ........................................................                 [100%]
    =============================== warnings summary ===============================
    .venv/lib/python3.12/site-packages/dateutil/tz/tz.py:37
      /home/dev/src/rota-api/.venv/lib/python3.12/site-packages/dateutil/tz/tz.py:37: DeprecationWarning: datetime.datetime.utcfromtimestamp() is deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent datetimes in UTC: datetime.datetime.fromtimestamp(timestamp, datetime.UTC).
        EPOCH = datetime.datetime.utcfromtimestamp(0)

    -- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
    56 passed, 1 warning in 1.37s
"""))

c = new("h-n-node-punycode-from-node-modules", "noise",
        "Node's punycode DEP0040 warning traced into node_modules", "catalog-graphql")
bash(c, "node --trace-deprecation dist/server.js --check-config", "Check the server config", "config ok (4 datasources)", D("""
    (node:48211) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. Please use a userland alternative instead.
        at node:punycode:3:9
        at BuiltinModule.compileForInternalLoader (node:internal/bootstrap/realm:399:7)
        at Module._load (node:internal/modules/cjs/loader:1007:12)
        at Module.require (node:internal/modules/cjs/loader:1230:19)
        at require (node:internal/modules/helpers:179:18)
        at Object.<anonymous> (/home/dev/src/catalog-graphql/node_modules/tr46/index.js:3:18)
        at Module._compile (node:internal/modules/cjs/loader:1368:14)
"""))

c = new("h-n-kotlin-deprecated-in-java-no-replacement", "noise",
        "Kotlin warns onBackPressed is 'Deprecated in Java' in project code but names no replacement", "fieldnotes-android")
bash(c, "./gradlew compileDebugKotlin", "Compile Kotlin sources", D("""
    > Task :app:compileDebugKotlin
    w: file:///home/dev/src/fieldnotes-android/app/src/main/java/com/acme/fieldnotes/EditorActivity.kt:88:18 'onBackPressed(): Unit' is deprecated. Deprecated in Java
    w: file:///home/dev/src/fieldnotes-android/app/src/main/java/com/acme/fieldnotes/EditorActivity.kt:90:15 'onBackPressed(): Unit' is deprecated. Deprecated in Java

    BUILD SUCCESSFUL in 14s
    17 actionable tasks: 2 executed, 15 up-to-date
"""))

c = new("h-n-xcode-pods-deployment-target", "noise",
        "xcodebuild succeeds with deployment-target warnings from CocoaPods targets", "PocketLedger")
bash(c, "xcodebuild -workspace PocketLedger.xcworkspace -scheme PocketLedger -destination 'generic/platform=iOS Simulator' build 2>&1 | grep -E 'warning:|BUILD'",
     "Build and show warnings", D("""
    /home/dev/src/PocketLedger/Pods/Pods.xcodeproj: warning: The iOS Simulator deployment target 'IPHONEOS_DEPLOYMENT_TARGET' is set to 10.0, but the range of supported deployment target versions is 12.0 to 17.4.99. (in target 'SwiftyJSON' from project 'Pods')
    /home/dev/src/PocketLedger/Pods/Pods.xcodeproj: warning: The iOS Simulator deployment target 'IPHONEOS_DEPLOYMENT_TARGET' is set to 11.0, but the range of supported deployment target versions is 12.0 to 17.4.99. (in target 'KeychainAccess' from project 'Pods')
    ** BUILD SUCCEEDED **
"""))

c = new("h-n-elixir-dep-deprecation", "noise",
        "deprecation warning with a replacement, but raised in deps/ (third party)", "ledger_ex")
bash(c, "mix deps.compile", "Compile dependencies", "==> poison\nCompiling 4 files (.ex)\nGenerated poison app\n==> ledger", D("""
        warning: use Bitwise is deprecated. import Bitwise instead
        │
      2 │   use Bitwise
        │   ~
        │
        └─ deps/poison/lib/poison/encoder.ex:2:3: Poison.Encoder.BitString (module)
"""))

c = new("h-n-helm-template", "noise", "helm template output", "platform-manifests")
bash(c, "helm template api charts/api -f charts/api/values-staging.yaml | head -24", "Render the api chart", D("""
    ---
    # Source: api/templates/service.yaml
    apiVersion: v1
    kind: Service
    metadata:
      name: api
      labels:
        app.kubernetes.io/name: api
    spec:
      type: ClusterIP
      ports:
        - port: 80
          targetPort: http
      selector:
        app.kubernetes.io/name: api
    ---
    # Source: api/templates/deployment.yaml
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: api
    spec:
      replicas: 3
"""))

c = new("h-n-docker-logs-redis-overcommit", "noise",
        "docker logs of a Redis start-up with its usual memory-overcommit warning", "sessions-svc")
bash(c, "docker logs sessions-svc-redis-1 | head -8", "Look at Redis start-up log", D("""
    1:C 12 Mar 2024 09:58:02.114 # WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition. Being disabled, it can also cause failures without low memory condition, see https://github.com/jemalloc/jemalloc/issues/1328. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl vm.overcommit_memory=1' for this to take effect.
    1:C 12 Mar 2024 09:58:02.114 * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo
    1:C 12 Mar 2024 09:58:02.114 * Redis version=7.2.4, bits=64, commit=00000000, modified=0, pid=1, just started
    1:M 12 Mar 2024 09:58:02.115 * monotonic clock: POSIX clock_gettime
    1:M 12 Mar 2024 09:58:02.115 * Running mode=standalone, port=6379.
    1:M 12 Mar 2024 09:58:02.116 * Server initialized
    1:M 12 Mar 2024 09:58:02.116 * Ready to accept connections tcp
"""))

c = new("h-n-psql-query", "noise", "psql query output", "invoice-core")
bash(c, "psql \"$DATABASE_URL\" -c \"select status, count(*) from invoices group by 1 order by 2 desc\"",
     "Count invoices by status", D("""
      status  | count
    ----------+-------
     paid     | 18422
     open     |  1290
     overdue  |   311
     void     |    47
    (4 rows)
"""))

c = new("h-n-sqlite3-query", "noise", "sqlite3 query output", "tally-api")
bash(c, "sqlite3 -header -column tally.db 'select name, count from tallies order by count desc limit 5'",
     "Top tallies", D("""
    name        count
    ----------  -----
    coffee      412
    standups    188
    deploys     97
    incidents   12
    rollbacks   3
"""))

c = new("h-n-gh-run-log-passing", "noise", "long passing CI log", "ledger_ex")
bash(c, "gh run view 7712004 --log | tail -18", "Show the end of the CI log", D("""
    test	Run mix test	2024-03-12T09:01:12.4410021Z ==> ledger
    test	Run mix test	2024-03-12T09:01:12.4410788Z Compiling 38 files (.ex)
    test	Run mix test	2024-03-12T09:01:15.0021193Z Generated ledger app
    test	Run mix test	2024-03-12T09:01:16.7713209Z Running ExUnit with seed: 90412, max_cases: 4
    test	Run mix test	2024-03-12T09:01:16.7713672Z
    test	Run mix test	2024-03-12T09:01:19.1019988Z ............................................................................................
    test	Run mix test	2024-03-12T09:01:19.1020455Z Finished in 2.3 seconds (0.7s async, 1.6s sync)
    test	Run mix test	2024-03-12T09:01:19.1020751Z 92 tests, 0 failures
    test	Post Restore deps cache	2024-03-12T09:01:19.3011902Z Cache hit occurred on the primary key mix-Linux-26.2-1.16-7c1f3e, not saving cache.
    test	Post Run actions/checkout@v4	2024-03-12T09:01:19.4220761Z Post job cleanup.
    test	Post Run actions/checkout@v4	2024-03-12T09:01:19.5114021Z [command]/usr/bin/git version
    test	Post Run actions/checkout@v4	2024-03-12T09:01:19.5188122Z git version 2.43.2
    test	Post Run actions/checkout@v4	2024-03-12T09:01:19.5301771Z [command]/usr/bin/git config --local --name-only --get-regexp core\\.sshCommand
    test	Post Run actions/checkout@v4	2024-03-12T09:01:19.5412209Z [command]/usr/bin/git submodule foreach --recursive sh -c "git config --local --name-only --get-regexp 'core\\.sshCommand' && git config --local --unset-all 'core.sshCommand' || :"
    test	Post Run actions/checkout@v4	2024-03-12T09:01:19.6111834Z [command]/usr/bin/git config --local --name-only --get-regexp http\\.https\\:\\/\\/github\\.com\\/\\.extraheader
    test	Post Run actions/checkout@v4	2024-03-12T09:01:19.6187002Z http.https://github.com/.extraheader
    test	Complete job	2024-03-12T09:01:19.7001190Z Cleaning up orphan processes
"""))

c = new("h-n-wc-l", "noise", "wc output", "orders-stream")
bash(c, "wc -l enricher/*.py", "Count lines", D("""
      212 enricher/consumer.py
       88 enricher/pricing.py
      143 enricher/schema.py
       41 enricher/__init__.py
      484 total
"""))

c = new("h-n-tree", "noise", "tree output", "hexmap-wasm")
bash(c, "tree -L 2 -I target", "Show project layout", D("""
    .
    ├── Cargo.lock
    ├── Cargo.toml
    ├── pkg
    │   ├── hexmap_wasm.d.ts
    │   ├── hexmap_wasm.js
    │   ├── hexmap_wasm_bg.wasm
    │   └── package.json
    ├── src
    │   ├── grid.rs
    │   ├── lib.rs
    │   └── noise.rs
    └── www
        ├── index.html
        └── main.js

    3 directories, 12 files
"""))

c = new("h-n-find-proto", "noise", "find output", "billing-grpc")
bash(c, "find proto -name '*.proto' | sort", "List proto files",
     "proto/billing/v1/billing.proto\nproto/billing/v1/invoice.proto\nproto/common/v1/money.proto\nproto/common/v1/pagination.proto")

c = new("h-n-git-status", "noise", "git status", "ops-scripts")
bash(c, "git status", "Check working tree", D("""
    On branch chore/log-rotation
    Your branch is up to date with 'origin/chore/log-rotation'.

    Changes not staged for commit:
      (use "git add <file>..." to update what will be committed)
      (use "git restore <file>..." to discard changes in working directory)
    	modified:   scripts/rotate-logs.sh

    Untracked files:
      (use "git add <file>..." to include in what will be committed)
    	scripts/prune-journal.sh

    no changes added to commit (use "git add" and/or "git commit -a")
"""))

c = new("h-n-git-branch", "noise", "git branch listing", "monorepo")
bash(c, "git branch -a --sort=-committerdate | head -6", "List branches", D("""
    * feat/ingest-batching
      main
      remotes/origin/HEAD -> origin/main
      remotes/origin/feat/ingest-batching
      remotes/origin/main
      remotes/origin/fix/bazel-remote-cache
"""))

c = new("h-n-ansible-lint-pass", "noise", "ansible-lint passes", "infra-ansible")
bash(c, "ansible-lint", "Lint playbooks and roles", "", "Passed: 0 failure(s), 0 warning(s) on 41 files. Last profile that met the validation criteria was 'production'.")

c = new("h-n-mypy-pass", "noise", "mypy passes", "billing-py")
bash(c, "mypy src", "Type-check", "Success: no issues found in 42 source files")

c = new("h-n-cargo-bench-table", "noise", "criterion benchmark output", "hexmap-wasm")
bash(c, "cargo bench --bench grid -- --noplot", "Run grid benchmarks", D("""
        Finished bench [optimized] target(s) in 0.18s
         Running benches/grid.rs (target/release/deps/grid-4f3e2d1c0b9a8f7e)
    neighbours/radius_1     time:   [41.882 ns 42.017 ns 42.171 ns]
                            change: [-1.2012% -0.6113% +0.0101%] (p = 0.06 > 0.05)
                            No change in performance detected.
    neighbours/radius_8     time:   [1.9922 µs 1.9987 µs 2.0061 µs]
                            change: [-0.4410% +0.1122% +0.6581%] (p = 0.70 > 0.05)
                            No change in performance detected.
    Found 3 outliers among 100 measurements (3.00%)
      2 (2.00%) high mild
      1 (1.00%) high severe
"""))

c = new("h-n-go-test-cover", "noise", "go test with coverage", "billing-grpc")
bash(c, "go test -cover ./...", "Run Go tests with coverage", D("""
    ?   	github.com/acme-labs/billing-grpc/cmd/server	[no test files]
    ?   	github.com/acme-labs/billing-grpc/gen/billing/v1	[no test files]
    ok  	github.com/acme-labs/billing-grpc/internal/invoices	0.214s	coverage: 81.4% of statements
    ok  	github.com/acme-labs/billing-grpc/internal/money	0.009s	coverage: 96.2% of statements
    ok  	github.com/acme-labs/billing-grpc/internal/store	1.042s	coverage: 67.9% of statements
"""))

c = new("h-n-deno-check", "noise", "deno check passes", "release-bot")
bash(c, "deno check src/*.ts", "Type-check", "", "Check file:///home/dev/src/release-bot/src/changelog.ts\nCheck file:///home/dev/src/release-bot/src/github.ts\nCheck file:///home/dev/src/release-bot/src/sync.ts")

c = new("h-n-bun-build", "noise", "bun build output", "tally-api")
bash(c, "bun build src/index.ts --outdir dist --target bun --minify", "Bundle the server",
     "  index.js  48.21 KB\n\n[22ms] bundle 31 modules")

c = new("h-n-dialyzer-pass", "noise", "dialyzer passes", "ledger_ex")
bash(c, "mix dialyzer", "Run dialyzer", D("""
    Finding suitable PLTs
    Checking PLT...
    [:compiler, :crypto, :decimal, :ecto, :ecto_sql, :elixir, :jason, :kernel, :logger, :postgrex, :stdlib, :telemetry]
    PLT is up to date!
    Starting Dialyzer
    [
      check_plt: false,
      init_plt: ~c"/home/dev/src/ledger_ex/_build/dev/dialyxir_erlang-26.2.1_elixir-1.16.1_deps-dev.plt",
      files: [...],
      warnings: [:unknown]
    ]
    Total errors: 0, Skipped: 0, Unnecessary Skips: 0
    done in 0m3.71s
    done (passed successfully)
"""))

c = new("h-n-journalctl-normal", "noise", "ordinary journal lines", "metrics-agent")
bash(c, "journalctl -u metrics-agent --since '10 min ago' --no-pager | tail -4", "Recent agent logs", D("""
    Mar 12 13:01:45 build-01 metrics-agent[49102]: flushed 1841 samples to https://push.metrics.internal (204ms)
    Mar 12 13:02:00 build-01 metrics-agent[49102]: flushed 1839 samples to https://push.metrics.internal (211ms)
    Mar 12 13:02:15 build-01 metrics-agent[49102]: config reload requested (SIGHUP)
    Mar 12 13:02:15 build-01 metrics-agent[49102]: config unchanged, keeping 4 scrape targets
"""))

c = new("h-n-kcat-metadata", "noise", "kcat metadata listing", "orders-stream")
bash(c, "kcat -b localhost:29092 -L -t orders.v1", "Show topic metadata", D("""
    Metadata for orders.v1 (from broker 1: localhost:29092/1):
     1 brokers:
      broker 1 at localhost:29092 (controller)
     1 topics:
      topic "orders.v1" with 3 partitions:
        partition 0, leader 1, replicas: 1, isrs: 1
        partition 1, leader 1, replicas: 1, isrs: 1
        partition 2, leader 1, replicas: 1, isrs: 1
"""))

c = new("h-n-nvcc-ptxas-info", "noise", "CUDA extension build with ptxas resource-usage chatter", "fastnms")
bash(c, "pip install -e . --no-build-isolation -v 2>&1 | grep -E 'ptxas|Successfully'", "Rebuild the extension", D("""
    ptxas info    : 0 bytes gmem
    ptxas info    : Compiling entry function '_Z10nms_kernelPKfS0_fiPy' for 'sm_90'
    ptxas info    : Function properties for _Z10nms_kernelPKfS0_fiPy
        0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    ptxas info    : Used 32 registers, 376 bytes cmem[0]
    Successfully installed fastnms-0.3.0
"""))

c = new("h-n-swiftlint-pass", "noise", "swiftlint with no violations", "PocketLedger")
bash(c, "swiftlint lint --quiet", "Lint Swift sources")

c = new("h-n-pytest-own-deprecation-shim", "noise",
        "project tests provoke its own deprecation shim on purpose", "billing-py")
bash(c, "pytest tests/test_client.py -q", "Run client tests", D("""
    ..........                                                               [100%]
    =============================== warnings summary ===============================
    tests/test_client.py::test_legacy_connect_still_works
      /home/dev/src/billing-py/tests/test_client.py:48: DeprecationWarning: connect_legacy() is deprecated; use BillingClient.connect() instead
        client = connect_legacy("localhost:50051")

    -- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
    10 passed, 1 warning in 0.41s
"""))

c = new("h-n-mix-hex-outdated", "noise", "mix hex.outdated table", "ledger_ex")
bash(c, "mix hex.outdated", "Check outdated deps", D("""
    Dependency              Current  Latest  Status
    decimal                 2.1.1    2.1.1   Up-to-date
    ecto_sql                3.11.1   3.11.3  Update possible
    jason                   1.4.1    1.4.4   Update possible
    postgrex                0.17.5   0.18.0  Update not possible

    Run `mix hex.outdated APP` to see requirements for a specific dependency.

    To view the diffs in each available update, visit:
    https://diff.hex.pm/diffs?diffs[]=ecto_sql:3.11.1:3.11.3&diffs[]=jason:1.4.1:1.4.4
"""))

c = new("h-n-hatch-env-show", "noise", "hatch env show table", "tinyq")
bash(c, "hatch env show", "List hatch environments", D("""
                Standalone
    ┏━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┓
    ┃ Name    ┃ Type    ┃ Dependencies        ┃
    ┡━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━┩
    │ default │ virtual │                     │
    ├─────────┼─────────┼─────────────────────┤
    │ lint    │ virtual │ mypy>=1.9           │
    │         │         │ ruff>=0.3           │
    ├─────────┼─────────┼─────────────────────┤
    │ docs    │ virtual │ mkdocs-material>=9  │
    └─────────┴─────────┴─────────────────────┘
"""))

# --- reading existing material that contains trigger words --------------

c = new("h-n-read-troubleshooting-doc", "noise",
        "reading a troubleshooting doc that already says 'Workaround:' and 'The issue was'", "metrics-agent")
read(c, "docs/troubleshooting.md", D("""
    # Troubleshooting

    ## Agent exits with status=200/CHDIR

    The issue was `ProtectHome=true` in the unit; the binary lives under /home. Use `ProtectHome=read-only`.

    ## TLS errors against push.metrics.internal

    Workaround: set `ca_file = "/etc/ssl/certs/internal-ca.pem"` until the new CA is in the base image.

    ## Metrics arrive with a delay

    The agent batches for `flush_interval` (default 15 s).
    Restart the agent after changing `push_url`; it is only read at startup.
"""))

c = new("h-n-read-changelog-deprecated", "noise", "reading a CHANGELOG with a Deprecated section", "tinyq")
read(c, "CHANGELOG.md", D("""
    # Changelog

    ## 1.4.0 - 2024-03-12

    ### Added
    - `Queue.drain(timeout=)`.

    ### Deprecated
    - `Queue.get_nowait_or_none()` — use `Queue.get(block=False, default=None)`. Removal in 2.0.

    ### Fixed
    - Workers no longer spin when the broker is unreachable.
"""), total=214)

c = new("h-n-grep-important-comments", "noise", "Grep hits for IMPORTANT: comments already in the repo", "edge-proxy")
grep(c, "IMPORTANT:|NOTE:", ".", "content", ["conf.d/events.conf", "conf.d/api.conf", "nginx.conf"], D("""
    conf.d/events.conf:9:        # IMPORTANT: SSE needs proxy_buffering off. With buffering on, nginx held events
    conf.d/api.conf:3:    # NOTE: keepalive needs proxy_http_version 1.1 and an empty Connection header
    nginx.conf:18:    # NOTE: worker_rlimit_nofile must stay >= 2 * worker_connections
"""), glob="*.conf")

c = new("h-n-cat-postmortem", "noise", "cat of an existing postmortem containing root cause and workaround", "orders-stream")
bash(c, "cat docs/postmortems/2024-02-20-duplicate-orders.md", "Read the February postmortem", D("""
    # 2024-02-20 duplicate enriched orders

    **Impact:** 1,204 orders enriched twice; downstream invoices deduplicated manually.

    ## Root cause
    Turns out the enricher's batch took longer than `max.poll.interval.ms`, the consumer was evicted,
    and uncommitted offsets were replayed.

    ## Workaround
    `max.poll.records` lowered to 50.

    ## Follow-ups
    - [ ] move pricing calls off the poll loop (ORD-311)
"""))

c = new("h-n-rg-turns-out", "noise", "rg hits for 'turns out' in existing docs and comments", "acme-web")
bash(c, "rg -n -i 'turns out|the issue was' --glob '!node_modules'", "Search for earlier notes", D("""
    docs/decisions/0004-pnpm.md:22:It turns out npm's optional-dependency handling breaks the rollup native binaries on CI.
    apps/dashboard/src/components/RangePicker.tsx:14:// The issue was Safari's <input type=date> ignoring min/max; we render our own picker.
    CONTRIBUTING.md:41:Note: the issue was fixed upstream in pnpm 8.15, so `resolution-mode` is no longer set.
"""))

c = new("h-n-gh-pr-view-body", "noise", "gh pr view of a PR body with 'Note:' and 'Workaround'", "live-scores")
bash(c, "gh pr view 318", "Read the PR", D("""
    fix(ws): keep websocket connections alive behind Cloudflare #318
    Merged • priya-raman wants to merge 2 commits into main from fix/ws-keepalive • about 2 days ago
    +18 -2 • ✓ Checks passing

      ## Summary
      Server-side ping every 30 s.

      Note: Cloudflare closes idle websockets after 100 s.
      Workaround until this ships: clients reconnect with backoff (already in place).

      ## Test plan
      - [x] soak test for 30 min against staging through Cloudflare

    View this pull request on GitHub: https://github.com/acme-labs/live-scores/pull/318
"""))

c = new("h-n-read-nginx-conf-notes", "noise", "Read of an nginx config that already has NOTE comments", "edge-proxy")
read(c, "nginx.conf", D("""
    user www-data;
    worker_processes auto;
    pid /run/nginx.pid;

    events {
        worker_connections 4096;
    }

    http {
        include       mime.types;
        default_type  application/octet-stream;
        sendfile      on;

        log_format main '$remote_addr - $request_id [$time_local] "$request" $status $body_bytes_sent';

        # NOTE: worker_rlimit_nofile must stay >= 2 * worker_connections
        include /home/dev/src/edge-proxy/conf.d/*.conf;
    }
"""))

c = new("h-n-glob-proto", "noise", "Glob for proto files", "billing-grpc")
glob(c, "**/*.proto", ["proto/billing/v1/billing.proto", "proto/billing/v1/invoice.proto",
                       "proto/common/v1/money.proto", "proto/common/v1/pagination.proto"])

c = new("h-n-ls-roles", "noise", "LS of the ansible roles directory", "infra-ansible")
ls(c, "roles", D("""
    - /home/dev/src/infra-ansible/roles/
      - common/
        - defaults/
          - main.yml
        - tasks/
          - main.yml
      - nginx/
        - tasks/
          - main.yml
          - vhosts.yml
        - templates/
          - vhost.conf.j2
      - postgresql/
        - handlers/
          - main.yml
        - tasks/
          - main.yml
"""))

c = new("h-n-glob-deprecated-dir", "noise", "Glob whose results have 'deprecated' in the path", "catalog-graphql")
glob(c, "src/**/deprecated/*.ts", ["src/schema/deprecated/legacyProductFields.ts", "src/schema/deprecated/index.ts"], 9)

c = new("h-n-read-systemd-unit", "noise", "Read of an existing unit file with comments", "metrics-agent")
read(c, "deploy/metrics-agent.service", D("""
    [Unit]
    Description=Metrics push agent
    After=network-online.target
    Wants=network-online.target

    [Service]
    User=metrics
    WorkingDirectory=/home/dev/src/metrics-agent
    ExecStart=/home/dev/src/metrics-agent/bin/metrics-agent --config /etc/metrics-agent.toml
    ProtectSystem=strict
    # ProtectHome=true makes /home inaccessible to the unit, and the agent lives under
    # /home/dev (status=200/CHDIR). read-only keeps the hardening without hiding it.
    ProtectHome=read-only
    PrivateTmp=true
    Restart=on-failure

    [Install]
    WantedBy=multi-user.target
"""))

c = new("h-n-grep-deprecationwarning-files", "noise", "Grep (files_with_matches) for DeprecationWarning", "billing-py")
grep(c, "DeprecationWarning", "src", "files_with_matches", ["src/billing/client.py", "src/billing/compat.py"])

c = new("h-n-grep-workaround-content", "noise", "Grep hits for 'workaround' in existing code", "PocketLedger")
grep(c, "(?i)workaround", "PocketLedger", "content",
     ["PocketLedger/Views/ChartView.swift", "PocketLedger/Sync/SyncService.swift"], D("""
    PocketLedger/Views/ChartView.swift:61:        // Workaround: Charts drops the last x-axis label when the domain ends on a month boundary.
    PocketLedger/Sync/SyncService.swift:112:    // workaround for FB13290718 — background URLSession sometimes reports progress twice
"""), glob="*.swift")

c = new("h-n-read-adr", "noise", "Read of an ADR with 'Note:' and 'deprecated'", "monorepo")
read(c, "docs/adr/0007-bzlmod.md", D("""
    # 7. Move from WORKSPACE to bzlmod

    Status: accepted

    ## Context
    WORKSPACE is deprecated in Bazel 8 and our rules_go / rules_python versions already publish modules.

    ## Decision
    Migrate dependencies to MODULE.bazel incrementally, keeping WORKSPACE.bzlmod empty.

    Note: grpc-gateway is still pulled through WORKSPACE until it ships a module.
"""))

# --- text that only contains the trigger words ---------------------------

c = new("h-n-edit-elixir-important-notes-fn", "noise",
        "routine Elixir edit whose identifiers contain 'note' and 'important'", "ledger_ex")
edit(c, "lib/ledger/entries.ex",
     "  def list_notes(entry), do: Repo.preload(entry, :notes).notes",
     "  def list_notes(entry), do: Repo.preload(entry, :notes).notes\n\n"
     "  def important_notes(entry) do\n"
     "    entry |> list_notes() |> Enum.filter(& &1.important)\n"
     "  end",
     57, before=["  @doc false", "  def changeset(entry, attrs), do: Entry.changeset(entry, attrs)", ""],
     after=["", "  def delete_entry(%Entry{} = entry), do: Repo.delete(entry)"])

c = new("h-n-write-graphql-deprecated-directive", "noise",
        "writing a schema that marks a field @deprecated (the project writing a deprecation)", "catalog-graphql")
write(c, "src/schema/product.graphql", D("""
    type Product {
      id: ID!
      name: String!
      slug: String!
      priceCents: Int!
      price: Float @deprecated(reason: "Use priceCents; floats lose precision.")
      category: Category!
      images(first: Int = 4): [Image!]!
    }

    extend type Query {
      product(slug: String!): Product
      products(first: Int = 20, after: String): ProductConnection!
    }
""") + "\n", "update")

c = new("h-n-write-proto-deprecated-field", "noise", "writing a proto with [deprecated = true]", "billing-grpc")
write(c, "proto/billing/v1/invoice.proto", D("""
    syntax = "proto3";

    package billing.v1;

    import "common/v1/money.proto";
    import "google/protobuf/timestamp.proto";

    option go_package = "github.com/acme-labs/billing-grpc/gen/billing/v1;billingv1";

    message Invoice {
      string id = 1;
      string customer_id = 2;
      common.v1.Money total = 3;
      // Use total instead.
      int64 total_cents = 4 [deprecated = true];
      google.protobuf.Timestamp issued_at = 5;
      InvoiceStatus status = 6;
    }

    enum InvoiceStatus {
      INVOICE_STATUS_UNSPECIFIED = 0;
      INVOICE_STATUS_OPEN = 1;
      INVOICE_STATUS_PAID = 2;
      INVOICE_STATUS_VOID = 3;
    }
""") + "\n", "update")

c = new("h-n-edit-own-deprecationwarning", "noise",
        "the project adds a DeprecationWarning to its own API", "billing-py")
edit(c, "src/billing/compat.py",
     "def connect_legacy(target: str) -> BillingClient:\n    return BillingClient.connect(target)",
     "def connect_legacy(target: str) -> BillingClient:\n"
     "    warnings.warn(\n"
     '        "connect_legacy() is deprecated; use BillingClient.connect() instead",\n'
     "        DeprecationWarning,\n"
     "        stacklevel=2,\n"
     "    )\n"
     "    return BillingClient.connect(target)",
     9, before=["", ""])

c = new("h-n-edit-exunit-deprecated-endpoint-test", "noise",
        "adding a test whose name mentions a deprecated endpoint", "ledger_ex")
edit(c, "test/ledger_web/controllers/v1_controller_test.exs",
     '  describe "GET /api/v1/entries" do',
     '  describe "GET /api/v1/entries" do\n'
     '    test "returns 410 for the deprecated v1 endpoint", %{conn: conn} do\n'
     '      conn = get(conn, ~p"/api/v1/entries")\n'
     '      assert json_response(conn, 410)["error"] == "gone"\n'
     "    end\n",
     4, before=["defmodule LedgerWeb.V1ControllerTest do", "  use LedgerWeb.ConnCase, async: true", ""],
     after=['    test "points to v2 in the Link header", %{conn: conn} do'])

c = new("h-n-edit-swift-available-deprecated", "noise",
        "project marks its own Swift API deprecated with @available", "PocketLedger")
edit(c, "Packages/LedgerKit/Sources/LedgerKit/LedgerStore.swift",
     "    public func fetchAllEntries() async throws -> [Entry] {",
     '    @available(*, deprecated, renamed: "entries(in:)")\n'
     "    public func fetchAllEntries() async throws -> [Entry] {",
     40, before=["    // MARK: - Queries", ""], after=["        try await entries(in: .all)", "    }"])

c = new("h-n-edit-kotlin-deprecated-replacewith", "noise",
        "project adds @Deprecated(ReplaceWith) to its own Kotlin function", "fieldnotes-android")
edit(c, "app/src/main/java/com/acme/fieldnotes/data/NoteRepository.kt",
     "    suspend fun loadNote(id: Long): Note? = dao.findById(id)",
     '    @Deprecated("Use observeNote to get updates", ReplaceWith("observeNote(id).first()"))\n'
     "    suspend fun loadNote(id: Long): Note? = dao.findById(id)\n\n"
     "    fun observeNote(id: Long): Flow<Note?> = dao.observeById(id)",
     21, before=["class NoteRepository(private val dao: NoteDao) {", ""], after=["}"])

c = new("h-n-write-i18n-notes-important", "noise", "i18n strings with keys like notes.important", "fieldnotes-android")
write(c, "app/src/main/assets/i18n/en.json", D("""
    {
      "notes.title": "Field notes",
      "notes.important": "Important",
      "notes.important.hint": "Pinned notes stay on top",
      "notes.workaround.label": "Workaround",
      "notes.deprecated_badge": "Old format",
      "editor.save": "Save",
      "editor.discard": "Discard changes?"
    }
""") + "\n", "update")

c = new("h-n-edit-ts-deprecated-plan-identifier", "noise",
        "routine TS edit with an isDeprecatedPlan identifier", "acme-web")
edit(c, "apps/dashboard/src/billing/plans.ts",
     'export const PLANS = ["free", "team", "business"] as const;',
     'export const PLANS = ["free", "team", "business"] as const;\n'
     'const DEPRECATED_PLANS = new Set(["starter", "pro-2019"]);\n\n'
     "export function isDeprecatedPlan(plan: string): boolean {\n"
     "  return DEPRECATED_PLANS.has(plan);\n"
     "}",
     1, after=["", "export type Plan = (typeof PLANS)[number];"])

# --- routine writes --------------------------------------------------------

c = new("h-n-write-elixir-module", "noise", "new Elixir module", "ledger_ex")
write(c, "lib/ledger/slug.ex", D("""
    defmodule Ledger.Slug do
      @moduledoc "URL-safe slugs for account names."

      @spec slugify(String.t()) :: String.t()
      def slugify(name) do
        name
        |> String.normalize(:nfd)
        |> String.replace(~r/[^A-Za-z0-9\\s-]/u, "")
        |> String.downcase()
        |> String.split(~r/\\s+/, trim: true)
        |> Enum.join("-")
      end
    end
""") + "\n")

c = new("h-n-write-systemd-timer", "noise", "new systemd service + timer", "ops-scripts")
write(c, "deploy/rotate-logs.timer", D("""
    [Unit]
    Description=Rotate application logs nightly

    [Timer]
    OnCalendar=*-*-* 03:15:00
    RandomizedDelaySec=10min
    Persistent=true

    [Install]
    WantedBy=timers.target
""") + "\n")

c = new("h-n-write-gha-workflow", "noise", "new GitHub Actions workflow", "hexmap-wasm")
write(c, ".github/workflows/ci.yml", D("""
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
          - uses: dtolnay/rust-toolchain@stable
            with:
              targets: wasm32-unknown-unknown
          - uses: Swatinem/rust-cache@v2
          - run: cargo test
          - run: cargo install wasm-pack --locked
          - run: wasm-pack build --target web
""") + "\n")

c = new("h-n-write-readme-note-callout", "noise", "README boilerplate with Note/Important callouts", "sessions-svc")
write(c, "README.md", D("""
    # sessions-svc

    Session storage for the web apps, backed by Redis.

    > **Note:** requires Redis 7 or later.

    ## Running locally

    ```bash
    docker compose up -d
    uv run uvicorn sessions.app:app --reload
    ```

    > **Important:** never point `REDIS_URL` at the production cluster from a laptop.

    ## Tests

    ```bash
    pytest            # unit
    pytest tests/integration
    ```
""") + "\n", "update")

c = new("h-n-write-plan", "noise", "a work plan", "monorepo")
write(c, "PLAN.md", D("""
    # Ingest batching — plan

    1. Add `BatchWriter` in services/ingest/batch.go with size + age limits.
    2. Wire it behind the `INGEST_BATCHING` flag.
    3. Bazel: new go_library + go_test targets.
    4. Load test with 5k events/s; compare p99 with the current path.
    5. Note: keep the unbatched path until the load test is signed off.
""") + "\n")

c = new("h-n-write-pr-description", "noise", "PR description with notes for reviewers", "catalog-graphql")
write(c, "PR_DESCRIPTION.md", D("""
    ## Per-request DataLoaders

    - loaders are created in the context function
    - module-level loaders removed
    - regression test for update-then-query

    ### Notes for reviewers
    - `createLoaders` takes the db handle so tests can pass a fake.
    - Important: no schema changes; the client does not need a release.
""") + "\n")

c = new("h-n-edit-rename-variable", "noise", "routine rename", "orders-stream")
edit(c, "enricher/consumer.py",
     "        for msg in msgs:\n            enriched = enrich(msg.value())",
     "        for message in messages:\n            enriched = enrich(message.value())",
     63, before=["        messages = consumer.consume(num_messages=cfg.max_records, timeout=1.0)"],
     after=["            producer.produce(cfg.out_topic, enriched)"])

c = new("h-n-edit-version-bump", "noise", "version bump in mix.exs", "ledger_ex")
edit(c, "mix.exs", '      version: "0.12.3",', '      version: "0.13.0",', 5,
     before=["  def project do", "    [", "      app: :ledger,"], after=['      elixir: "~> 1.16",'])

c = new("h-n-write-ansible-role", "noise", "new ansible role tasks", "infra-ansible")
write(c, "roles/redis/tasks/main.yml", D("""
    ---
    - name: install redis
      ansible.builtin.apt:
        name: redis-server
        state: present

    - name: render redis.conf
      ansible.builtin.template:
        src: redis.conf.j2
        dest: /etc/redis/redis.conf
        mode: "0640"
        owner: redis
      notify: restart redis

    - name: enable redis
      ansible.builtin.systemd:
        name: redis-server
        enabled: true
        state: started
""") + "\n")

c = new("h-n-write-bazel-build", "noise", "new BUILD.bazel", "monorepo")
write(c, "services/ingest/BUILD.bazel", D("""
    load("@rules_go//go:def.bzl", "go_binary", "go_library", "go_test")

    go_library(
        name = "ingest_lib",
        srcs = ["batch.go", "main.go"],
        importpath = "github.com/acme-labs/monorepo/services/ingest",
        deps = ["//libs/events"],
    )

    go_binary(
        name = "server",
        embed = [":ingest_lib"],
    )

    go_test(
        name = "ingest_test",
        srcs = ["batch_test.go"],
        embed = [":ingest_lib"],
    )
""") + "\n", "update")

c = new("h-n-edit-flake-devshell", "noise", "add a package to the nix devShell", "devbox-nix")
edit(c, "flake.nix",
     "            packages = [ pkgs.go_1_22 pkgs.gopls ];",
     "            packages = [ pkgs.go_1_22 pkgs.gopls pkgs.golangci-lint pkgs.protobuf ];",
     30, before=["        devShells.default = pkgs.mkShell {"], after=["          };"])

c = new("h-n-write-compose-redis", "noise", "new compose file", "tally-api")
write(c, "docker-compose.yml", D("""
    services:
      redis:
        image: redis:7.2-alpine
        ports: ["6379:6379"]
        volumes:
          - redis-data:/data
      api:
        build: .
        environment:
          REDIS_URL: redis://redis:6379/0
        ports: ["3000:3000"]
        depends_on: [redis]

    volumes:
      redis-data:
""") + "\n")

c = new("h-n-edit-graphql-resolver", "noise", "routine resolver edit", "catalog-graphql")
edit(c, "src/resolvers/category.ts",
     "    productCount: (cat, _args, { db }) => db.products.count({ categoryId: cat.id }),",
     "    productCount: (cat, _args, { db }) => db.products.count({ categoryId: cat.id, archived: false }),",
     12, before=["  Category: {", "    slug: (cat) => cat.slug,"], after=["  },", "};"])

c = new("h-n-write-kafka-consumer-config", "noise", "new consumer config file", "orders-stream")
write(c, "config/consumer.yaml", D("""
    group.id: orders-enricher
    bootstrap.servers: kafka:9092
    auto.offset.reset: earliest
    enable.auto.commit: false
    max.poll.records: 50
    session.timeout.ms: 45000
""") + "\n", "update")

# --- failures that teach nothing -----------------------------------------

c = new("h-n-typo-mxi", "noise", "typo in the command, fixed on the next call", "ledger_ex")
bash_fail(c, "mxi test", "Run the test suite", 127, "/bin/bash: line 1: mxi: command not found")
bash(c, "mix test", "Run the test suite", "Running ExUnit with seed: 77120, max_cases: 16\n\n....................\nFinished in 1.8 seconds (0.6s async, 1.2s sync)\n92 tests, 0 failures")

c = new("h-n-typo-swfit", "noise", "typo: swfit build", "PocketLedger")
bash_fail(c, "swfit build --package-path Packages/LedgerKit", "Build LedgerKit", 127, "zsh:1: command not found: swfit")
bash(c, "swift build --package-path Packages/LedgerKit", "Build LedgerKit", "Building for debugging...\n[4/4] Compiling LedgerKit LedgerStore.swift\nBuild complete! (2.14s)")

c = new("h-n-typo-gradle-task", "noise", "misspelled Gradle task", "fieldnotes-android")
bash_fail(c, "./gradlew assembelDebug", "Build the debug APK", 1, D("""
    FAILURE: Build failed with an exception.

    * What went wrong:
    Task 'assembelDebug' not found in root project 'fieldnotes' and its subprojects. Some candidates are: 'assembleDebug'.

    * Try:
    > Run gradlew tasks to get a list of available tasks.
    > For more on name expansion, please refer to https://docs.gradle.org/8.6/userguide/command_line_interface.html#sec:name_abbreviation in the Gradle documentation.

    BUILD FAILED in 1s
"""))
bash(c, "./gradlew assembleDebug", "Build the debug APK", "> Task :app:assembleDebug UP-TO-DATE\n\nBUILD SUCCESSFUL in 2s\n38 actionable tasks: 38 up-to-date")

c = new("h-n-typo-pnpm-filter", "noise", "wrong package name in pnpm --filter", "acme-web")
bash(c, "pnpm --filter dashbaord test", "Run dashboard tests", "No projects matched the filters in \"/home/dev/src/acme-web\"")
bash(c, "pnpm --filter dashboard test", "Run dashboard tests", D("""
    > dashboard@0.3.0 test /home/dev/src/acme-web/apps/dashboard
    > vitest run

     RUN  v1.3.1 /home/dev/src/acme-web/apps/dashboard

     ✓ src/billing/plans.test.ts  (4 tests) 3ms
     ✓ src/components/RangePicker.test.tsx  (6 tests) 41ms

     Test Files  2 passed (2)
          Tests  10 passed (10)
       Duration  1.12s
"""))

c = new("h-n-typo-bazel-target", "noise", "wrong Bazel package path, fixed next call", "monorepo")
bash_fail(c, "bazel test //service/ingest:ingest_test", "Run ingest tests", 1, D("""
    ERROR: Skipping '//service/ingest:ingest_test': no such package 'service/ingest': BUILD file not found in any of the following directories. Add a BUILD file to a directory to mark it as a package.
     - service/ingest
    ERROR: no such package 'service/ingest': BUILD file not found in any of the following directories. Add a BUILD file to a directory to mark it as a package.
     - service/ingest
    INFO: Elapsed time: 0.212s
    INFO: 0 processes.
    FAILED: Build did NOT complete successfully (0 packages loaded)
"""))
bash(c, "bazel test //services/ingest:ingest_test", "Run ingest tests", stderr=D("""
    INFO: Analyzed target //services/ingest:ingest_test (3 packages loaded, 19 targets configured).
    INFO: Found 1 test target...
    Target //services/ingest:ingest_test up-to-date:
      bazel-bin/services/ingest/ingest_test_/ingest_test
    INFO: Elapsed time: 4.331s, Critical Path: 3.92s
    //services/ingest:ingest_test                                           PASSED in 0.4s

    Executed 1 out of 1 test: 1 test passes.
"""))

c = new("h-n-typo-redis-command", "noise", "typo in a redis-cli command, corrected", "sessions-svc")
bash(c, "redis-cli GTE session:42", "Read one session key", "ERR unknown command 'GTE', with args beginning with: 'session:42' ")
bash(c, "redis-cli GET session:42", "Read one session key", '{"user":42,"exp":1710249000}')

c = new("h-n-grep-no-match", "noise", "grep with no match exits 1", "ledger_ex")
bash_fail(c, "grep -rn 'IO.inspect' lib/", "Look for leftover debug prints", 1)

c = new("h-n-diff-exit-1", "noise", "diff exits 1 when files differ", "catalog-graphql")
bash_fail(c, "diff <(jq -S . schema.snapshot.json) <(npx graphql-inspector introspect src/schema/*.graphql --write /dev/stdout | jq -S .)",
          "Compare schema with the snapshot", 1, D("""
    412a413,416
    >         {
    >           "name": "priceCents",
    >           "type": { "kind": "NON_NULL", "name": null, "ofType": { "kind": "SCALAR", "name": "Int" } }
    >         },
"""))

c = new("h-n-test-f-missing", "noise", "test -f for an optional file", "edge-proxy")
bash_fail(c, "test -f conf.d/local.override.conf", "Check for a local override", 1)

c = new("h-n-which-nvcc", "noise", "which for an optional tool", "hexmap-wasm")
bash_fail(c, "which wasm-opt", "Check whether binaryen is installed", 1)

c = new("h-n-git-diff-exit-code", "noise", "git diff --exit-code reports changes after regeneration", "billing-grpc")
bash_fail(c, "make proto >/dev/null && git diff --exit-code --stat gen/", "Check generated code is up to date", 1,
          " gen/billing/v1/invoice.pb.go | 14 +++++++++-----\n 1 file changed, 9 insertions(+), 5 deletions(-)")

c = new("h-n-tdd-elixir-red-green", "noise", "TDD: test written first fails on an undefined module, then passes", "ledger_ex")
bash_fail(c, "mix test test/ledger/slug_test.exs", "Run the new slug test", 2, D("""
    Running ExUnit with seed: 5512, max_cases: 16



      1) test slugify/1 strips accents and joins words (Ledger.SlugTest)
         test/ledger/slug_test.exs:5
         ** (UndefinedFunctionError) function Ledger.Slug.slugify/1 is undefined (module Ledger.Slug is not available)
         code: assert Slug.slugify("Café Crème Account") == "cafe-creme-account"
         stacktrace:
           Ledger.Slug.slugify("Café Crème Account")
           test/ledger/slug_test.exs:6: (test)


    Finished in 0.02 seconds (0.02s async, 0.00s sync)
    1 test, 1 failure
"""))
write(c, "lib/ledger/slug.ex", D("""
    defmodule Ledger.Slug do
      @moduledoc "URL-safe slugs for account names."

      def slugify(name) do
        name
        |> String.normalize(:nfd)
        |> String.replace(~r/[^A-Za-z0-9\\s-]/u, "")
        |> String.downcase()
        |> String.split(~r/\\s+/, trim: true)
        |> Enum.join("-")
      end
    end
""") + "\n")
bash(c, "mix test test/ledger/slug_test.exs", "Run the new slug test", "Running ExUnit with seed: 6120, max_cases: 16\n\n.\nFinished in 0.01 seconds (0.01s async, 0.00s sync)\n1 test, 0 failures")

c = new("h-n-tdd-swift-red-green", "noise", "TDD: Swift test fails because the type does not exist yet", "PocketLedger")
bash_fail(c, "swift test --package-path Packages/LedgerKit --filter RateLimiterTests", "Run the new RateLimiter tests", 1, D("""
    Building for debugging...
    /home/dev/src/PocketLedger/Packages/LedgerKit/Tests/LedgerKitTests/RateLimiterTests.swift:6:23: error: cannot find 'RateLimiter' in scope
            let limiter = RateLimiter(capacity: 3, refillPerSecond: 1)
                          ^~~~~~~~~~~
    error: fatalError
"""))
write(c, "Packages/LedgerKit/Sources/LedgerKit/RateLimiter.swift", D("""
    import Foundation

    public struct RateLimiter {
        public let capacity: Int
        public let refillPerSecond: Double
        private var tokens: Double
        private var last: Date

        public init(capacity: Int, refillPerSecond: Double, now: Date = .init()) {
            self.capacity = capacity
            self.refillPerSecond = refillPerSecond
            self.tokens = Double(capacity)
            self.last = now
        }

        public mutating func allow(now: Date = .init()) -> Bool {
            tokens = min(Double(capacity), tokens + now.timeIntervalSince(last) * refillPerSecond)
            last = now
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }
""") + "\n")
bash(c, "swift test --package-path Packages/LedgerKit --filter RateLimiterTests", "Run the new RateLimiter tests", D("""
    Building for debugging...
    Build complete! (3.02s)
    Test Suite 'Selected tests' started at 2024-03-12 11:02:41.004.
    Test Suite 'RateLimiterTests' passed at 2024-03-12 11:02:41.007.
    	 Executed 3 tests, with 0 failures (0 unexpected) in 0.002 (0.003) seconds
"""))

c = new("h-n-kotlin-missing-import", "noise", "missing import in just-written Kotlin code, fixed at once", "fieldnotes-android")
bash_fail(c, "./gradlew compileDebugKotlin", "Compile Kotlin sources", 1, D("""
    > Task :app:compileDebugKotlin FAILED
    e: file:///home/dev/src/fieldnotes-android/app/src/main/java/com/acme/fieldnotes/data/NoteRepository.kt:27:41 Unresolved reference: Flow

    FAILURE: Build failed with an exception.

    * What went wrong:
    Execution failed for task ':app:compileDebugKotlin'.
    > A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction
       > Compilation error. See log for more details

    BUILD FAILED in 6s
"""))
edit(c, "app/src/main/java/com/acme/fieldnotes/data/NoteRepository.kt",
     "import com.acme.fieldnotes.db.NoteDao",
     "import com.acme.fieldnotes.db.NoteDao\nimport kotlinx.coroutines.flow.Flow",
     3, before=["package com.acme.fieldnotes.data", ""], after=[""])
bash(c, "./gradlew compileDebugKotlin", "Compile Kotlin sources", "> Task :app:compileDebugKotlin\n\nBUILD SUCCESSFUL in 9s\n17 actionable tasks: 1 executed, 16 up-to-date")

c = new("h-n-go-missing-import", "noise", "missing import in just-written Go code", "billing-grpc")
bash_fail(c, "go build ./...", "Build", 1, "# github.com/acme-labs/billing-grpc/internal/invoices\ninternal/invoices/number.go:14:9: undefined: strings")
edit(c, "internal/invoices/number.go", 'import (\n\t"fmt"\n)', 'import (\n\t"fmt"\n\t"strings"\n)', 3,
     before=["package invoices", ""], after=[""])
bash(c, "go build ./... && go test ./internal/invoices/", "Build and test", "ok  \tgithub.com/acme-labs/billing-grpc/internal/invoices\t0.198s")

c = new("h-n-mix-format-check", "noise", "formatter check fails, formatter run", "ledger_ex")
bash_fail(c, "mix format --check-formatted", "Check formatting", 1, D("""
    ** (Mix) mix format failed due to --check-formatted.
    The following files are not formatted:

      * lib/ledger/slug.ex
"""))
bash(c, "mix format && mix format --check-formatted", "Format and re-check")

c = new("h-n-buf-format", "noise", "buf format diff, then buf format -w", "billing-grpc")
bash_fail(c, "buf format -d --exit-code", "Check proto formatting", 100, D("""
    diff -u proto/billing/v1/invoice.proto.orig proto/billing/v1/invoice.proto
    --- proto/billing/v1/invoice.proto.orig
    +++ proto/billing/v1/invoice.proto
    @@ -13,7 +13,7 @@
       common.v1.Money total = 3;
       // Use total instead.
    -  int64 total_cents = 4 [deprecated=true];
    +  int64 total_cents = 4 [deprecated = true];
"""))
bash(c, "buf format -w && buf format -d --exit-code", "Format protos")

c = new("h-n-poetry-check-lock", "noise", "poetry lock out of sync, regenerated as told", "geoclip")
bash_fail(c, "poetry check --lock", "Check the lock file", 1,
          "Error: pyproject.toml changed significantly since poetry.lock was last generated. Run `poetry lock [--no-update]` to fix the lock file.")
bash(c, "poetry lock --no-update && poetry check --lock", "Regenerate the lock file",
     "Resolving dependencies...\nWriting lock file\nAll set!")

c = new("h-n-pnpm-frozen-lockfile", "noise", "frozen lockfile out of date, pnpm install updates it", "acme-web")
bash_fail(c, "pnpm install --frozen-lockfile", "Install with the lockfile", 1, D("""
    Scope: all 6 workspace projects
     ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/apps/dashboard/package.json

    Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"

      Failure reason:
      specifiers in the lockfile ({"date-fns":"^2.30.0"}) don't match specs in package.json ({"date-fns":"^3.3.1"})
"""))
bash(c, "pnpm install", "Update the lockfile", "Scope: all 6 workspace projects\nPackages: +1 -1\n+-\nProgress: resolved 812, reused 811, downloaded 1, added 1, done\nDone in 3.4s")

c = new("h-n-git-push-rejected", "noise", "rejected push, pull --rebase, push", "ops-scripts")
bash_fail(c, "git push", "Push the branch", 1, D("""
    To github.com:acme-labs/ops-scripts.git
     ! [rejected]        chore/log-rotation -> chore/log-rotation (fetch first)
    error: failed to push some refs to 'github.com:acme-labs/ops-scripts.git'
    hint: Updates were rejected because the remote contains work that you do not
    hint: have locally. This is usually caused by another repository pushing to
    hint: the same ref. If you want to integrate the remote changes, use
    hint: 'git pull' before pushing again.
    hint: See the 'Note about fast-forwards' in 'git push --help' for details.
"""))
bash(c, "git pull --rebase", "Rebase on the remote branch", "Successfully rebased and updated refs/heads/chore/log-rotation.")
bash(c, "git push", "Push the branch", "", "To github.com:acme-labs/ops-scripts.git\n   4c1d2e3..9f8e7d6  chore/log-rotation -> chore/log-rotation")

c = new("h-n-curl-before-server", "noise", "curl before the dev server was started", "tally-api")
bash_fail(c, "curl -s localhost:3000/healthz", "Check health", 7)
bash(c, "(bun run src/index.ts > /tmp/tally.log 2>&1 &) && sleep 1 && tail -2 /tmp/tally.log", "Start the dev server",
     "redis connected\nlistening on http://localhost:3000")
bash(c, "curl -s localhost:3000/healthz", "Check health", '{"status":"ok","redis":"up"}')

c = new("h-n-bun-test-failures-left", "noise", "failing tests shown and left alone", "tally-api")
bash_fail(c, "bun test test/routes.test.ts", "Run route tests", 1, D("""
    bun test v1.0.25 (a8ff7be6)

    test/routes.test.ts:
    ✓ GET /tallies returns json [2.21ms]
    ✗ POST /tallies/:name rejects negative delta [1.02ms]
    error: expect(received).toBe(expected)

    Expected: 400
    Received: 200

          at /home/dev/src/tally-api/test/routes.test.ts:31:28

     1 pass
     1 fail
     3 expect() calls
    Ran 2 tests across 1 files. [48.00ms]
"""))

c = new("h-n-go-test-timeout-left", "noise", "test timeout shown, no fix and no blocker statement", "billing-grpc")
bash_fail(c, "go test -timeout 60s ./internal/store/...", "Run store tests", 1, D("""
    panic: test timed out after 1m0s
    running tests:
    	TestListInvoicesPagination (1m0s)

    goroutine 41 [running]:
    testing.(*M).startAlarm.func1()
    	/usr/local/go/src/testing/testing.go:2366 +0x385
    created by time.goFunc
    	/usr/local/go/src/time/sleep.go:177 +0x2d
    FAIL	github.com/acme-labs/billing-grpc/internal/store	60.014s
    FAIL
"""))

c = new("h-n-bazel-test-failure-left", "noise", "bazel test failure shown and left alone", "monorepo")
bash_fail(c, "bazel test //libs/events:events_test", "Run events tests", 3, D("""
    INFO: Analyzed target //libs/events:events_test (0 packages loaded, 0 targets configured).
    INFO: Found 1 test target...
    FAIL: //libs/events:events_test (see /home/dev/.cache/bazel/_bazel_dev/8a7b6c5d/execroot/_main/bazel-out/k8-fastbuild/testlogs/libs/events/events_test/test.log)
    Target //libs/events:events_test up-to-date:
      bazel-bin/libs/events/events_test_/events_test
    INFO: Elapsed time: 3.118s, Critical Path: 2.77s
    //libs/events:events_test                                                FAILED in 0.6s

    Executed 1 out of 1 test: 1 fails locally.
"""))

c = new("h-n-deno-fmt-check", "noise", "deno fmt --check fails, deno fmt run", "release-bot")
bash_fail(c, "deno fmt --check", "Check formatting", 1, D("""
    from /home/dev/src/release-bot/src/sync.ts:
     9 | -  const releases = await listReleases( repo )
     9 | +  const releases = await listReleases(repo);

    error: Found 1 not formatted file in 6 files
"""))
bash(c, "deno fmt && deno fmt --check", "Format and re-check", "", "Formatted 1 file\nChecked 6 files")

c = new("h-n-hatch-tdd-red-green", "noise", "TDD red-green in Python (ImportError for a function not written yet)", "tinyq")
bash_fail(c, "hatch test tests/test_drain.py", "Run the new drain test", 1, D("""
    ============================= test session starts ==============================
    collected 0 items / 1 error

    ==================================== ERRORS ====================================
    _____________________ ERROR collecting tests/test_drain.py _____________________
    ImportError while importing test module '/home/dev/src/tinyq/tests/test_drain.py'.
    tests/test_drain.py:3: in <module>
        from tinyq.queue import drain
    E   ImportError: cannot import name 'drain' from 'tinyq.queue' (/home/dev/src/tinyq/src/tinyq/queue.py)
    =========================== short test summary info ============================
    ERROR tests/test_drain.py
    !!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
    =============================== 1 error in 0.12s ===============================
"""))
edit(c, "src/tinyq/queue.py",
     "def put(q: Queue, item: Any) -> None:\n    q.put(item)",
     "def put(q: Queue, item: Any) -> None:\n    q.put(item)\n\n\n"
     "def drain(q: Queue, timeout: float = 1.0) -> list[Any]:\n"
     "    items = []\n"
     "    deadline = time.monotonic() + timeout\n"
     "    while time.monotonic() < deadline and not q.empty():\n"
     "        items.append(q.get_nowait())\n"
     "    return items",
     40, before=["", ""])
bash(c, "hatch test tests/test_drain.py", "Run the new drain test", "============================= test session starts ==============================\ncollected 3 items\n\ntests/test_drain.py ...                                                  [100%]\n\n============================== 3 passed in 0.05s ===============================")

c = new("h-n-ansible-syntax-typo", "noise", "YAML indentation slip in a just-written task, fixed at once", "infra-ansible")
bash_fail(c, "ansible-playbook site.yml --syntax-check", "Syntax-check the playbook", 4, D("""
    ERROR! We were unable to read either as JSON nor YAML, these are the errors we got from each:
    JSON: Expecting value: line 1 column 1 (char 0)

    Syntax Error while loading YAML.
      mapping values are not allowed in this context

    The error appears to be in '/home/dev/src/infra-ansible/roles/redis/tasks/main.yml': line 10, column 13, but may
    be elsewhere in the file depending on the exact syntax problem.

    The offending line appears to be:

        src: redis.conf.j2
         dest: /etc/redis/redis.conf
                ^ here
"""))
edit(c, "roles/redis/tasks/main.yml", "        src: redis.conf.j2\n         dest: /etc/redis/redis.conf",
     "        src: redis.conf.j2\n        dest: /etc/redis/redis.conf", 8,
     before=["- name: render redis.conf", "  ansible.builtin.template:"], after=['        mode: "0640"'])
bash(c, "ansible-playbook site.yml --syntax-check", "Syntax-check the playbook", "\nplaybook: site.yml")

# --- subagent reports with no lesson ----------------------------------------

c = new("h-n-task-resolver-overview", "noise", "subagent code overview", "catalog-graphql")
task(c, "Map the resolver layout", "Give me an overview of how resolvers are organised in src/ and how the context is built.",
     D("""
    Overview of src/:

    - src/schema/*.graphql — SDL split per domain (product, category, cart), stitched in src/schema/index.ts.
    - src/resolvers/ — one file per type; `index.ts` merges them with lodash.merge.
    - src/context.ts — builds `{ db, user, loaders }` per request from the Authorization header.
    - src/loaders.ts — DataLoader factories for products, categories and images.
    - src/server.ts — Express + Apollo Server 4, CORS, `/healthz`.

    Mutations live in src/resolvers/mutations/*.ts and all go through `requireUser(ctx)`.
""", ), "Explore")

c = new("h-n-task-all-tests-pass", "noise", "subagent reports that everything passes", "ledger_ex")
task(c, "Run the full matrix", "Run mix test on Elixir 1.16 and 1.17 (asdf) and report.",
     D("""
    Both versions pass.

    - Elixir 1.16.1 / OTP 26.2.1: 92 tests, 0 failures (1.9 s)
    - Elixir 1.17.0 / OTP 27.0:   92 tests, 0 failures (2.1 s)

    No compiler warnings on either version.
"""))

c = new("h-n-task-redis-callsites", "noise", "subagent call-site survey", "sessions-svc")
task(c, "Find Redis call sites", "List every place that talks to Redis directly (not through SessionStore).",
     D("""
    Direct Redis usage outside SessionStore (5 call sites):

    1. sessions/app.py:44 — `redis.ping()` in the health check
    2. sessions/admin.py:17 — `redis.scan_iter("session:*")` for the admin listing
    3. sessions/admin.py:31 — `redis.delete(*keys)` bulk revoke
    4. sessions/ratelimit.py:12 — `redis.incr` + `expire` per IP
    5. scripts/migrate_ttl.py:20 — one-off TTL migration

    Everything else goes through SessionStore.
"""), "Explore")

c = new("h-n-task-kafka-client-comparison", "noise", "subagent library comparison", "orders-stream")
task(c, "Compare Kafka clients", "Compare confluent-kafka and aiokafka for the new async enricher.",
     D("""
    | | confluent-kafka 2.3 | aiokafka 0.10 |
    |---|---|---|
    | API | sync, callbacks; asyncio via threads | native asyncio |
    | Throughput (local, 1 KB msgs) | ~210k msg/s | ~60k msg/s |
    | Transactions / EOS | yes | yes |
    | Schema Registry client | built in | separate package |
    | Wheels | manylinux + macOS (bundled librdkafka) | pure Python |

    Both would work. confluent-kafka is faster and already used by the producer; aiokafka fits the async
    codebase without thread hops.
"""))

c = new("h-n-task-wasm-bench-table", "noise", "subagent benchmark table", "hexmap-wasm")
task(c, "Benchmark wasm vs JS", "Benchmark neighbours() in the wasm build against the old JS implementation in Chrome and Firefox.",
     D("""
    Results (median of 20 runs, 10k calls, radius 8):

    | impl | Chrome 122 | Firefox 123 |
    |---|---|---|
    | JS (old) | 41.2 ms | 55.8 ms |
    | wasm | 12.9 ms | 14.1 ms |
    | wasm + SIMD | 9.7 ms | 10.3 ms |

    The raw numbers are in bench/results-2024-03-12.csv.
"""))

c = new("h-n-task-found-nothing", "noise", "subagent found nothing", "fieldnotes-android")
task(c, "Look for AsyncTask usages", "Search the app for any remaining AsyncTask or Loader usages.",
     "I searched app/src for AsyncTask, AsyncTaskLoader, LoaderManager and android.content.Loader. "
     "No usages remain; the last one was removed in the coroutines migration.", "Explore")

c = new("h-n-task-nginx-log-inconclusive", "noise", "subagent log summary with no conclusion", "edge-proxy")
task(c, "Summarise nginx errors", "Summarise /var/log/nginx/error.log for last night.",
     D("""
    Between 02:00 and 02:15 UTC there are 37 `upstream timed out (110: Connection timed out) while reading
    response header from upstream` errors, all for /api/v2/reports/*, spread across both upstream servers.
    Outside that window the log only has 4 `client intended to send too large body` entries.

    The log alone doesn't show why the report endpoints were slow; the API logs for that window would be
    needed.
"""))

c = new("h-n-task-change-list", "noise", "subagent change list", "shift-planner")
task(c, "Summarise branch changes", "Summarise what changed on this branch compared to main for the PR.",
     D("""
    Changes on feat/rotations vs main:

    - src/schedule/expand.ts: `expandShift` accepts `{ hours }` or `{ until }`
    - src/schedule/rotation.ts: new weekly rotation generator
    - src/api/rotations.ts: GET/POST /rotations
    - tests: 14 new cases in rotation.test.ts, 2 in expand.test.ts
    - jest.config.ts: coverage threshold 80 → 85
"""))

c = new("h-n-task-review-note-untouched", "noise", "subagent review that says 'Note: I left X untouched'", "monorepo")
task(c, "Review the bzlmod migration", "Review the bzlmod migration commits and point out problems.",
     D("""
    Review of the 6 migration commits:

    - MODULE.bazel pins look right; rules_go 0.46 and gazelle 0.35 match go.mod.
    - services/ingest/BUILD.bazel: `ingest_test` should depend on //libs/events/testing.
    - .bazelrc: `--enable_bzlmod` is the default in Bazel 7; the flag can go.

    Note: I left WORKSPACE untouched, since grpc-gateway still comes from there.
"""), "code-reviewer")

# ---------------------------------------------------------- checks + write


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def check(cases: list[dict]) -> None:
    seen = set()
    for c in cases:
        cid = c["id"]
        assert cid.startswith("h-"), cid
        assert cid not in seen, f"duplicate id {cid}"
        seen.add(cid)
        assert c["kind"] in ("positive", "noise"), cid
        assert c["events"], cid
        sids = {e["session_id"] for e in c["events"]}
        assert len(sids) == 1, cid
        if c["kind"] == "noise":
            assert c["expect"] == [], cid
            continue
        assert c["expect"], cid
        text = "\n".join(_strings(c["events"])).lower()
        for exp in c["expect"]:
            assert exp["category"] in ("learning", "blocker"), cid
            assert 1 <= len(exp["about"]) <= 4, cid
            for kw in exp["about"]:
                assert kw == kw.lower(), f"{cid}: keyword not lowercase: {kw}"
                assert kw in text, f"{cid}: keyword not in events: {kw}"
        for e in c["events"]:
            if e["hook_event_name"] == "PostToolUseFailure":
                assert e["tool_name"] == "Bash" and "tool_response" not in e
                assert e["error"].startswith("Exit code "), cid


def main() -> int:
    check(CASES)
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for c in CASES:
            row = {k: c[k] for k in ("id", "kind", "note", "events", "expect")}
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")

    kinds = Counter(c["kind"] for c in CASES)
    cats = Counter(e["category"] for c in CASES for e in c["expect"])
    tools = Counter()
    for c in CASES:
        for e in c["events"]:
            tool = e["tool_name"]
            if tool == "Bash":
                tool = f"Bash {e['hook_event_name']}"
            tools[(tool, c["kind"])] += 1
    print(f"wrote {OUT}")
    print(f"cases: {len(CASES)}  positive: {kinds['positive']}  noise: {kinds['noise']}")
    print(f"expected captures: {sum(cats.values())}  " + "  ".join(f"{k}: {v}" for k, v in sorted(cats.items())))
    print(f"events: positive {sum(len(c['events']) for c in CASES if c['kind'] == 'positive')}, "
          f"noise {sum(len(c['events']) for c in CASES if c['kind'] == 'noise')}")
    for tool in sorted({t for t, _ in tools}):
        print(f"  {tool:28s} positive {tools[(tool, 'positive')]:4d}   noise {tools[(tool, 'noise')]:4d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
