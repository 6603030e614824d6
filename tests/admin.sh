#!/bin/bash
# Integration: the admin role's operations beyond lobby.sh's (issue 15):
# adjudication (an ADJUDICATE action: the record verifies, the result is
# rated, a draw too), a ban that adjudicates the banned player's games,
# password resets with a one-time token, and stats. Nobody but an admin
# can do any of it.
# usage: admin.sh AKD AKC
set -u
AKD=$1 AKC=$2
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
start_akd main --db "$dir/akd.sqlite3" --log-level debug
for u in alice bob carol dave; do
    AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1 || bad "register $u"
done
# the admin role goes to an existing account (issue 27)
"$AKD" --db "$dir/akd.sqlite3" --admin-add alice >/dev/null || bad "akd --admin-add alice"
newgame() { as "$@" --json | sed -n 's/.*"game":\([0-9]*\).*/\1/p'; }

# --- nobody else ---
for op in "adjudicate 1 axis because" "reset-password bob" "stats" "ban dave adjudicate"; do
    # shellcheck disable=SC2086
    as carol admin $op >"$dir/notadmin.out" 2>&1; rc=$?
    check "carol (no admin role) is refused admin $op (exit 1)" "[ $rc = 1 ] && grep -q 'does not have the admin role' '$dir/notadmin.out'"
done
as bob reset-password bob 0123456789abcdef0123456789abcdef </dev/null >"$dir/noreset.out" 2>&1; rc=$?
check "reset-password without a token from an admin is refused" "[ \$rc != 0 ]"

# --- adjudication ---
g=$(newgame bob new axis --opponent carol --rated)
as carol join "$g" >/dev/null 2>&1
as bob move "$g" 21pz5 W14 >/dev/null 2>&1
as alice admin adjudicate "$g" north because >"$dir/adj-bad.out" 2>&1; rc=$?
check "adjudicate wants axis, allied or draw (usage, exit 2)" "[ $rc = 2 ] && grep -q 'axis, allied or draw' '$dir/adj-bad.out'"
as alice admin adjudicate "$g" allied >"$dir/adj-noreason.out" 2>&1; rc=$?
check "adjudicate wants a reason (exit 2)" "[ $rc = 2 ]"
as alice watch "$g" >"$dir/adj-watch.out" 2>&1 &
w=$!; sleep 0.3
as alice admin adjudicate "$g" allied the Axis player left the club >"$dir/adj.out" 2>&1
expect adj "game $g adjudicated: the Allied player wins"
sleep 0.3; kill $w 2>/dev/null
check "a spectator sees the adjudication in the engine's words" "grep -q 'an operator adjudicated it to the Allied player' '$dir/adj-watch.out'"
as bob show "$g" >"$dir/adj-show.out" 2>&1
check "the game is over, won by Allied by adjudication" "grep -q -i 'allied.*adjudicat\|adjudicat.*allied' '$dir/adj-show.out'"
as bob move "$g" 21pz5 W16 >"$dir/adj-after.out" 2>&1; rc=$?
check "no action after an adjudication (exit 1)" "[ $rc = 1 ]"
as bob verify "$g" >"$dir/adj-verify.out" 2>&1; rc=$?
check "the adjudicated game's record verifies (it is an action in the log)" "[ $rc = 0 ]"
as bob record "$g" >"$dir/adj-record.json" 2>&1
check "the record holds the adjudicate action" \
    "python3 -c 'import json; r=json.load(open(\"$dir/adj-record.json\")); a=[x for x in r[\"actions\"] if x[\"action\"][\"action\"] == \"adjudicate\"]; assert a[0][\"action\"][\"result\"] == \"allied\", a'"
as alice player carol >"$dir/adj-player.out" 2>&1
check "the adjudicated rated game moved the ratings" "grep -q 'game $g .*allied .*won, rating 1500 ->' '$dir/adj-player.out'"
as alice admin adjudicate "$g" axis again >"$dir/adj-twice.out" 2>&1; rc=$?
check "a finished game cannot be adjudicated again" "[ $rc = 1 ] && grep -q 'is over' '$dir/adj-twice.out'"
open=$(newgame bob new axis)
as alice admin adjudicate "$open" axis nobody came >"$dir/adj-open.out" 2>&1; rc=$?
check "a game without an opponent is not adjudicated (abort it)" "[ $rc = 1 ] && grep -q 'has not started' '$dir/adj-open.out'"


