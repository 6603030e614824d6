#!/bin/bash
# Integration: the lobby, the clock, notifications, records and limits.
# One akd (settings from a --config file) for challenges, declines, a game
# lost on time with the notification command's calls, resignation, abort,
# dice verification, passwd and login throttling, SIGHUP and SIGUSR1; a
# second akd with tight limits for connections, idle time, request rate and
# games per user.
# usage: lobby.sh AKD AKC AK-SCENARIO CAPTURE-POSITION.scn
set -u
AKD=$1
AKC=$2
SCENARIO=$3
CAPTURE=$4
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"

cat >"$dir/notify" <<EOF
#!/bin/sh
echo "\$1 game=\$AK_GAME user=\$AK_USER side=\$AK_SIDE opponent=\$AK_OPPONENT result=\$AK_RESULT" >>"$dir/notify.log"
EOF
chmod +x "$dir/notify"
cat >"$dir/akd.conf" <<EOF
# settings for the test server
db = $dir/akd.sqlite3
log_file = $dir/akd-file.log
notify_command = $dir/notify
backup_file = $dir/backup.sqlite3
clock_tick_ms = 100
keep_finished = 1
log_level = debug
login_failures = 3
login_window = 60
allow_positions = 1
admins = alice
EOF
start_akd main --config "$dir/akd.conf"
check "akd reads --config (it logs to log_file)" "grep -q listening '$dir/akd-file.log'"

for u in alice bob carol; do
    AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1 || bad "register $u"
done
# admins = alice named no account when akd started: alice, registered
# since, does not get the role from it (issue 27); akd said so at start
check "admins naming no account: akd warns at start" "grep -q 'admins names alice, which has no account' '$dir/akd-file.log'"
as alice admin overdue >"$dir/cfg-admin.out" 2>&1; rc=$?
check "... and alice, registered after, is not an admin (exit $rc)" "[ $rc = 1 ] && grep -q 'does not have the admin role' '$dir/cfg-admin.out'"
"$AKD" --db "$dir/akd.sqlite3" --admin-add alice >"$dir/admin-add.out" 2>&1
check "akd --admin-add alice grants it to her account" "grep -q 'alice now has the admin role' '$dir/admin-add.out'"

# A challenge: only the challenged player may join; a decline closes it.
as alice new random --opponent bob >"$dir/ch1.out" 2>&1
expect ch1 'bob is challenged'
expect ch1 'dice commitment: [0-9a-f]\{64\}'
as carol join 1 >"$dir/carol.out" 2>&1; rc=$?
check "a third player cannot take a challenge (exit 1)" "[ $rc = 1 ]"
expect carol 'not_invited'
# The challenge as each sees it in games: bob from alice, alice to bob;
# --open lists it for bob (a seat he may take), not for carol.
as bob games >"$dir/ch-bob.out" 2>&1
expect ch-bob '^1 .* CHALLENGE from alice$'
as alice games >"$dir/ch-alice.out" 2>&1
expect ch-alice '^1 .* challenge to bob$'
expect ch-alice 'opponent *ruleset *turn *clock *rated *status'
as bob games --open >"$dir/ch-open.out" 2>&1
expect ch-open '^1 '
as carol games --open >"$dir/ch-carol.out" 2>&1
expect ch-carol 'no games match'
as bob --json games --open >"$dir/ch-json.out" 2>&1
check "games --json --open is one document with the challenge" "[ \$(wc -l <'$dir/ch-json.out') = 1 ] && grep -q '\"challenge\":\"bob\"' '$dir/ch-json.out' || { cat '$dir/ch-json.out'; false; }"
as bob decline 1 >"$dir/decline.out" 2>&1
expect decline 'game 1 declined'
as alice games >"$dir/games1.out" 2>&1
check "a declined game leaves the lists" "! grep -q '^1 ' '$dir/games1.out'"

