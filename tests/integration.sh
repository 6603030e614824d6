#!/bin/bash
# Integration: start akd on a free port with a temporary database, drive two
# `akc raw` sessions through register, new game, join, a legal move (seen by
# the other player as a pushed diff), an illegal move (rejected with its
# rule) and protocol abuse; kill akd with SIGKILL, restart it on the same
# database and find the game unchanged; then one-shot akc commands, a
# spectator who sees every push in order, and a player resuming with his
# token after losing his connection.
# usage: integration.sh AKD AKC
set -u
AKD=$1
AKC=$2
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"

start_akd akd --db "$dir/akd.sqlite3" --max-line 4096

# Player one registers and opens a game as the Axis.
raw alice <<'IN'
{"id":1,"cmd":"register","user":"alice","password":"desert-fox"}
{"id":2,"cmd":"new","side":"axis"}
IN
expect alice '"id":1,"ok":true'
expect alice '"id":2,"ok":true.*"game":1'
token=$(sed -n 's/.*"token":"\([0-9a-f]*\)".*/\1/p' "$dir/alice.out")

# Player two joins and keeps watching while player one moves.
mkfifo "$dir/bob.in"
raw bob <"$dir/bob.in" &
bobpid=$!
exec 3>"$dir/bob.in"
echo '{"id":1,"cmd":"register","user":"bob","password":"eighth-army"}' >&3
echo '{"id":2,"cmd":"join","game":1}' >&3
for _ in $(seq 100); do grep -q '"id":2' "$dir/bob.out" && break; sleep 0.1; done
expect bob '"id":2,"ok":true.*"you":"allied"'


raw alice2 <<IN
{"id":1,"cmd":"resume","token":"$token"}
{"id":2,"cmd":"act","game":1,"action":{"action":"move","units":["21pz5"],"to":"W14"}}
{"id":3,"cmd":"act","game":1,"action":{"action":"move","units":["trenta"],"to":"W20"}}
{"id":4,"cmd":"act","game":1,"action":{"action":"move","units":["9ainf20"],"to":"H25"}}
{"id":5,"cmd":"act","game":1,"action":{"action":"move","units":["ariete"],"to":"A1"}}
{"id":6,"cmd":"act","game":1,"action":"move"}
{"id":7,"cmd":"fly"}
{"id":8,"cmd":"act","game":"one"}
not json at all
{"id":9,"cmd":"games"}
IN
expect alice2 '"id":1,"ok":true'
expect alice2 '"id":2,"ok":true.*21pz5 moved W6 to W14'
expect alice2 '"id":3,"ok":false.*"code":"illegal".*"rule":"MOVE-2"'
expect alice2 '"id":4,"ok":false.*"rule":"MOVE-1"'
expect alice2 '"id":5,"ok":false.*"rule":"MOVE-8"'
expect alice2 '"id":6,"ok":false.*"code":"bad_action"'
expect alice2 '"id":7,"ok":false.*"code":"unknown_command"'
expect alice2 '"id":8,"ok":false.*"code":"bad_request"'
expect alice2 '"id":null,"ok":false.*"code":"bad_json"'
expect alice2 '"id":9,"ok":true.*"seq":1'

# Bob saw the move as a JSON Patch of the state with its events, and the
# action itself (a move list grows from the pushes).
for _ in $(seq 50); do grep -q '"push":"game"' "$dir/bob.out" && break; sleep 0.1; done
expect bob '"push":"game","game":1,"seq":1,"by":"axis","action":{"action":"move","units":\["21pz5"\],"to":"W14"},"patch":\[.*"path":"/units/21pz5/hex","value":"W14"'
# ... with the deadline and the dangers of the new state, so that no
# watcher asks for the whole game after each action (PROTOCOL.md, Pushes)
expect bob '"push":"game","game":1,"seq":1,.*"deadline":null,"hazards":\[{"kind":"[a-z_]*","rule":"[A-Z]'
expect bob '"text":"21pz5 moved W6 to W14'

# Bob may not move in the Axis turn.
echo '{"id":3,"cmd":"act","game":1,"action":{"action":"move","units":["9ainf20"],"to":"H25"}}' >&3
for _ in $(seq 50); do grep -q '"id":3' "$dir/bob.out" && break; sleep 0.1; done
expect bob '"id":3,"ok":false.*"rule":"PLAY-1"'
exec 3>&-
wait $bobpid