d=$(newgame dave new axis --opponent carol --rated)
as carol join "$d" >/dev/null 2>&1
as alice admin adjudicate "$d" draw both agreed to stop >"$dir/draw.out" 2>&1
expect draw "game $d adjudicated: a draw"
as alice player dave >"$dir/draw-player.out" 2>&1
check "a draw is rated as a half for each" "grep -q 'game $d .*drawn, rating 1500 ->' '$dir/draw-player.out' && grep -q '1 drawn' '$dir/draw-player.out'"
as alice player carol >"$dir/draw-player2.out" 2>&1
check "... the Allied player's record shows the draw too" "grep -q 'game $d .*drawn, rating' '$dir/draw-player2.out'"

p=$(newgame dave new axis --opponent carol)
as carol join "$p" >/dev/null 2>&1
tok=$(sed -n 3p "$dir/state-dave/akc/session")
"$AKC" --server 127.0.0.1:$port raw >"$dir/player-adj.out" 2>&1 <<EOF
{"id":1,"cmd":"resume","token":"$tok"}
{"id":2,"cmd":"act","game":$p,"action":{"action":"adjudicate","result":"axis"}}
EOF
check "a player cannot send an adjudicate action" "grep -q 'only an admin adjudicates' '$dir/player-adj.out'"

# --- a ban that adjudicates ---
b1=$(newgame dave new axis --opponent bob)
as bob join "$b1" >/dev/null 2>&1
b2=$(newgame dave new allied)
as alice admin ban dave adjudicate >"$dir/ban.out" 2>&1
expect ban 'dave is banned: the account cannot log in or be challenged; 3 of its games ended'
as bob show "$b1" >"$dir/ban-show.out" 2>&1
check "dave's started game went to his opponent" "grep -q 'Allied won by adjudication' '$dir/ban-show.out'"
as carol show "$p" >"$dir/ban-show2.out" 2>&1
check "... each of them (carol had the other)" "grep -q 'Allied won by adjudication' '$dir/ban-show2.out'"
as bob show "$b2" >"$dir/ban-show3.out" 2>&1; rc=$?
check "his open game was called off" "grep -q -i 'aborted\|no such game\|called off' '$dir/ban-show3.out' || [ \$rc != 0 ]"
as alice admin unban dave >/dev/null 2>&1

# --- password reset ---
AKC_PASSWORD=password-bob as bob login bob >/dev/null 2>&1
btok=$(sed -n 3p "$dir/state-bob/akc/session")
{ echo "{\"id\":1,\"cmd\":\"resume\",\"token\":\"$btok\"}"; sleep 2; } | "$AKC" --server 127.0.0.1:$port raw >"$dir/reset-watch.out" 2>&1 &
bw=$!; sleep 0.3
as alice admin reset-password BOB >"$dir/reset.out" 2>&1
expect reset 'reset token for bob (valid 48 hours, once): [0-9a-f]\{32\}'
rtok=$(sed -n 's/.*once): \([0-9a-f]*\)$/\1/p' "$dir/reset.out")
check "the audit keeps that a token was issued, never the token" \
    "[ \$(sqlite3 '$dir/akd.sqlite3' \"SELECT count(*) FROM admin_actions WHERE op = 'reset_password' AND target = 'bob'\") = 1 ] && ! sqlite3 '$dir/akd.sqlite3' .dump | grep -q '$rtok'"
