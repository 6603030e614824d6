#!/bin/bash
# Integration: what an attacker on a public address tries, each refused.
# Parallel password guesses against one account (counted before hashing,
# whatever the name's case), registrations from one address, names that
# pass for options, sessions that must end (passwd, logout, expiry,
# silence), connections per account, costly queries before login, error
# texts that would not be UTF-8, store errors answered as errors, the
# notification command's environment and output, and at the end, on an
# akd at 10 requests a second: what costly queries cost of the rate, pages
# of games, and notifications queued and run four at a time; and requests
# waiting behind a login, bounded in bytes (an akd at log level debug).
# usage: abuse.sh AKD AKC
set -u
AKD=$1
AKC=$2
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"

cat >"$dir/notify" <<EOF
#!/bin/sh
echo "said by the notify command, PATH has \${#PATH} characters"
echo "\$1 \$AK_USER" >>"$dir/notify.log"
EOF
chmod +x "$dir/notify"
longpath="$(printf '/nonexistent/dir%.0s:' $(seq 20))$PATH"
PATH="$longpath" start_akd guess --db "$dir/akd.sqlite3" --login-failures 10 --login-window 600 \
    --registrations-per-address 6 --max-per-user 3 --session-idle-timeout 2 --clock-tick-ms 100 \
    --notify-command "$dir/notify"

clients=""
AKC_PASSWORD=victim-password as victim register victim >/dev/null 2>&1 || bad "register victim"
AKC_PASSWORD=other-password as other register other >/dev/null 2>&1 || bad "register other"

# --- 150 guesses at once, on 15 connections, some under another case
for c in $(seq 15); do
    {
        for i in $(seq 10); do
            name=victim; [ $((i % 2)) = 0 ] && name=VICTIM
            echo "{\"id\":$i,\"cmd\":\"login\",\"user\":\"$name\",\"password\":\"guess-$c-$i\"}"
        done
        sleep 3
    } | "$AKC" --server 127.0.0.1:$port raw >"$dir/guess-$c.out" 2>&1 &
    clients="$clients $!"
done
wait $clients
checked=$(cat "$dir"/guess-*.out | grep -c 'auth_failed')
refused=$(cat "$dir"/guess-*.out | grep -c 'too many failed logins')
check "150 parallel guesses: at most 10 checked ($checked), the rest refused ($refused)" \
    "[ $checked -le 10 ] && [ $((checked + refused)) = 150 ]"
printf '{"id":1,"cmd":"login","user":"Victim","password":"victim-password"}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/locked.out" 2>&1
check "the account stays locked under any case of its name, even for the right password" \
    "grep -q 'too many failed logins' '$dir/locked.out'"
# The guesses above came from 127.0.0.1, whose own count is locked too; so
# that only the name's count can refuse: ten wrong guesses at FOLDED from
# 127.0.0.3, then folded's right password from 127.0.0.2 (Linux routes all
# of 127/8 to the loopback).
login_from() {   # ADDRESS USER PASSWORD: one login from that address, its reply
    PYTHONPATH="$(dirname "$0")" python3 - "$port" "$@" <<'PY'
import json, sys
from akd_conn import Conn
port, addr, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
r = Conn(port, timeout=10, source=addr).request({"cmd": "login", "user": user, "password": password})
print(json.dumps(r, separators=(",", ":")))
PY
}
AKC_PASSWORD=folded-password as folded register folded >/dev/null 2>&1 || bad "register folded"
for i in $(seq 10); do login_from 127.0.0.3 FOLDED "wrong-$i" >>"$dir/folded-guesses.out" 2>&1; done
login_from 127.0.0.3 folded folded-password >"$dir/folded-3.out" 2>&1
login_from 127.0.0.2 folded folded-password >"$dir/folded.out" 2>&1
login_from 127.0.0.2 other other-password >"$dir/other-from-2.out" 2>&1
check "ten wrong guesses at FOLDED lock folded from that address (case-folded name), even for the right password" \
    "[ \$(grep -c auth_failed '$dir/folded-guesses.out') = 10 ] && grep -q 'too many failed logins' '$dir/folded-3.out'"
