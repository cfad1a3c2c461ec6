import functools


class Threshold:
    def __init__(self, limit):
        self.limit = limit

    def __call__(self, value):
        return value >= self.limit


def priority(task):
    return (-task["prio"], task["name"])


def merge(total, task):
    return total + task["cost"]


def summarize(tasks, keep):
    urgent = filter(keep, (t["prio"] for t in tasks))
    ordered = sorted(tasks, key=priority)
    total = functools.reduce(merge, ordered, 0)
    names = list(map(str.upper, (t["name"] for t in ordered)))
    return len(list(urgent)), total, names


def main():
    tasks = [
        {"name": "deploy", "prio": 2, "cost": 5},
        {"name": "fix", "prio": 3, "cost": 2},
        {"name": "docs", "prio": 1, "cost": 1},
    ]
    print(summarize(tasks, Threshold(2)))


main()
