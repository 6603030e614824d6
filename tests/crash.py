#!/usr/bin/env python3
"""crash.py: kill akd with SIGKILL at random moments under load, restart it,
and check that nothing it acknowledged was lost.

Each cycle starts akd on the same database, and clients (one thread each)
register accounts, log in and out, create and join games (some rated), play
actions and resign, recording every operation akd answered ok. At a random
moment akd is killed with SIGKILL. Then, before the next start, the
database must pass PRAGMA integrity_check, and hold every acknowledged
account, session revocation (logout), game, seat and action (a game may
hold one action more than acknowledged: committed, the reply lost with the
process), and the rating change of every acknowledged end of a rated game.
After the restart akd must also show every acknowledged game at its
acknowledged action or later.

Beside them an organiser (an admin) creates round robins of four players
and starts them: every start answered ok must have all six of its games
stored with it, and no tournament may be running without its games, acked
or not (issue 28: a start is stored with its games before it is told).

usage: crash.py AKD POSITION.json CYCLES [SEED]   (scripts/crash-test runs it)
Prints one line per cycle and a summary; exits 1 if anything was lost.
"""
import hashlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

from akd_conn import Conn

# The installed default configuration (akd.conf) is not this test's.
os.environ["AKD_CONFIG"] = ""

AKD, POSITION, CYCLES = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
CLIENTS = 6
work = tempfile.mkdtemp(prefix="ak-crash-")
DB = os.path.join(work, "akd.sqlite3")
position = json.load(open(POSITION))

lock = threading.Lock()
acked = {"users": {}, "logouts": set(), "games": {}, "actions": {}, "rated_ends": set(), "tournaments": set()}
ORGANISER, ENTRANTS = "organiser", ["entrant%d" % i for i in range(4)]
sessions = []   # (name, token) of sessions not logged out: later cycles resume them
# users: name -> password; games: id -> (axis user, allied user);
# actions: game -> acknowledged action count


def action_at(step):
    """The load generator's round: bologna and 22gdsinf step out and back,
    then each side ends its movement portion and its turn."""
    k = step % 8
    side = 0 if k < 4 else 1
    k %= 4
    unit = ["bologna", "22gdsinf"][side]
    there = [["W7", "W6"], ["L58", "L59"]][side]
    if k < 2:
        return side, {"action": "move", "units": [unit], "to": there[k]}
    return side, {"action": "end_movement" if k == 2 else "end_turn"}


def client(port, stop, tag):
    r = random.Random(hash((tag, time.time())))
    me = []  # [name, token, conn]
    try:
        with lock:
            reuse = r.sample(sessions, min(3, len(sessions)))
        for name, token in reuse:      # no password hash to wait for
            c = Conn(port)
            if c.request({"cmd": "resume", "token": token}).get("ok"):
                me.append([name, token, c])
            else:
                c.close()
        while not stop.is_set():
            op = r.random()
            if len(me) < 2 or op < 0.05:
                name = "u%s%d" % (tag, r.randrange(10 ** 9))
                c = Conn(port)
                rep = c.request({"cmd": "register", "user": name, "password": "password-" + name})
                if rep.get("ok"):
                    with lock:
                        acked["users"][name] = "password-" + name
                        sessions.append((name, rep["result"]["token"]))
                    me.append([name, rep["result"]["token"], c])
                else:
                    c.close()
            elif op < 0.08 and len(me) > 2:
                name, token, c = me.pop(r.randrange(len(me)))
                with lock:
                    if (name, token) in sessions:
                        sessions.remove((name, token))
                rep = c.request({"cmd": "logout"})
                if rep.get("ok"):
                    with lock:
                        acked["logouts"].add(token)
                c.close()
            elif op < 0.15:
                (a, ta, ca), (b, tb, cb) = r.sample(me, 2)
                rated = r.random() < 0.5
                rep = ca.request({"cmd": "new", "side": "axis", "rated": rated, "position": position})
                if not rep.get("ok"):
                    continue
                g = rep["result"]["game"]
                rep = cb.request({"cmd": "join", "game": g})
                with lock:
                    acked["games"][g] = (a, b if rep.get("ok") else None)
                    acked["actions"].setdefault(g, 0)
                if rep.get("ok"):
                    play(g, ca, cb, r, rated)
    except (ConnectionError, OSError, ValueError):
        pass        # akd was killed


