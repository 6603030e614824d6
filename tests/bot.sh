#!/bin/bash
# akbot, the computer player, on a test akd (issue 31): an account marked
# with akd --computer-add; `akc new --vs computer[:LEVEL]` refused while
# the server has none, then answered by the bot; the bot plays its player
# turn, survives a restart of akd (reconnects and plays the next turn),
# meets a time control, declines a challenge over games_per_player, sees
# its game end; the lobby and the ladder show it as a computer.
# Also akc hint, the computer's suggestion worked out in akc, against
# golden outputs (tests/golden/hint-*.txt) on fixed positions.
# usage: bot.sh AKD AKC AKBOT AK-SCENARIO GOLDEN-DIR POSITIONS-DIR
set -u
AKD=$1 AKC=$2 AKBOT=$3 SCENARIO=$4 GOLDEN=$5 POSITIONS=$6
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; [ -n "${AK_KEEP:-}" ] || rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"

start_akd akd --db "$dir/akd.sqlite3" --allow-positions 1 --games-per-user 3
for u in alice bob carol; do AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1 || bad "register $u"; done
echo "password-computer" >"$dir/bot-password"
cat >"$dir/akbot.conf" <<CONF
# the bot of this test
server = 127.0.0.1:$port
user = computer
password_file = $dir/bot-password
games_per_player = 2
poll_seconds = 1
seeks = 1
CONF
"$AKBOT" --config "$dir/akbot.conf" --register >"$dir/register.out" 2>&1
check "akbot --register makes its account and says how to mark it" "grep -q 'akd --computer-add computer' '$dir/register.out'"

# no computer player yet: refused, with what the operator must do
as alice new allied --vs computer >"$dir/none.out" 2>&1; rc=$?
check "no computer account: new --vs computer is refused (exit $rc) saying why" \
    "[ $rc != 0 ] && grep -q 'no computer player' '$dir/none.out'"
as alice new allied --vs computer:7 >"$dir/level.out" 2>&1; rc=$?
check "--vs computer:7 is a usage error (exit $rc)" "[ $rc = 2 ] && grep -q 'level from 1' '$dir/level.out'"

"$AKD" --db "$dir/akd.sqlite3" --computer-add computer >"$dir/mark.out" 2>&1
check "akd --computer-add marks the account (akd running)" "grep -q 'is now a computer player' '$dir/mark.out'"

"$AKBOT" --config "$dir/akbot.conf" --verbose >"$dir/bot.out" 2>&1 &
bot=$!; pids="$pids $bot"

# wait_status GAME PATTERN SECONDS: akc show GAME (alice's) matches PATTERN
wait_status() {
    for _ in $(seq $(($3 * 5))); do
        as alice show "$1" >"$dir/show.out" 2>&1
        grep -qi -- "$2" "$dir/show.out" && return 0
        sleep 0.2
    done
    cat "$dir/show.out" | head -5; return 1
}

as alice new allied --vs computer:1 >"$dir/new.out" 2>&1
game=$(sed -n 's/^created game \([0-9]*\).*/\1/p' "$dir/new.out")
check "alice asks for a game with the computer at level 1: game $game" "[ -n '$game' ] && grep -q 'computer (computer, level 1) is challenged' '$dir/new.out'"
check "the bot accepts it and plays the Axis player turn: the game waits for alice" \
    "wait_status $game 'your move' 60"
as alice --json show $game >"$dir/show.json" 2>&1
check "the game says the Axis seat is a computer, at level 1" \
    "python3 -c 'import json,sys; g=json.load(open(sys.argv[1])); sys.exit(0 if g[\"computer\"][\"axis\"] and not g[\"computer\"][\"allied\"] and g[\"computer_level\"]==1 and g[\"seq\"]>3 else 1)' '$dir/show.json'"
as alice games >"$dir/games.out" 2>&1
check "alice's games list the computer as such" "grep -q 'computer (computer)' '$dir/games.out'"

# akd restarts: the bot connects again and plays its next turn
kill $pid; wait $pid 2>/dev/null
"$AKD" --listen 127.0.0.1:$port --db "$dir/akd.sqlite3" --allow-positions 1 --games-per-user 3 >"$dir/akd2.out" 2>>"$dir/akd.log" &
pid=$!; pids="$pids $pid"
for _ in $(seq 50); do grep -q listening "$dir/akd2.out" && break; sleep 0.1; done
# four units on L59 (STACK-1): one moves off first, to the nearest square it can reach
to=$(as alice dests $game 4iinf11 2>/dev/null | awk '$2 == 1 {print $1; exit}')
as alice move $game 4iinf11 "$to" >"$dir/endturn.out" 2>&1 && as alice end-movement $game >>"$dir/endturn.out" 2>&1 &&
    as alice end-turn $game >>"$dir/endturn.out" 2>&1
