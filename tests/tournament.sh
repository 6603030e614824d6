#!/bin/bash
# Integration: tournaments (issue 15). A 4-player round robin run to its
# standings with one game adjudicated, as an operator would (docs/
# operations.md), then a 3-player Swiss with a bye and a game forfeited on
# time that pairs its second round by itself; who may do what.
# usage: tournament.sh AKD AKC
set -u
AKD=$1 AKC=$2
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
start_akd main --db "$dir/akd.sqlite3" --clock-tick-ms 100
for u in alice bob carol dave erin; do
    AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1 || bad "register $u"
done
# the admin role goes to an existing account (issue 27)
"$AKD" --db "$dir/akd.sqlite3" --admin-add alice >/dev/null || bad "akd --admin-add alice"
# field FILE PYTHON-EXPR: evaluate an expression over the JSON document j in FILE
field() { python3 -c "import json,sys; j=json.load(open('$1')); print($2)"; }

# --- who may ---
as bob admin tournament-create "Bob Cup" round_robin >"$dir/notadmin.out" 2>&1; rc=$?
check "only an admin creates a tournament" "[ $rc = 1 ] && grep -q 'does not have the admin role' '$dir/notadmin.out'"
as alice admin tournament-create "Club" knockout >"$dir/kind.out" 2>&1; rc=$?
check "the kind is round_robin or swiss (usage, exit 2)" "[ $rc = 2 ]"
as alice admin tournament-create "Club" round_robin colour=red >"$dir/word.out" 2>&1; rc=$?
check "an unknown setting is refused before anything is sent" "[ $rc = 2 ] && grep -q \"'colour=red' is not\" '$dir/word.out'"

# --- a 4-player round robin ---
as alice admin tournament-create "Winter Club" round_robin starts=+1d time=3d rated >"$dir/create.out" 2>&1
expect create 'tournament 1 created: Winter Club (round_robin); players join with: akc tournament join 1'
as alice admin tournament-create "winter club" swiss >"$dir/dup.out" 2>&1; rc=$?
check "tournament names are unique (any case)" "[ $rc = 1 ] && grep -q 'called winter club already' '$dir/dup.out'"
for u in bob carol dave erin; do as $u tournament join 1 >"$dir/join-$u.out" 2>&1; done
expect join-erin 'you are in tournament Winter Club (4 players so far)'
as bob tournament join 1 >"$dir/join-again.out" 2>&1; rc=$?
check "joining twice is refused" "[ $rc = 1 ] && grep -q 'already' '$dir/join-again.out'"
as bob tournament list >"$dir/list.out" 2>&1
expect list '^1 *Winter Club *round_robin open *4 players *classic *rated, 3d per action, one game a pair; starts'
as bob admin tournament-start 1 >"$dir/start-bob.out" 2>&1; rc=$?
check "only an admin starts it early" "[ $rc = 1 ]"
# durable before acknowledged (issue 28): with the store failing, the start
# is answered with an error, and neither the tournament nor a game of it
# is left behind; once the store works again it starts
sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" \
    "CREATE TRIGGER no_pairing BEFORE INSERT ON tournament_games BEGIN SELECT RAISE(ABORT, 'disk full'); END;"