def organise(port, stop, cycle):
    """Round robins made, joined and started until akd is killed."""
    try:
        org = Conn(port)
        org.request({"cmd": "login", "user": ORGANISER, "password": "password-" + ORGANISER})
        players = []
        for name in ENTRANTS:
            c = Conn(port)
            c.request({"cmd": "login", "user": name, "password": "password-" + name})
            players.append(c)
        n = 0
        while not stop.is_set():
            n += 1
            rep = org.request({"cmd": "admin", "op": "tournament_create", "name": "cup %d-%d" % (cycle, n),
                               "kind": "round_robin"})
            if not rep.get("ok"):
                continue
            t = rep["result"]["tournament"]
            for c in players:
                c.request({"cmd": "tournament", "op": "join", "tournament": t})
            rep = org.request({"cmd": "admin", "op": "tournament_start", "tournament": t})
            if rep.get("ok"):
                with lock:
                    acked["tournaments"].add(t)
    except (ConnectionError, OSError, ValueError):
        pass        # akd was killed


def play(g, ca, cb, r, rated):
    conns = [ca, cb]
    for step in range(r.randrange(1, 40)):
        side, action = action_at(step)
        rep = conns[side].request({"cmd": "act", "game": g, "action": action})
        if not rep.get("ok"):
            return
        with lock:
            acked["actions"][g] = rep["result"]["seq"]
    if r.random() < 0.5:
        rep = ca.request({"cmd": "act", "game": g, "action": {"action": "resign"}})
        if rep.get("ok"):
            with lock:
                acked["actions"][g] = rep["result"]["seq"]
                if rated:
                    acked["rated_ends"].add(g)


def start_akd():
    log = open(os.path.join(work, "akd.log"), "a")
    for _ in range(10):     # a random port may be taken: try another
        port = 20000 + rng.randrange(30000)
        p = subprocess.Popen([AKD, "--listen", "127.0.0.1:%d" % port, "--db", DB, "--allow-positions", "1",
                              "--rate", "0", "--rate-per-address", "0", "--rate-per-user", "0", "--output-per-address", "0",
                              "--max-per-user", "0", "--max-per-address", "0",
                              "--registrations-per-address", "0", "--games-per-user", "0",
                              "--max-connections", "0", "--log-level", "warn", "--writes-per-minute", "0"],
                             stdout=subprocess.PIPE, stderr=log)
        if b"listening" in p.stdout.readline():
            return p, port
        p.wait()
    sys.exit("crash.py: akd did not start: see " + log.name)


def tamper():
    """AK_CRASH_TAMPER=1: lose an acknowledged action on purpose, to show
    that the check sees a loss (tests/crash.sh runs it once)."""
    played = [g for g, n in acked["actions"].items() if n > 0]
    if played:
        db = sqlite3.connect(DB)
        db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (played[0], acked["actions"][played[0]]))
        db.commit()
        db.close()


