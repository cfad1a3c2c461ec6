import io
import sys


class Connection:
    def send(self, data):
        return len(data)

    def close(self):
        return None


def transmit(channel, payload):
    # public API: `channel` is supplied by library users, never by this project
    return channel.send(payload)


def run_hooks(hooks, *args):
    return [hook(*args) for hook in hooks]


def shutdown(resource):
    resource.close()


def write_out(text, stream=sys.stdout):
    stream.write(text + "\n")
    stream.flush()


def main():
    write_out("ready")
    conn = Connection()
    print(conn.send(b"ping"))
    shutdown(io.StringIO("buffer"))
    print(run_hooks([str.strip, len], "  x "))


main()
