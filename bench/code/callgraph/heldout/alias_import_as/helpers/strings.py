def shout(msg):
    return msg.upper() + "!"


def whisper(msg):
    return msg.lower() + "..."


def plain(msg):
    return msg
