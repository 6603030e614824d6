#!/bin/bash
# Integration: the correspondence comforts of issue 15 - seeks with a
# rating range, chat (players' and spectators' channels, kept apart until
# the end, muted, limited), vacations (clocks stand still, days per year,
# tournaments without vacation), the daily digest instead of one
# notification per move, and e-mail addresses verified by a token.
# usage: comforts.sh AKD AKC
set -u
AKD=$1 AKC=$2
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
cat >"$dir/notify" <<EOF
#!/bin/sh
echo "\$1 user=\$AK_USER game=\$AK_GAME email=\$AK_EMAIL token=\$AK_TOKEN games=\$AK_GAMES" >>"$dir/notify.log"
EOF
chmod +x "$dir/notify"
hour=$(date -u +%H)
start_akd main --db "$dir/akd.sqlite3" --clock-tick-ms 100 --notify-command "$dir/notify" \
    --vacation-days 3 --digest-hour "$((10#$hour))"
for u in alice bob carol dave; do
    AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1 || bad "register $u"
done
# the admin role goes to an existing account (issue 27)
"$AKD" --db "$dir/akd.sqlite3" --admin-add alice >/dev/null || bad "akd --admin-add alice"
newgame() { as "$@" --json | sed -n 's/.*"game":\([0-9]*\).*/\1/p'; }

# --- an open seek with a rating range ---
as bob new axis --min-rating 1600 --opponent carol >"$dir/seek-ch.out" 2>&1; rc=$?
check "a rating range is for open seeks, not challenges" "[ $rc = 1 ] && grep -q 'not a challenge' '$dir/seek-ch.out'"
as bob new axis --min-rating 1700 --max-rating 1600 >"$dir/seek-bad.out" 2>&1; rc=$?
check "min above max is refused" "[ $rc = 1 ]"
as bob new axis --max-rating 0 >"$dir/seek-zero.out" 2>&1; rc=$?
check "a rating is 1 to 4000 (usage)" "[ $rc = 2 ]"
hi=$(newgame bob new axis --min-rating 1600)
as carol games --open >"$dir/seek-list.out" 2>&1
check "the seek shows its range" "grep -q 'open seek, rated 1600-4000' '$dir/seek-list.out'"
as carol join "$hi" >"$dir/seek-join.out" 2>&1; rc=$?
check "a 1500 player cannot take a 1600+ seek (not_eligible)" "[ $rc = 1 ] && grep -q 'for players rated 1600 to 4000 in classic; you are 1500' '$dir/seek-join.out'"
lo=$(newgame bob new axis --min-rating 1400 --max-rating 1550)
as carol join "$lo" >"$dir/seek-ok.out" 2>&1; rc=$?
check "... and can take a 1400-1550 one" "[ $rc = 0 ]"

