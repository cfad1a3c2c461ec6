"""todo: a small task-tracker CLI with init / add / list subcommands."""
import argparse
import json
import os.path
import sys

DB = {"tasks": None}


def log(message):
    print("todo:", message, file=sys.stderr)


def exists():
    return DB["tasks"] is not None


def validate_title(title):
    title = title.strip()
    if not title:
        raise SystemExit("todo: empty title")
    return title[:60]


def format_task(index, task):
    return "{:>3} {} {}".format(index, "!" * task["priority"], task["title"])


def cmd_init(args):
    if exists():
        log("already initialised")
        return 1
    DB["tasks"] = []
    log("created " + os.path.join(os.getcwd(), ".todo"))
    return 0


def cmd_add(args):
    if not exists():
        cmd_init(args)
    title = validate_title(args.title)
    DB["tasks"].append({"title": title, "priority": args.priority})
    return 0


def cmd_list(args):
    ranked = sorted(DB["tasks"], key=lambda t: -t["priority"])
    for i, task in enumerate(ranked, 1):
        print(format_task(i, task))
    print(json.dumps({"count": len(ranked)}))
    return 0


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="todo")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("init")
    add = sub.add_parser("add")
    add.add_argument("title")
    add.add_argument("--priority", type=int, default=1)
    sub.add_parser("list")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if args.command == "init":
        return cmd_init(args)
    elif args.command == "add":
        return cmd_add(args)
    return cmd_list(args)


if __name__ == "__main__":
    for argv in (["add", "fix bug"], ["init"], ["add", " write docs ", "--priority", "3"], ["list"]):
        main(argv)
    sys.exit(0)
