#!/bin/bash
# Personal data an account owner controls (issue 33): export as JSON,
# delete the account (personal data erased, unfinished games ended as the
# operator's delete_games says, finished games kept under a placeholder
# so their records still verify), and an admin doing the same on request,
# audited.
# usage: personal.sh AKD AKC
set -u
AKD=$1 AKC=$2
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
db=$dir/akd.sqlite3
start_akd main --db "$db" --delete-games resign
for u in alice bob carol dora; do AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1; done
"$AKD" --db "$db" --admin-add alice >/dev/null 2>&1
newgame() { as "$@" --json | sed -n 's/.*"game":\([0-9]*\).*/\1/p'; }

# bob's data: an address, a finished rated game, a running one with chat,
# an open seek, a challenge to him
as bob settings email bob@example.org >/dev/null 2>&1
done_game=$(newgame alice new axis --opponent bob --rated)
as bob join "$done_game" >/dev/null 2>&1
as alice resign "$done_game" >/dev/null 2>&1
running=$(newgame bob new axis --opponent carol)
as carol join "$running" >/dev/null 2>&1
as bob move "$running" 21pz5 W14 >/dev/null 2>&1
as bob chat "$running" my secret plan >/dev/null 2>&1
seek=$(newgame bob new allied)
challenge=$(newgame dora new axis --opponent bob)

as bob export-data "$dir/bob.json" >"$dir/export.out" 2>&1; rc=$?
check "akc export-data writes the account's data (exit $rc), readable by its owner only" \
    "[ $rc = 0 ] && grep -q 'your data (3 games, 1 chat messages) is in' '$dir/export.out' && [ \$(stat -c %a '$dir/bob.json') = 600 ]"
check "... profile and settings, the rating, the games with sides and opponents, the chat he wrote" \
    "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d[\"profile\"]; g={x[\"game\"]: x for x in d[\"games\"]}; assert p[\"name\"]==\"bob\" and p[\"email\"]==\"bob@example.org\" and d[\"ratings\"][0][\"games\"]==1 and g[$running][\"opponent\"]==\"carol\" and g[$running][\"side\"]==\"axis\" and g[$done_game][\"side\"]==\"allied\" and d[\"chat\"][0][\"text\"]==\"my secret plan\" and d[\"games_total\"]==3' '$dir/bob.json'"

as bob delete-account carol >"$dir/del-name.out" 2>&1; rc=$?
check "delete-account wants the account's own name again (exit $rc)" "[ $rc = 2 ] && grep -q 'name the account you are logged in as (bob)' '$dir/del-name.out'"
AKC_PASSWORD=wrong-password as bob delete-account bob >"$dir/del-wrong.out" 2>&1; rc=$?
check "... and its password: a wrong one deletes nothing (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'the password is wrong; nothing was done' '$dir/del-wrong.out' && [ \$(sqlite3 '$db' \"SELECT count(*) FROM users WHERE name = 'bob'\") = 1 ]"
bob_id=$(sqlite3 "$db" "SELECT id FROM users WHERE name = 'bob'")
AKC_PASSWORD=password-bob as bob delete-account bob >"$dir/del.out" 2>&1; rc=$?
check "akc delete-account deletes it (exit $rc): 3 unfinished games ended (the running one resigned, the seek and the challenge called off)" \
    "[ $rc = 0 ] && grep -q \"account bob deleted: .* under the name deleted-$bob_id; 3 unfinished games ended\" '$dir/del.out'"
check "... the name, password, e-mail and sessions are gone from the database" \
    "[ \"\$(sqlite3 '$db' \"SELECT name || '|' || pwhash || '|' || email FROM users WHERE id = $bob_id\")\" = 'deleted-$bob_id|!|' ] && [ \$(sqlite3 '$db' \"SELECT count(*) FROM sessions WHERE user_id = $bob_id\") = 0 ]"
check "... the text of his chat is removed (the row kept, marked removed), the rows of his games stay" \
    "[ \"\$(sqlite3 '$db' \"SELECT count(*) || '|' || sum(removed) || '|' || group_concat(text) FROM chat WHERE user_id = $bob_id\")\" = '1|1|' ] && [ \$(sqlite3 '$db' \"SELECT count(*) FROM games WHERE axis_user = $bob_id OR allied_user = $bob_id\") = 3 ]"
as carol show "$running" --no-color >"$dir/running.out" 2>&1
check "his running game ended by his resignation; carol's opponent reads deleted-$bob_id" \
    "grep -q 'Allied won by resignation' '$dir/running.out' && grep -q 'deleted-$bob_id' '$dir/running.out'"