# --- chat ---
g=$lo
as dave watch "$g" >"$dir/spectator.out" 2>&1 &
sw=$!
as carol watch "$g" >"$dir/player.out" 2>&1 &
pw=$!
sleep 0.4
as bob chat "$g" good luck, have fun >"$dir/say.out" 2>&1
expect say 'said to the players'
as dave chat "$g" bob will lose the 21st panzer >"$dir/say2.out" 2>&1
expect say2 'said to the spectators'
sleep 0.4
check "the opponent gets the players' message as it is said" "grep -q 'bob: good luck, have fun' '$dir/player.out'"
check "... and not the spectators' remark" "! grep -q '21st panzer' '$dir/player.out'"
check "a spectator gets the spectators' channel" "grep -q '(spectator) dave: bob will lose' '$dir/spectator.out'"
check "... and not the players'" "! grep -q 'good luck' '$dir/spectator.out'"
as carol chat "$g" >"$dir/hist-player.out" 2>&1
check "a player's history: the players' channel only during the game" "grep -q 'bob: good luck' '$dir/hist-player.out' && ! grep -q 'panzer' '$dir/hist-player.out'"
as dave chat "$g" >"$dir/hist-spec.out" 2>&1
check "a spectator's history: the spectators' only" "grep -q 'panzer' '$dir/hist-spec.out' && ! grep -q 'good luck' '$dir/hist-spec.out'"
as carol settings chat off >"$dir/mute.out" 2>&1
expect mute 'chat: off'
as bob chat "$g" are you there >/dev/null 2>&1
sleep 0.4
check "a player who muted chat gets no chat pushes" "! grep -q 'are you there' '$dir/player.out'"
as carol chat "$g" >"$dir/hist-muted.out" 2>&1
check "... and can still read it when he asks" "grep -q 'are you there' '$dir/hist-muted.out'"
as carol settings chat on >/dev/null 2>&1
printf '{"id":1,"cmd":"chat","game":%s,"text":"two\\nlines"}\n' "$g" >"$dir/ctrl.in"
btok=$(sed -n 3p "$dir/state-bob/akc/session")
{ echo "{\"id\":0,\"cmd\":\"resume\",\"token\":\"$btok\"}"; cat "$dir/ctrl.in";
  echo "{\"id\":2,\"cmd\":\"chat\",\"game\":$g,\"text\":\"$(head -c 600 /dev/zero | tr '\0' x)\"}"; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/chat-bad.out" 2>&1
check "a message with a line break, or over 500 bytes, is refused" "[ \$(grep -c '1 to 500 bytes of text, on one line' '$dir/chat-bad.out') = 2 ]"
for i in 1 2 3 4 5 6 7; do as dave chat "$g" "spam $i" >"$dir/flood.out" 2>&1; done
check "chat is limited in rate" "grep -q 'too many chat messages' '$dir/flood.out'"

# --- chat moderation (issue 33): a player reports what he may read (not
# his own, once), an admin sees the reports, removes a message (its row
# stays, its text goes, the watchers are told) or dismisses them, and
# mutes an account's chat for a time; all audited; the limits on reports
msgid() {  # USER WORDS: the number of the message holding WORDS, as USER reads the chat
    as "$1" --json chat "$g" | python3 -c 'import json,sys; print([m["id"] for m in json.load(sys.stdin)["messages"] if sys.argv[1] in m["text"]][0])' "$2"
}
gl=$(msgid carol 'good luck')
pz=$(msgid dave 'panzer')
as carol report "$pz" >"$dir/rep-unseen.out" 2>&1; rc=$?
check "a player cannot report (nor learn of) a spectators' message during the game (exit $rc)" \
    "[ $rc = 1 ] && grep -q \"there is no chat message $pz\" '$dir/rep-unseen.out'"
as bob report "$gl" >"$dir/rep-own.out" 2>&1; rc=$?
check "nobody reports his own message (exit $rc)" "[ $rc = 1 ] && grep -q 'is your own' '$dir/rep-own.out'"
as carol report "$gl" rude to me >"$dir/rep.out" 2>&1
expect rep "message $gl reported to the server's admins"
as carol report "$gl" >"$dir/rep-again.out" 2>&1
expect rep-again 'you had reported it already'
as carol chat "$g" >"$dir/hist-ids.out" 2>&1
check "akc chat numbers each message (what akc report names)" "grep -q \"^\\[$gl\\] bob: good luck\" '$dir/hist-ids.out'"
as carol admin chat-reports >"$dir/rep-notadmin.out" 2>&1; rc=$?
check "only an admin reads the reports (exit $rc)" "[ $rc = 1 ] && grep -q 'admin role' '$dir/rep-notadmin.out'"
as alice admin chat-reports >"$dir/reports.out" 2>&1
check "the admin sees the message, its author and text, who reported it and why" \
    "grep -q \"^message $gl in game $g (players' channel), bob: good luck, have fun\" '$dir/reports.out' && grep -q 'reported 1 time, first by carol: rude to me' '$dir/reports.out'"
as alice admin chat-delete "$gl" >"$dir/del.out" 2>&1
expect del "message $gl removed; its reports are closed"
sleep 0.3
check "the watchers who could read it are told it was removed" "grep -q \"chat message $gl was removed by an admin\" '$dir/player.out'"
as carol chat "$g" >"$dir/hist-del.out" 2>&1
check "... it reads as removed, its text gone from the database" \
    "grep -q \"^\\[$gl\\] bob: (removed by an admin)\" '$dir/hist-del.out' && [ \"\$(sqlite3 '$dir/akd.sqlite3' \"SELECT text FROM chat WHERE id = $gl\")\" = '' ]"
as alice admin chat-reports >"$dir/reports2.out" 2>&1
expect reports2 'no chat message is reported'
as alice admin chat-delete 999999 >"$dir/del-none.out" 2>&1; rc=$?
check "removing a message that does not exist says so (exit $rc)" "[ $rc = 1 ] && grep -q 'no chat message 999999' '$dir/del-none.out'"
ayt=$(msgid carol 'are you there')
as carol report "$ayt" >/dev/null 2>&1
as alice admin chat-dismiss "$ayt" >"$dir/dismiss.out" 2>&1
expect dismiss "message $ayt kept; its reports are closed"
check "... and it is still there" "as carol chat '$g' 2>&1 | grep -q 'are you there'"
as alice admin chat-mute dave 1h >"$dir/mute-dave.out" 2>&1
expect mute-dave 'dave may not chat for 1h'
as dave chat "$g" one more >"$dir/muted-say.out" 2>&1; rc=$?
check "a muted account cannot chat, and is told for how long (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'muted your chat for 60 more minutes' '$dir/muted-say.out'"
as alice admin chat-mute dave 0 >"$dir/unmute.out" 2>&1
expect unmute 'dave may chat again'
check "every moderation is in the audit table, with who did it and to what" \
    "[ \"\$(sqlite3 '$dir/akd.sqlite3' \"SELECT group_concat(admin || ' ' || op || ' ' || target, ';') FROM admin_actions WHERE op LIKE 'chat_%'\")\" = 'alice chat_delete message $gl;alice chat_dismiss message $ayt;alice chat_mute dave;alice chat_mute dave' ]"
# the limits: an account has at most 20 reports open; a reason is short plain text
for u in s1 s2 s3 s4 s5; do
    AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1
    for i in 1 2 3 4 5; do as $u chat "$g" "noise $u $i" >/dev/null 2>&1; done
done
ids=$(as dave --json chat "$g" | python3 -c 'import json,sys; print(" ".join(str(m["id"]) for m in json.load(sys.stdin)["messages"] if m["text"].startswith("noise")))')
kept=0
for m in $ids; do as dave report "$m" >"$dir/rep-many.out" 2>&1 && kept=$((kept + 1)); done
check "an account has at most 20 reports waiting: the 21st is refused (kept $kept of $(echo $ids | wc -w))" \
    "[ $kept = 20 ] && grep -q 'you have 20 reports waiting for the admins already' '$dir/rep-many.out'"
ctok=$(sed -n 3p "$dir/state-carol/akc/session")
{ echo "{\"id\":0,\"cmd\":\"resume\",\"token\":\"$ctok\"}"
  printf '{"id":1,"cmd":"chat_report","message":%s,"reason":"a\\nb"}\n' "$ayt"
  echo "{\"id\":2,\"cmd\":\"chat_report\",\"message\":$ayt,\"reason\":\"$(head -c 201 /dev/zero | tr '\0' x)\"}"; } |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/rep-bad.out" 2>&1
check "a reason with a line break, or over 200 bytes, is refused" \
    "[ \$(grep -c 'a reason is at most 200 bytes of text, on one line' '$dir/rep-bad.out') = 2 ]"
as bob resign "$g" >/dev/null 2>&1
sleep 0.3
as carol chat "$g" >"$dir/hist-after.out" 2>&1
check "after the game both channels are open to all" "grep -q 'panzer' '$dir/hist-after.out' && grep -q 'are you there' '$dir/hist-after.out'"
kill $sw $pw 2>/dev/null
as bob record "$g" >"$dir/rec.json" 2>&1
check "chat is not in the game record" "! grep -q 'good luck' '$dir/rec.json'"
as bob verify "$g" >/dev/null 2>&1; rc=$?
check "... which still verifies" "[ $rc = 0 ]"

# --- vacation ---
v=$(newgame bob new axis --opponent carol --time 1d)
as carol join "$v" >/dev/null 2>&1
before=$(as bob --json show "$v" | python3 -c 'import json,sys; print(json.load(sys.stdin)["deadline"])')
as bob vacation >"$dir/vac0.out" 2>&1
expect vac0 '3.0 of 3 days left this year'
as bob vacation 5 >"$dir/vac-long.out" 2>&1; rc=$?
check "more days than are left is refused" "[ $rc = 1 ] && grep -q '3.0 days of vacation are left this year (of 3)' '$dir/vac-long.out'"
as bob vacation 2 >"$dir/vac.out" 2>&1
expect vac 'on vacation until'
expect vac '1 game waiting for you had its deadline moved'
after=$(as bob --json show "$v" | python3 -c 'import json,sys; print(json.load(sys.stdin)["deadline"])')
check "the game waiting for him has its deadline moved by two days" "[ \$((after - before)) -ge 172790 ] && [ \$((after - before)) -le 172810 ]"
as bob vacation 1 >"$dir/vac-twice.out" 2>&1; rc=$?
check "a second vacation while on one is refused" "[ $rc = 1 ]"
w=$(newgame carol new axis --opponent bob --time 1d)
as bob join "$w" >/dev/null 2>&1
as carol move "$w" 21pz5 W14 >/dev/null 2>&1
as carol move "$w" 21pz3,21pz104 W11 >/dev/null 2>&1
as carol move "$w" savena,bologna,brescia W7 >/dev/null 2>&1
as carol move "$w" pavia,trenta,ariete W5 >/dev/null 2>&1
as carol end-movement "$w" >/dev/null 2>&1
as carol end-turn "$w" >/dev/null 2>&1
dl=$(as bob --json show "$w" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["deadline"], j["waiting_for"])')
now=$(date +%s)
check "a game that comes to wait for him while he is away counts from his return ($dl)" \
    "[ \"\${dl#* }\" = allied ] && [ \$(( \${dl% *} - now )) -ge 259000 ]"
as bob vacation end >"$dir/vac-end.out" 2>&1
expect vac-end 'not on vacation'
back=$(as bob --json show "$v" | python3 -c 'import json,sys; print(json.load(sys.stdin)["deadline"])')
check "back early: the unused time comes off the deadline" "[ \$((back - before)) -ge -10 ] && [ \$((back - before)) -le 60 ]"
expect vac-end '[23]\.[0-9] of 3 days left this year'
# a tournament that allows no vacation keeps its clocks
as alice admin tournament-create "No Holidays" round_robin time=1d >/dev/null 2>&1
as bob tournament join 1 >/dev/null 2>&1; as dave tournament join 1 >/dev/null 2>&1
as alice admin tournament-start 1 >/dev/null 2>&1
sleep 0.3
as dave vacation 1 >"$dir/vac-t.out" 2>&1
as bob vacation 1 >"$dir/vac-t2.out" 2>&1
check "a tournament without vacations keeps its game's clock" "grep -q 'tournament game keeps its clock' '$dir/vac-t.out' '$dir/vac-t2.out'"
as bob vacation end >/dev/null 2>&1; as dave vacation end >/dev/null 2>&1
# ... and its player on vacation loses on time there
as alice admin tournament-create "Quick No Holidays" round_robin time=2s >/dev/null 2>&1
as carol tournament join 2 >/dev/null 2>&1; as alice tournament join 2 >/dev/null 2>&1
as alice admin tournament-start 2 >/dev/null 2>&1
sleep 0.3
tg=$(as carol --json tournament show 2 | python3 -c 'import json,sys; g=json.load(sys.stdin)["games"][0]; print(g["game"], g["axis"])')
as "${tg#* }" vacation 1 >/dev/null 2>&1
sleep 3
as carol show "${tg% *}" >"$dir/vac-t3.out" 2>&1
check "a player on vacation still loses on time in a tournament without vacations" "grep -q 'Allied won by time\|on time' '$dir/vac-t3.out'"
as "${tg#* }" vacation end >/dev/null 2>&1

# --- e-mail, verified by a token ---
as erin settings >/dev/null 2>&1
as carol settings email not-an-address >"$dir/mail-bad.out" 2>&1; rc=$?
check "an implausible address is refused" "[ $rc = 1 ]"
as carol settings email carol@example.org >"$dir/mail.out" 2>&1
expect mail 'e-mail: carol@example.org (not verified'
sleep 0.5
check "the notify command gets verify_email with the address and a token" "grep -q 'verify_email user=carol game= email=carol@example.org token=[0-9a-f]\{32\}' '$dir/notify.log'"
tok=$(sed -n 's/.*verify_email user=carol .*token=\([0-9a-f]*\) .*/\1/p' "$dir/notify.log" | tail -1)
as carol settings verify-email 0000 >"$dir/mail-wrong.out" 2>&1; rc=$?
check "a wrong token does not verify" "[ $rc = 1 ]"
as carol settings verify-email "$tok" >"$dir/mail-ok.out" 2>&1
expect mail-ok 'e-mail: carol@example.org (verified)'
as carol settings email other@example.org >"$dir/mail-again.out" 2>&1; rc=$?
check "another verification mail so soon is refused (nobody floods a mailbox through akd)" "[ $rc = 1 ] && grep -q 'a verification was sent' '$dir/mail-again.out'"
check "... and nothing was sent" "[ \$(grep -c 'verify_email user=carol' '$dir/notify.log') = 1 ]"
x=$(newgame dave new axis --opponent carol)
sleep 0.5
check "notifications carry a verified address" "grep -q \"challenge user=carol game=$x email=carol@example.org\" '$dir/notify.log'"

# --- the daily digest ---
as dave settings notify digest >"$dir/digest-set.out" 2>&1
open_seek=$(newgame dave new axis)
expect digest-set 'notifications: a daily digest'
y=$(newgame carol new allied --opponent dave)
as dave join "$y" >/dev/null 2>&1
z=$(newgame bob new allied --opponent dave)
as dave join "$z" >/dev/null 2>&1
sleep 0.5
check "a digest player gets no your_turn notification" "! grep -q \"your_turn user=dave\" '$dir/notify.log'"
check "... others still do" "grep -q 'your_turn user=' '$dir/notify.log'"
# today's digests went out at the first tick; a restarted akd sends them
# again at its first (the hour is this one), listing dave's two games
kill $pid; wait $pid 2>/dev/null
start_akd main2 --db "$dir/akd.sqlite3" --clock-tick-ms 100 --notify-command "$dir/notify" \
    --digest-hour "$((10#$hour))"
sleep 1
check "the daily digest lists the games waiting for him, in one notification" \
    "[ \$(grep -c 'digest user=dave' '$dir/notify.log') = 1 ] && grep -q \"digest user=dave game= email= token= games=\\(.* \\)\\?$y $z\\$\" '$dir/notify.log'"
check "... and nobody else gets one (each notification per move)" "! grep -q 'digest user=[^d]' '$dir/notify.log'"
check "an open seek of his is not in it (nobody waits on it)" "! grep -q \"digest user=dave.*games=.*\\b$open_seek\\b\" '$dir/notify.log'"
kill $pid; wait $pid 2>/dev/null
start_akd main3 --db "$dir/akd.sqlite3" --clock-tick-ms 100 --notify-command "$dir/notify" \
    --digest-hour "$((10#$hour))"
sleep 1
check "a restart the same day sends no second digest" "[ \$(grep -c 'digest user=dave' '$dir/notify.log') = 1 ]"
finish
