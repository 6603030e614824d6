#!/usr/bin/env python3
"""updated.py: games of the Updated ruleset through akd, end to end.

What the engine's own tests cannot show: that akd starts, stores, reloads,
undoes, records and replays games of the variant, each on the combat
results table it began on.

  1. akd with the table written for testing (tests/data/crt-test.txt):
     `hello` lists `updated` as available; a game of it from the lobby
     (`new` with `ruleset`) and one from a position (tests/positions/
     updated-front.scn, two armored fronts face to face); random players
     play the position game through the protocol only (`options`, `dests`,
     `act`), so battles, attack supply, loss assignments, retreats and
     advances, mechanized movement, the supply and replacement phases all
     go through akd's commits and pushes; an `undo` of a move
  2. akd stopped and started again with another table (one cell and the
     name changed): the games come back on their own table (`show` carries
     it, the state's hash is the same, play goes on); a new game gets the
     new table; the database holds each table once
  3. akd started without any table: the games of the variant still load
     and play on their stored tables; a new one is refused, saying why
  4. the finished game's record carries its table and `akc verify --file`
     replays it, every roll checked; without its table, or with another
     ruleset's, the record is refused

usage: updated.py AKD AKC AK-SCENARIO POSITION.scn TABLE
Prints one line per check; exits 1 if any failed.
"""
import hashlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

from akd_conn import Conn, kill_at_exit, spawn_akd

os.environ["AKD_CONFIG"] = ""   # the installed akd.conf is not this test's

AKD, AKC, SCENARIO, POSITION_SCN, TABLE = sys.argv[1:6]
work = tempfile.mkdtemp(prefix="ak-updated-")
DB = os.path.join(work, "akd.sqlite3")
rng = random.Random(16)
failed = 0
# the counters' sides, from the game data (the state names units only)
SIDE = {}
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "data", "units.txt")):
    w = line.split()
    if w and not line.startswith("#"):
        SIDE[w[0]] = w[1]


def check(cond, what):
    global failed
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failed += 1


running = []    # akd processes started: stopped on any exit, a failure included


kill_at_exit(running)


def start_akd(table):
    log = open(os.path.join(work, "akd.log"), "a")
    extra = ["--updated-crt", table] if table else []
    started = spawn_akd(AKD, ["--db", DB, "--allow-positions", "1", "--rate", "0", "--rate-per-address", "0",
                              "--rate-per-user", "0", "--output-per-address", "0", "--log-level", "info"] + extra,
                        log, rng, running)
    return started or sys.exit("updated.py: akd did not start: see " + log.name)


def stop_akd(p):
    p.terminate()
    check(p.wait(timeout=30) == 0, "akd stops cleanly on SIGTERM")


def login(port, user):
    c = Conn(port, timeout=30)
    r = c.call("login", user=user, password="password-" + user)
    if not r.get("ok"):
        r = c.call("register", user=user, password="password-" + user)
    check(r.get("ok"), "%s is logged in" % user)
    return c


def waiting(state):
    if state["result"] != "none":
        return None
    return state["pending"]["side"] if state["pending"] else state["side"]


def where(hex_name):
    """A square's centre on the map's plane (web/board.js's layout), for
    "nearer the enemy"."""
    row, number = ord(hex_name[0]) - ord("A"), int(hex_name[1:])
    return number - row / 2, row * 0.866


def nearest_enemy(s, side, hex_name):
    x, y = where(hex_name)
    foes = [where(u["hex"]) for n, u in s["units"].items() if u["where"] == "board" and SIDE.get(n) not in (side, None)]
    return min(((x - a) ** 2 + (y - b) ** 2 for a, b in foes), default=0)


