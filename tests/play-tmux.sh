#!/bin/bash
# End to end in a real terminal: tmux runs `akc play` for both players
# against a test akd, sends keystrokes and reads the screens with
# capture-pane. A move (with tab completion), bad input at the prompt, a
# battle with its odds shown before it is sent, and, when the attacker is
# thrown back, the retreat choice offered to the defender as numbered
# options and taken by typing its number; the dangers of the position shown
# before the prompt, and the question before an end-movement that would
# throw something away; an undo; and, akd restarted, akc reconnecting. The dice are the game's own, so
# the skirmish is replayed in a new game until a retreat comes up (two
# chances in three each time).
# usage: play-tmux.sh AKD AKC AK-SCENARIO POSITION.scn
set -u
AKD=$1
AKC=$2
SCENARIO=$3
POSITION=$4
dir=$(mktemp -d)
sock="$dir/tmux.sock"
T() { tmux -S "$sock" "$@"; }
trap 'for s in "$dir"/tmux-*.sock; do tmux -S "$s" kill-server 2>/dev/null; done; kill -9 $pid 2>/dev/null; rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then echo "tmux is not installed (scripts/setup installs it)"; exit 1; fi

start_akd akd --db "$dir/akd.sqlite3" --allow-positions 1
"$SCENARIO" --dump "$POSITION" >"$dir/position.json" 2>/dev/null || { echo "cannot make the position"; exit 1; }
AKC_PASSWORD=password-alice as alice register alice >/dev/null
AKC_PASSWORD=password-bob as bob register bob >/dev/null

# screen PANE: the visible text of a pane
screen() { T capture-pane -p -t "$1"; }
# wait_for PANE PATTERN: until the pane shows PATTERN (up to 5 s)
wait_for() {
    for _ in $(seq 50); do screen "$1" | grep -q -- "$2" && return 0; sleep 0.1; done
    return 1
}
expect_screen() {
    if wait_for "$1" "$2"; then ok "$1 shows: $2"; else bad "$1 shows: $2"; echo "---"; screen "$1"; echo "---"; fi
}
keys() { T send-keys -t "$1" "$2" Enter; }

start_players() {
    local game=$1
    # a fresh tmux server (and socket) for each game: no race with the last
    T kill-server 2>/dev/null
    sock="$dir/tmux-$game.sock"
    T new-session -d -s e2e -x 120 -y 50 \
        "XDG_CONFIG_HOME=$dir/cfg-alice XDG_STATE_HOME=$dir/state-alice AKC_SERVER=127.0.0.1:$port $AKC --no-color play $game; sleep 30"
    T rename-window -t e2e:0 alice
    T new-window -d -t e2e:1 -n bob \
        "XDG_CONFIG_HOME=$dir/cfg-bob XDG_STATE_HOME=$dir/state-bob AKC_SERVER=127.0.0.1:$port $AKC --no-color play $game; sleep 30"
    wait_for e2e:alice 'Your move' && wait_for e2e:bob 'Waiting for the Axis player'
}