# An over-long line gets an error and the connection is closed.
{ printf '{"id":1,"cmd":"hello","pad":"'; head -c 5000 /dev/zero | tr '\0' x; printf '"}\n'; } | raw long
expect long '"code":"line_too_long"'

# Junk of every shape gets one error reply per line and the server stays up.
{
    cmds=(hello rules register login resume logout games new join decline abort watch show act dests why options record undo ladder passwd nosuch)
    vals=('1' '"x"' 'null' 'true' '[]' '{}' '-1' '99999999999999999999' '"W6"' '["21pz5"]' '{"action":"battle","attackers":5}' '{"action":"retreat","units":["trenta"],"path":["A1"]}' '{"action":"resolve","battle":41}' '"\u00e9\u4e2d"' '[[[[[[[[]]]]]]]]')
    keys=(game user password token side action units to unit at battle opponent time_control position)
    for i in $(seq 300); do
        line="{\"id\":$i,\"cmd\":\"${cmds[RANDOM % ${#cmds[@]}]}\""
        for _ in 1 2 3; do line="$line,\"${keys[RANDOM % ${#keys[@]}]}\":${vals[RANDOM % ${#vals[@]}]}"; done
        echo "$line}"
        [ $((i % 50)) = 0 ] && printf '%s\n' '{"id":' '{{{{' 'null' '"just a string"'
    done
    echo '{"id":"last","cmd":"hello"}'
} | raw junk
# (the last may be over the rate limit by then: answered all the same)
expect junk '"id":"last","ok":\(true\|false,"error":{"code":"rate_limited"\)'
# 300 requests, 24 broken lines, the last hello: one reply each
check "every junk line got exactly one reply" "[ \$(grep -c '\"ok\":' '$dir/junk.out') = 325 ]"

# Clients that hang up without reading their replies: writing to a socket
# the peer has reset must not kill akd (SIGPIPE).
for _ in $(seq 20); do
    exec 5<>/dev/tcp/127.0.0.1/$port
    for _ in $(seq 50); do echo '{"id":1,"cmd":"show","game":1}'; done >&5
    exec 5>&-
done
# (akd may still be answering the last of them: wait until it answers us)
for _ in $(seq 50); do
    echo '{"id":1,"cmd":"hello"}' | raw ping
    grep -q '"ok":true' "$dir/ping.out" && break
    sleep 0.2
done
check "akd survives clients that hang up without reading" "kill -0 $pid"

# SIGKILL, restart, and the game is as it was.
before=$(echo '{"id":1,"cmd":"show","game":1}' | "$AKC" --server 127.0.0.1:$port raw | sed 's/"your_turn":[a-z]*//')
kill -9 $pid; wait $pid 2>/dev/null
start_akd akd --db "$dir/akd.sqlite3" --max-line 4096
after=$(echo '{"id":1,"cmd":"show","game":1}' | "$AKC" --server 127.0.0.1:$port raw | sed 's/"your_turn":[a-z]*//')
if [ -n "$before" ] && [ "$before" = "$after" ]; then ok "game unchanged after SIGKILL and restart"; else bad "game changed after restart"; echo "$before"; echo "$after"; fi
echo "$after" | grep -q '"21pz5":{"where":"board","hex":"W14"' && ok "the acknowledged move survived" || bad "the move was lost"

# A spectator (not logged in) watches the rest of the game.
mkfifo "$dir/spec.in"
raw spec <"$dir/spec.in" 3>&- &
specpid=$!
exec 4>"$dir/spec.in"
echo '{"id":1,"cmd":"watch","game":1}' >&4
for _ in $(seq 50); do grep -q '"id":1' "$dir/spec.out" && break; sleep 0.1; done
before_spec=$(sed -n 's/.*"seq":\([0-9]*\).*/\1/p' "$dir/spec.out" | head -1)

# One-shot akc commands for the rest of Alice's turn: the legal actions as
# akc commands, a battle out of sequence, the end of both portions.
export XDG_CONFIG_HOME="$dir/cfg" XDG_STATE_HOME="$dir/state" AKC_SERVER=127.0.0.1:$port
AKC_PASSWORD=desert-fox "$AKC" login alice >/dev/null 2>&1
"$AKC" end-movement 1 >"$dir/early.out" 2>&1
expect early 'STACK-1'
# Nothing but moves is open: options says why, with the rule.
"$AKC" --json options 1 >"$dir/opts0.out" 2>&1
expect opts0 '"none_because":"only moves are possible (ask `dests`): the movement portion cannot end yet: W6 holds'
for m in savena:W8 bologna:W9 brescia:X8 pavia:X9 trenta:W10; do
    "$AKC" move 1 "${m%%:*}" "${m##*:}" >/dev/null 2>&1 || bad "akc move ${m%%:*} ${m##*:}"