check "the seek was aborted and the challenge to him declined" \
    "[ \"\$(sqlite3 '$db' \"SELECT group_concat(status) FROM games WHERE id IN ($seek, $challenge) ORDER BY id\")\" = 'aborted,declined' ]"
AKC_PASSWORD=password-bob as bob login bob >"$dir/relogin.out" 2>&1; rc=$?
check "the deleted account cannot log in (exit $rc)" "[ $rc = 1 ] && grep -q 'wrong user name or password' '$dir/relogin.out'"
as alice verify "$done_game" >"$dir/verify.out" 2>&1; rc=$?
check "his finished game's record still verifies (exit $rc)" "[ $rc = 0 ] && grep -q 'verified' '$dir/verify.out'"
check "the log says who deleted which account" "grep -q 'account bob deleted by its owner' '$dir/main.log'"

check "... his rating is gone, and he is banned (no login, no pairing)" \
    "[ \$(sqlite3 '$db' \"SELECT count(*) FROM ratings WHERE user_id = $bob_id\") = 0 ] && [ \$(sqlite3 '$db' \"SELECT banned FROM users WHERE id = $bob_id\") = 1 ]"
AKC_PASSWORD=password-x as x register deleted-$bob_id >"$dir/squat.out" 2>&1; rc=$?
check "nobody registers a name beginning with deleted- (exit $rc)" "[ $rc = 1 ] && grep -q 'kept for deleted accounts' '$dir/squat.out'"

# an admin, on request: export and delete carol's; only an admin may; no
# admin deletes himself or another admin this way
as carol admin delete-account dora >"$dir/notadmin.out" 2>&1; rc=$?
check "a player cannot delete another's account (exit $rc)" "[ $rc = 1 ] && grep -q 'admin role' '$dir/notadmin.out'"
as alice admin delete-account alice >"$dir/self.out" 2>&1; rc=$?
check "an admin cannot delete his own account this way (exit $rc)" "[ $rc = 1 ] && grep -q 'has the admin role' '$dir/self.out'"
as alice admin export-account carol >"$dir/carol.json" 2>&1
check "an admin exports an account on request" "python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))[\"profile\"][\"name\"]==\"carol\"' '$dir/carol.json'"
as alice admin delete-account carol >"$dir/adel.out" 2>&1
check "... and deletes it" "grep -q 'account carol deleted' '$dir/adel.out'"
check "both are audited, with the admin and the account" \
    "[ \"\$(sqlite3 '$db' \"SELECT group_concat(admin || ' ' || op || ' ' || target, ';') FROM admin_actions WHERE op LIKE '%_account'\")\" = 'alice export_account carol;alice delete_account carol' ]"
# delete_games adjudicate: an unfinished game goes to the opponent, by adjudication
kill -TERM $pid; wait $pid 2>/dev/null
start_akd adj --db "$db" --delete-games adjudicate
for u in alice dora; do AKC_PASSWORD=password-$u as $u login $u >/dev/null 2>&1; done
AKC_PASSWORD=password-erin as erin register erin >/dev/null 2>&1
eg=$(newgame erin new axis --opponent dora)
as dora join "$eg" >/dev/null 2>&1
AKC_PASSWORD=password-erin as erin delete-account erin >"$dir/del-adj.out" 2>&1
as dora show "$eg" --no-color >"$dir/adj.out" 2>&1
check "with delete_games adjudicate the game is adjudicated to the opponent" \
    "grep -q '1 unfinished games ended' '$dir/del-adj.out' && grep -q 'Allied won by adjudication' '$dir/adj.out'"

# chat retention: with chat_keep_days, older messages go (and only they)
g=$(newgame dora new axis --opponent alice)
as alice join "$g" >/dev/null 2>&1
as dora chat "$g" an old line >/dev/null 2>&1
as dora chat "$g" a new line >/dev/null 2>&1
kill -TERM $pid; wait $pid 2>/dev/null
sqlite3 "$db" "UPDATE chat SET at = at - 10 * 86400 WHERE text = 'an old line'"
start_akd kept --db "$db" --chat-keep-days 7 --clock-tick-ms 100
sleep 1
check "chat_keep_days 7: a message of 10 days ago is deleted, today's kept, and the log says so" \
    "[ \"\$(sqlite3 '$db' \"SELECT group_concat(text) FROM chat WHERE game_id = $g\")\" = 'a new line' ] && grep -q 'chat retention: 1 messages older than chat_keep_days deleted' '$dir/kept.log'"
