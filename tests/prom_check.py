#!/usr/bin/python3
"""Parses a Prometheus textfile with the reference Python client's parser and
checks the naming conventions: autoswappiness_ prefix, snake case, HELP and
TYPE for every family, counters ending in _total, ratios within 0..1, no
duplicate samples. Exit 0 when it passes, 1 with the reasons otherwise.

    prom_check.py FILE [NAME=VALUE ...]   (each NAME=VALUE must be a sample)
"""
import re
import sys

from prometheus_client.parser import text_string_to_metric_families


def main():
    path, expect = sys.argv[1], sys.argv[2:]
    text = open(path, encoding="utf-8").read()
    problems = []
    helps = set(re.findall(r"^# HELP (\S+) ", text, re.M))
    types = dict(re.findall(r"^# TYPE (\S+) (\S+)$", text, re.M))
    samples = {}
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as e:  # the parser's own word on malformed input
        print(f"{path}: not valid text exposition format: {e}")
        return 1
    for fam in families:
        if not re.fullmatch(r"autoswappiness_[a-z][a-z0-9_]*", fam.name):
            problems.append(f"{fam.name}: not autoswappiness_snake_case")
        # The client strips _total from counter family names.
        raw = fam.name + "_total" if fam.type == "counter" else fam.name
        if raw not in helps:
            problems.append(f"{raw}: no HELP line")
        if raw not in types:
            problems.append(f"{raw}: no TYPE line")
        if fam.type == "counter" and not raw.endswith("_total"):
            problems.append(f"{raw}: a counter must end in _total")
        for s in fam.samples:
            key = s.name + str(sorted(s.labels.items()))
            if key in samples:
                problems.append(f"{s.name}: duplicate sample")
            samples[key] = s.value
            samples.setdefault(s.name, s.value)
            if s.name.endswith("_ratio") and not 0 <= s.value <= 1:
                problems.append(f"{s.name}: ratio {s.value} outside 0..1")
            if s.name.endswith("_total") and s.value < 0:
                problems.append(f"{s.name}: negative counter")
    for e in expect:
        name, want = e.split("=", 1)
        if name not in samples:
            problems.append(f"{name}: missing")
        elif samples[name] != float(want):
            problems.append(f"{name}: {samples[name]} != {want}")
    for p in problems:
        print(f"{path}: {p}")
    print(f"{path}: {len(families)} metric families parsed, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
