#!/usr/bin/env python3
"""Convert the third-party reference data (../shared/reference/afrika-korps)
into the project's own text data files under common/data/.

This is a maintainer's tool, run once when the reference facts change. The
build never runs it and never reads ../shared: the generated files are
committed. Usage: scripts/import-reference.py [REFERENCE_DIR]
"""
import json
import re
import sys
from pathlib import Path

ref = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/reference/afrika-korps")
out = Path(__file__).resolve().parent.parent / "common" / "data"

TERRAIN = {"clear": "clear", "escarpment": "escarpment", "qattara": "qattara",
           "qattara_partial": "qattara-partial", "sea": "sea",
           "fortress": "fortress", "homebase": "homebase"}


def hex_key(h):
    m = re.match(r"([A-X])(\d+)$", h)
    return (m.group(1), int(m.group(2)))


def short_name(counter):
    words = counter.split()
    side, rest = words[0], words[1:]
    if rest == ["Rommel"]:
        return "rommel"
    if rest[0] == "Supply":
        prefix = "g" if side == "G" else "a"
        if rest[1] == "Captured":
            return prefix + "cap" + ("x" if rest[2] == "#" else rest[2])
        return prefix + "sup" + rest[1]
    text = " ".join(rest)
    text = text.replace("Recce", "r").replace("Motor", "m").replace("S.G", "sg")
    return re.sub(r"[^a-z0-9]", "", text.lower())


def write_map(m):
    lines = ["# Afrika Korps mapboard: one line per hex that has a printed coordinate.",
             "# hex COORD TERRAIN   (terrain: clear escarpment qattara qattara-partial sea fortress homebase)",
             "# side COORD COORD KIND   (kind: road, water, qattara; hexsides that carry",
             "#                          the Coast Road or block movement and zones of control)",
             "# name COORD TEXT       (places named by the rules)",
             "# noroad A B C          (road junction: consecutive road steps A-B-C, or C-B-A,",
             "#                        do not both count as road: rules-notes, Coast Road at I26)",
             ""]
    for h in sorted(m["hexes"], key=hex_key):
        lines.append(f"hex {h} {TERRAIN[m['hexes'][h]]}")
    lines.append("")
    for a, b, kind in m["hexsides"]:
        lines.append(f"side {a} {b} {kind}")
    lines.append("")
    for h, text in m["named_hexes"].items():
        lines.append(f"name {h} {text}")
    lines.append("")
    lines.append("noroad I25 I26 H26")
    (out / "map.txt").write_text("\n".join(lines) + "\n")


def write_units(u):
    lines = ["# Afrika Korps counters, one per line:",
             "# SHORT SIDE NATIONALITY TYPE ATTACK DEFENSE MOVEMENT FLAGS | COUNTER TEXT",
             "# SHORT is what a player types. FLAGS: - none, sub substitute, cap captured-supply counter.",
             ""]
    seen = set()
    for x in u["units"]:
        s = short_name(x["counter"])
        assert s not in seen, s
        seen.add(s)
        flags = "sub" if x.get("substitute") else "cap" if x.get("captured") else "-"
        nat = x["nationality"].replace(" ", "-").replace("(", "").replace(")", "").lower()
        lines.append(f"{s:<12} {x['side'].lower():<6} {nat:<22} {x['type']:<16} "
                     f"{x['attack']} {x['defense']} {x['movement']:<2} {flags:<3} | {x['counter']}")
    (out / "units.txt").write_text("\n".join(lines) + "\n")
    return {x["counter"]: short_name(x["counter"]) for x in u["units"]}


def write_scenario(s, names):
    lines = ["# The 1941 campaign: turn record, situation of 31 March 1941, order of",
             "# appearance, supply table, replacements and substitutes.",
             "# turn N DATE                 one complete turn",
             "# setup UNIT HEX              situation of 31 March 1941",
             "# arrive N UNIT...            order of appearance: earliest turn N",
             "# supply SIDE per-turn N | roll FIRST LAST SUNK-ROLLS...   | max N",
             "# replace FROM-TURN SIDE HOMEBASE TOBRUCH   attack factors per turn",
             "# substitute FROM-TURN", ""]
    for t in s["turns"]:
        lines.append(f"turn {t['turn']} {t['date']}")
    lines.append("")
    for p in s["initial_positions"]:
        lines.append(f"setup {names[p['counter']]} {p['hex']}")
    lines.append("")
    for r in s["reinforcements"]:
        lines.append(f"arrive {r['turn']} " + " ".join(names[c] for c in r["units"]))
    lines.append("")
    sup = s["supply"]
    lines.append(f"supply allied max {sup['Allied']['max_on_board']}")
    lines.append(f"supply allied per-turn {sup['Allied']['per_turn']}")
    lines.append(f"supply axis max {sup['Axis']['max_on_board']}")
    for row in sup["Axis"]["sunk_results"]:
        lines.append(f"supply axis roll {row['from_turn']} {row['to_turn']} "
                     + " ".join(str(x) for x in row["sunk_on"]))
    lines.append("")
    rep = s["replacements"]
    for side in ("Axis", "Allied"):
        lines.append(f"replace {rep['from_turn']} {side.lower()} "
                     f"{rep[side]['home_base']} {rep[side]['tobruch']}")
    lines.append(f"substitute {s['substitutes']['from_turn']}")
    (out / "scenario-1941.txt").write_text("\n".join(lines) + "\n")


def write_crt(c):
    lines = ["# Combat results table: odds columns, then one row per die roll.",
             "# AE attacker eliminated, AB2 attacker back 2, EX exchange,",
             "# DB2 defender back 2, DE defender eliminated.",
             "columns " + " ".join(c["columns"])]
    for roll in sorted(c["rows"], key=int):
        lines.append(f"roll {roll} " + " ".join(c["rows"][roll]))
    (out / "crt.txt").write_text("\n".join(lines) + "\n")


def main():
    out.mkdir(parents=True, exist_ok=True)
    write_map(json.loads((ref / "map.json").read_text()))
    names = write_units(json.loads((ref / "units.json").read_text()))
    write_scenario(json.loads((ref / "scenario-1941.json").read_text()), names)
    write_crt(json.loads((ref / "crt.json").read_text()))


if __name__ == "__main__":
    main()
