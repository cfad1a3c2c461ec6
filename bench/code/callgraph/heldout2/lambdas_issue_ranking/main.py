"""Issue-tracker report: filtering/scoring rules are named lambdas, sort keys anonymous ones."""


def normalize(title):
    return " ".join(title.split()).lower()


def weight(issue):
    return {"high": 3, "medium": 2}.get(issue["severity"], 1)


is_open = lambda issue: issue["status"] != "closed"
score = lambda issue: weight(issue) * issue["votes"]
label = lambda issue: "%s (%d)" % (normalize(issue["title"]), score(issue))


def build_report(issues, min_score=0):
    keep = lambda it: is_open(it) and score(it) >= min_score
    visible = filter(keep, issues)
    ranked = sorted(visible, key=lambda it: (-score(it), normalize(it["title"])))
    return list(map(label, ranked))


def summarize(issues):
    counts = {}
    for it in issues:
        counts[it["severity"]] = counts.get(it["severity"], 0) + 1
    top = max(issues, key=score)
    return counts, top["title"]


ISSUES = [
    {"title": "Crash  on start", "severity": "high", "votes": 4, "status": "open"},
    {"title": "Typo in docs", "severity": "low", "votes": 9, "status": "open"},
    {"title": "Slow search", "severity": "medium", "votes": 1, "status": "closed"},
]

if __name__ == "__main__":
    print(build_report(ISSUES, min_score=5))
    print(summarize(ISSUES))