check "... but cannot lock its owner out: his right password from another address is taken (issue 27)" \
    "grep -q '\"ok\":true' '$dir/folded.out'"
check "... while that address may still log in to another account" "grep -q '\"ok\":true' '$dir/other-from-2.out'"

# The address is locked for logins too now: a fresh akd (the counts live
# in memory) for the rest.
kill $pid; wait $pid 2>/dev/null
PATH="$longpath" start_akd main --db "$dir/akd.sqlite3" --login-failures 10 --login-window 600 \
    --registrations-per-address 4 --max-per-user 3 --session-idle-timeout 2 --idle-timeout 2 --clock-tick-ms 100 \
    --notify-command "$dir/notify"

# --- registrations from one address, names like options
for u in r1 r2 r3 r4 r5; do
    printf '{"id":1,"cmd":"register","user":"%s","password":"password-%s"}\n' $u $u |
        "$AKC" --server 127.0.0.1:$port raw >"$dir/reg-$u.out" 2>&1
done
check "registrations per address are limited (the 5th of 4 is refused)" \
    "grep -q '\"ok\":true' '$dir/reg-r4.out' && grep -q 'within the hour' '$dir/reg-r5.out'"
printf '{"id":1,"cmd":"register","user":"-rf","password":"password-x"}\n{"id":2,"cmd":"register","user":"shorty","password":"short"}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/names.out" 2>&1
check "a name beginning with '-' is refused" "grep '\"id\":1' '$dir/names.out' | grep -q \"not beginning with '-'\""
check "a password under 8 characters is refused at registration" "grep '\"id\":2' '$dir/names.out' | grep -q '8 to 255'"