# A game with four seconds per action: Bob joins, Alice (Axis) does not
# move, and loses on time; the notification command is told each step.
as alice new axis --opponent bob --time 4s >/dev/null 2>&1
as bob join 2 >/dev/null 2>&1
as alice games >"$dir/games2.out" 2>&1
expect games2 'YOUR MOVE'
expect games2 '^2 *axis *bob *classic .* left (0m 4s/action) *- *YOUR MOVE'
as alice games --waiting >"$dir/games2w.out" 2>&1
expect games2w '^2 '
as bob games --waiting >"$dir/games2b.out" 2>&1
expect games2b 'no games match'
as bob show 2 --no-color >"$dir/show2.out" 2>&1
expect show2 'classic, not rated; clock: .* left (0m 4s/action); axis to move'
for _ in $(seq 100); do grep -q 'game_over game=2' "$dir/notify.log" 2>/dev/null && break; sleep 0.1; done
as bob show 2 --no-color >"$dir/timeout.out" 2>&1
expect timeout 'Allied won by time'
check "notify: challenge to bob" "grep -q 'challenge game=2 user=bob side=allied opponent=alice' '$dir/notify.log'"
check "notify: your_turn to alice" "grep -q 'your_turn game=2 user=alice side=axis' '$dir/notify.log'"
check "notify: deadline_near to alice" "grep -q 'deadline_near game=2 user=alice' '$dir/notify.log'"
check "notify: game_over to both" "[ \$(grep -c 'game_over game=2' '$dir/notify.log') = 2 ]"

# Verifiable dice: the record of the finished game replays.
as bob verify 2 >"$dir/verify.out" 2>&1; rc=$?
check "akc verify exits 0" "[ $rc = 0 ]"
expect verify 'game 2: verified'
as bob record 2 >"$dir/record2.json" 2>/dev/null
check "the record reveals the secret once the game is over" "grep -q '\"dice_secret\": \"[0-9a-f]\{64\}\"' '$dir/record2.json'"
"$AKC" verify --file "$dir/record2.json" >"$dir/vfile.out" 2>&1
expect vfile 'verified'
sed 's/"result": "allied_wins"/"result": "axis_wins"/' "$dir/record2.json" >"$dir/forged.json"
"$AKC" verify --file "$dir/forged.json" >"$dir/forged.out" 2>&1; rc=$?
check "a forged record fails verification (exit 1)" "[ $rc = 1 ]"
expect forged 'NOT VERIFIED'
sed 's/"reason": "time"/"reason": "resignation"/' "$dir/record2.json" >"$dir/forged2.json"
"$AKC" verify --file "$dir/forged2.json" >"$dir/forged2.out" 2>&1; rc=$?
check "a record whose reason was changed fails verification (exit 1)" "[ $rc = 1 ] && grep -q 'reason differs' '$dir/forged2.out'"

# Resignation, then verification; a game in progress keeps its dice secret.
as alice new allied >/dev/null 2>&1
as carol join 3 >/dev/null 2>&1
as carol move 3 21pz5 W14 >/dev/null 2>&1
as carol verify 3 >"$dir/early.out" 2>&1; rc=$?
check "verify of a game in progress exits 4" "[ $rc = 4 ]"
expect early 'cannot be verified until it is over'
as alice resign 3 >"$dir/resign.out" 2>&1
expect resign 'Axis player wins by the opponent.s resignation'
as carol verify 3 >"$dir/verify3.out" 2>&1
expect verify3 'game 3: verified'
expect verify3 '^2 action(s) replayed'

# Finished games leave memory once nobody has used them for keep_finished
# (1 s here) and come back intact when asked for.
sleep 2.5
check "a finished game leaves memory" "grep -q 'game 3 left memory' '$dir/akd-file.log'"
as alice games >"$dir/games-evicted.out" 2>&1
check "... and is still listed with its result" "grep -q '^3 .*Axis won by resignation' '$dir/games-evicted.out'"
as carol verify 3 >"$dir/verify3b.out" 2>&1
expect verify3b 'game 3: verified'
check "... and is read back when asked for" "grep -q 'game 3 read back into memory' '$dir/akd-file.log'"
as bob show 3 --no-color >"$dir/show3.out" 2>&1
expect show3 'resignation'

