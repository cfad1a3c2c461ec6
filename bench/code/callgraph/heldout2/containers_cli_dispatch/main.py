"""vcs: a git-like CLI; subcommands come from a dispatch dict and a list of command classes."""
import shlex


def cmd_status(args):
    return "on branch main"


def cmd_log(args):
    count = int(args[0]) if args else 2
    return "\n".join("commit %d" % i for i in range(count))


def cmd_help(args):
    return "usage: vcs <%s>" % "|".join(sorted(COMMANDS))


COMMANDS = {"status": cmd_status, "log": cmd_log, "help": cmd_help}


class Command:
    name = ""

    def run(self, args):
        return "%s: not implemented" % self.name


class Commit(Command):
    name = "commit"

    def run(self, args):
        return "committed: " + " ".join(args)


class Push(Command):
    name = "push"

    def __init__(self, remote="origin"):
        self.remote = remote

    def run(self, args):
        return "pushed to " + self.remote


class Pull(Command):
    name = "pull"


PLUGINS = [Commit, Push, Pull]


def lookup(name):
    for cls in PLUGINS:
        if cls.name == name:
            return cls()
    return None


def dispatch(line):
    name, *args = shlex.split(line)
    if name in COMMANDS:
        return COMMANDS[name](args)
    command = lookup(name)
    if command is None:
        return COMMANDS.get("help")(args)
    return command.run(args)


def main():
    for line in ["status", "log 3", "help", 'commit -m "first"', "push", "pull", "frobnicate"]:
        print("$ vcs", line)
        print(dispatch(line))


main()