check "alice ends her turn 1 after akd restarted" "[ $? = 0 ]"
# (the game may wait for her before the Axis turn ends: a decision the
# rules give the defender, an exchange's losses)
check "the bot came back and played its turn 2 until the game waits for alice" \
    "wait_status $game 'YOUR MOVE' 60 && grep -q '^Turn 2' '$dir/show.out'"
check "the bot said it lost the connection and logged in again" \
    "grep -q 'connecting again' '$dir/bot.out' && [ \$(grep -c 'logged in' '$dir/bot.out') -ge 2 ]"

# a time control: the bot answers within it
as alice new allied --vs computer --time 30s >"$dir/tc.out" 2>&1
tc=$(sed -n 's/^created game \([0-9]*\).*/\1/p' "$dir/tc.out")
check "a game with 30 seconds an action: the bot plays its turn in time, the clock now alice's (game $tc)" \
    "wait_status $tc 'your move' 30 && ! grep -qi 'won by time' '$dir/show.out'"

# games_per_player = 2: a third challenge from alice is declined
as alice new axis --vs computer >"$dir/third.out" 2>&1
third=$(sed -n 's/^created game \([0-9]*\).*/\1/p' "$dir/third.out")
for _ in $(seq 50); do grep -q "declined alice's challenge" "$dir/bot.out" && break; sleep 0.2; done
check "a third game with alice (games_per_player 2) is declined, not left waiting" \
    "grep -q \"game $third: declined alice's challenge\" '$dir/bot.out'"

# the bot's own open seek: one, an open game (not a challenge), kept one
as carol --json games >"$dir/seeks.json" 2>&1
check "seeks = 1: the bot keeps one open seek, a game anyone may join, not a challenge" \
    "python3 -c 'import json,sys; g=[x for x in json.load(open(sys.argv[1]))[\"games\"] if x[\"open\"] and \"computer\" in x[\"players\"].values()]; sys.exit(0 if len(g)==1 and g[0][\"challenge\"] is None else 1)' '$dir/seeks.json'"
# akd's games_per_user 3 (the bot's two games with alice and its seek):
# carol's challenge cannot be seated, and the bot declines it at once
as carol new axis --vs computer >"$dir/carol.out" 2>&1
cg=$(sed -n 's/^created game \([0-9]*\).*/\1/p' "$dir/carol.out")
for _ in $(seq 50); do grep -q "game $cg: declined" "$dir/bot.out" && break; sleep 0.2; done
check "a challenge akd cannot seat the bot in (games_per_user) is declined at once, not retried" \
    "grep -q \"game $cg: declined carol's challenge.*server refused the seat\" '$dir/bot.out' && [ \$(grep -c \"join refused\" '$dir/bot.out') = 1 ]"

# the admin op: an admin marks and unmarks an account; the games akd holds
# change at once; a player who is not an admin cannot
"$AKD" --db "$dir/akd.sqlite3" --admin-add alice >/dev/null 2>&1
as bob admin computer bob on >"$dir/notadmin.out" 2>&1; rc=$?
check "a player without the admin role cannot mark an account (exit $rc)" "[ $rc != 0 ] && grep -q 'admin role' '$dir/notadmin.out'"
as alice admin computer computer off >"$dir/off.out" 2>&1
as alice --json show $game >"$dir/off.json" 2>/dev/null
check "admin computer computer off: the game akd holds no longer shows a computer" \
    "grep -q 'is no longer a computer player' '$dir/off.out' && python3 -c 'import json,sys; sys.exit(0 if not json.load(open(sys.argv[1]))[\"computer\"][\"axis\"] else 1)' '$dir/off.json'"
as alice admin computer computer on >"$dir/on.out" 2>&1
as alice --json show $game >"$dir/on.json" 2>/dev/null
check "... and on again: it does" \
    "grep -q 'is now a computer player' '$dir/on.out' && python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))[\"computer\"][\"axis\"] else 1)' '$dir/on.json'"
as alice new axis --vs computer --opponent bob >"$dir/notcomp.out" 2>&1; rc=$?
check "--vs computer naming a person is refused (exit $rc)" "[ $rc != 0 ] && grep -q 'bob is not a computer player' '$dir/notcomp.out'"

