#!/bin/bash
# Side bids (issue 32): a seek opened with a bid, the auction played to
# its end through akc (a raise for the other side swaps the seats, the
# acceptance settles it), the loser's extra supply units on the board at
# the start, the record that carries them and verifies, the ladder's
# games showing the bid; a tournament whose pairings bid; a game without
# a bid unchanged; and the refusals (not your bid, not higher, over the
# quota, no auction, acting before it ends), each changing nothing.
# usage: bid.sh AKD AKC
set -u
AKD=$1 AKC=$2
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
db=$dir/akd.sqlite3
start_akd main --db "$db"
for u in alice bob carol dora; do AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1; done
"$AKD" --db "$db" --admin-add alice >/dev/null 2>&1
newgame() { as "$@" --json | sed -n 's/.*"game":\([0-9]*\).*/\1/p'; }
row() { sqlite3 "$db" "SELECT $1 FROM games WHERE id = $2"; }

# alice bids 1 supply unit to play the Axis, in a rated open seek
g=$(newgame alice new axis --bid 1 --rated)
as carol games --open >"$dir/open.out" 2>&1
check "the seek shows its bid to those who may take it" "grep -q 'open seek, bid 1 for axis' '$dir/open.out'"
as bob bid "$g" 2 >"$dir/early.out" 2>&1; rc=$?
check "no bid before the opponent is seated (exit $rc)" "[ $rc = 1 ] && grep -q 'you do not play in game' '$dir/early.out'"
as bob join "$g" >"$dir/join.out" 2>&1
check "bob joins: the auction waits for him, the bid in words" \
    "grep -q 'Side auction: alice bids 1 supply unit to play the Axis side; your bid' '$dir/join.out' && grep -q 'YOUR BID' '$dir/join.out'"
as bob move "$g" 21pz5 W14 >"$dir/act.out" 2>&1; rc=$?
check "no action while the auction runs (exit $rc)" "[ $rc = 1 ] && grep -q 'side auction is over' '$dir/act.out'"
as alice bid "$g" 2 >"$dir/notturn.out" 2>&1; rc=$?
check "alice may not bid against herself (exit $rc)" "[ $rc = 1 ] && grep -q \"it is bob's turn to bid\" '$dir/notturn.out'"
as bob bid "$g" 1 axis >"$dir/low.out" 2>&1; rc=$?
check "a bid must be higher than the standing one (exit $rc)" "[ $rc = 1 ] && grep -q 'more than the standing 1' '$dir/low.out'"
as bob bid "$g" 4 axis >"$dir/quota.out" 2>&1; rc=$?
check "a bid is at most what the other side may receive (the Allies 3, LOGISTICS) (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'at most 3' '$dir/quota.out'"
check "... refusals stored nothing: alice still bids 1 for the Axis" \
    "[ \"\$(row 'bid || bid_supply || bid_side || axis_user' $g)\" = \"110\$(sqlite3 '$db' \"SELECT id FROM users WHERE name = 'alice'\")\" ]"
# bob wants the Axis too: 2 supply units to alice; he takes the Axis seat
as bob bid "$g" 2 axis >"$dir/raise.out" 2>&1
check "bob raises to 2 for the Axis: the seats follow the bid" \
    "grep -q 'bob bids 2 supply units to play the Axis side; alice to bid' '$dir/raise.out' && as alice show $g | grep -q 'Game $g: Axis bob, Allied alice'"
as alice bid "$g" 3 allied >"$dir/raise2.out" 2>&1; rc=$?
check "alice may not bid for the Allies at 3: the Axis may receive at most 2 (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'at most 2' '$dir/raise2.out'"
as alice bid "$g" accept >"$dir/accept.out" 2>&1
check "alice accepts: bob plays the Axis, the Allies start with 2 more supply units" \
    "grep -q 'Side bid: bob plays the Axis side for 2 supply units; the Allied side started with them' '$dir/accept.out'"
as alice show "$g" --json >"$dir/state.json" 2>&1
check "... asup2 and asup3 beside asup1 in Tobruch (G25), asup4 still to come" \
    "python3 -c 'import json,sys; u=json.load(open(sys.argv[1]))[\"state\"][\"units\"]; assert u[\"asup2\"][\"hex\"]==\"G25\" and u[\"asup3\"][\"hex\"]==\"G25\" and u[\"asup4\"][\"where\"]!=\"board\"' '$dir/state.json'"
as alice bid "$g" accept >"$dir/again.out" 2>&1; rc=$?
check "the auction is over: another step is refused (exit $rc)" "[ $rc = 1 ] && grep -q 'no side auction going on' '$dir/again.out'"
as bob move "$g" 21pz5 W14 >"$dir/move.out" 2>&1; rc=$?
check "the game begins: bob moves as the Axis (exit $rc)" "[ $rc = 0 ]"
as bob resign "$g" >/dev/null 2>&1
as carol record "$g" >"$dir/record.json" 2>&1
check "the record carries the bid and its starting position" \
    "python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); b=r[\"bid\"]; assert b[\"supply\"]==2 and b[\"side\"]==\"axis\" and b[\"by\"]==\"bob\" and b[\"receives\"]==\"allied\"; u=r[\"position\"][\"units\"]; assert u[\"asup3\"][\"hex\"]==\"G25\"' '$dir/record.json'"
as carol verify "$g" >"$dir/verify.out" 2>&1; rc=$?
check "... and verifies: dice and replay to the final position (exit $rc)" "[ $rc = 0 ]"
as carol player bob >"$dir/player.out" 2>&1
check "the ladder's games show the bid: bob's rated game, bid 2 for axis" "grep -q 'game $g .*bid 2 for axis' '$dir/player.out'"
as alice player alice >"$dir/player-a.out" 2>&1
check "... and alice's, who won with the Allies" "grep -q 'game $g .*allied .*won.*bid 2 for axis' '$dir/player-a.out'"