# --- sessions: passwd ends the others, logout ends its token's connections
token=$(printf '{"id":1,"cmd":"login","user":"other","password":"other-password"}\n' |
    "$AKC" --server 127.0.0.1:$port raw 2>/dev/null | sed -n 's/.*"token":"\([0-9a-f]*\)".*/\1/p')
{ printf '{"id":1,"cmd":"resume","token":"%s"}\n' "$token"; sleep 1.5; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/other-conn.out" 2>&1 &
bg=$!
sleep 0.5
printf '{"id":1,"cmd":"login","user":"other","password":"other-password"}\n{"id":2,"cmd":"passwd","password":"other-password","new_password":"other-password-2"}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/passwd.out" 2>&1
wait $bg
check "passwd answers that the other sessions ended" "grep -q 'other_sessions_ended' '$dir/passwd.out'"
check "... and another connection of the account is ended at once" \
    "grep -q 'session_ended' '$dir/other-conn.out'"
printf '{"id":1,"cmd":"resume","token":"%s"}\n' "$token" | "$AKC" --server 127.0.0.1:$port raw >"$dir/old-token.out" 2>&1
check "... and its token no longer works" "grep -q 'auth_failed' '$dir/old-token.out'"
token=$(printf '{"id":1,"cmd":"login","user":"other","password":"other-password-2"}\n' |
    "$AKC" --server 127.0.0.1:$port raw 2>/dev/null | sed -n 's/.*"token":"\([0-9a-f]*\)".*/\1/p')
{ printf '{"id":1,"cmd":"resume","token":"%s"}\n' "$token"; sleep 1.5; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/same-token.out" 2>&1 &
bg=$!
sleep 0.5
printf '{"id":1,"cmd":"resume","token":"%s"}\n{"id":2,"cmd":"logout"}\n' "$token" |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/logout.out" 2>&1
wait $bg
check "logout ends the other connections that used its token" "grep -q 'session_ended' '$dir/same-token.out'"
# A session that runs out ends the connections that use it: r1's sessions
# are made to end in three or four seconds (the store's expiry, read on
# resume).
token=$(printf '{"id":1,"cmd":"login","user":"r1","password":"password-r1"}\n' |
    "$AKC" --server 127.0.0.1:$port raw 2>/dev/null | sed -n 's/.*"token":"\([0-9a-f]*\)".*/\1/p')
sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" \
    "UPDATE sessions SET expires = strftime('%s', 'now') + 4 WHERE user_id = (SELECT id FROM users WHERE name = 'r1')"
{ printf '{"id":1,"cmd":"resume","token":"%s"}\n' "$token"
  for i in $(seq 2 14); do sleep 0.5; printf '{"id":%d,"cmd":"ping"}\n' $i; done; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/expiry.out" 2>&1
check "a session that expires ends the connection that uses it, pings or not" \
    "grep -q '\"id\":1,\"ok\":true' '$dir/expiry.out' && grep -q 'the session expired' '$dir/expiry.out' &&
     ! grep -q '\"id\":14,' '$dir/expiry.out'"
check "... and akd logs it" "grep -q \"r1's session from .* expired\" '$dir/main.log'"
printf '{"id":1,"cmd":"login","user":"other","password":"other-password-2"}\n{"id":2,"cmd":"passwd","password":"other-password-2","new_password":"other-password-3"}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/passwd-own.out" 2>&1
own=$(sed -n 's/.*"id":1,.*"token":"\([0-9a-f]*\)".*/\1/p' "$dir/passwd-own.out")
printf '{"id":1,"cmd":"resume","token":"%s"}\n' "$own" | "$AKC" --server 127.0.0.1:$port raw >"$dir/own-token.out" 2>&1
check "passwd ends the session it was sent on too, and gives a new token" \
    "grep -q 'auth_failed' '$dir/own-token.out' && grep '\"id\":2' '$dir/passwd-own.out' | grep -q '\"token\":\"[0-9a-f]\{64\}\"'"

# --- silence and pings; connections per account
{ printf '{"id":1,"cmd":"login","user":"r1","password":"password-r1"}\n{"id":2,"cmd":"logout"}\n'; sleep 3.5; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/loggedout.out" 2>&1
check "a connection that logged out has idle_timeout to log in again" \
    "grep -q '\"id\":2,\"ok\":true' '$dir/loggedout.out' && grep -q 'no login in time' '$dir/loggedout.out'"
{ printf '{"id":1,"cmd":"login","user":"r1","password":"password-r1"}\n'; sleep 3.5; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/silent.out" 2>&1
check "a logged-in connection that says nothing is closed (session_idle_timeout)" \
    "grep -q 'idle_timeout' '$dir/silent.out'"
{ printf '{"id":1,"cmd":"login","user":"r2","password":"password-r2"}\n'
  for i in 2 3 4 5 6 7; do sleep 0.5; printf '{"id":%d,"cmd":"ping"}\n' $i; done; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/pinging.out" 2>&1
check "pings keep it open" "! grep -q 'idle_timeout' '$dir/pinging.out' && grep -q '\"id\":7,\"ok\":true' '$dir/pinging.out'"
clients=""
for i in 1 2 3 4; do
    # each stays logged in (pinging) long enough for all four logins, slow hashes and all
    { printf '{"id":1,"cmd":"login","user":"r3","password":"password-r3"}\n'
      for k in 2 3 4 5 6 7 8; do sleep 0.5; printf '{"id":%d,"cmd":"ping"}\n' $k; done; } |
        "$AKC" --server 127.0.0.1:$port raw >"$dir/peruser-$i.out" 2>&1 &
    clients="$clients $!"
    sleep 0.2
done
wait $clients
check "connections per account are capped (the 4th of 3 is refused)" \
    "[ \$(cat '$dir'/peruser-*.out | grep -c 'already has 3 connections') = 1 ]"

# --- costly queries need a login (record and replay, a spectator's, are
# within replays_per_second instead: budget.py); error texts stay UTF-8
printf '{"id":1,"cmd":"dests","game":1,"units":["21pz5"]}\n{"id":2,"cmd":"options","game":1}\n{"id":3,"cmd":"games"}\n{"id":4,"cmd":"odds","game":1}\n{"id":5,"cmd":"why","game":1,"action":{"type":"end_phase"}}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/costly.out" 2>&1
check "dests, options, games, odds and why need a login" "[ \$(grep -c 'not_logged_in' '$dir/costly.out') = 5 ]"
printf '{"id":1,"cmd":"\xff\xfe"}\n{"id":2,"cmd":"hello","x":"\xc3"}\n{"id":3,"cmd":"hello"}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/utf8.out" 2>&1
check "lines that are not UTF-8 each get a reply" "[ \$(grep -c '\"ok\":' '$dir/utf8.out') = 3 ]"
check "... which is valid UTF-8" "iconv -f UTF-8 -t UTF-8 '$dir/utf8.out' >/dev/null"

# --- replies keep the order of requests, refusals too: a login waits for
# its hash while the requests behind it go over the rate (found by fuzzing)
{ printf '{"id":1,"cmd":"login","user":"r2","password":"password-r2"}\n'
  for i in $(seq 2 700); do printf '{"id":%d,"cmd":"ping"}\n' $i; done; sleep 2; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/order.out" 2>&1
check "700 pipelined requests behind a login: 700 replies, in order, some refused" \
    "[ \$(grep -c '\"ok\":' '$dir/order.out') = 700 ] && grep -q rate_limited '$dir/order.out' &&
     sed -n 's/^{\"id\":\\([0-9]*\\).*/\\1/p' '$dir/order.out' | sort -c -n"

# --- the notification command: akd's environment whole, output logged
AKC_PASSWORD=password-r4 as r4 login r4 >/dev/null 2>&1
game=$(as r4 --opponent r2 new axis 2>&1 | sed -n 's/.*created game \([0-9]*\).*/\1/p')
sleep 0.5
check "the notify command ran for the challenge" "grep -q 'challenge r2' '$dir/notify.log'"
check "it got akd's whole PATH (${#longpath} characters)" \
    "grep -q 'said by the notify command, PATH has ${#longpath} characters' '$dir/main.log'"

# --- store errors: answered as errors, nothing changed
sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" \
    "CREATE TRIGGER no_abort BEFORE UPDATE OF status ON games BEGIN SELECT RAISE(ABORT, 'injected'); END;
     CREATE TRIGGER no_logout BEFORE DELETE ON sessions BEGIN SELECT RAISE(ABORT, 'injected'); END;"
as r4 abort "$game" >"$dir/abort.out" 2>&1
check "abort with the store failing: an error, not ok" "[ \$? != 0 ] && grep -q 'could not store' '$dir/abort.out'"
as r4 games >"$dir/after-abort.out" 2>&1
check "... and the game is still listed" "grep -q \"^$game \" '$dir/after-abort.out'"
AKC_PASSWORD=password-r2 as r2 login r2 >/dev/null 2>&1
as r2 decline "$game" >"$dir/decline.out" 2>&1
check "decline with the store failing: an error, not ok" "[ \$? != 0 ] && grep -q 'could not store' '$dir/decline.out'"
as r4 logout >"$dir/logout-fail.out" 2>&1
check "logout with the store failing: an error saying the session is still valid" \
    "grep -q 'still valid' '$dir/logout-fail.out'"
sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" \
    "CREATE TRIGGER no_passwd BEFORE UPDATE OF pwhash ON users BEGIN SELECT RAISE(ABORT, 'injected'); END;"
printf '{"id":1,"cmd":"login","user":"r2","password":"password-r2"}\n{"id":2,"cmd":"passwd","password":"password-r2","new_password":"password-r2-new"}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/passwd-fail.out" 2>&1
check "passwd with the store failing: an error saying the old password still holds" \
    "grep '\"id\":2' '$dir/passwd-fail.out' | grep -q 'the old password still holds'"
printf '{"id":1,"cmd":"login","user":"r2","password":"password-r2"}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/passwd-old.out" 2>&1
check "... and it does: the old password logs in" "grep -q '\"token\"' '$dir/passwd-old.out'"
sqlite3 -cmd ".timeout 5000" "$dir/akd.sqlite3" "DROP TRIGGER no_abort; DROP TRIGGER no_logout; DROP TRIGGER no_passwd;"
as r4 abort "$game" >"$dir/abort2.out" 2>&1
expect abort2 "aborted"
old_hash=$(sqlite3 "$dir/akd.sqlite3" "SELECT pwhash FROM users WHERE name = 'r2'")
printf '{"id":1,"cmd":"login","user":"r2","password":"password-r2"}\n{"id":2,"cmd":"passwd","password":"password-r2","new_password":"password-r2-new"}\n' |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/passwd-ok.out" 2>&1
new_hash=$(sqlite3 "$dir/akd.sqlite3" "SELECT pwhash FROM users WHERE name = 'r2'")
check "passwd answered once stored: the new password is in the database when it is answered" \
    "grep '\"id\":2' '$dir/passwd-ok.out' | grep -q other_sessions_ended && [ '$new_hash' != '$old_hash' ]"

# Last: it locks the address out of logins for the window.
{ printf '{"id":1,"cmd":"login","user":"other","password":"other-password-3"}\n'
  for i in $(seq 2 14); do printf '{"id":%d,"cmd":"passwd","password":"wrong-%d","new_password":"whatever-123"}\n' $i $i; done
  sleep 1; } | "$AKC" --server 127.0.0.1:$port raw >"$dir/passwd-guess.out" 2>&1
check "wrong current passwords count as login guesses (the 11th is refused)" \
    "[ \$(grep -c 'the current password is wrong' '$dir/passwd-guess.out') -le 10 ] && grep -q 'too many failed logins' '$dir/passwd-guess.out'"
check "akd is still up" "kill -0 $pid"

# --- a last akd at 10 requests a second, with a notify command that takes
# a second: the costs of queries, pages of games, notifications queued
kill $pid; wait $pid 2>/dev/null
cat >"$dir/slow-notify" <<EOF
#!/bin/sh
echo "start \$(date +%s.%N) \$1 \$AK_USER count=\$AK_COUNT" >>"$dir/slow.log"
sleep 1
echo "end \$(date +%s.%N)" >>"$dir/slow.log"
EOF
chmod +x "$dir/slow-notify"
start_akd limits --db "$dir/akd.sqlite3" --rate 10 --notify-command "$dir/slow-notify"
{ printf '{"id":1,"cmd":"login","user":"r3","password":"password-r3"}\n'
  for i in 2 3 4 5 6 7; do printf '{"id":%d,"cmd":"record","game":1}\n' $i; done; sleep 1; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/cost-record.out" 2>&1
{ printf '{"id":1,"cmd":"login","user":"r3","password":"password-r3"}\n'
  for i in 2 3 4 5 6 7; do printf '{"id":%d,"cmd":"ping"}\n' $i; done; sleep 1; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/cost-ping.out" 2>&1
check "a record costs 10 of the rate: of six sent at once at 10 a second (bursts of 20), at most two run" \
    "[ \$(grep -c '\"id\":[2-7],\"ok\":false.*rate_limited' '$dir/cost-record.out') -ge 4 ]"
check "... where six pings all run" "[ \$(grep -c '\"id\":[2-7],\"ok\":true' '$dir/cost-ping.out') = 6 ]"
kill $pid; wait $pid 2>/dev/null
# Requests waiting behind a login are bounded in bytes, not only in number
# (64): ten pings of 60 KB each behind r3's login stop akd reading at the
# fifth (256 KiB), and every one is answered in the end.
start_akd bytes --db "$dir/akd.sqlite3" --log-level debug
python3 - "$port" >"$dir/bytes.out" 2>&1 <<'PY'
import json, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
lines = [json.dumps({"id": 1, "cmd": "login", "user": "r3", "password": "password-r3"})]
lines += [json.dumps({"id": i, "cmd": "ping", "pad": "x" * 60000}) for i in range(2, 12)]
s.sendall(("\n".join(lines) + "\n").encode())
buf = b""
while buf.count(b"\n") < 11:
    data = s.recv(65536)
    if not data:
        break
    buf += data
print(sum(1 for l in buf.split(b"\n") if b'"ok":true' in l), "ok")
PY
waited=$(sed -n 's/.*: \([0-9]*\) requests (\([0-9]*\) bytes) wait.*/\1/p' "$dir/bytes.log" | head -1)
check "60 KB requests behind a login: akd stops reading at ${waited:-none} waiting (256 KiB), not 64" \
    "[ -n '$waited' ] && [ '$waited' -le 6 ]"
check "... and answers all eleven in the end" "grep -q '^11 ok' '$dir/bytes.out'"
kill $pid; wait $pid 2>/dev/null
start_akd limits2 --db "$dir/akd.sqlite3" --rate 10 --notify-command "$dir/slow-notify"
AKC_PASSWORD=password-r4 as r4 login r4 >/dev/null 2>&1
clients=""
for i in 1 2 3 4 5 6 7 8; do
    as r4 --opponent r2 new axis >"$dir/challenge-$i.out" 2>&1 &
    clients="$clients $!"
done
wait $clients
settle() {      # until the notifications have all ended (waves of a second each)
    local last=-1 now
    for _ in $(seq 100); do
        now=$(grep -c '^end' "$dir/slow.log" 2>/dev/null)
        [ "$now" = "$last" ] && [ "$now" = "$(grep -c '^start' "$dir/slow.log")" ] && return
        last=$now
        sleep 0.7
    done
}
settle
runs=$(grep -c '^start' "$dir/slow.log")
check "eight challenges to one player at once: coalesced into $runs runs, not eight, saying how many (issue 28)" \
    "[ $runs -ge 1 ] && [ $runs -lt 8 ] && grep -q 'count=[2-8]' '$dir/slow.log'"
clients=""
for u in r1 r3 victim other r2; do
    as r4 --opponent $u new axis >"$dir/challenge-$u.out" 2>&1 &
    clients="$clients $!"
done
wait $clients
settle
max=$(LC_ALL=C sort -k2,2g "$dir/slow.log" | awk '$1 == "start" { n++; if (n > m) m = n } $1 == "end" { n-- } END { print m + 0 }')
check "five challenges to five players at once: all run ($(($(grep -c '^end' "$dir/slow.log") - runs))), at most 4 at a time ($max)" \
    "[ \$((\$(grep -c '^end' '$dir/slow.log') - $runs)) = 5 ] && [ $max -le 4 ] && [ $max -ge 2 ]"
PYTHONPATH="$(dirname "$0")" python3 - "$port" >"$dir/pages.out" 2>&1 <<'PY'
import sys
from akd_conn import Conn
c = Conn(int(sys.argv[1]), timeout=10)
c.ok("login", user="r4", password="password-r4")
first = c.ok("games", limit=2)
last = c.ok("games", limit=2, offset=first["total"] - 1)
print("first", len(first["games"]), first["more"], first["total"], "last", len(last["games"]), last["more"])
PY
check "games pages its answer: 2 of $(awk '{print $4}' "$dir/pages.out") first, then the last alone ($(cat "$dir/pages.out"))" \
    "grep -q '^first 2 True [0-9]* last 1 False$' '$dir/pages.out' && [ \$(awk '{print \$4}' '$dir/pages.out') -ge 8 ]"
check "akd is still up" "kill -0 $pid"
finish
