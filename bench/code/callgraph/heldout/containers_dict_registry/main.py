def cmd_add(args):
    return sum(int(a) for a in args)


def cmd_echo(args):
    return " ".join(args)


def cmd_help(args):
    return "commands: " + ", ".join(sorted(COMMANDS))


COMMANDS = {
    "add": cmd_add,
    "echo": cmd_echo,
    "help": cmd_help,
}


def dispatch(line):
    name, *args = line.split()
    handler = COMMANDS.get(name, cmd_help)
    return handler(args)


def main():
    for line in ["add 1 2", "echo hi there", "help", "bogus x"]:
        print(dispatch(line))


if __name__ == "__main__":
    main()
