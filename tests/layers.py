#!/usr/bin/env python3
"""layers.py: the layers hold (issue 29; docs/architecture.md).

  1. a wrong-way include does not compile: a file of common/core/ (or of
     a ruleset) that includes a ruleset's header, or a ruleset that
     includes the other's, is refused by the include directories its
     library is built with; the same file without it compiles
  2. only common/format/ (in common/) knows JSON: no other file of the
     rules library includes jansson
  3. no new dependency circle: the object files' symbols (nm) give which
     file calls which (the lookups in the ruleset registry from below it excepted:
     the one upward call, declared in core/ak_rules.h); the circles among files and among folders are
     compared with tests/circles.txt, and a circle that is not there (or
     grows beyond one that is) fails, printed. With --write, the file is
     written from the build (after a change that removes circles, or one
     that must add one, said in its commit).

usage: layers.py SOURCE BUILD [--write]
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

src, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
write = "--write" in sys.argv
failed = 0


def check(cond, what):
    global failed
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failed += 1


# --- 1. wrong-way includes ---
commands = json.load(open(os.path.join(build, "compile_commands.json")))


def command_for(path):
    for c in commands:
        if os.path.normpath(os.path.join(c["directory"], c["file"])) == os.path.join(src, path):
            return c
    return None


def compiles(path, extra):
    """Does path, with extra lines on top, compile with its library's flags?"""
    c = command_for(path)
    if not c:
        return None
    body = open(os.path.join(src, path)).read()
    with tempfile.NamedTemporaryFile("w", suffix=".c", dir=os.path.dirname(os.path.join(src, path)),
                                     delete=False) as probe:
        probe.write(extra + "\n" + body)
    try:
        args = shlex.split(c["command"]) if "command" in c else c["arguments"]
        i = args.index("-c")
        args = [a for a in args[:i] if a not in ("-MD",)] + ["-fsyntax-only", probe.name]
        args = [a for k, a in enumerate(args) if not (k > 0 and args[k - 1] in ("-MQ", "-MF", "-o"))
                and a not in ("-MQ", "-MF", "-o")]
        return subprocess.run(args, cwd=c["directory"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    finally:
        os.unlink(probe.name)


for path, wrong, why in [("common/core/ak_zoc.c", '#include "ak_updated.h"', "shared code including the Updated ruleset's header"),
                         ("common/core/ak_turn.c", '#include "ak_sustain.h"', "shared code including a 1964 rule's header"),
                         ("common/rules/updated/ak_updated_boxes.c", '#include "ak_classic.h"', "a ruleset including the other's"),
                         ("common/data/ak_map.c", '#include "ak_state.h"', "a loader including the shared mechanics"),
                         ("common/core/ak_engine.c", '#include "ak_notation.h"', "the engine including the JSON notation"),
                         ("server/ak_play.c", '#include "ak_updated.h"', "akd including a ruleset's header"),
                         ("client/akc_play.c", '#include "ak_classic.h"', "akc including a ruleset's header"),
                         ("proto/ak_record.c", '#include "ak_losses.h"', "the record format including a ruleset's header"),
                         ("ai/ak_ai.c", '#include "ak_updated.h"', "the computer player including a ruleset's header"),
                         ("common/core/ak_engine.c", '#include "ak_ai.h"', "the engine including the computer player")]:
    plain, bad = compiles(path, ""), compiles(path, wrong)
    check(plain is True and bad is False, "%s: %s does not compile (%s), the file without it does" % (path, why, wrong))

# --- 2. JSON only in format/ ---
knows_json = []
for root, _, files in os.walk(os.path.join(src, "common")):
    for f in files:
        p = os.path.join(root, f)
        if f.endswith((".c", ".h")) and "/format" not in p and re.search(r"#include\s*<jansson", open(p).read()):
            knows_json.append(os.path.relpath(p, src))
check(not knows_json, "in common/, only format/ includes jansson%s" % (": not " + ", ".join(knows_json) if knows_json else ""))

# --- 3. circles ---
FOLDERS = ["common/data", "common/core", "common/rules/classic", "common/rules/updated", "common/format", "common",
           "ai", "proto", "db", "server", "client"]


def source_of(obj):
    """build/common/core/libak_core.a.p/ak_zoc.c.o -> common/core/ak_zoc.c"""
    rel = os.path.relpath(obj, build)
    d, name = os.path.split(rel)
    return os.path.join(os.path.dirname(d), name[:-2])


objs = []
for folder in FOLDERS[:-2] + ["server", "client"]:
    for root, _, files in os.walk(os.path.join(build, folder)):
        objs += [os.path.join(root, f) for f in files if f.endswith(".c.o")]
defined, needs = {}, {}
for o in objs:
    s = source_of(o)
    if not os.path.exists(os.path.join(src, s)) or s.startswith(("common/data/ak_data_",)):
        continue
    out = subprocess.run(["nm", "-P", o], capture_output=True, text=True).stdout
    needs[s] = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            needs[s].add(name)
        elif kind in "TDBR":
            defined.setdefault(name, s)
# The one dependency that points up, by design: the code below the
# registry (core/ and the rulesets) reaches a game's ruleset through it
# (common/ak_ruleset.c), which names the rulesets and so sits above them;
# core/ak_rules.h declares the lookups, and nothing else of the registry
# is reachable from below.
UPCALLS = {"ak_ruleset_get", "ak_ruleset_count"}


def counts(f, n):
    return n in defined and defined[n] != f and not (f.startswith(("common/core/", "common/rules/")) and n in UPCALLS)


edges = {f: {defined[n] for n in ns if counts(f, n)} for f, ns in needs.items()}


def folder_of(f):
    return next(d for d in FOLDERS if f.startswith(d + "/") and "/" not in f[len(d) + 1:]) \
        if any(f.startswith(d + "/") and "/" not in f[len(d) + 1:] for d in FOLDERS) else os.path.dirname(f)


def circles(graph):
    """Tarjan's strongly connected components of more than one member."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return sorted(out)


folder_graph = {}
for f, ts in edges.items():
    for t in ts:
        if folder_of(f) != folder_of(t):
            folder_graph.setdefault(folder_of(f), set()).add(folder_of(t))
found = {"files": circles(edges), "folders": circles(folder_graph)}
baseline_path = os.path.join(src, "tests", "circles.txt")
if write:
    with open(baseline_path, "w") as out:
        out.write("# The dependency circles the code has today (tests/layers.py --write):\n"
                  "# one per line, its members separated by spaces. A new one fails the test.\n")
        for kind in ("folders", "files"):
            for c in found[kind]:
                out.write("%s: %s\n" % (kind, " ".join(c)))
    print("wrote %s" % baseline_path)
known = {"files": [], "folders": []}
for line in open(baseline_path):
    if line.strip() and not line.startswith("#"):
        kind, members = line.split(":", 1)
        known[kind].append(set(members.split()))
for kind in ("folders", "files"):
    new = [c for c in found[kind] if not any(set(c) <= k for k in known[kind])]
    check(not new, "no new circle among %s (%d known)%s" % (kind, len(known[kind]),
                                                          "".join("\n     new: " + " -> ".join(c) for c in new)))
print("%d failed" % failed)
sys.exit(1 if failed else 0)