# the end: alice resigns, the bot sees it over
as alice resign $game >"$dir/resign.out" 2>&1
for _ in $(seq 50); do grep -q "game $game is over" "$dir/bot.out" && break; sleep 0.2; done
check "alice resigns game $game: the bot sees it over" "grep -q 'game $game is over' '$dir/bot.out'"


# akc hint: the same suggestion for the same state, as the golden files say
# (the game's number written N); --level 1 and 2 both ways
for scn in exchange soak-off; do
    "$SCENARIO" --dump "$POSITIONS/$scn.scn" >"$dir/$scn.json" 2>/dev/null
    h=$(as bob new axis --position "$dir/$scn.json" 2>/dev/null | sed -n 's/^created game \([0-9]*\).*/\1/p')
    for level in 1 2; do
        as bob hint "$h" --level $level 2>&1 | sed "s/game $h\b/game N/; s/\(akc [a-z-]*\) $h\b/\1 N/" >"$dir/hint.out"
        if [ -n "${AK_UPDATE_GOLDEN:-}" ]; then cp "$dir/hint.out" "$GOLDEN/hint-$scn-$level.txt"; fi
        check "akc hint on $scn.scn at level $level is the golden one" "diff -u '$GOLDEN/hint-$scn-$level.txt' '$dir/hint.out'"
    done
done
# akc analyse: one player turn of the skirmish with no die rolled (the
# record's two player-turn starts), playouts from fixed seeds: golden
a=$(as carol new axis --position "$dir/soak-off.json" --opponent bob 2>/dev/null | sed -n 's/^created game \([0-9]*\).*/\1/p')
as bob join "$a" >"$dir/ajoin.out" 2>&1
as carol move "$a" folgere P32 >"$dir/amove.out" 2>&1 && as carol end-movement "$a" >>"$dir/amove.out" 2>&1 &&
    as carol end-turn "$a" >>"$dir/amove.out" 2>&1
as carol analyse "$a" --playouts 4 2>&1 | sed "s/Game $a:/Game N:/" >"$dir/analyse.out"
if [ -n "${AK_UPDATE_GOLDEN:-}" ]; then cp "$dir/analyse.out" "$GOLDEN/analyse-soak-off.txt"; fi
check "akc analyse of the skirmish after one player turn is the golden one" \
    "diff -u '$GOLDEN/analyse-soak-off.txt' '$dir/analyse.out'"
as carol analyse "$a" --playouts 0 >/dev/null 2>&1; rc=$?
check "akc analyse --playouts 0 is a usage error (exit $rc)" "[ $rc = 2 ]"
# an admin attaches the analysis to an adjudication (issue 31): a player
# cannot; a result that is no result is a usage error; the admin's
# --adjudicate analysed ends the game with the analysis's own result
as carol analyse "$a" --playouts 4 --adjudicate maybe >/dev/null 2>&1; rc=$?
check "akc analyse --adjudicate maybe is a usage error (exit $rc)" "[ $rc = 2 ]"
as carol analyse "$a" --playouts 4 --adjudicate analysed >"$dir/adjnot.out" 2>&1; rc=$?
check "a player without the admin role cannot adjudicate from akc analyse (exit $rc)" \
    "[ $rc != 0 ] && grep -q 'admin role' '$dir/adjnot.out'"
as alice analyse "$a" --playouts 4 --adjudicate analysed >"$dir/adj.out" 2>&1; rc=$?
# the verdict the analysis prints ("An adjudication now (...): the Allied
# player wins", or a draw) is the result akd is sent
verdict=$(sed -n 's/^An adjudication now ([^)]*): //p' "$dir/adj.out")
case "$verdict" in
    "the Axis player wins") won=axis ;;
    "the Allied player wins") won=allied ;;
    "a draw (neither side 20 factors ahead)") verdict="a draw" won=draw ;;
    *) won="no verdict in the analysis" ;;
esac
check "an admin's akc analyse --adjudicate analysed ends the game as the analysis says ($verdict), the analysis as the reason (exit $rc)" \
    "[ $rc = 0 ] && grep -q \"Game $a adjudicated: $verdict (reason: akc analyse: Axis wins\" '$dir/adj.out'"
