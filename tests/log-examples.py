#!/usr/bin/env python3
"""The log lines docs/operations.md shows ("Read the logs") are the ones
akd writes (issue 33): each example, between the marker comment and the
end of its block, must match a line of the real log given, by level, by
the words of its message (numbers and quoted values may differ) and by
its keys (conn=, user=, game=, target=: the same set, the same values but
for numbers). Usage: log-examples.py DOC LOG; prints each example's
verdict, exits 1 if one has no match."""
import re
import sys

MARKER = "<!-- log examples: tests/log-examples.py -->"


def logfmt(line):
    fields, i = {}, 0
    for m in re.finditer(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)', line):
        v = m.group(2)
        fields[m.group(1)] = v[1:-1] if v.startswith('"') else v
    return fields


def pattern(text):
    """The example's words, numbers free (a game, a port, a count)."""
    parts = re.split(r"(\d+)", text)
    return re.compile("^" + "".join(r"\d+" if p.isdigit() else re.escape(p) for p in parts) + "$")


def examples(doc):
    lines = open(doc).read().split("\n")
    start = lines.index(MARKER)
    out, in_block = [], False
    for l in lines[start + 1:]:
        if l.startswith("    ts="):
            in_block = True
            out.append(l.strip())
        elif in_block and not l.startswith("    "):
            break
    return out


def main():
    doc, log = sys.argv[1], sys.argv[2]
    real = [logfmt(l) for l in open(log, errors="replace") if "level=" in l]
    missing = 0
    for ex in examples(doc):
        e = logfmt(ex)
        keys = {k for k in e if k not in ("ts",)}
        pats = {k: pattern(e[k]) for k in keys}
        found = any(set(r) - {"ts"} == keys and all(pats[k].match(r[k]) for k in keys) for r in real)
        print(("ok   " if found else "FAIL ") + "the documented log line " + e.get("msg", ex) + " is akd's")
        missing += not found
    if not examples(doc):
        print("FAIL no examples after the marker")
        missing += 1
    sys.exit(1 if missing else 0)


main()