games_before=$(sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" "SELECT count(*) FROM games")
as alice admin tournament-start 1 >"$dir/start-fail.out" 2>&1; rc=$?
sleep 0.3
as bob --json tournament show 1 >"$dir/rr-fail.json" 2>&1
check "a start the store could not take is an error, not ok" "[ $rc != 0 ] && grep -q 'could not store' '$dir/start-fail.out'"
check "... the tournament is still open, with no game" \
    "[ \$(field '$dir/rr-fail.json' 'j[\"status\"]') = open ] && [ \$(field '$dir/rr-fail.json' 'len(j[\"games\"])') = 0 ] && [ \$(sqlite3 -cmd '.timeout 5000' '$dir/akd.sqlite3' 'SELECT count(*) FROM games') = $games_before ]"
as carol games >"$dir/games-fail.out" 2>&1
check "... and its players have no game of it in memory either" "grep -qi '^no games yet' '$dir/games-fail.out'"
check "... nor an audit row for it" "[ \$(sqlite3 '$dir/akd.sqlite3' \"SELECT count(*) FROM admin_actions WHERE op = 'tournament_start'\") = 0 ]"
sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" "DROP TRIGGER no_pairing;"
as alice admin tournament-start 1 >"$dir/start.out" 2>&1
expect start 'tournament Winter Club started with 4 players'
sleep 0.3
as alice tournament join 1 >"$dir/late.out" 2>&1; rc=$?
check "nobody joins once it has started" "[ $rc = 1 ] && grep -q 'joining is over' '$dir/late.out'"
as bob --json tournament show 1 >"$dir/rr.json" 2>&1
check "6 games, every pair once, in 3 rounds" \
    "[ \$(field '$dir/rr.json' 'len(j[\"games\"])') = 6 ] && [ \$(field '$dir/rr.json' 'len(set(frozenset((g[\"axis\"],g[\"allied\"])) for g in j[\"games\"]))') = 6 ] && [ \"\$(field '$dir/rr.json' 'sorted(set(g[\"round\"] for g in j[\"games\"]))')\" = '[1, 2, 3]' ]"
check "each player plays three games, at most two of them on one side" \
    "[ \$(field '$dir/rr.json' 'max(max(sum(g[\"axis\"]==p for g in j[\"games\"]), sum(g[\"allied\"]==p for g in j[\"games\"])) for p in \"bob carol dave erin\".split())') -le 2 ]"
games=$(field "$dir/rr.json" '" ".join("%d:%s:%s" % (g["game"], g["axis"], g["allied"]) for g in j["games"])')
first=${games%% *}; g1=${first%%:*}; rest=${first#*:}; ax1=${rest%%:*}; al1=${rest#*:}
as "$al1" abort "$g1" >"$dir/abort.out" 2>&1; rc=$?
check "a player cannot abort a tournament game" "[ $rc = 1 ] && grep -q 'tournament pairing' '$dir/abort.out'"
as "$ax1" games >"$dir/ax-games.out" 2>&1
check "the pairing is in the Axis player's games, his move, the clock running" "grep -q \"$g1\" '$dir/ax-games.out'"
# game 1 adjudicated (a draw); in the others the Allied player resigns,
# except the last, where the Axis player does
n=0
for x in $games; do
    g=${x%%:*}; rest=${x#*:}; ax=${rest%%:*}; al=${rest#*:}
    n=$((n + 1))
    if [ $n = 1 ]; then
        as alice admin adjudicate "$g" draw both players agreed >"$dir/adj.out" 2>&1
    elif [ $n = 6 ]; then
        as "$ax" resign "$g" >/dev/null 2>&1
    else
        as "$al" resign "$g" >/dev/null 2>&1
    fi
done
sleep 0.3
expect adj "game $g1 adjudicated: a draw"
as bob --json tournament show 1 >"$dir/rr2.json" 2>&1
as bob tournament show 1 >"$dir/rr2.out" 2>&1
check "the tournament is finished when its last game ends" "[ \$(field '$dir/rr2.json' 'j[\"status\"]') = finished ]"
# expected points from the games themselves
exp=$(python3 - "$dir/rr2.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
pts = {s["user"]: 0.0 for s in j["standings"]}
for g in j["games"]:
    if g["result"] == "axis_wins": pts[g["axis"]] += 1
    elif g["result"] == "allied_wins": pts[g["allied"]] += 1
    else: pts[g["axis"]] += 0.5; pts[g["allied"]] += 0.5
print(" ".join("%s=%.1f" % (u, pts[u]) for u in sorted(pts)))
EOF
)
got=$(field "$dir/rr2.json" '" ".join("%s=%.1f" % (s["user"], s["points"]) for s in sorted(j["standings"], key=lambda s: s["user"]))')
check "standings: points from the results ($got)" "[ '$got' = '$exp' ]"
check "the points add up to 6 (one per game)" "[ \$(field '$dir/rr2.json' 'sum(s[\"points\"] for s in j[\"standings\"])') = 6.0 ]"
check "standings are sorted by points, then Sonneborn-Berger" \
    "field '$dir/rr2.json' 'all((a[\"points\"],a[\"sonneborn_berger\"]) >= (b[\"points\"],b[\"sonneborn_berger\"]) for a,b in zip(j[\"standings\"], j[\"standings\"][1:]))' | grep -q True"
sb=$(python3 - "$dir/rr2.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
pts = {s["user"]: s["points"] for s in j["standings"]}
sb = {u: 0.0 for u in pts}
for g in j["games"]:
    a, b = g["axis"], g["allied"]
    if g["result"] == "axis_wins": sb[a] += pts[b]
    elif g["result"] == "allied_wins": sb[b] += pts[a]
    else: sb[a] += pts[b] / 2; sb[b] += pts[a] / 2
print(all(abs(s["sonneborn_berger"] - sb[s["user"]]) < 1e-9 for s in j["standings"]))
EOF
)
check "Sonneborn-Berger is the beaten opponents' points plus half the drawn ones'" "[ '$sb' = True ]"
check "the adjudicated game shows as a draw by adjudication" "grep -q \"game $g1 .*drawn (adjudication)\" '$dir/rr2.out'"
check "akc tournament show prints the table" "grep -q '^  1  ' '$dir/rr2.out' && grep -q 'points  S-B' '$dir/rr2.out'"
as bob player bob >"$dir/rated.out" 2>&1
check "the rated tournament's games moved the ratings" "grep -q 'rated games' '$dir/rated.out'"
check "the audit has the tournament's creation and start" \
    "[ \$(sqlite3 '$dir/akd.sqlite3' \"SELECT count(*) FROM admin_actions WHERE op LIKE 'tournament_%'\") = 2 ]"

# --- a 3-player Swiss: a bye, a forfeit on time, round 2 paired by itself ---
as alice admin tournament-create "Quick Swiss" swiss rounds=2 starts=+1d time=2s >/dev/null 2>&1
for u in bob carol dave; do as $u tournament join 2 >/dev/null 2>&1; done
as alice admin tournament-start 2 >/dev/null 2>&1
sleep 0.3
as bob --json tournament show 2 >"$dir/sw1.json" 2>&1
check "round 1: one game and a bye" "[ \$(field '$dir/sw1.json' 'len(j[\"games\"])') = 1 ] && [ \$(field '$dir/sw1.json' 'sum(s[\"byes\"] for s in j[\"standings\"])') = 1 ]"
check "... the bye is listed with its round" "[ \$(field '$dir/sw1.json' 'len([b for b in j[\"byes\"] if b[\"round\"] == 1])') = 1 ]"
bye1=$(field "$dir/sw1.json" '[s["user"] for s in j["standings"] if s["byes"]][0]')
sleep 3     # nobody moves: the Axis player loses on time
as bob --json tournament show 2 >"$dir/sw2.json" 2>&1
check "the forfeit on time counts as such" "[ \$(field '$dir/sw2.json' 'sum(s[\"forfeits\"] for s in j[\"standings\"])') -ge 1 ]"
check "round 2 was paired when round 1 ended" "[ \$(field '$dir/sw2.json' 'j[\"round\"]') = 2 ] && [ \$(field '$dir/sw2.json' 'len(j[\"games\"])') = 2 ]"
check "... and the bye went to another player ($bye1 had it)" \
    "[ \$(field '$dir/sw2.json' 'sum(s[\"byes\"] for s in j[\"standings\"])') = 2 ] && [ \$(field '$dir/sw2.json' '[s[\"byes\"] for s in j[\"standings\"] if s[\"user\"] == \"$bye1\"][0]') = 1 ]"
check "... without a rematch" "[ \$(field '$dir/sw2.json' 'len(set(frozenset((g[\"axis\"],g[\"allied\"])) for g in j[\"games\"]))') = 2 ]"
sleep 3
as bob --json tournament show 2 >"$dir/sw3.json" 2>&1
as bob tournament show 2 >"$dir/sw3.out" 2>&1
check "after its last round the Swiss is finished" "[ \$(field '$dir/sw3.json' 'j[\"status\"]') = finished ]"
check "forfeits show in the games list" "grep -q 'forfeit' '$dir/sw3.out'"
check "points: each round one game and a bye, each worth one: 4 in all" \
    "[ \$(field '$dir/sw3.json' 'sum(s[\"points\"] for s in j[\"standings\"])') = 4.0 ]"
# --- a 4-player Swiss with the rounds left to akd (2), whose games all
# end in the same tick (forfeits): each round is paired once, no rematch ---
as alice admin tournament-create "Blitz" swiss starts=+1d time=2s >/dev/null 2>&1
for u in bob carol dave erin; do as $u tournament join 3 >/dev/null 2>&1; done
as alice admin tournament-start 3 >"$dir/bl-start.out" 2>&1
sleep 0.3
as bob --json tournament show 3 >"$dir/bl1.json" 2>&1
check "a Swiss without rounds= plays enough for a winner (2 for 4 players), stored" "[ \$(field '$dir/bl1.json' 'j[\"rounds\"]') = 2 ]"
check "right after its start, its pairings show and nobody has a bye" \
    "[ \$(field '$dir/bl1.json' 'len(j[\"games\"])') = 2 ] && [ \$(field '$dir/bl1.json' 'sum(s[\"byes\"] for s in j[\"standings\"])') = 0 ]"
for _ in $(seq 80); do     # nobody moves: every game is lost on time, round by round
    as bob --json tournament show 3 >"$dir/bl3.json" 2>&1
    [ "$(field "$dir/bl3.json" 'j["status"]')" = finished ] && break
    sleep 0.1
done
check "both games of a round lost on time in one tick: the next round is paired all the same (2 games a round)" \
    "[ \$(field '$dir/bl3.json' 'len(j[\"games\"])') = 4 ] && [ \"\$(field '$dir/bl3.json' 'sorted(g[\"round\"] for g in j[\"games\"])')\" = '[1, 1, 2, 2]' ]"
check "... without a rematch" "[ \$(field '$dir/bl3.json' 'len(set(frozenset((g[\"axis\"],g[\"allied\"])) for g in j[\"games\"]))') = 4 ]"
check "after round 2 it is finished, 4 games, 4 points, 4 forfeits" \
    "[ \$(field '$dir/bl3.json' 'j[\"status\"]') = finished ] && [ \$(field '$dir/bl3.json' 'sum(s[\"points\"] for s in j[\"standings\"])') = 4.0 ] && [ \$(field '$dir/bl3.json' 'sum(s[\"forfeits\"] for s in j[\"standings\"])') = 4 ]"

# --- an aborted Swiss pairing counts for nobody and gives no bye ---
as alice admin tournament-create "Aborts" swiss rounds=1 starts=+1d >/dev/null 2>&1
for u in bob carol; do as $u tournament join 4 >/dev/null 2>&1; done
as alice admin tournament-start 4 >/dev/null 2>&1
sleep 0.3
ab=$(as bob --json tournament show 4 | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"][0]["game"])')
as alice admin abort "$ab" >/dev/null 2>&1
sleep 0.3
as bob --json tournament show 4 >"$dir/ab.json" 2>&1
check "an aborted pairing is listed as aborted, scores nothing, gives no bye; the tournament is over" \
    "[ \$(field '$dir/ab.json' 'j[\"games\"][0][\"status\"]') = aborted ] && [ \$(field '$dir/ab.json' 'sum(s[\"points\"] + s[\"byes\"] for s in j[\"standings\"])') = 0.0 ] && [ \$(field '$dir/ab.json' 'j[\"status\"]') = finished ]"

# --- both sides: every pair twice, sides swapped ---
as alice admin tournament-create "Return Match" round_robin both_sides starts=+1d >/dev/null 2>&1
for u in bob carol erin; do as $u tournament join 5 >/dev/null 2>&1; done
as alice admin tournament-start 5 >/dev/null 2>&1
sleep 0.3
as bob --json tournament show 5 >"$dir/bs.json" 2>&1
check "both_sides: 6 games for 3 players, each pair once on each side" \
    "[ \$(field '$dir/bs.json' 'len(j[\"games\"])') = 6 ] && [ \$(field '$dir/bs.json' 'len(set((g[\"axis\"],g[\"allied\"]) for g in j[\"games\"]))') = 6 ]"
check "... each player twice Axis, twice Allied" \
    "field '$dir/bs.json' 'all(sum(g[\"axis\"]==p for g in j[\"games\"]) == 2 for p in (\"bob\",\"carol\",\"erin\"))' | grep -q True"
as bob tournament show 99 >"$dir/none.out" 2>&1; rc=$?
check "an unknown tournament: no_such_tournament" "[ $rc = 1 ] && grep -q 'no tournament 99' '$dir/none.out'"
# --- corrections (issue 33): a player withdraws before the start; an
# admin removes a player, edits the terms, cancels (games called off or
# played out) and the name is free again; all audited ---
as alice admin tournament-create "Spring Cup" swiss rounds=2 starts=+2d >"$dir/sc.out" 2>&1
sc=$(sed -n 's/^tournament \([0-9]*\) created.*/\1/p' "$dir/sc.out")
for u in bob carol erin; do as $u tournament join "$sc" >/dev/null 2>&1; done
as erin tournament withdraw "$sc" >"$dir/wd.out" 2>&1
expect wd 'you have left tournament Spring Cup'
as erin tournament withdraw "$sc" >"$dir/wd2.out" 2>&1; rc=$?
check "withdrawing twice is refused (exit $rc)" "[ $rc = 1 ] && grep -q 'or erin is not in it' '$dir/wd2.out'"
as bob admin tournament-remove "$sc" carol >"$dir/rm-notadmin.out" 2>&1; rc=$?
check "only an admin removes a player (exit $rc)" "[ $rc = 1 ] && grep -q 'admin role' '$dir/rm-notadmin.out'"
as alice admin tournament-remove "$sc" carol >"$dir/rm.out" 2>&1
expect rm "tournament $sc: removed carol"
as alice admin tournament-edit "$sc" name="Spring Open" rounds=3 time=2d per=turn starts=+3d >"$dir/ed.out" 2>&1
expect ed "tournament $sc: corrected, now called Spring Open"
as bob --json tournament show "$sc" >"$dir/ed.json" 2>&1
check "the edit shows: name, rounds, time control, one player left (bob)" \
    "[ \"\$(field '$dir/ed.json' 'j[\"name\"], j[\"rounds\"], j[\"time_control\"][\"seconds\"], j[\"time_control\"][\"per\"], j[\"players\"]')\" = 'Spring Open 3 172800 turn 1' ]"
as alice admin tournament-edit "$sc" name="Return Match" >"$dir/ed-dup.out" 2>&1; rc=$?
check "a name another tournament has is refused (exit $rc)" "[ $rc = 1 ] && grep -q 'called Return Match already' '$dir/ed-dup.out'"
as alice admin tournament-edit "$sc" colour=red >/dev/null 2>&1; rc=$?
check "a word tournament-edit does not know is a usage error (exit $rc)" "[ $rc = 2 ]"
as alice admin tournament-edit 5 name=Late >"$dir/ed-late.out" 2>&1; rc=$?
check "a started tournament is not edited (exit $rc)" "[ $rc = 1 ] && grep -q 'has started: it can no longer be edited' '$dir/ed-late.out'"
as alice admin tournament-cancel "$sc" >"$dir/cx.out" 2>&1
expect cx "tournament $sc cancelled (now Spring Open (cancelled $sc)); 0 unfinished games called off"
as alice admin tournament-create "Spring Open" round_robin starts=+1d >"$dir/reuse.out" 2>&1
check "a cancelled tournament's name may be used again" "grep -q 'created: Spring Open' '$dir/reuse.out'"
as erin tournament withdraw 5 >"$dir/wd5.out" 2>&1
sleep 0.3
as bob --json tournament show 5 >"$dir/wd5.json" 2>&1
check "after the start a player who withdraws resigns his 4 unfinished games: 4 losses, 4 points to the others" \
    "grep -q 'you resigned your 4 unfinished games of it' '$dir/wd5.out' && [ \$(field '$dir/wd5.json' '[s[\"losses\"] for s in j[\"standings\"] if s[\"user\"] == \"erin\"][0]') = 4 ] && [ \$(field '$dir/wd5.json' 'sum(s[\"points\"] for s in j[\"standings\"])') = 4.0 ]"
as erin tournament withdraw 5 >"$dir/wd5b.out" 2>&1; rc=$?
check "... and only once (exit $rc)" "[ $rc = 1 ] && grep -q 'left it already' '$dir/wd5b.out'"
as alice admin tournament-cancel 5 abort >"$dir/cx5.out" 2>&1
as bob --json tournament show 5 >"$dir/cx5.json" 2>&1
check "cancelling a running tournament with abort calls off its unfinished games (bob and carol's 2)" \
    "grep -q 'cancelled (now Return Match (cancelled 5)); 2 unfinished games called off' '$dir/cx5.out' && [ \$(field '$dir/cx5.json' 'j[\"status\"]') = cancelled ] && [ \$(field '$dir/cx5.json' 'sum(g[\"status\"] == \"aborted\" for g in j[\"games\"])') = 2 ]"
as alice admin tournament-cancel 5 >"$dir/cx5b.out" 2>&1; rc=$?
check "a cancelled tournament is not cancelled again (exit $rc)" "[ $rc = 1 ] && grep -q 'over or cancelled already' '$dir/cx5b.out'"
check "every correction is audited with the admin and the tournament" \
    "[ \"\$(sqlite3 '$dir/akd.sqlite3' \"SELECT group_concat(op, ' ') FROM (SELECT op FROM admin_actions WHERE op IN ('tournament_remove','tournament_edit','tournament_cancel') ORDER BY rowid)\")\" = 'tournament_remove tournament_edit tournament_cancel tournament_cancel' ]"
# an edit of the clock's length keeps how it is counted and what happens when it runs out
as alice admin tournament-create "Clocks" round_robin starts=+2d time=1d per=turn expiry=wait >"$dir/ck.out" 2>&1
ck=$(sed -n 's/^tournament \([0-9]*\) created.*/\1/p' "$dir/ck.out")
as alice admin tournament-edit "$ck" time=3d >/dev/null 2>&1
as bob --json tournament show "$ck" >"$dir/ck.json" 2>&1
check "tournament-edit time=3d keeps per=turn and expiry=wait" \
    "[ \"\$(field '$dir/ck.json' 'j[\"time_control\"][\"seconds\"], j[\"time_control\"][\"per\"], j[\"time_control\"][\"on_expiry\"]')\" = '259200 turn wait' ]"
# a long name, cancelled: the new name fits (63 bytes) and ends with the words
long=$(printf 'N%.0s' $(seq 60))
as alice admin tournament-create "$long" round_robin starts=+2d >"$dir/ln.out" 2>&1
ln=$(sed -n 's/^tournament \([0-9]*\) created.*/\1/p' "$dir/ln.out")
as alice admin tournament-cancel "$ln" >"$dir/lnc.out" 2>&1
as bob --json tournament show "$ln" >"$dir/ln.json" 2>&1
check "a 60-character name cancelled becomes one of 63 bytes ending in (cancelled $ln)" \
    "field '$dir/ln.json' 'len(j[\"name\"]) == 63 and j[\"name\"].endswith(\" (cancelled $ln)\")' | grep -q True"
# a two-player Swiss whose one player withdraws is over, not stuck
as alice admin tournament-create "Duo" swiss rounds=3 starts=+1d >"$dir/duo.out" 2>&1
duo=$(sed -n 's/^tournament \([0-9]*\) created.*/\1/p' "$dir/duo.out")
for u in bob carol; do as $u tournament join "$duo" >/dev/null 2>&1; done
as alice admin tournament-start "$duo" >/dev/null 2>&1
sleep 0.3
as carol tournament withdraw "$duo" >/dev/null 2>&1
sleep 0.5
as bob --json tournament show "$duo" >"$dir/duo.json" 2>&1
check "a Swiss left with one player after a withdrawal finishes (bob 1 point, one game)" \
    "[ \$(field '$dir/duo.json' 'j[\"status\"]') = finished ] && [ \$(field '$dir/duo.json' 'len(j[\"games\"])') = 1 ]"
# a withdrawal stored without its resignations (akd stopped between the
# two commits): the next start resigns them
as alice admin tournament-create "Crash" round_robin starts=+1d >"$dir/crash.out" 2>&1
crash=$(sed -n 's/^tournament \([0-9]*\) created.*/\1/p' "$dir/crash.out")
for u in bob carol; do as $u tournament join "$crash" >/dev/null 2>&1; done
as alice admin tournament-start "$crash" >/dev/null 2>&1
sleep 0.3
kill -TERM $pid; wait $pid 2>/dev/null
sqlite3 "$dir/akd.sqlite3" "UPDATE tournament_players SET withdrawn = 1 WHERE tournament_id = $crash AND user_id = (SELECT id FROM users WHERE name = 'carol')"
start_akd again --db "$dir/akd.sqlite3" --clock-tick-ms 100
AKC_PASSWORD=password-bob as bob login bob >/dev/null 2>&1
sleep 1
as bob --json tournament show "$crash" >"$dir/crash.json" 2>&1
check "a withdrawn player's game left unresigned is resigned at the next start (carol 1 loss), and the log says so" \
    "[ \$(field '$dir/crash.json' '[s[\"losses\"] for s in j[\"standings\"] if s[\"user\"] == \"carol\"][0]') = 1 ] && grep -q 'withdrawn, resigned now' '$dir/again.log'"

finish