retreat_seen=false
for attempt in 1 2 3 4 5 6 7 8 9 10; do
    game=$(as alice --json new axis --opponent bob --position "$dir/position.json" | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
    as bob join "$game" >/dev/null
    if ! start_players "$game"; then
        bad "akc play starts for both players (game '$game')"
        screen e2e:alice; screen e2e:bob
        break
    fi
    if [ $attempt = 1 ]; then
        ok "akc play starts, tells Alice it is her move and Bob that he waits"
        # Bad input changes nothing and says why.
        keys e2e:alice "fly to cairo"
        expect_screen e2e:alice "unknown command 'fly'"
        keys e2e:alice "move nosuchunit P35"
        expect_screen e2e:alice "unknown unit 'nosuchunit'"
        keys e2e:alice "move f P35"
        expect_screen e2e:alice "ambiguous unit name 'f'"
        keys e2e:alice "move folgere A1"
        expect_screen e2e:alice "illegal: .*MOVE-8"
        # Tab completion of a unit name.
        T send-keys -t e2e:alice "move folg" Tab
        wait_for e2e:alice "move folgere" && ok "tab completes folg to folgere" || bad "tab completion"
        T send-keys -t e2e:alice C-u
        # ... only units that can act: the 21st Panzer is not on the board
        T send-keys -t e2e:alice "move 21p" Tab
        sleep 0.3
        screen e2e:alice | grep -q "move 21pz" && bad "tab completion offers units that cannot act" ||
            ok "tab completion leaves out units off the board"
        T send-keys -t e2e:alice C-u
        # ... the mover's own units to move, the enemy's to attack
        T send-keys -t e2e:alice "move 7ar" Tab
        sleep 0.3
        screen e2e:alice | grep -q "move 7arm7" && bad "tab completion offers an enemy unit to move" ||
            ok "tab completion offers only own units to move"
        T send-keys -t e2e:alice C-u
        T send-keys -t e2e:alice "odds folgere 7ar" Tab
        wait_for e2e:alice "odds folgere 7arm7" && ok "tab completion offers enemy units as defenders" ||
            bad "tab completion of a defender"
        T send-keys -t e2e:alice C-u
    fi
    if [ $attempt = 1 ]; then
        # An undo: both see what was taken back, and the next move is
        # planned from the position after it (a stale one would send a
        # path from P32 and be refused).
        keys e2e:alice "move folgere P32"
        expect_screen e2e:alice "folgere moved P31 to P32"
        keys e2e:alice "undo"
        expect_screen e2e:alice "taken back by the Axis player: move folgere"
        expect_screen e2e:bob "taken back by the Axis player: move folgere"
        # The prompt follows the newest state, and "Your move" is not repeated.
        [ "$(screen e2e:alice | grep -c 'Your move: the Axis movement portion')" = 1 ] &&
            ok "Your move is said once while the game waits for the same thing" ||
            bad "Your move repeated: $(screen e2e:alice | grep -c 'Your move')"
        # log lists the player's own actions too (the move, then its undo)
        keys e2e:alice "log"
        sleep 0.3
        check "log in play includes my own move" "[ \$(screen e2e:alice | grep -c 'folgere moved P31 to P32') -ge 2 ]"
    fi
    keys e2e:alice "move folgere P35"
    expect_screen e2e:alice "folgere moved P31 to P35"
    expect_screen e2e:bob "folgere moved P31 to P35"
    if [ $attempt = 1 ]; then
        # Dangers are shown before they bite: W3, the Axis home base, is empty.
        expect_screen e2e:alice "! Your home base W3 has no unit on it"
        # An end-movement that throws something away asks first; no keeps playing.
        keys e2e:alice "end-movement"
        expect_screen e2e:alice "Go ahead anyway? \[y/N\]"
        keys e2e:alice "n"
        expect_screen e2e:alice "not sent"
    fi
    keys e2e:alice "end-movement"
    sleep 0.3
    keys e2e:alice "y"
    expect_screen e2e:alice "Axis combat portion begins"
    expect_screen e2e:alice "turn 1 Axis combat>"
    keys e2e:alice "battle folgere 7arm7"
    expect_screen e2e:alice "1 to 3: 1-3; needs no supply"
    expect_screen e2e:alice "results: AB2 4 in 6, AE 2 in 6"
    expect_screen e2e:alice "Battle 1 declared"
    keys e2e:alice "resolve 1"
    wait_for e2e:alice "Battle 1 at P36, odds 1-3: Axis rolled" || { bad "the battle is resolved"; break; }
    if screen e2e:alice | grep -q "attacker back 2"; then
        expect_screen e2e:bob "Your decision: route the losers' retreat in battle 1"
        keys e2e:bob "options"
        expect_screen e2e:bob " 1) retreat folgere"
        keys e2e:bob "1"
        expect_screen e2e:alice "folgere retreated from P35"
        expect_screen e2e:alice "Your combat portion"
        retreat_seen=true
        screen e2e:bob >"$dir/bob-screen.txt"
        break
    fi
    echo "     (attempt $attempt: the attacker was eliminated; a new game)"
done
$retreat_seen && ok "a retreat choice was offered and taken" || bad "no retreat came up in ten games"

# akd restarts: akc play finds the connection gone, connects again by
# itself, resumes the session and takes up the game where it stands.
kill -TERM $pid; wait $pid 2>/dev/null
"$AKD" --listen 127.0.0.1:$port --db "$dir/akd.sqlite3" --allow-positions 1 >"$dir/akd2.out" 2>>"$dir/akd2.log" &
pid=$!
expect_screen e2e:alice "connection to the server was lost; trying again"
expect_screen e2e:alice "reconnected; the game is at action"
expect_screen e2e:bob "reconnected; the game is at action"
keys e2e:alice "options"
expect_screen e2e:alice " 1) \|nothing but moves"
# show with a place name draws the board there
keys e2e:alice "show Tobruch"
expect_screen e2e:alice "Numbers run along"
screen e2e:alice | grep -q "unknown unit.*Tobruch" && bad "show Tobruch: unknown unit" || ok "show Tobruch is a place"
# An overdue clock is said plainly when play starts (and by `clock`).
late=$(as alice --json new axis --opponent bob --time 1s --on-expiry wait | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
as bob join "$late" >/dev/null
sleep 2.5
T new-window -d -t e2e:4 -n late "XDG_CONFIG_HOME=$dir/cfg-alice XDG_STATE_HOME=$dir/state-alice AKC_SERVER=127.0.0.1:$port $AKC --no-color play $late; sleep 30"
expect_screen e2e:late "Clock: OVERDUE (0m 1s/action); not rated; YOUR MOVE (OVERDUE"
keys e2e:late "clock"
for _ in $(seq 30); do [ "$(screen e2e:late | grep -c 'Clock: OVERDUE')" -ge 2 ] && break; sleep 0.1; done
check "clock says it again" "[ \$(screen e2e:late | grep -c 'Clock: OVERDUE') -ge 2 ]"

# The password prompt: asked twice at register (two different ones are
# not sent), and Ctrl-C at the prompt gives the terminal back with its echo.
T new-window -d -t e2e:2 -n shell "env -u AKC_PASSWORD XDG_CONFIG_HOME=$dir/cfg-carol XDG_STATE_HOME=$dir/state-carol AKC_SERVER=127.0.0.1:$port PS1='$ ' bash --norc --noprofile"
sleep 0.3
keys e2e:shell "$AKC register carol"
expect_screen e2e:shell "New password:"
keys e2e:shell "password-one"
expect_screen e2e:shell "Again:"
keys e2e:shell "password-two"
expect_screen e2e:shell "the two passwords differ; nothing was sent"
# (sh ignores SIGINT so that it lives on to ask the terminal whether its
# echo is back; akc catches the signal, puts the terminal back, and dies.)
T new-window -d -t e2e:3 -n login "env -u AKC_PASSWORD XDG_CONFIG_HOME=$dir/cfg-carol XDG_STATE_HOME=$dir/state-carol AKC_SERVER=127.0.0.1:$port sh -c 'trap \"\" INT; $AKC login carol; stty -a >$dir/stty.out; sleep 30'"
expect_screen e2e:login "^Password:"
T send-keys -t e2e:login C-c
for _ in $(seq 30); do [ -s "$dir/stty.out" ] && break; sleep 0.1; done
check "Ctrl-C at the password prompt ends akc and gives the echo back" "grep -q ' echo ' '$dir/stty.out' && ! grep -q ' -echo ' '$dir/stty.out'"
kill -TERM $pid; wait $pid 2>/dev/null

finish