# finished-game retention: with games_keep_days, a game over that last
# moved longer ago goes (actions, chat, rating change; the rating stays),
# a recent one and a tournament's pairing stay
kill -TERM $pid; wait $pid 2>/dev/null
start_akd games --db "$db" --clock-tick-ms 100
for u in alice dora; do AKC_PASSWORD=password-$u as $u login $u >/dev/null 2>&1; done
old=$(newgame dora new axis --opponent alice --rated)
as alice join "$old" >/dev/null 2>&1
as dora chat "$old" good game >/dev/null 2>&1
as dora resign "$old" >/dev/null 2>&1
called_off=$(newgame dora new allied)
as dora abort "$called_off" >/dev/null 2>&1
recent=$(newgame dora new axis --opponent alice)
as alice join "$recent" >/dev/null 2>&1
as dora resign "$recent" >/dev/null 2>&1
as alice admin tournament-create "Old cup" round_robin >/dev/null 2>&1
tid=$(sqlite3 "$db" "SELECT id FROM tournaments WHERE name = 'Old cup'")
for u in alice dora; do as $u tournament join "$tid" >/dev/null 2>&1; done
as alice admin tournament-start "$tid" >/dev/null 2>&1
sleep 0.3
paired=$(sqlite3 "$db" "SELECT game_id FROM tournament_games WHERE tournament_id = $tid")
as alice resign "$paired" >/dev/null 2>&1; as dora resign "$paired" >/dev/null 2>&1
sleep 0.3
kill -TERM $pid; wait $pid 2>/dev/null
sqlite3 "$db" "UPDATE actions SET created = created - 40 * 86400 WHERE game_id IN ($old, $paired); UPDATE games SET created = created - 40 * 86400 WHERE id IN ($old, $paired, $called_off)"
rating_before=$(sqlite3 "$db" "SELECT rating FROM ratings WHERE user_id = (SELECT id FROM users WHERE name = 'alice')")
start_akd kept2 --db "$db" --games-keep-days 30 --clock-tick-ms 100
for u in alice dora; do AKC_PASSWORD=password-$u as $u login $u >/dev/null 2>&1; done
sleep 1
as alice show "$old" >"$dir/old.out" 2>&1; rc=$?
check "games_keep_days 30: a game over 40 days ago is gone (exit $rc), with its actions, chat and rating change, and a seek called off then too; the log says so" \
    "[ $rc = 1 ] && grep -q 'no_such_game\|no game' '$dir/old.out' && [ \$(sqlite3 '$db' \"SELECT (SELECT count(*) FROM actions WHERE game_id = $old) + (SELECT count(*) FROM chat WHERE game_id = $old) + (SELECT count(*) FROM rating_changes WHERE game_id = $old) + (SELECT count(*) FROM games WHERE id IN ($old, $called_off))\") = 0 ] && grep -q 'game retention: 2 finished games older than games_keep_days deleted' '$dir/kept2.log'"
check "... the rating it gave stays; today's game and the tournament's old pairing stay" \
    "[ \"\$(sqlite3 '$db' \"SELECT rating FROM ratings WHERE user_id = (SELECT id FROM users WHERE name = 'alice')\")\" = '$rating_before' ] && as alice show $recent >/dev/null 2>&1 && as alice show $paired >/dev/null 2>&1"

# abuse: a stolen session cannot guess the password through delete-account
# faster than a login may (login_failures counts these guesses too)
kill -TERM $pid; wait $pid 2>/dev/null
start_akd guess --db "$db" --login-failures 3 --login-window 600
AKC_PASSWORD=password-dora as dora login dora >/dev/null 2>&1
for i in 1 2 3 4 5; do AKC_PASSWORD=wrong-$i as dora delete-account dora >"$dir/guess$i.out" 2>&1; done
check "wrong passwords to delete-account are throttled like logins: the 4th and 5th refused before any hash" \
    "grep -q 'the password is wrong' '$dir/guess3.out' && grep -qi 'too many' '$dir/guess4.out' && grep -qi 'too many' '$dir/guess5.out' && [ \$(sqlite3 '$db' \"SELECT count(*) FROM users WHERE name = 'dora'\") = 1 ]"
"$AKD" --listen 127.0.0.1:0 --db "$dir/x.sqlite3" --delete-games sometimes >"$dir/badset.out" 2>&1; rc=$?
check "delete_games is resign or adjudicate (exit $rc)" "[ $rc = 2 ] && grep -q 'delete_games is resign or adjudicate' '$dir/badset.out'"
finish