def verify():
    """The database after a kill, before akd opens it again."""
    lost = []
    if os.environ.get("AK_CRASH_TAMPER") == "1":
        tamper()
    db = sqlite3.connect(DB)
    ok = db.execute("PRAGMA integrity_check").fetchone()[0]
    if ok != "ok":
        lost.append("integrity_check: " + ok)
    users = {n.lower() for (n,) in db.execute("SELECT name FROM users")}
    lost += ["account " + u for u in acked["users"] if u.lower() not in users]
    sessions = {h for (h,) in db.execute("SELECT token_hash FROM sessions")}
    for t in acked["logouts"]:
        if hashlib.blake2b(t.encode(), digest_size=32).hexdigest() in sessions:
            lost.append("logout of a session")
    rows = {g: (a, b, rd) for g, a, b, rd in db.execute(
        "SELECT g.id, (SELECT name FROM users WHERE id = g.axis_user), "
        "(SELECT name FROM users WHERE id = g.allied_user), g.rated_done FROM games g")}
    seqs = dict(db.execute("SELECT game_id, max(seq) FROM actions GROUP BY game_id"))
    for g, (a, b) in acked["games"].items():
        if g not in rows:
            lost.append("game %d" % g)
            continue
        if rows[g][0] != a or (b and rows[g][1] != b):
            lost.append("a seat of game %d" % g)
        n = seqs.get(g, 0)
        if n < acked["actions"][g] or n > acked["actions"][g] + 1:
            lost.append("game %d has %d actions, %d acknowledged" % (g, n, acked["actions"][g]))
    for g in acked["rated_ends"]:
        if g in rows and rows[g][2] != 1:
            lost.append("the rating change of game %d" % g)
    paired = dict(db.execute("SELECT t.id, (SELECT count(*) FROM tournament_games g WHERE g.tournament_id = t.id) "
                             "FROM tournaments t"))
    status = dict(db.execute("SELECT id, status FROM tournaments"))
    lost += ["tournament %d, started, has %d games of 6" % (t, paired.get(t, 0))
             for t in acked["tournaments"] if paired.get(t, 0) != 6 or status.get(t) != "running"]
    lost += ["tournament %d runs without its games" % t for t, st in status.items()
             if st == "running" and paired.get(t, 0) != 6]
    db.close()
    return lost


def check_served(port):
    c = Conn(port)
    name = next(iter(acked["users"]))
    rep = c.request({"cmd": "login", "user": name, "password": acked["users"][name]})
    lost = [] if rep.get("ok") else ["login of " + name]
    for g in rng.sample(sorted(acked["games"]), min(20, len(acked["games"]))):
        rep = c.request({"cmd": "show", "game": g})
        if not rep.get("ok") or rep["result"]["seq"] < acked["actions"][g]:
            lost.append("game %d as served" % g)
    c.close()
    return lost


def register_organisers():
    """The organiser and the four entrants, registered once before the
    first cycle; the organiser is made an admin (akd --admin-add)."""
    p, port = start_akd()
    for name in [ORGANISER] + ENTRANTS:
        c = Conn(port)
        c.request({"cmd": "register", "user": name, "password": "password-" + name})
        c.close()
    p.send_signal(signal.SIGTERM)
    p.wait()
    subprocess.run([AKD, "--db", DB, "--admin-add", ORGANISER], check=True, stdout=subprocess.DEVNULL)


total_lost = 0
TAMPER = os.environ.get("AK_CRASH_TAMPER") == "1"
cycle = 0
register_organisers()
# The tamper run goes on (up to 20 cycles) until some action was
# acknowledged, so that there is one to lose even on a slow machine.
while cycle < CYCLES or (TAMPER and cycle < 20 and not any(n > 0 for n in acked["actions"].values())):
    cycle += 1
    p, port = start_akd()
    if cycle > 1:
        served = check_served(port)
        total_lost += len(served)
        for what in served:
            print("  LOST after restart:", what)
    stop = threading.Event()
    threads = [threading.Thread(target=client, args=(port, stop, "%d%d" % (cycle, i)))
               for i in range(CLIENTS)] + [threading.Thread(target=organise, args=(port, stop, cycle))]
    for t in threads:
        t.start()
    time.sleep(rng.uniform(0.3, 2.0))
    p.send_signal(signal.SIGKILL)
    p.wait()
    stop.set()
    for t in threads:
        t.join()
    lost = verify()
    total_lost += len(lost)
    print("cycle %d: %d accounts, %d logouts, %d games, %d actions, %d rated ends, %d tournament starts "
          "acknowledged so far; %d lost"
          % (cycle, len(acked["users"]), len(acked["logouts"]), len(acked["games"]),
             sum(acked["actions"].values()), len(acked["rated_ends"]), len(acked["tournaments"]), len(lost)),
          flush=True)
    for what in lost:
        print("  LOST:", what)
p, port = start_akd()
served = check_served(port)
total_lost += len(served)
p.send_signal(signal.SIGTERM)
p.wait()
print("%d passed, %d failed" % (cycle, 1 if total_lost else 0))
print("crash test: %d SIGKILL cycles, %d acknowledged things lost; integrity_check after every kill"
      % (cycle, total_lost))
subprocess.run(["rm", "-rf", work])
sys.exit(1 if total_lost else 0)