done
"$AKC" options 1 >"$dir/options.out" 2>&1
expect options 'akc end-movement 1'
expect options 'waits for the Axis player'
# Bob plays in the game but is not awaited: none of the Axis player's
# actions are offered to him, and he is told whom the game waits for.
XDG_CONFIG_HOME="$dir/cfg-bob" XDG_STATE_HOME="$dir/state-bob" AKC_PASSWORD=eighth-army "$AKC" login bob >/dev/null 2>&1
XDG_CONFIG_HOME="$dir/cfg-bob" XDG_STATE_HOME="$dir/state-bob" "$AKC" options 1 >"$dir/options-bob.out" 2>&1
expect options-bob 'nothing for you: the game waits for the Axis player, not for you'
grep -q 'akc end-movement' "$dir/options-bob.out" && bad "the Axis player's actions are offered to Bob" ||
    ok "the Axis player's actions are not offered to Bob"
"$AKC" battle 1 21pz5 7arm7 >"$dir/battle.out" 2>&1; rc=$?
[ $rc = 1 ] && ok "akc battle during movement exits 1" || bad "akc battle exit status $rc"
expect battle 'illegal: .*PLAY-2'
"$AKC" battle 1 >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "akc battle with missing arguments exits 2" || bad "akc battle usage exit $rc"
# Words a careful user notices: which action is out of turn, the
# candidates of an ambiguous name.
expect battle 'declaring a battle is not possible now (movement portion)'
"$AKC" move 1 f W5 >"$dir/ambig.out" 2>&1
expect ambig "ambiguous unit name 'f': freefrinf, facists, folgere"
"$AKC" end-movement 1 >"$dir/endmove.out" 2>&1
expect endmove 'Axis combat portion begins'
"$AKC" resolve 1 1 >"$dir/resolve.out" 2>&1
expect resolve 'there is no battle 1'
"$AKC" end-turn 1 >"$dir/endturn.out" 2>&1
expect endturn 'the Allied player turn begins'
"$AKC" --no-color show 1 >"$dir/show.out" 2>&1
expect show 'Turn 1, 1 April 1941: Allied movement'
# The dangers for the player to move come under the map, and in GAME.
expect show 'Dangers for the Allied player:'
expect show '! A new supply unit is due and not yet placed'
"$AKC" --server 127.0.0.1:$port raw <<<'{"id":1,"cmd":"show","game":1}' >"$dir/showjson.out" 2>&1
expect showjson '"hazards":\[{"kind":"supply_unplaced","rule":"LOGISTICS-M6"'

# The spectator got every action as a push, in order; it can never act.
echo '{"id":2,"cmd":"act","game":1,"action":{"action":"end_movement"}}' >&4
sleep 0.3
exec 4>&-
wait $specpid
final=$("$AKC" --server 127.0.0.1:$port raw <<<'{"id":1,"cmd":"show","game":1}' | sed -n 's/.*"seq":\([0-9]*\).*/\1/p' | head -1)
grep -o '"push":"game","game":1,"seq":[0-9]*' "$dir/spec.out" | sed 's/.*://' >"$dir/spec.seqs"
seq $((before_spec + 1)) $final >"$dir/want.seqs"
check "the spectator saw every push from $((before_spec + 1)) to $final, in order" "cmp -s '$dir/spec.seqs' '$dir/want.seqs'"
expect spec '"id":2,"ok":false.*not_logged_in'

# A player who lost his connection resumes with his token and gets the
# whole state at the current sequence number.
bobtoken=$(sed -n 's/.*"token":"\([0-9a-f]*\)".*/\1/p' "$dir/bob.out")
raw bob2 <<IN
{"id":1,"cmd":"resume","token":"$bobtoken"}
{"id":2,"cmd":"watch","game":1}
IN
expect bob2 '"id":1,"ok":true.*"user":"bob"'
expect bob2 "\"id\":2,\"ok\":true.*\"seq\":$final,.*\"you\":\"allied\""

