#!/bin/sh
# learnmem's launcher, written by `learnmem init`: commit it, it holds no machine's path.
# The agent's files run `sh <this file> hook <event>` (Claude Code's hooks) and `sh <this file> mcp` (the
# MCP server); `sh <this file> where` prints the learnmem it would run (`learnmem doctor` asks). It finds this machine's learnmem, looking in order in: $LEARNMEM_BIN; the folder that
# `learnmem init` recorded on this machine in .learnmem/scripts-path (not committed); PATH; ~/.local/bin
# (where `pipx install` and `uv tool install` put it).
root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd) || exit 1
kind=${1:-}
case $kind in
  hook|where) name=learnmem ;;
  mcp) name=learnmem-mcp; shift ;;
  *) echo "usage: sh $0 hook <event> | mcp [learnmem-mcp options] | where" >&2; exit 2 ;;
esac

found=
for folder in "${LEARNMEM_BIN:-}" "$(cat "$root/.learnmem/scripts-path" 2>/dev/null)"; do
  if [ -n "$folder" ] && [ -x "$folder/$name" ]; then found=$folder/$name; break; fi
done
[ -n "$found" ] || found=$(command -v "$name" 2>/dev/null) || found=
[ -n "$found" ] || { [ -x "$HOME/.local/bin/$name" ] && found=$HOME/.local/bin/$name; }
if [ -n "$found" ]; then
  [ "$kind" = where ] && { echo "$found"; exit 0; }
  exec "$found" "$@"
fi

how="learnmem is not installed on this machine, or not where this project can find it: install it (from a clone of learnmem: pipx install . or uv tool install .), or run learnmem init in this project from the environment that has it. Until then learnmem's hooks do nothing and its MCP server does not start."
if [ "$kind" != hook ]; then
  echo "$name: error: $how" >&2
  exit 1
fi
cat >/dev/null  # the event Claude Code sent
if [ "${2:-}" = session-start ]; then
  printf '{"systemMessage": "%s"}\n' "$how"  # said once a session, at its start; every other hook is silent
fi
exit 0