def play(conns, game, actions, stats):
    """Random legal play through the protocol: up to `actions` actions or
    the end of the game. Moves come from `dests`, everything else from
    `options`; the mover moves a few units, then takes the other choices
    mostly before ending the phase."""
    moved = 0
    for _ in range(actions):
        g = conns["axis"].ok("show", game=game)
        s = g["state"]
        side = waiting(s)
        if side is None:
            return s
        c = conns[side]
        if s["phase"] in ("movement", "mech") and not s["pending"] and moved < 4 and rng.random() < 0.7:
            own = [u for u, x in s["units"].items() if x["where"] == "board" and SIDE.get(u) == side]
            unit = rng.choice(own) if own else None
            r = c.call("dests", game=game, units=[unit]) if unit else {}
            dests = r["result"]["dests"] if r.get("ok") else []    # refused: a unit that cannot move now
            dests = [d for d in dests if d["hex"] != s["units"][unit]["hex"]]
            moved += 1
            if dests:
                # half the moves as near the enemy as they go, so that fronts meet
                to = (min(dests, key=lambda d: nearest_enemy(s, side, d["hex"])) if rng.random() < 0.5
                      else rng.choice(dests))["hex"]
                r = c.call("act", game=game, action={"action": "move", "units": [unit], "to": to},
                           nonce="%032x" % rng.getrandbits(128))
                check_act(r, stats, "move")
                continue
        o = c.ok("options", game=game)
        opts = o["actions"]
        if not opts and s["phase"] in ("movement", "mech") and not s["pending"]:
            moved = 0   # a square over the stacking limit (arrivals): moves until the phase may end
            continue
        ends = [a for a in opts if a["action"] in ("end_movement", "end_phase", "end_turn")]
        fights = [a for a in opts if a["action"] == "resolve"] or [a for a in opts if a["action"] == "battle"]
        others = [a for a in opts if a not in ends]
        if fights and rng.random() < 0.8:
            a = rng.choice(fights)
        elif others and (not ends or rng.random() < 0.6):
            a = rng.choice(others)
        else:
            a = ends[0] if ends else None
        if a is None:
            check(False, "the game waits for %s, who has no option (%s: %s)" % (side, s["phase"], o.get("none_because")))
            return s
        if a in ends:
            moved = 0
        if a["action"] == "battle":
            check_odds(c, game, a, stats)
        r = c.call("act", game=game, action=a, nonce="%032x" % rng.getrandbits(128))
        check_act(r, stats, a["action"])
    return conns["axis"].ok("show", game=game)["state"]


def check_odds(c, game, a, stats):
    """A battle offered, asked for its odds first: legal, with each result
    of the table's die and its chance, all of them adding up to the die's
    faces (the ruleset's battle preview)."""
    r = c.call("odds", game=game, attackers=a["attackers"], defenders=a["defenders"], supply=a.get("supply"))
    res = r.get("result", {})
    outs = res.get("outcomes", [])
    good = (r.get("ok") and res.get("legal") and outs and all(o["of"] == outs[0]["of"] for o in outs) and
            sum(o["chances"] for o in outs) == outs[0]["of"] and all(o["result"] for o in outs))
    stats["odds_good" if good else "odds_bad"] = stats.get("odds_good" if good else "odds_bad", 0) + 1
    if not good and stats["odds_bad"] == 1:
        print("     (odds of an offered battle: %s)" % r)


def check_act(r, stats, kind):
    if r.get("ok"):
        stats[kind] = stats.get(kind, 0) + 1
        for e in r["result"]["events"]:
            stats["ev:" + e["event"]] = stats.get("ev:" + e["event"], 0) + 1
            if e["event"] == "battle_resolved" and e.get("result") and e["text"].endswith(": " + e["result"]):
                stats["resolved_with_cell"] = stats.get("resolved_with_cell", 0) + 1
    else:
        stats["refused"] = stats.get("refused", 0) + 1
        if stats["refused"] == 1:
            print("     (an action offered was refused: %s)" % r.get("error"))


table1 = open(TABLE).read()
table2 = table1.replace("name TEST TABLE", "name SECOND TEST TABLE").replace(
    "roll 3      AL50%    AL50%    -      DR2     HX ", "roll 3      AL50%    AL50%    -      DR2     EX ")
assert table2 != table1 and "SECOND" in table2
t2 = os.path.join(work, "crt-second.txt")
open(t2, "w").write(table2)
position = json.loads(subprocess.run([SCENARIO, "--dump", POSITION_SCN], capture_output=True, check=True).stdout)
check(position["ruleset"] == "updated", "the position is of the Updated ruleset")

# --- 1 ---
akd, port = start_akd(TABLE)
alice, bob = login(port, "alice"), login(port, "bob")
hello = alice.ok("hello")
updated = [r for r in hello["rulesets"] if r["name"] == "updated"]
check(updated and updated[0]["available"], "hello: the updated ruleset is available with a table")
facts = {r["name"]: r for r in hello["rulesets"]}
check(facts["updated"]["move_phases"] == ["movement", "mech"] and facts["classic"]["move_phases"] == ["movement"] and
      facts["updated"]["end_phase_in"] == ["combat", "mech", "supply"] and facts["classic"]["end_phase_in"] == [] and
      facts["updated"]["last_phase"] == "replacement" and facts["classic"]["last_phase"] == "combat" and
      facts["classic"]["battle_supply"] == "sustain" and facts["updated"]["battle_supply"] == "bombard" and
      facts["updated"]["strength_unit"] == "half_point" and facts["classic"]["attacks_obligatory"] and
      not facts["updated"]["attacks_obligatory"] and "cancel" in facts["classic"]["actions"] and
      "cancel" not in facts["updated"]["actions"] and "end_phase" in facts["updated"]["actions"],
      "hello: each ruleset's facts for clients, from its table (phases, moves, the turn's end, supply in battle, "
      "strength, obligatory attacks, actions)")