# A well-kept command line: wrong arguments get the command's usage (before
# any connection), bad game numbers say so, unknown commands too.
"$AKC" new >"$dir/newusage.out" 2>&1; rc=$?
check "akc new without arguments exits 2 with new's usage" "[ $rc = 2 ] && grep -q 'usage:' '$dir/newusage.out' && grep -q 'new axis|allied|random' '$dir/newusage.out'"
"$AKC" show -1 >"$dir/minus1.out" 2>&1; rc=$?
check "akc show -1 says the game number is invalid (exit 2)" "[ $rc = 2 ] && grep -q \"'-1' is not a game number\" '$dir/minus1.out' && ! grep -q Accounts '$dir/minus1.out'"
"$AKC" frobnicate >"$dir/unknown.out" 2>&1; rc=$?
check "an unknown command is named (exit 2)" "[ $rc = 2 ] && grep -q \"unknown command 'frobnicate'\" '$dir/unknown.out'"
"$AKC" move 1 21pz5 >"$dir/moveusage.out" 2>&1; rc=$?
check "akc move with too few words exits 2 with move's usage" "[ $rc = 2 ] && grep -q 'move GAME UNITS HEX' '$dir/moveusage.out'"
"$AKC" new bogus >"$dir/newbogus.out" 2>&1; rc=$?
check "akc new bogus: the side is axis, allied or random (exit 2, nothing sent)" "[ $rc = 2 ] && grep -q 'the side is axis, allied or random' '$dir/newbogus.out'"
"$AKC" new axis --time >"$dir/notime.out" 2>&1; rc=$?
check "an option without its value is named as such (exit 2)" "[ $rc = 2 ] && grep -q -- '--time needs a value' '$dir/notime.out'"
"$AKC" new axis --per turn >"$dir/perwithout.out" 2>&1; rc=$?
check "--per without --time is refused (exit 2)" "[ $rc = 2 ] && grep -q 'go with --time' '$dir/perwithout.out'"
"$AKC" --server '[::1' games >"$dir/badserver.out" 2>&1; rc=$?
check "a malformed --server is bad usage (exit 2), not a failed connection" "[ $rc = 2 ] && grep -q 'is not HOST' '$dir/badserver.out'"
"$AKC" --server 127.0.0.1:99999 games >"$dir/badport.out" 2>&1; rc=$?
check "a port past 65535 is refused (exit 2)" "[ $rc = 2 ]"
"$AKC" --json units 21pz5 >"$dir/unitsjson.out" 2>&1
check "--json units prints one JSON document" "[ \$(wc -l <'$dir/unitsjson.out') = 1 ] && grep -q '^\[{\"unit\":\"21pz5\"' '$dir/unitsjson.out'"
"$AKC" --json new >"$dir/newjson.out" 2>/dev/null
check "--json with wrong arguments still prints one JSON document" "[ \$(wc -l <'$dir/newjson.out') = 1 ] && grep -q '\"code\":\"usage\"' '$dir/newjson.out'"
"$AKC" units 21pz >"$dir/units.out" 2>&1
check "akc units 21pz lists the three 21st Panzer units" "[ \$(wc -l <'$dir/units.out') = 3 ]"
"$AKC" verify --file /nonexistent >"$dir/vnofile.out" 2>&1
check "verify --file of a missing file names it, without a line -1" "grep -q '/nonexistent' '$dir/vnofile.out' && ! grep -q 'line -1' '$dir/vnofile.out'"
"$AKC" verify 1 >"$dir/vrunning.out" 2>&1; rc=$?
check "verify of a running game: cannot be verified until it is over (exit 4)" "[ $rc = 4 ] && grep -q 'cannot be verified until it is over' '$dir/vrunning.out'"
"$AKC" ladder >"$dir/ladder0.out" 2>&1
expect ladder0 'no rated game has been played yet'
"$AKC" logout >"$dir/logout.out" 2>&1
expect logout "logged out of 127.0.0.1:$port as alice"

