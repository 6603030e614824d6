# tests/lib.sh: helpers shared by the shell tests (sourced, not run).
# The caller sets AKD, AKC and dir (a temporary directory) first.
fails=0; passes=0; pids=""
# akd reads no installed default configuration (akd.conf) in the tests:
# each test says every setting it wants.
export AKD_CONFIG= AKBOT_CONFIG=
ok() { passes=$((passes + 1)); echo "ok   $*"; }
bad() { fails=$((fails + 1)); echo "FAIL $*"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# start_akd NAME ARGS...: akd on a free loopback port, output in
# $dir/NAME.out and $dir/NAME.log; sets $port and $pid
start_akd() {
    local name=$1; shift
    rm -f "$dir/$name.out"
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        port=$((20000 + RANDOM % 30000))
        "$AKD" --listen 127.0.0.1:$port "$@" >"$dir/$name.out" 2>>"$dir/$name.log" &
        pid=$!
        for _ in $(seq 50); do
            grep -q listening "$dir/$name.out" 2>/dev/null && { pids="$pids $pid"; return 0; }
            kill -0 $pid 2>/dev/null || break
            sleep 0.1
        done
        kill -9 $pid 2>/dev/null
    done
    echo "cannot start akd"; cat "$dir/$name.log"; exit 1
}

# free_port: a loopback port nothing listens on now (for a second listener
# beside start_akd's, which picks its own)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# raw NAME: feed stdin to an `akc raw` session, output in $dir/NAME.out
raw() { "$AKC" --server 127.0.0.1:$port raw >"$dir/$1.out" 2>&1; }
# expect NAME PATTERN: $dir/NAME.out has a line matching PATTERN
expect() {
    if grep -q -- "$2" "$dir/$1.out"; then ok "$1: $2"; else bad "$1: $2"; echo "---"; cat "$dir/$1.out"; echo "---"; fi
}
# as USER ARGS...: akc with USER's own session directory
as() { local u=$1; shift; XDG_CONFIG_HOME="$dir/cfg-$u" XDG_STATE_HOME="$dir/state-$u" AKC_SERVER=127.0.0.1:$port "$AKC" "$@"; }

finish() {
    echo "$passes passed, $fails failed"
    [ $fails = 0 ]
}