lobby_game = alice.ok("new", side="axis", ruleset="updated")["game"]
bob.ok("join", game=lobby_game)
g = alice.ok("show", game=lobby_game)
check(g["ruleset"] == "updated" and g["state"]["ruleset"] == "updated", "a game of the updated ruleset from the lobby")
check(g.get("crt_table") == table1, "... its full form carries the table it is fought on")
digest1 = hashlib.blake2b(table1.encode(), digest_size=32).hexdigest()
listed = [x for x in alice.ok("games")["games"] if x["game"] == lobby_game]
check(listed and listed[0].get("crt_digest") == digest1 and g.get("crt_digest") == digest1,
      "... and its summary names it from the start by its BLAKE2b-256 digest (crt_digest)")
pos_game = alice.ok("new", side="axis", ruleset="updated", opponent="bob", position=position)["game"]
bob.ok("join", game=pos_game)
# akc play on a game of the variant: its verbs in help and completion, not the 1964 ones it lacks
akc_env = dict(os.environ, XDG_CONFIG_HOME=work, XDG_STATE_HOME=work, AKC_PASSWORD="password-alice")
subprocess.run([AKC, "--server", "127.0.0.1:%d" % port, "login", "alice"], env=akc_env, capture_output=True)
helped = subprocess.run([AKC, "--server", "127.0.0.1:%d" % port, "play", str(lobby_game)], input="help\nquit\n",
                        env=akc_env, capture_output=True, text=True, timeout=30).stdout
check("losses REDUCE ELIMINATE" in helped and "fortify UNITS SU" in helped and "embark UNITS" not in helped
      and "exchange UNITS" not in helped, "akc play's help lists the variant's verbs, not the 1964 ones it lacks")
conns = {"axis": alice, "allied": bob}
# a tournament of the variant, created now, started later without a table
# the admin role goes to an existing account (issue 27): granted on the
# database once alice has registered
check(subprocess.run([AKD, "--db", DB, "--admin-add", "alice"], stdout=subprocess.DEVNULL).returncode == 0,
      "akd --admin-add gives alice the admin role")
cup = alice.ok("admin", op="tournament_create", name="desert cup", kind="round_robin", ruleset="updated")["tournament"]
alice.ok("tournament", op="join", tournament=cup)
bob.ok("tournament", op="join", tournament=cup)

# an undo of a move of the movement phase
s = alice.ok("show", game=pos_game)["state"]
before = s["actions"]
r = alice.call("act", game=pos_game, action={"action": "move", "units": ["15pz8"], "to": "N39"}, nonce="ab" * 16)
check(r.get("ok"), "15pz8 moves O39 to N39 (%s)" % r.get("error"))
r = alice.call("undo", game=pos_game)
after = alice.ok("show", game=pos_game)["state"]
check(r.get("ok") and after["actions"] == before and after["units"]["15pz8"]["hex"] == "O39",
      "undo takes the move back (%s)" % r.get("error"))

# The opening battle, then random play: new position games until the
# dice give a loss to assign (most results of the 1-1 column do).
stats = {}
for attempt in range(8):
    if attempt:
        pos_game = alice.ok("new", side="axis", ruleset="updated", opponent="bob", position=position)["game"]
        bob.ok("join", game=pos_game)
    for a in [{"action": "end_movement"}, {"action": "supply_attacks", "units": ["gsup1"]},
              {"action": "battle", "attackers": ["15pz8", "21pz104", "21pz5"], "defenders": ["1arm2", "2arm3"]},
              {"action": "resolve", "battle": 1}]:
        r = alice.call("act", game=pos_game, action=a, nonce="%032x" % rng.getrandbits(128))
        check_act(r, stats, a["action"])
    s = play(conns, pos_game, 12, stats)
    if stats.get("losses"):
        break
    print("     (game %d: no loss to assign in its first battle; another game)" % pos_game)
s = play(conns, pos_game, 240, stats)
print("     (%s)" % ", ".join("%s %d" % kv for kv in sorted(stats.items())))
check(stats.get("refused", 0) == 0, "every action offered by options or dests was accepted")
check(stats.get("battle", 0) > 0 and stats.get("resolve", 0) > 0, "battles were declared and fought")
check(stats.get("odds_good", 0) > 0 and not stats.get("odds_bad"),
      "odds of each battle before it was declared: legal, every result of the die with its chance, adding up to "
      "the die's faces (%d good, %d not)" % (stats.get("odds_good", 0), stats.get("odds_bad", 0)))
check(stats.get("supply_attacks", 0) > 0, "supply units were spent on attacks")
check(stats.get("losses", 0) > 0, "losses were assigned through akd")
check(stats.get("resolved_with_cell", 0) == stats.get("ev:battle_resolved", -1),
      "every battle_resolved event names the table's cell (%d of %d)" % (stats.get("resolved_with_cell", 0),
                                                                      stats.get("ev:battle_resolved", 0)))