# The session is state ($XDG_STATE_HOME/akc/session), a profile keeps its
# own, the config file names the server, and a session an older akc left
# with the configuration is moved.
AKC_PASSWORD=password-dora "$AKC" --profile dora register dora >"$dir/dora.out" 2>&1
check "a profile keeps its session apart (session.dora)" "[ -s '$XDG_STATE_HOME/akc/session.dora' ] && [ ! -e '$XDG_STATE_HOME/akc/session' ]"
mkdir -p "$XDG_CONFIG_HOME/akc"
printf '# test\n[profile dora]\nserver = 127.0.0.1:%s\ncolor = never\n' "$port" >"$XDG_CONFIG_HOME/akc/config"
env -u AKC_SERVER "$AKC" --profile dora games >"$dir/dora-games.out" 2>&1; rc=$?
check "the config's profile names the server (no AKC_SERVER)" "[ $rc = 0 ]"
printf 'server = 127.0.0.1:1\nsevrer = x\n' >"$XDG_CONFIG_HOME/akc/config"
"$AKC" games >"$dir/badcfg.out" 2>&1; rc=$?
check "a config file with an unknown key stops akc naming file and line (exit 2)" "[ $rc = 2 ] && grep -q 'config:2: sevrer: unknown key' '$dir/badcfg.out'"
rm "$XDG_CONFIG_HOME/akc/config"
"$AKC" --profile 'a b' games >"$dir/badprofile.out" 2>&1; rc=$?
check "a bad profile name is refused (exit 2)" "[ $rc = 2 ] && grep -q 'not a profile name' '$dir/badprofile.out'"
cp "$XDG_STATE_HOME/akc/session.dora" "$XDG_CONFIG_HOME/akc/session"
"$AKC" games >"$dir/moved.out" 2>&1
check "a session left in the config directory is moved to the state directory" "[ ! -e '$XDG_CONFIG_HOME/akc/session' ] && [ -s '$XDG_STATE_HOME/akc/session' ]"

# One version: meson.build, both binaries and both man pages.
src=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n "s/^  version : '\(.*\)',/\1/p" "$src/meson.build")
check "akc, akd and their man pages give meson.build's version ($version)" \
    "[ -n '$version' ] && '$AKC' --version | grep -qx 'akc $version\\( (commit [^)]*)\\)\\?' && '$AKD' --version | grep -qx 'akd $version\\( (commit [^)]*)\\)\\?' && grep -q '\"akc $version\"' '$src/man/akc.1' && grep -q '\"akd $version\"' '$src/man/akd.8'"
check "a LICENSE file matches meson.build's license" "grep -q \"license : 'MIT'\" '$src/meson.build' && grep -q '^MIT License' '$src/LICENSE'"

# SIGTERM shuts down cleanly with status 0.
kill -TERM $pid; wait $pid; rc=$?
[ $rc = 0 ] && ok "SIGTERM exits 0" || bad "SIGTERM exit status $rc"

# akd --check: the database as akd left it passes; a copy with an action
# of its log damaged, a damaged file and a missing one do not.
"$AKD" --check "$dir/akd.sqlite3" >"$dir/check.out" 2>&1; rc=$?
check "akd --check of the database passes (exit 0)" "[ $rc = 0 ] && grep -q 'all checks passed' '$dir/check.out' && grep -q 'replayed from their first action' '$dir/check.out'"
cp "$dir/akd.sqlite3" "$dir/tampered.sqlite3"
sqlite3 "$dir/tampered.sqlite3" "UPDATE actions SET action = '{\"action\":\"bogus\"}' WHERE game_id = 1 AND seq = 3;"
"$AKD" --check "$dir/tampered.sqlite3" >"$dir/check2.out" 2>&1; rc=$?
check "akd --check finds a game whose log does not replay (exit 1)" "[ $rc = 1 ] && grep -q 'PROBLEMS FOUND' '$dir/check2.out' && grep -q 'cannot be read' '$dir/check2.out'"
head -c 100 "$dir/akd.sqlite3" >"$dir/cut.sqlite3"
head -c 20000 /dev/urandom >>"$dir/cut.sqlite3"
"$AKD" --check "$dir/cut.sqlite3" >"$dir/check3.out" 2>&1; rc=$?
check "akd --check of a damaged file says so (exit 1 or 2)" "[ $rc = 1 ] || [ $rc = 2 ]"
"$AKD" --check "$dir/none.sqlite3" >"$dir/check4.out" 2>&1; rc=$?
check "akd --check of a missing file exits 2" "[ $rc = 2 ] && grep -q 'no such readable file' '$dir/check4.out'"