as alice show "$a" >"$dir/adjshow.out" 2>&1
check "the adjudicated game is over ($won)" "grep -Eqi '$won.*adjudicat|adjudicat.*$won' '$dir/adjshow.out'"
as alice analyse "$a" --playouts 2 --adjudicate axis >"$dir/adjover.out" 2>&1; rc=$?
check "a finished game is not adjudicated again (exit $rc)" "[ $rc != 0 ] && grep -q 'nothing to adjudicate' '$dir/adjover.out'"
# akc odds (issue 32): the exact chances of the declared battle, worked out
# in akc, golden (hand-computed in tests/scenarios/chances.scn); akd sends
# the same figures as "odds" with the game for the page
o=$(as bob new axis --position "$dir/exchange.json" --opponent carol 2>/dev/null | sed -n 's/^created game \([0-9]*\).*/\1/p')
as carol join "$o" >/dev/null 2>&1
as bob odds "$o" >"$dir/odds0.out" 2>&1
check "akc odds before any battle says there is none" "grep -q 'no battles declared and not yet fought' '$dir/odds0.out'"
as bob battle "$o" 21pz104,21pz3 1arm gsup1 >/dev/null 2>&1
as bob odds "$o" 2>&1 | sed "s/Game $o,/Game N,/" >"$dir/odds.out"
if [ -n "${AK_UPDATE_GOLDEN:-}" ]; then cp "$dir/odds.out" "$GOLDEN/odds-exchange.txt"; fi
check "akc odds on exchange.scn's battle is the golden one" "diff -u '$GOLDEN/odds-exchange.txt' '$dir/odds.out'"
as bob --json show "$o" >"$dir/odds.json" 2>/dev/null
check "akd sends the battle's chances with the game: eliminated 3 faces of 6, P36 taken 2/3" \
    "python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))[\"odds\"]; b=o[\"battles\"][0]; sys.exit(0 if b[\"eliminated\"]==3 and b[\"faces\"]==6 and o[\"squares\"][0]==dict(square=\"P36\",taken=dict(p=2/3,num=2,den=3)) else 1)' '$dir/odds.json'"
as bob resolve "$o" 1 >/dev/null 2>&1
as bob --json show "$o" >"$dir/odds2.json" 2>/dev/null
check "once fought, no odds are sent" "python3 -c 'import json,sys; sys.exit(1 if \"odds\" in json.load(open(sys.argv[1])) else 0)' '$dir/odds2.json'"
as bob hint $game --level 5 >"$dir/hintbad.out" 2>&1; rc=$?
check "akc hint --level 5 is a usage error (exit $rc)" "[ $rc = 2 ]"
as bob hint $game >"$dir/hintover.out" 2>&1
check "akc hint on a finished game says there is nothing to suggest" "grep -q 'is over: nothing to suggest' '$dir/hintover.out'"

# a side bid (issue 32): the computer accepts the player's bid, takes the
# other side with the supply units, and plays
as carol new allied --vs computer:1 --bid 1 >"$dir/bid.out" 2>&1
bg=$(sed -n 's/^created game \([0-9]*\).*/\1/p' "$dir/bid.out")
for _ in $(seq 300); do as carol show "$bg" >"$dir/bid-show.out" 2>&1; grep -q 'YOUR MOVE' "$dir/bid-show.out" && break; sleep 0.2; done
check "carol bids 1 supply unit to play the Allies against the computer: it accepts and plays its Axis turn (game $bg)" \
    "grep -q 'YOUR MOVE' '$dir/bid-show.out' && grep -q 'Side bid: carol plays the Allied side for 1 supply unit; the Axis side started with them' '$dir/bid-show.out' && grep -q 'game $bg: side auction: accepted the bid' '$dir/bot.out'"

# a wrong password stops it at once (trying again cannot help)
echo "wrong-password" >"$dir/wrong"
timeout 20 "$AKBOT" --config "$dir/akbot.conf" --password-file "$dir/wrong" >"$dir/wrong.out" 2>&1; rc=$?
check "a wrong password ends akbot with an error (exit $rc), not a retry loop" "[ $rc = 1 ]"

kill -TERM $bot; wait $bot 2>/dev/null; rc=$?
check "SIGTERM stops the bot cleanly (exit $rc)" "[ $rc = 0 ] && grep -q stopped '$dir/bot.out'"
if grep -q 'ERROR: \|runtime error' "$dir/akd.log" "$dir/bot.out"; then
    bad "a sanitizer report"; grep -A20 'ERROR: \|runtime error' "$dir/akd.log" "$dir/bot.out" | head -40
fi
[ $fails = 0 ] || { echo "--- akbot's log"; tail -30 "$dir/bot.out"; echo "--- alice ending her turn"; cat "$dir/endturn.out"; echo "--- resigning"; cat "$dir/resign.out"; }
finish