check(stats.get("end_phase", 0) > 0 and stats.get("end_turn", 0) > 0, "phases and turns ended")
mid = alice.ok("show", game=pos_game)
db = sqlite3.connect(DB)
snap = db.execute("SELECT count(*) FROM snapshots WHERE game_id = ?", (pos_game,)).fetchone()[0]
check(snap == 1, "a snapshot of the game is stored")
stop_akd(akd)

def players(table):
    """akd started on table (None: no updated_crt), the two players logged in."""
    p, port = start_akd(table)
    a, b = login(port, "alice"), login(port, "bob")
    return p, a, b, {"axis": a, "allied": b}


# --- 2 ---
akd, alice, bob, conns = players(t2)
again = alice.ok("show", game=pos_game)
check(again.get("crt_table") == table1, "after a restart with another table, the game keeps the one it began on")
check(json.dumps(again["state"], sort_keys=True) == json.dumps(mid["state"], sort_keys=True),
      "... and its state is the one before the restart")
newer = alice.ok("new", side="axis", ruleset="updated")["game"]
check(alice.ok("show", game=newer).get("crt_table") == table2, "a new game gets the new table")
s = play(conns, pos_game, 60, stats)
check(stats.get("refused", 0) == 0, "play goes on on the old table")
rows = db.execute("SELECT count(*) FROM crt_tables").fetchone()[0]
check(rows == 2, "the database holds each table once (%d)" % rows)
digests = {d for (d,) in db.execute("SELECT crt_digest FROM games WHERE ruleset = 'updated'")}
check(len(digests) == 2 and "" not in digests, "every game of the variant names its table")
stop_akd(akd)

# --- 3 ---
akd, alice, bob, conns = players(None)
kept = alice.ok("show", game=pos_game)
check(kept.get("crt_table") == table1, "without updated_crt, the games of the variant still load on their tables")
s = play(conns, pos_game, 40, stats)
check(stats.get("refused", 0) == 0, "... and play on")
r = alice.call("new", side="axis", ruleset="updated")
check(not r.get("ok") and r["error"]["code"] == "ruleset_unavailable", "... but a new one is refused, saying why")
alice.ok("admin", op="tournament_start", tournament=cup)
paired = alice.ok("tournament", op="show", tournament=cup)["games"]
for _ in range(50):     # the pairing is stored with the next commit
    shown = alice.call("show", game=paired[0]["game"]) if paired else {}
    if shown.get("ok"):
        break
    time.sleep(0.1)
check(len(paired) == 1 and shown.get("ok") and shown["result"].get("crt_table") == table1,
      "a tournament of the variant pairs its games on the table it was created with, even once akd has none")

# --- 4 ---
# The random play above may have ended the game already (the dice come from
# akd's secret, different on every run): resign only a game still running.
if waiting(alice.ok("show", game=pos_game)["state"]) is not None:
    alice.ok("act", game=pos_game, action={"action": "resign"})
rec = alice.ok("record", game=pos_game)
check(rec.get("crt_table") == table1 and rec.get("dice_secret"), "the finished game's record carries its table")
files = {}
for name, r in [("good", rec), ("no-table", {k: v for k, v in rec.items() if k != "crt_table"}),
                ("classic", dict(rec, ruleset="classic")), ("swapped", dict(rec, crt_table=table2))]:
    files[name] = os.path.join(work, name + ".json")
    json.dump(r, open(files[name], "w"))


def verify(f):
    p = subprocess.run([AKC, "verify", "--file", f], capture_output=True, text=True,
                       env=dict(os.environ, XDG_CONFIG_HOME=work, XDG_STATE_HOME=work))
    return p.returncode, p.stdout + p.stderr


rc, out = verify(files["good"])
check(rc == 0 and "verified" in out and digest1[:16] in out,
      "akc verify --file replays the Updated game, every roll, and names its table's digest: %s" % out.strip()[:160])
rc, out = verify(files["no-table"])
check(rc != 0 and "no combat results table" in out, "a record without its table is refused: %s" % out.strip()[:160])
rc, out = verify(files["swapped"])
check(rc != 0 and "not the one its crt_digest names" in out,
      "a record whose table was swapped for another is refused by its digest: %s" % out.strip()[:160])
rc, out = verify(files["classic"])
check(rc != 0 and "has none" in out, "a record with a table and another ruleset is refused: %s" % out.strip()[:160])
stop_akd(akd)

with open(os.path.join(work, "akd.log")) as f:
    log = f.read()
check("ERROR: " not in log and "runtime error" not in log, "no sanitizer report in akd's log")
print("%d FAILED (the files are in %s)" % (failed, work) if failed else "all passed")
if not failed:
    shutil.rmtree(work)
sys.exit(1 if failed else 0)