# A client that asks for the whole state thousands of times and never reads
# an answer: past max_output_anonymous (1 MiB) of unread output akd closes
# its connection (and only it) instead of holding the output in memory
# without end.
start_akd unread --db "$dir/akd.sqlite3" --rate 0
exec 5<>/dev/tcp/127.0.0.1/$port
# akd may close the socket in the middle of a batch: a write then fails
# (EPIPE) instead of the signal ending this script
trap '' PIPE
for _ in $(seq 40); do
    for _ in $(seq 100); do echo '{"id":1,"cmd":"show","game":1}'; done >&5 2>/dev/null || break
    grep -q "does not read" "$dir/unread.log" && break
done
for _ in $(seq 100); do grep -q "does not read" "$dir/unread.log" && break; sleep 0.1; done
check "a client that never reads is closed after 1 MiB" "grep -q 'does not read what it is sent (.* its limit is 1048576: max_output_anonymous); closing' '$dir/unread.log'"
exec 5>&-
trap - PIPE
echo '{"id":1,"cmd":"hello"}' | raw afterunread
expect afterunread '"id":1,"ok":true'
kill -TERM $pid; wait $pid

# akc raw waits for every reply due, however slow the server (a login's
# hash on a loaded machine took more than the 2 s raw once gave up after,
# losing replies without a word), and says so when the server hangs up on
# replies due. A server of its own: "slow" answers the first line after
# 3 s and stays 10 s more; "hangup" closes after the first line; "long"
# answers the first line at once and writes down its length.
fake_server() {   # MODE READYFILE: the port goes in READYFILE
    python3 - "$1" "$2" <<'PY' &
import socket, sys, time
srv = socket.socket()
srv.bind(("127.0.0.1", 0)); srv.listen(1); srv.settimeout(30)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(srv.getsockname()[1]))
import os; os.rename(sys.argv[2] + ".tmp", sys.argv[2])
conn, _ = srv.accept(); conn.settimeout(30); data = b""
while b"\n" not in data:
    chunk = conn.recv(100)
    if not chunk:
        sys.exit(0)
    data += chunk
if sys.argv[1] == "slow":
    time.sleep(3)
    conn.sendall(b'{"id":1,"ok":true,"result":{"slow":true}}\n')
    time.sleep(10)
elif sys.argv[1] == "long":
    with open(sys.argv[2] + ".got", "w") as f:
        f.write(str(data.index(b"\n") + 1))
    conn.sendall(b'{"id":null,"ok":false,"error":{"code":"bad_json","message":"long"}}\n')
    time.sleep(10)
conn.close()
PY
    pids="$pids $!"
    for _ in $(seq 100); do [ -e "$2" ] && break; sleep 0.1; done
}
fake_server slow "$dir/slow.port"
started=$(date +%s)
# a line of a lone CR (akd skips it: not waited for) and a last line without its newline
printf '\r\n{"id":1,"cmd":"hello"}' |
    timeout 30 "$AKC" --server 127.0.0.1:"$(cat "$dir/slow.port")" raw >"$dir/slow.out" 2>&1; rc=$?
took=$(( $(date +%s) - started ))
check "akc raw waits 3 s for a slow reply to a last line without a newline, and not for a lone CR ($took s)" \
    "[ $rc = 0 ] && grep -q '\"slow\":true' '$dir/slow.out' && [ $took -ge 3 ] && [ $took -lt 10 ]"
fake_server hangup "$dir/hangup.port"
printf '{"id":1,"cmd":"hello"}\n' |
    timeout 30 "$AKC" --server 127.0.0.1:"$(cat "$dir/hangup.port")" raw >"$dir/hangup.out" 2>&1; rc=$?
check "akc raw reports a server that hangs up with a reply due (exit 3)" \
    "[ $rc = 3 ] && grep -q 'closed the connection with 1 reply due' '$dir/hangup.out'"
fake_server long "$dir/long.port"
{ head -c 70000 /dev/zero | tr '\0' x; printf '\r\n'; } |
    timeout 30 "$AKC" --server 127.0.0.1:"$(cat "$dir/long.port")" raw >"$dir/long.out" 2>&1; rc=$?
check "akc raw sends a line longer than its buffer whole, as one line with one reply" \
    "[ $rc = 0 ] && [ \"\$(cat '$dir/long.port.got' 2>/dev/null)\" = 70002 ] && grep -q '\"long\"' '$dir/long.out'"

finish
