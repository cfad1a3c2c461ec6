"""Backoff policies and report formatters obtained from factory calls and called later."""


def _linear(attempt):
    return 0.1 * attempt


def _exponential(attempt):
    return 0.1 * 2 ** attempt


def _none(attempt):
    return 0.0


def get_policy(name):
    if name == "linear":
        return _linear
    if name == "exponential":
        return _exponential
    return _none


class Schedule:
    def __init__(self, policy, attempts):
        self.policy = policy
        self.attempts = attempts

    def delays(self):
        return [round(self.policy(a), 3) for a in range(self.attempts)]


def build_schedule(name, attempts=3):
    return Schedule(get_policy(name), attempts)


def parse(spec):
    name, _, count = spec.partition(":")
    return name, int(count or 3)


def schedule_from_spec(spec):
    return build_schedule(*parse(spec))


class Report:
    def __init__(self, delays):
        self.delays = delays

    def short(self):
        return "%d retries" % len(self.delays)

    def long(self):
        return ", ".join("%.2fs" % d for d in self.delays)


def formatter(delays, verbose):
    report = Report(delays)
    return report.long if verbose else report.short


def main():
    print(get_policy("linear")(2))
    fn = get_policy("exponential")
    print(fn(3))
    print(schedule_from_spec("none:2").delays())
    delays = build_schedule("linear").delays()
    print(formatter(delays, True)(), formatter(delays, False)())


main()
