#!/bin/sh
# learnmem's launcher, written by `learnmem init`: commit it, it holds no machine's path.
# The agent's files run `sh <this file> hook <event>` (Claude Code's hooks) and `sh <this file> mcp` (the
# MCP server); `sh <this file> where` prints the learnmem it would run (`learnmem doctor` asks). It finds this machine's learnmem, looking in order in: $LEARNMEM_BIN; the folder that
# `learnmem init` recorded on this machine in .learnmem/scripts-path (not committed); PATH; ~/.local/bin
# (where `pipx install` and `uv tool install` put it).
# Builtins only where it can (no dirname, no cat): a hook runs this around every tool call.
here=${0%/*}
[ "$here" = "$0" ] && here=.
root=$(CDPATH='' cd -- "$here/.." && pwd) || exit 1
kind=${1:-}
case $kind in
  hook|where) name=learnmem ;;
  mcp) name=learnmem-mcp; shift ;;
  *) echo "usage: sh $0 hook <event> | mcp [learnmem-mcp options] | where" >&2; exit 2 ;;
esac

found= recorded=
[ -r "$root/.learnmem/scripts-path" ] && IFS= read -r recorded < "$root/.learnmem/scripts-path"
for folder in "${LEARNMEM_BIN:-}" "$recorded"; do
  if [ -n "$folder" ] && [ -x "$folder/$name" ]; then found=$folder/$name; break; fi
done
[ -n "$found" ] || found=$(command -v "$name" 2>/dev/null) || found=
[ -n "$found" ] || { [ -x "$HOME/.local/bin/$name" ] && found=$HOME/.local/bin/$name; }
if [ -n "$found" ]; then
  [ "$kind" = where ] && { echo "$found"; exit 0; }
  if [ "$kind" = hook ]; then
    # A hook runs the script's own Python straight away: the script's wrapper imports `re` (~10 ms), and the
    # hooks answer in tens of milliseconds when the MCP server serves them.
    IFS= read -r shebang < "$found" || shebang=
    python=${shebang#\#!}
    case $python in
      /*python*) [ "$python" = "${python% *}" ] && [ -x "$python" ] && exec "$python" -P -c \
        'import sys; sys.argv[0] = "learnmem"; from learnmem.cli import main; main()' "$@" ;;
    esac
  fi
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