# A rated game: Glicko-2 from 1500 with deviation 350 for both; after one
# game the winner is at 1662 and the loser at 1338, both deviation 290 and
# still provisional; the ladder lists them, player shows the history.
as alice new axis --opponent carol --rated >"$dir/rated.out" 2>&1
rated=$(sed -n 's/created game \([0-9]*\).*/\1/p' "$dir/rated.out")
as carol join "$rated" >/dev/null 2>&1
as carol resign "$rated" >/dev/null 2>&1
as alice ladder >"$dir/ladder.out" 2>&1
expect ladder '^1 *alice *1662? *290 *1$'
expect ladder '^2 *carol *1338? *290 *1$'
as alice player carol >"$dir/player.out" 2>&1
expect player 'classic *rating 1338 provisional (RD 290), 1 rated games'
expect player 'as Axis 0 won 0 lost, as Allied 0 won 1 lost'
expect player "game $rated *classic allied against alice *lost, rating 1500 -> 1338"
as alice player nobody >"$dir/player2.out" 2>&1; rc=$?
check "player of an unknown name: no_such_user (exit 1)" "[ $rc = 1 ] && grep -q 'no player is called nobody' '$dir/player2.out'"
as alice ladder --page 2 >"$dir/ladder2.out" 2>&1
expect ladder2 'page 2 is past its end'
as alice ladder --ruleset nosuch >"$dir/ladder3.out" 2>&1; rc=$?
check "ladder of an unknown ruleset is refused (exit 1)" "[ $rc = 1 ] && grep -q 'ruleset is the name of a ruleset' '$dir/ladder3.out'"
# The Updated ruleset needs the operator's combat results table (this akd
# has none; ops.sh and updated.py start one with a table): akd says so
# instead of starting a game it could not referee.
as alice new axis --ruleset updated >"$dir/updated.out" 2>&1; rc=$?
check "new of the updated ruleset without a table: ruleset_unavailable, saying why (exit 1)" \
    "[ $rc = 1 ] && grep -q 'updated ruleset cannot be played on this server: it has no combat results table' '$dir/updated.out'"
echo '{"id":1,"cmd":"hello"}' | raw hello
check "hello lists the rulesets: classic available, updated not, saying why" \
    "grep -q '\"name\":\"classic\"[^}]*\"available\":true' '$dir/hello.out' && grep -q '\"name\":\"updated\"[^}]*\"available\":false,\"why\":\"the updated ruleset cannot be played on this server: it has no combat results table' '$dir/hello.out'"
as alice rulesets >"$dir/rulesets.out" 2>&1; rc=$?
check "akc rulesets: classic available, updated not on this server, saying why (exit $rc)" \
    "[ $rc = 0 ] && grep -q '^classic .*: available' '$dir/rulesets.out' && grep -q '^updated .*: not available (the updated ruleset cannot be played on this server: it has no combat results table' '$dir/rulesets.out'"
as alice new axis --ruleset nosuch >"$dir/nosuch.out" 2>&1; rc=$?
check "new of an unknown ruleset is refused (exit 1)" "[ $rc = 1 ] && grep -q \"unknown ruleset 'nosuch'\" '$dir/nosuch.out'"

# The admin role: alice has it (akd --admin-add), nobody else can use it.
for op in "overdue" "abort 2" "ban alice" "unban carol" "extend 2 1h"; do
    # shellcheck disable=SC2086
    as carol admin $op >"$dir/notadmin.out" 2>&1; rc=$?
    check "carol (no admin role) is refused admin $op (exit 1)" "[ $rc = 1 ] && grep -q 'does not have the admin role' '$dir/notadmin.out'"