# a challenge without a bid is unchanged: no auction, the game starts
plain=$(newgame carol new axis --opponent dora)
as dora join "$plain" >/dev/null 2>&1
as carol bid "$plain" 1 >"$dir/nobid.out" 2>&1; rc=$?
check "a game created without a bid has no auction (exit $rc), and plays at once" \
    "[ $rc = 1 ] && grep -q 'no side auction' '$dir/nobid.out' && [ \"\$(row 'bid || position' $plain)\" = 0 ] && as carol move $plain 21pz5 W14 >/dev/null 2>&1"
as carol new random --bid 1 >"$dir/random.out" 2>&1; rc=$?
check "no bid from a random side (exit $rc)" "[ $rc = 1 ] && grep -q 'a bid is for a side named' '$dir/random.out'"
as carol new axis --bid 4 >"$dir/over.out" 2>&1; rc=$?
as carol new allied --bid 3 >"$dir/over2.out" 2>&1; rc2=$?
check "an opening bid over the quota is refused: the Allies may receive 3, the Axis 2 (exit $rc, $rc2)" \
    "[ $rc = 1 ] && grep -q '0 to 3' '$dir/over.out' && [ $rc2 = 1 ] && grep -q '0 to 2' '$dir/over2.out'"

# a tournament whose pairings bid: the Axis seat opens, the Allied accepts
as alice admin tournament-create "Bid Cup" round_robin bid both_sides >"$dir/t-both.out" 2>&1; rc=$?
check "a bid tournament does not also play both sides (exit $rc)" "[ $rc = 1 ] && grep -q 'bid for sides' '$dir/t-both.out'"
as alice admin tournament-create "Bid Cup" round_robin bid >/dev/null 2>&1
as carol tournament join 1 >/dev/null 2>&1
as dora tournament join 1 >/dev/null 2>&1
as alice admin tournament-start 1 >/dev/null 2>&1
tg=$(sqlite3 "$db" "SELECT game_id FROM tournament_games WHERE tournament_id = 1")
axis=$(sqlite3 "$db" "SELECT u.name FROM users u JOIN games g ON g.axis_user = u.id WHERE g.id = $tg")
allied=$(sqlite3 "$db" "SELECT u.name FROM users u JOIN games g ON g.allied_user = u.id WHERE g.id = $tg")
as "$allied" bid "$tg" accept >"$dir/t-early.out" 2>&1; rc=$?
check "the tournament's game: the Axis seat opens the auction; nothing to accept yet (exit $rc)" \
    "[ $rc = 1 ] && as $allied show $tg | grep -q 'Side auction: $axis to open it'"
as "$axis" bid "$tg" 0 allied >/dev/null 2>&1
as "$allied" bid "$tg" accept >"$dir/t-accept.out" 2>&1
check "... $axis bids 0 for the Allies, $allied accepts: $axis plays the Allies, nothing extra" \
    "grep -q 'Side bid: $axis plays the Allied side for 0 supply units' '$dir/t-accept.out' && as $axis show $tg | grep -q 'Allied $axis'"
as alice tournament show 1 >"$dir/t-show.out" 2>&1
check "the tournament says its sides are bid for" "grep -q 'sides bid for' '$dir/t-show.out'"

# abuse: a flood of bids on one game writes nothing after the auction's
# few steps; each refused step is answered without a write
g2=$(newgame alice new allied --bid 0)
as bob join "$g2" >/dev/null 2>&1
for i in $(seq 1 30); do as bob bid "$g2" 0 >/dev/null 2>&1; as alice bid "$g2" 1 >/dev/null 2>&1; done
check "30 refused bids by each player changed nothing (the standing bid is alice's 0)" \
    "[ \"\$(row 'bid_supply || bid_side' $g2)\" = 01 ]"
for n in 1 2 3; do as bob bid "$g2" $n allied >/dev/null 2>&1; as alice bid "$g2" $((n + 1)) axis >/dev/null 2>&1; done
check "an auction ends within its bounds: bids stop at the quota (the Allies 3, the Axis 2)" \
    "[ \"\$(row 'bid_supply' $g2)\" -le 3 ] && as bob bid $g2 9 allied 2>&1 | grep -q 'at most'"
# an auction ended some other way is over: an admin's adjudication closes
# it (no bid resets the finished game), and no clock runs meanwhile (an
# admin's extend is refused)
g3=$(newgame carol new axis --opponent dora --bid 1 --time 1h)
as dora join "$g3" >/dev/null 2>&1
as alice admin extend "$g3" 2h >"$dir/extend.out" 2>&1; rc=$?
check "no clock during an auction: an admin's extend is refused (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'side auction is not over' '$dir/extend.out' && [ \"\$(row deadline $g3)\" = 0 ]"
as alice admin adjudicate "$g3" draw "the auction never ended" >/dev/null 2>&1
as dora bid "$g3" accept >"$dir/after-adj.out" 2>&1; rc=$?
check "after an adjudication the auction is closed: accept refused (exit $rc), the game stays over" \
    "[ $rc = 1 ] && grep -q 'no side auction' '$dir/after-adj.out' && as dora show $g3 | grep -qi 'drawn\|draw' && as dora show $g3 | grep -q 'Side auction: closed without an accepted bid'"
# a restart keeps an auction's state
kill -TERM $pid; wait $pid 2>/dev/null
start_akd again --db "$db"
as bob show "$g2" >"$dir/restart.out" 2>&1
check "after a restart the auction is where it was" "grep -q 'Side auction' '$dir/restart.out'"
finish