AKC_PASSWORD=new-password-bob as eve reset-password bob 00000000000000000000000000000000 >"$dir/reset-wrong.out" 2>&1; rc=$?
check "a wrong token is refused" "[ $rc = 1 ] && grep -q 'reset token is wrong' '$dir/reset-wrong.out'"
AKC_PASSWORD=new-password-bob as eve reset-password bob "$rtok" >"$dir/reset-ok.out" 2>&1
expect reset-ok 'password reset; every other session of bob has ended; logged in'
wait $bw 2>/dev/null
check "bob's other sessions ended, and were told why" "grep -q 'password was reset' '$dir/reset-watch.out'"
AKC_PASSWORD=new-password-bob as eve reset-password bob "$rtok" >"$dir/reset-again.out" 2>&1; rc=$?
check "the token works once" "[ $rc = 1 ] && grep -q 'wrong, used or expired' '$dir/reset-again.out'"
as alice admin reset-password dave >"$dir/reset-dave.out" 2>&1
dtok=$(sed -n 's/.*once): \([0-9a-f]*\)$/\1/p' "$dir/reset-dave.out")
as alice admin ban dave >/dev/null 2>&1
AKC_PASSWORD=new-password-dave as eve reset-password dave "$dtok" >"$dir/reset-banned.out" 2>&1; rc=$?
check "a banned account's reset is refused as banned, and changes nothing" "[ $rc = 1 ] && grep -q 'banned' '$dir/reset-banned.out'"
as alice admin unban dave >/dev/null 2>&1
AKC_PASSWORD=new-password-dave as eve reset-password dave "$dtok" >"$dir/reset-unbanned.out" 2>&1
expect reset-unbanned 'password reset'
AKC_PASSWORD=password-bob as bob login bob >"$dir/old-pw.out" 2>&1; rc=$?
check "the old password no longer logs in" "[ $rc = 1 ]"
AKC_PASSWORD=new-password-bob as bob login bob >"$dir/new-pw.out" 2>&1
expect new-pw 'logged in as bob'
# from akc still holding the account's session (it resumes it first)
as alice admin reset-password bob >"$dir/reset2.out" 2>&1
rtok2=$(sed -n 's/.*once): \([0-9a-f]*\)$/\1/p' "$dir/reset2.out")
AKC_PASSWORD=third-password-bob as bob reset-password bob "$rtok2" >"$dir/reset-own.out" 2>&1; rc=$?
check "a player still logged in resets his own password: ok, and logged in under the new session" \
    "[ $rc = 0 ] && grep -q 'password reset' '$dir/reset-own.out'"
as bob games >"$dir/after-reset.out" 2>&1; rc=$?
check "... his akc goes on with the new session" "[ $rc = 0 ]"
for i in 1 2 3 4 5 6 7 8 9 10 11; do
    AKC_PASSWORD=new-password-carol as eve reset-password carol "$(printf '%032d' $i)" >"$dir/guess.out" 2>&1
done
check "reset guesses are limited like logins" "grep -q 'too many failed logins' '$dir/guess.out'"

# --- stats ---
as alice admin stats >"$dir/stats.out" 2>&1
expect stats '^up [0-9]* s; [0-9]* connections (0 TLS), [0-9]* players logged in'
expect stats 'games: [0-9]* open, [0-9]* running (0 overdue), [0-9]* finished, [0-9]* called off'
expect stats 'actions: [0-9.]* per second over the last minute, [0-9]* since start in [0-9]* commits'
expect stats 'commit latency (last [0-9]*): p50 [0-9.]* ms, p90 [0-9.]* ms, p99 [0-9.]* ms, max [0-9.]* ms'
expect stats 'errors answered:.* not_admin 4'
as alice --json admin stats >"$dir/stats.json" 2>&1
check "stats --json is one JSON document with a latency histogram" \
    "python3 -c 'import json,sys; d=json.load(open(\"$dir/stats.json\")); assert d[\"commit_ms\"][\"histogram\"][\"+Inf\"] >= 1 and d[\"games\"][\"finished\"] >= 3'"

# --- an admin's action and its audit row: one transaction (issue 28) ---
sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" \
    "CREATE TRIGGER no_audit BEFORE INSERT ON admin_actions BEGIN SELECT RAISE(ABORT, 'injected'); END;"
as alice admin ban carol >"$dir/ban-noaudit.out" 2>&1; rc=$?
check "a ban whose audit row cannot be stored is an error" "[ \$rc != 0 ] && grep -q 'nothing changed' '$dir/ban-noaudit.out'"
check "... and carol is not banned" \
    "[ \"\$(sqlite3 '$dir/akd.sqlite3' \"SELECT banned FROM users WHERE name = 'carol'\")\" = 0 ]"
as alice admin tournament-create "Unaudited Cup" swiss >"$dir/t-noaudit.out" 2>&1; rc=$?
check "a tournament whose audit row cannot be stored is not created" \
    "[ \$rc != 0 ] && [ \"\$(sqlite3 '$dir/akd.sqlite3' \"SELECT count(*) FROM tournaments WHERE name = 'Unaudited Cup'\")\" = 0 ]"
sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" "DROP TRIGGER no_audit;"
as alice admin ban carol >/dev/null 2>&1
check "with the audit back, the ban is stored with its row" \
    "[ \"\$(sqlite3 '$dir/akd.sqlite3' \"SELECT banned FROM users WHERE name = 'carol'\")\" = 1 ] && [ \"\$(sqlite3 '$dir/akd.sqlite3' \"SELECT count(*) FROM admin_actions WHERE op = 'ban' AND target = 'carol'\")\" = 1 ]"
finish