done
slow=$(as alice --json new axis --opponent bob --time 1s --on-expiry wait | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
as bob join "$slow" >/dev/null 2>&1
sleep 1.5
as alice admin overdue >"$dir/overdue-list.out" 2>&1
expect overdue-list "^game $slow: alice (Axis) against bob (Allied), axis to move, overdue"
as alice admin extend "$slow" 1h >"$dir/extend.out" 2>&1
expect extend "game $slow: the clock is 1h 0m left"
# a seek with a clock waits for an opponent: no clock runs, none to extend
# (else its deadline would pass and end a game nobody joined)
seek_tc=$(as alice --json new allied --time 1h | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
as alice admin extend "$seek_tc" 1h >"$dir/extend-open.out" 2>&1; rc=$?
check "admin extend of an open seek is refused: no clock runs yet (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'has no clock running' '$dir/extend-open.out'"
as alice abort "$seek_tc" >/dev/null 2>&1
as alice admin overdue >"$dir/overdue-none.out" 2>&1
expect overdue-none 'no game is overdue'
as alice move "$slow" 21pz5 W14 >/dev/null 2>&1
as alice admin abort "$slow" >"$dir/adabort.out" 2>&1
expect adabort "game $slow aborted"
as alice admin ban carol >"$dir/ban.out" 2>&1
expect ban 'carol is banned'
AKC_PASSWORD=password-carol as carol login carol >"$dir/banned-login.out" 2>&1; rc=$?
check "a banned account cannot log in (exit 1)" "[ $rc = 1 ] && grep -q 'banned by the server' '$dir/banned-login.out'"
as alice new axis --opponent carol >"$dir/banned-ch.out" 2>&1; rc=$?
check "a banned account cannot be challenged" "[ $rc = 1 ] && grep -q 'cannot be challenged' '$dir/banned-ch.out'"
as alice admin unban carol >"$dir/unban.out" 2>&1
AKC_PASSWORD=password-carol as carol login carol >"$dir/unbanned.out" 2>&1
expect unbanned 'logged in as carol'
check "every admin action is in the audit table, with who did it" \
    "[ \$(sqlite3 '$dir/akd.sqlite3' \"SELECT count(*) FROM admin_actions WHERE admin = 'alice'\") = 4 ]"
check "... and in the log" "grep -q 'admin alice: ban carol' '$dir/akd-file.log'"

# Abort before the first action only.
aborting=$(as alice --json new axis | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
as alice abort $aborting >"$dir/abort.out" 2>&1
expect abort "game $aborting aborted"
for _ in $(seq 100); do
    grep -q "game $aborting left memory" "$dir/akd-file.log" && break
    sleep 0.1
done
check "an aborted game leaves memory too (keep_finished)" "grep -q 'game $aborting left memory' '$dir/akd-file.log'"
as bob abort 3 >"$dir/abort2.out" 2>&1
expect abort2 'not_your_game\|already_started'

# Undo: a move of the current movement portion can be taken back (the
# opponent sees it), nothing else; a capture revealed something, so no.
# newgame USER ARGS...: akc new, printing the game's number
newgame() { as "$@" --json | sed -n 's/.*"game":\([0-9]*\).*/\1/p'; }
ug=$(newgame alice new axis)
# before anyone joins, nothing can be done in the game: options says so
as alice options $ug >"$dir/options-open.out" 2>&1
expect options-open 'nothing for you: the game waits for an opponent to join'
as bob join $ug >/dev/null 2>&1
# A spectator's akc watch sees the undo as such, and ends with the game.
as carol watch $ug >"$dir/watch-undo.out" 2>&1 &
watcher=$!
sleep 0.3
as alice move $ug 21pz5 W14 >/dev/null 2>&1
as alice undo $ug >"$dir/undo.out" 2>&1
expect undo "taken back: move 21pz5 W14; game $ug is at action 0"
sleep 0.3
expect watch-undo "taken back by the Axis player: move 21pz5 W14"
as bob show $ug --no-color --json >"$dir/undone.out" 2>&1
expect undone '"21pz5":{"where":"board","hex":"W6"'
as alice undo $ug >"$dir/undo2.out" 2>&1
expect undo2 'cannot_undo'
as alice move $ug 21pz5 W14 >/dev/null 2>&1
as bob undo $ug >"$dir/undo3.out" 2>&1
expect undo3 'the last action is not yours'
as bob resign $ug >/dev/null 2>&1
for _ in $(seq 30); do kill -0 $watcher 2>/dev/null || break; sleep 0.1; done
if kill -0 $watcher 2>/dev/null; then
    bad "akc watch ends when the game does"
    kill $watcher
else
    ok "akc watch ends when the game does"
fi
expect watch-undo "game $ug is over"
# A rematch: sides swapped, the same opponent challenged.
as alice rematch "$ug" >"$dir/rematch.out" 2>&1
expect rematch "a rematch of game $ug with sides swapped; bob is challenged"
rm_game=$(sed -n 's/created game \([0-9]*\).*/\1/p' "$dir/rematch.out")
as bob games >"$dir/rematch-bob.out" 2>&1
expect rematch-bob "^$rm_game .*CHALLENGE from alice"
as bob join "$rm_game" >"$dir/rematch-join.out" 2>&1
expect rematch-join "you play axis in game $rm_game"
# More time for the opponent: only while his clock runs.
tg=$(as alice --json new axis --opponent bob --time 1h | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
as bob join "$tg" >/dev/null 2>&1
as bob give-time "$tg" 1h >"$dir/givetime.out" 2>&1
expect givetime "game $tg: your opponent's clock is now \(1h 59m\|2h 0m\) left"
as alice give-time "$tg" 1h >"$dir/givetime2.out" 2>&1; rc=$?
check "giving time while one's own clock runs is refused (exit 1)" "[ $rc = 1 ] && grep -q \"opponent's clock is not running\" '$dir/givetime2.out'"
timeout 5 "$AKC" --server 127.0.0.1:$port watch $ug >"$dir/watch-over.out" 2>&1; rc=$?
check "akc watch of a game already over says so and exits 0" "[ $rc = 0 ] && grep -q 'is over: Axis won by resignation' '$dir/watch-over.out'"
"$SCENARIO" --dump "$CAPTURE" >"$dir/capture.json" 2>/dev/null
cg=$(newgame alice new axis --opponent bob --position "$dir/capture.json")
as bob join $cg >/dev/null 2>&1
as alice move $cg 21pz5 P35 >"$dir/capture.out" 2>&1
expect capture 'Axis captured asup1'
as alice undo $cg >"$dir/undo4.out" 2>&1
expect undo4 'revealed something to the opponent'

# passwd, then login throttling per account.
AKC_PASSWORD=password-bob AKC_NEW_PASSWORD=new-password-bob as bob passwd >"$dir/passwd.out" 2>&1
expect passwd 'password changed'
AKC_PASSWORD=password-bob as bob login bob >"$dir/oldpw.out" 2>&1
expect oldpw 'wrong user name or password'
AKC_PASSWORD=new-password-bob as bob login bob >"$dir/newpw.out" 2>&1
expect newpw 'logged in as bob'
for _ in 1 2 3; do AKC_PASSWORD=wrong as carol login carol >/dev/null 2>&1; done
AKC_PASSWORD=password-carol as carol login carol >"$dir/throttle.out" 2>&1
expect throttle 'rate_limited'

# SIGHUP reopens the log file; SIGUSR1 writes an online backup.
mv "$dir/akd-file.log" "$dir/akd-file.log.1"
kill -HUP $pid
for _ in $(seq 30); do [ -s "$dir/akd-file.log" ] && break; sleep 0.1; done
check "SIGHUP reopens the log" "grep -q 'log reopened' '$dir/akd-file.log'"
kill -USR1 $pid
for _ in $(seq 50); do grep -q 'backed up' "$dir/akd-file.log" && break; sleep 0.1; done
check "SIGUSR1 writes a backup" "head -c 15 '$dir/backup.sqlite3' | grep -q 'SQLite format 3'"
users=$(sqlite3 "$dir/backup.sqlite3" "SELECT count(*) FROM users" 2>&1)
actions=$(sqlite3 "$dir/backup.sqlite3" "SELECT count(*) FROM actions" 2>&1)
check "the backup holds the accounts ($users) and the games' actions ($actions)" "[ '$users' -ge 2 ] && [ '$actions' -ge 1 ]"
kill -TERM $pid; wait $pid 2>/dev/null

# Tight limits on a second server.
start_akd limits --db "$dir/limits.sqlite3" --max-connections 10 --max-per-address 2 \
    --idle-timeout 1 --rate 5 --games-per-user 1
sleep 1.5 </dev/null | "$AKC" --server 127.0.0.1:$port raw >"$dir/idle.out" 2>&1
expect idle 'idle_timeout'
mkfifo "$dir/h1" "$dir/h2"
"$AKC" --server 127.0.0.1:$port raw <"$dir/h1" >"$dir/hold1.out" 2>&1 &
hp1=$!
"$AKC" --server 127.0.0.1:$port raw <"$dir/h2" >"$dir/hold2.out" 2>&1 &
hp2=$!
exec 5>"$dir/h1" 6>"$dir/h2"
echo '{"id":1,"cmd":"register","user":"dave","password":"password-dave"}' >&5
echo '{"id":1,"cmd":"hello"}' >&6
for _ in $(seq 50); do grep -q '"id":1' "$dir/hold1.out" && grep -q '"id":1' "$dir/hold2.out" && break; sleep 0.1; done
echo '{"id":1,"cmd":"hello"}' | "$AKC" --server 127.0.0.1:$port raw >"$dir/full.out" 2>&1
check "a third connection from one address is refused" "grep -q too_many_connections '$dir/full.out'"
echo '{"id":2,"cmd":"new","side":"axis"}' >&5
echo '{"id":3,"cmd":"new","side":"allied"}' >&5
for i in $(seq 10 40); do echo "{\"id\":$i,\"cmd\":\"hello\"}" >&6; done
sleep 1
expect hold1 '"id":2,"ok":true'
expect hold1 '"id":3,"ok":false.*too_many_games'
expect hold2 '"rate_limited"'
check "under the rate limit, requests are answered" "grep -q '\"id\":10,\"ok\":true' '$dir/hold2.out'"
exec 5>&- 6>&-
wait $hp1 $hp2 2>/dev/null
check "the server survived every limit" "kill -0 $pid"

# The limit on connections in total.
start_akd total --db "$dir/total.sqlite3" --max-connections 1
mkfifo "$dir/h3"
"$AKC" --server 127.0.0.1:$port raw <"$dir/h3" >"$dir/hold3.out" 2>&1 &
hp3=$!
exec 7>"$dir/h3"
echo '{"id":1,"cmd":"hello"}' >&7
for _ in $(seq 50); do grep -q '"id":1' "$dir/hold3.out" && break; sleep 0.1; done
echo '{"id":1,"cmd":"hello"}' | "$AKC" --server 127.0.0.1:$port raw >"$dir/full3.out" 2>&1
expect full3 'too_many_connections.*the server is full'
exec 7>&-
wait $hp3 2>/dev/null

# Durability: SIGKILL while two players act as fast as they can; after a
# restart every acknowledged action is there, and nothing beyond the one
# that may have been in flight. With `sync = full` (the default) and with
# `sync = normal`, which promises the same against akd being killed.
sigkill_while_playing() {
    local sync=$1 db="$dir/durable-$1.sqlite3" a=erin-$1 b=fred-$1
    start_akd durable-$sync --db "$db" --allow-positions 1 --sync $sync
    for u in $a $b; do AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1; done
    game=$(as $a --json new axis --opponent $b --position "$dir/capture.json" | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
    as $b join "$game" >/dev/null 2>&1
    rm -f "$dir/acked"
    (
        step=0
        while :; do
            who=$a; [ $(( (step / 2) % 2 )) = 1 ] && who=$b
            verb=end-movement; [ $((step % 2)) = 1 ] && verb=end-turn
            as $who $verb "$game" >/dev/null 2>&1 || exit 0
            step=$((step + 1))
            echo $step >"$dir/acked"
        done
    ) &
    player=$!
    # mid-game: the game from this position lasts 152 actions
    for _ in $(seq 200); do
        n=$(cat "$dir/acked" 2>/dev/null)    # empty while the player rewrites it
        [ "${n:-0}" -ge 40 ] && break
        sleep 0.05
    done
    kill -9 $pid
    wait $pid 2>/dev/null
    wait $player 2>/dev/null
    acked=$(cat "$dir/acked" 2>/dev/null || echo 0)
    start_akd durable2-$sync --db "$db" --allow-positions 1 --sync $sync
    seq=$(as $a --json show "$game" | sed -n 's/.*"seq":\([0-9]*\).*/\1/p' | head -1)
    check "sync $sync, after SIGKILL: $acked acknowledged actions, $seq stored" "[ '$acked' -ge 40 ] && [ '$acked' -lt 152 ] && [ '$seq' -ge '$acked' ] && [ '$seq' -le \$(( $acked + 1 )) ]"
    kill -TERM $pid; wait $pid 2>/dev/null
}
sigkill_while_playing full
sigkill_while_playing normal

# A commit that fails (a trigger makes the store refuse the third action):
# its sender gets "internal", the game stays as it was, and the same action
# goes through once the store takes it again.
db="$dir/failing.sqlite3"
start_akd failing --db "$db" --allow-positions 1
for u in gina hank; do AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1; done
game=$(newgame gina new axis --opponent hank --position "$dir/capture.json")
as hank join "$game" >/dev/null 2>&1
as gina end-movement "$game" >/dev/null 2>&1
as gina end-turn "$game" >/dev/null 2>&1
sqlite3 -cmd ".timeout 5000" "$db" \
    "CREATE TRIGGER injected BEFORE INSERT ON actions WHEN NEW.seq = 3 BEGIN SELECT RAISE(ABORT, 'injected'); END;"
as hank --json end-movement "$game" >"$dir/failed.out" 2>&1
rc=$?
check "a commit that fails answers internal (exit $rc)" "[ $rc != 0 ] && grep -q 'internal' '$dir/failed.out' && grep -q 'nothing changed' '$dir/failed.out'"
seq=$(as gina --json show "$game" | sed -n 's/.*"seq":\([0-9]*\).*/\1/p' | head -1)
check "after the failed commit the game is still at action 2 (seq $seq)" "[ '$seq' = 2 ]"
check "akd logs the failed commit" "grep -q 'group commit failed' '$dir/failing.log'"
sqlite3 -cmd ".timeout 5000" "$db" "DROP TRIGGER injected"
as hank end-movement "$game" >/dev/null 2>&1
rc=$?
seq=$(as gina --json show "$game" | sed -n 's/.*"seq":\([0-9]*\).*/\1/p' | head -1)
check "the same action then goes through (exit $rc, seq $seq)" "[ $rc = 0 ] && [ '$seq' = 3 ]"
# New games and seats are committed the same way: refused by the store,
# the game is not there and the seat stays open.
sqlite3 -cmd ".timeout 5000" "$db" \
    "CREATE TRIGGER no_games BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'injected'); END;"
as gina --json new axis --opponent hank >"$dir/failednew.out" 2>&1
rc=$?
as hank --json games >"$dir/failedlist.out" 2>&1
check "a new game the store refuses answers internal and is listed nowhere (exit $rc)" "[ $rc != 0 ] && grep -q 'internal' '$dir/failednew.out' && [ \$(grep -o '\"game\":' '$dir/failedlist.out' | wc -l) = 1 ]"
sqlite3 -cmd ".timeout 5000" "$db" "DROP TRIGGER no_games; CREATE TRIGGER no_seats BEFORE UPDATE OF allied_user ON games BEGIN SELECT RAISE(ABORT, 'injected'); END;"
game2=$(newgame gina new axis --opponent hank)
as hank --json join "$game2" >"$dir/failedjoin.out" 2>&1
rc=$?
check "a seat the store refuses answers internal (exit $rc)" "[ $rc != 0 ] && grep -q 'internal' '$dir/failedjoin.out'"
sqlite3 -cmd ".timeout 5000" "$db" "DROP TRIGGER no_seats"
as hank join "$game2" >/dev/null 2>&1
rc=$?
check "the seat was still open: hank joins game $game2 (exit $rc)" "[ $rc = 0 ] && as hank games | grep -q '^ *$game2 '"
kill -TERM $pid; wait $pid 2>/dev/null

# An action that moves the deadline stores the new one with it (in the same
# commit): after SIGKILL and a restart the game has it.
deadline_of() { as ivy --json show "$1" | sed -n 's/.*"deadline":\([0-9]*\).*/\1/p' | head -1; }
db="$dir/deadline.sqlite3"
start_akd deadline --db "$db" --allow-positions 1
for u in ivy jack; do AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1; done
game=$(newgame ivy new axis --opponent jack --time 1d --position "$dir/capture.json")
as jack join "$game" >/dev/null 2>&1
d0=$(deadline_of "$game")
sleep 1.2
as ivy end-movement "$game" >/dev/null 2>&1
d1=$(deadline_of "$game")
kill -9 $pid; wait $pid 2>/dev/null
start_akd deadline2 --db "$db" --allow-positions 1
d2=$(deadline_of "$game")
check "the deadline an action moves is stored with it ($d0, then $d1; after SIGKILL $d2)" "[ -n '$d0' ] && [ '$d1' -gt '$d0' ] && [ '$d2' = '$d1' ]"
# A game whose time ran out with on_expiry wait is overdue, and says so
# plainly in games and show (not "0m 0s left"). (akd came back on another
# port: a token goes only to the server that issued it, so log in again.)
for u in ivy jack; do AKC_PASSWORD=password-$u as $u login $u >/dev/null 2>&1; done
game=$(newgame ivy new axis --opponent jack --time 1s --on-expiry wait)
as jack join "$game" >/dev/null 2>&1
sleep 2.5
as ivy games >"$dir/overdue.out" 2>&1
expect overdue "^$game .*OVERDUE (0m 1s/action) .*YOUR MOVE (OVERDUE: an operator may decide the game)"
as jack show "$game" --no-color >"$dir/overdue-show.out" 2>&1
expect overdue-show 'clock: OVERDUE (0m 1s/action); OVERDUE: axis to move'
as ivy games --finished >"$dir/finished.out" 2>&1
check "games --finished leaves out a running game" "! grep -q '^$game ' '$dir/finished.out'"
kill -TERM $pid; wait $pid 2>/dev/null
# deadline_near and deadline_passed are told once per deadline, not again
# each time akd starts (issue 33): a game overdue across two restarts;
# an admin (jack) is told it waits for an operator (game_overdue), once
"$AKD" --db "$db" --admin-add jack >/dev/null 2>&1
start_akd told --db "$db" --allow-positions 1 --notify-command "$dir/notify" --clock-tick-ms 100
for u in ivy jack; do AKC_PASSWORD=password-$u as $u login $u >/dev/null 2>&1; done
late=$(newgame ivy new axis --opponent jack --time 2s --on-expiry wait)
as jack join "$late" >/dev/null 2>&1
for _ in $(seq 60); do grep -q "deadline_passed game=$late " "$dir/notify.log" 2>/dev/null && break; sleep 0.1; done
for run in told2 told3; do
    kill -TERM $pid; wait $pid 2>/dev/null
    start_akd $run --db "$db" --allow-positions 1 --notify-command "$dir/notify" --clock-tick-ms 100
    sleep 1
done
check "deadline_near and deadline_passed told once each across two restarts of an overdue game" \
    "[ \$(grep -c 'deadline_near game=$late ' '$dir/notify.log') = 1 ] && [ \$(grep -c 'deadline_passed game=$late user=ivy' '$dir/notify.log') = 1 ]"
AKC_PASSWORD=password-ivy as ivy login ivy >/dev/null 2>&1
check "... and it is still overdue after them" \
    "[ \$(sqlite3 '$db' \"SELECT passed_told = deadline FROM games WHERE id = $late\") = 1 ] && as ivy games 2>&1 | grep -q '^$late .*OVERDUE'"
check "the admin was told once that the game waits for an operator (game_overdue)" \
    "[ \$(grep -c 'game_overdue game=$late user=jack side=axis' '$dir/notify.log') = 1 ]"
kill -TERM $pid; wait $pid 2>/dev/null
start_akd quiet --db "$db" --allow-positions 1 --notify-command "$dir/notify" --clock-tick-ms 100 --notify-admins-overdue 0
for u in ivy jack; do AKC_PASSWORD=password-$u as $u login $u >/dev/null 2>&1; done
late2=$(newgame ivy new axis --opponent jack --time 1s --on-expiry wait)
as jack join "$late2" >/dev/null 2>&1
for _ in $(seq 60); do grep -q "deadline_passed game=$late2 " "$dir/notify.log" 2>/dev/null && break; sleep 0.1; done
sleep 0.3
check "with notify_admins_overdue 0 the player is told and no admin" \
    "grep -q 'deadline_passed game=$late2 ' '$dir/notify.log' && ! grep -q 'game_overdue game=$late2 ' '$dir/notify.log'"
kill -TERM $pid; wait $pid 2>/dev/null

# A bad setting is refused at start with the reason.
"$AKD" --listen 127.0.0.1:1 --db "$dir/x.sqlite3" --sync sometimes >"$dir/badsync.out" 2>&1
rc=$?
check "akd --sync sometimes exits 2 naming the setting" "[ $rc = 2 ] && grep -q 'sync is full or normal' '$dir/badsync.out'"
"$AKD" --listen 127.0.0.1:1 --db :memory: >"$dir/memdb.out" 2>&1
rc=$?
check "akd --db :memory: exits 2 (actions are written on a connection of their own)" "[ $rc = 2 ] && grep -q 'path of a database file' '$dir/memdb.out'"

# The log lines docs/operations.md shows are akd's own (issue 33): each
# example matches a line of this run's log, level, words and keys.
cat "$dir/akd-file.log.1" "$dir/akd-file.log" >"$dir/whole.log" 2>/dev/null
python3 "$(dirname "$0")/log-examples.py" "$(dirname "$0")/../docs/operations.md" "$dir/whole.log" >"$dir/logex.out" 2>&1; rc=$?
cat "$dir/logex.out"
check "every documented log line is one akd wrote (exit $rc)" "[ $rc = 0 ]"
check "no line about a game lacks game= (every 'game N' message carries it)" \
    "! grep -E 'msg=\"game [0-9]+' '$dir/whole.log' | grep -vq ' game=[0-9]'"
check "admin actions are info and name their target" \
    "! grep 'msg=\"admin ' '$dir/whole.log' | grep -v 'level=info' | grep -q . && ! grep 'msg=\"admin [a-z]*: ' '$dir/whole.log' | grep -vq ' target='"

finish
