#!/bin/bash
# Integration: akd on a public address II (issue 27), the checks that need
# no certificate authority: the HTTP listener binds exactly the address it
# is given (IPv4, IPv6, localhost; a host name refused, saying so), and
# the game port's rule holds for it too: no plaintext HTTP off loopback
# unless allow_plaintext = 1, with a warning in the log.
# usage: public.sh AKD AKC AK-SCENARIO POSITION.scn
set -u
AKD=$1 AKC=$2 SCENARIO=$3 POSITION=$4
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"

# listening NAME: the local addresses of akd's listening sockets (ss)
listening() { ss -Hltnp 2>/dev/null | grep "pid=$pid," | awk '{print $4}' | sort >"$dir/$1.lst"; }

hport=$(free_port)
start_akd v4 --db "$dir/a.sqlite3" --http-listen 127.0.0.1:$hport
listening v4
check "http_listen 127.0.0.1 binds 127.0.0.1 only ($(tr '\n' ' ' <"$dir/v4.lst"))" \
    "grep -qx '127.0.0.1:$hport' '$dir/v4.lst' && ! grep -q '^\\*:$hport\$\\|^0.0.0.0:$hport\$\\|^\\[::\\]:$hport\$' '$dir/v4.lst'"
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/nothing")
check "... which answers HTTP ($code)" "[ '$code' = 404 ]"
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.2:$hport/nothing")
check "... and 127.0.0.2 cannot connect (curl: $code)" "[ '$code' = 000 ]"
kill $pid; wait $pid 2>/dev/null

if python3 -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
    hport=$(free_port)
    start_akd v6 --db "$dir/a.sqlite3" --http-listen "[::1]:$hport"
    listening v6
    check "http_listen [::1] binds ::1 only ($(tr '\n' ' ' <"$dir/v6.lst"))" \
        "grep -qx '\\[::1\\]:$hport' '$dir/v6.lst' && ! grep -q ':$hport\$' <(grep -v '^\\[::1\\]' '$dir/v6.lst')"
    code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://[::1]:$hport/nothing")
    check "... which answers HTTP over IPv6 ($code)" "[ '$code' = 404 ]"
    code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/nothing")
    check "... and not on IPv4 (curl: $code)" "[ '$code' = 000 ]"
    kill $pid; wait $pid 2>/dev/null
else
    echo "skip IPv6 binding: this machine has no ::1"
fi

hport=$(free_port)
start_akd lh --db "$dir/a.sqlite3" --http-listen localhost:$hport
listening lh
check "http_listen localhost binds 127.0.0.1 ($(tr '\n' ' ' <"$dir/lh.lst"))" "grep -qx '127.0.0.1:$hport' '$dir/lh.lst'"
kill $pid; wait $pid 2>/dev/null

"$AKD" --listen 127.0.0.1:$(free_port) --db "$dir/a.sqlite3" --http-listen example.org:$(free_port) \
    >"$dir/name.out" 2>&1
rc=$?
check "a host name is refused, saying akd resolves none (exit $rc)" \
    "[ $rc != 0 ] && grep -q 'not a numeric address.*resolves no host names' '$dir/name.out'"

"$AKD" --listen 127.0.0.1:$(free_port) --db "$dir/a.sqlite3" --http-listen 0.0.0.0:$(free_port) \
    >"$dir/plain.out" 2>&1
rc=$?
check "http_listen 0.0.0.0 without TLS is refused (exit $rc), naming the key" \
    "[ $rc = 2 ] && grep -q 'http_listen: 0.0.0.0 is not a loopback address' '$dir/plain.out'"
hport=$(free_port)
start_akd plain --db "$dir/a.sqlite3" --http-listen 0.0.0.0:$hport --allow-plaintext 1
check "... with allow_plaintext = 1 it starts, and warns in the log" \
    "grep -q 'HTTP on 0.0.0.0 without TLS (allow_plaintext = 1)' '$dir/plain.log'"
kill $pid; wait $pid 2>/dev/null

# --- where the page may connect: the WebSocket checks Origin, the page's
# Content-Security-Policy lets it connect to its own origin only
hport=$(free_port)
start_akd origin --db "$dir/o.sqlite3" --http-listen 127.0.0.1:$hport --web-origins "https://club.example.org" \
    --web-dir "$(dirname "$0")/../web"
ws() { echo '{"id":1,"cmd":"ping"}' | WS_ORIGIN="$1" TIMEOUT=3 python3 "$(dirname "$0")/wsclient.py" "ws://127.0.0.1:$hport/ws" 2>&1; }
check "a WebSocket from the page's own origin is served" "ws 'http://127.0.0.1:$hport' | grep -q '\"ok\":true'"
check "... also as https (a proxy that ends TLS before akd)" "ws 'https://127.0.0.1:$hport' | grep -q '\"ok\":true'"
check "... one from an origin in web_origins too" "ws 'https://club.example.org' | grep -q '\"ok\":true'"
check "... and one from a client that sends no Origin (not a browser)" "ws '' | grep -q '\"ok\":true'"
check "a WebSocket from another site's page is refused" "ws 'http://evil.example' | grep -q 'no upgrade'"
check "... also one that only begins like ours" "ws 'http://127.0.0.1:$hport.evil.example' | grep -q 'no upgrade'"
check "... and the refusal is logged with the origin" "grep -q 'origin http://evil.example is not this server' '$dir/origin.log'"
curl -s -D "$dir/csp.head" -o /dev/null "http://127.0.0.1:$hport/"
check "the page's CSP allows connections to its own origin only (connect-src 'self', no ws: or wss:)" \
    "grep -qi \"^content-security-policy:.*connect-src 'self';\" '$dir/csp.head' && ! grep -qi 'ws:' '$dir/csp.head'"
curl -s -D "$dir/404.head" -o /dev/null "http://127.0.0.1:$hport/nothing.js"
check "... and a 404 carries the security headers too" \
    "grep -qi '^content-security-policy:' '$dir/404.head' && grep -qi '^x-frame-options: deny' '$dir/404.head'"
kill $pid; wait $pid 2>/dev/null

# --- login limits that hold and cannot be turned against a player
start_akd limits --db "$dir/l.sqlite3"
cat >"$dir/from.py" <<'PY'
import sys, threading, time
from akd_conn import Conn
# from.py PORT ADDRESS|ADDRESS-RANGE N CMD USER PASSWORD|-: N requests, one
# connection each, from the addresses given (127.0.0.A-B cycles); prints
# each reply's error code (or ok) and the seconds the whole took
port, addrs, n, cmd, user, password = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
if "-" in addrs.split(".")[-1]:
    base, rng = addrs.rsplit(".", 1)
    lo, hi = map(int, rng.split("-"))
    pool = ["%s.%d" % (base, i) for i in range(lo, hi + 1)]
else:
    pool = [addrs]
out = [None] * n
def one(i):
    msg = {"cmd": cmd, "user": user if "%" not in user else user % i}
    if cmd == "reset_password":
        msg.update(token="0" * 32, new_password="whatever-password")
    else:
        msg["password"] = password if "%" not in password else password % i
    try:
        r = Conn(port, timeout=60, source=pool[i % len(pool)]).request(msg)
    except (ConnectionError, OSError, ValueError):
        r = {}
    out[i] = "ok" if r.get("ok") else r.get("error", {}).get("code", "?")
t0 = time.time()
ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
for t in ts: t.start()
for t in ts: t.join()
for o in out: print(o)
print("seconds %.2f" % (time.time() - t0))
PY
from() { PYTHONPATH="$(dirname "$0")" python3 "$dir/from.py" $port "$@"; }
AKC_PASSWORD=password-bob as bob register bob >/dev/null 2>&1
# the flood that flushed the 512 slots of before: 600 reset_password with
# made-up names from 60 addresses, then 30 guesses at bob from one address
from 127.0.0.10-69 600 reset_password "made-up-%d" - >"$dir/flush.out"
from 127.0.0.5 30 login bob "guess-%d" >"$dir/after-flush.out"
checked=$(grep -c auth_failed "$dir/after-flush.out")
check "600 made-up reset_password names from 60 addresses flush nothing: bob gets $checked checked guesses of 30 (limit 10)" \
    "[ $checked = 10 ] && [ \$(grep -c rate_limited '$dir/after-flush.out') = 20 ]"
check "... and the throttle was logged when it started" "grep -q 'throttle: a name from an address' '$dir/limits.log'"
from 127.0.0.6 1 login bob password-bob >"$dir/owner.out"
check "bob's right password from an address with no failures is taken" "grep -qx ok '$dir/owner.out'"
from 127.0.0.11-13 3 login bob "wrong-%d" >"$dir/slowed.out"
secs=$(sed -n 's/^seconds //p' "$dir/slowed.out")
check "guesses at bob from new addresses are slowed, not refused: 3 in ${secs}s, one a second" \
    "[ \$(grep -c auth_failed '$dir/slowed.out') = 3 ] && python3 -c 'import sys; sys.exit(0 if $secs >= 1.8 else 1)'"
check "... which the log says" "grep -q 'throttle: bob has had 10 wrong guesses; guesses from other addresses are slowed' '$dir/limits.log'"
from 127.0.0.20 10 register "club%d" "club-password-%d" >"$dir/club.out"
check "ten players behind one address (a club night) can register: $(grep -cx ok "$dir/club.out") of 10" \
    "[ \$(grep -cx ok '$dir/club.out') = 10 ]"
from 127.0.0.20 10 login "club%d" "club-password-%d" >"$dir/club-login.out"
check "... and log in" "[ \$(grep -cx ok '$dir/club-login.out') = 10 ]"
kill $pid; wait $pid 2>/dev/null

# --- the HTTP listener's sockets count with the game port's connections
# (issue 28): over max_per_address they are closed at once, logged once
hport=$(free_port)
start_akd count --db "$dir/c.sqlite3" --http-listen 127.0.0.1:$hport --max-per-address 20
python3 - "$hport" >"$dir/count.out" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(60)]
time.sleep(0.5)
closed = 0
for s in socks:
    s.setblocking(False)
    try:
        closed += s.recv(10) == b""
    except BlockingIOError:
        pass
    except ConnectionResetError:
        closed += 1
print("closed", closed)
for s in socks:
    s.close()
PY
check "60 idle sockets on the HTTP port from one address: 40 over max_per_address 20 closed ($(cat "$dir/count.out"))" \
    "grep -qx 'closed 40' '$dir/count.out'"
check "... and the refusals logged once, not per connection ($(grep -c 'HTTP listener: refused' "$dir/count.log") line)" \
    "[ \$(grep -c 'HTTP listener: refused' '$dir/count.log') = 1 ]"
sleep 0.3
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/nothing")
check "... and counted back when they close: a new one is served ($code)" "[ '$code' = 404 ]"
kill $pid; wait $pid 2>/dev/null

# --- behind a reverse proxy: the client's address from trusted proxies only
hport=$(free_port)
start_akd proxy --db "$dir/p.sqlite3" --http-listen 127.0.0.1:$hport --trusted-proxies 127.0.0.1 --metrics-allow 127.0.0.1
wsvia() { echo '{"id":1,"cmd":"ping"}' | WS_SOURCE="$1" WS_HEADERS="$2" TIMEOUT=3 python3 "$(dirname "$0")/wsclient.py" "ws://127.0.0.1:$hport/ws" 2>&1; }
wsvia 127.0.0.1 "X-Forwarded-For: 10.9.9.9, 203.0.113.7" >/dev/null
check "a WebSocket from a trusted proxy is the client's: the last address of X-Forwarded-For" \
    "grep -q 'connection from 203.0.113.7 (WebSocket)' '$dir/proxy.log'"
wsvia 127.0.0.1 "X-Real-IP: 203.0.113.8" >/dev/null
check "... or X-Real-IP when there is none" "grep -q 'connection from 203.0.113.8 (WebSocket)' '$dir/proxy.log'"
wsvia 127.0.0.1 "X-Real-IP: 203.0.113.77|X-Forwarded-For: 203.0.113.99" >/dev/null
check "... the proxy's X-Forwarded-For before an X-Real-IP it may have passed on" \
    "grep -q 'connection from 203.0.113.99 (WebSocket)' '$dir/proxy.log' && ! grep -q '203.0.113.77' '$dir/proxy.log'"
wsvia 127.0.0.1 "X-Forwarded-For: not-an-address" >/dev/null
check "... and something that is not an address leaves the proxy's" "grep -q 'connection from 127.0.0.1 (WebSocket)' '$dir/proxy.log'"
wsvia 127.0.0.2 "X-Forwarded-For: 203.0.113.66" >/dev/null
check "from anyone else the headers are ignored" \
    "grep -q 'connection from 127.0.0.2 (WebSocket)' '$dir/proxy.log' && ! grep -q '203.0.113.66' '$dir/proxy.log'"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'X-Real-IP: 203.0.113.9' "http://127.0.0.1:$hport/metrics")
code2=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/metrics")
check "metrics_allow sees the real address: a client behind the proxy is refused ($code), the proxy itself not ($code2)" \
    "[ $code = 403 ] && [ $code2 = 200 ]"
cat >"$dir/proxyv2.py" <<'PY'
import json, socket, struct, sys
# proxyv2.py PORT SOURCE-ADDRESS CLIENT-ADDRESS|- : a PROXY v2 header naming
# CLIENT (none with -), then a ping; prints the reply or (closed)
port, source, client = int(sys.argv[1]), sys.argv[2], sys.argv[3]
s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
if client != "-":
    addrs = socket.inet_aton(client) + socket.inet_aton("127.0.0.1") + struct.pack(">HH", 40000, port)
    s.sendall(b"\r\n\r\n\x00\r\nQUIT\n" + bytes([0x21, 0x11]) + struct.pack(">H", len(addrs)) + addrs)
s.sendall(b'{"id":1,"cmd":"ping"}\n')
buf = b""
try:
    while b"\n" not in buf:
        d = s.recv(4096)
        if not d:
            break
        buf += d
except OSError:
    pass
print(buf.split(b"\n")[0].decode(errors="replace") if buf else "(closed)")
PY
out=$(python3 "$dir/proxyv2.py" $port 127.0.0.1 198.51.100.4)
check "the game port takes a trusted proxy's PROXY v2 header: the client is 198.51.100.4 ($out)" \
    "echo '$out' | grep -q '\"ok\":true' && grep -q 'connection from 198.51.100.4 by way of 127.0.0.1' '$dir/proxy.log'"
out=$(python3 "$dir/proxyv2.py" $port 127.0.0.1 -)
check "... and closes a trusted proxy's connection without one ($out)" "[ '$out' = '(closed)' ]"
out=$(python3 "$dir/proxyv2.py" $port 127.0.0.2 198.51.100.5)
check "... while from anyone else the header is only bad input (not taken)" \
    "! grep -q 'connection from 198.51.100.5' '$dir/proxy.log'"
kill $pid; wait $pid 2>/dev/null

# --- the admin role belongs to accounts, never to names
start_akd adm --db "$dir/adm.sqlite3" --admins alice
check "admins naming an account that does not exist: akd warns at start" \
    "grep -q 'admins names alice, which has no account' '$dir/adm.log'"
AKC_PASSWORD=password-mallory as mallory register ALICE >/dev/null 2>&1
as mallory admin stats >"$dir/mallory.out" 2>&1; rc=$?
check "a stranger who registers ALICE is no admin (exit $rc)" "[ $rc = 1 ] && grep -q 'does not have the admin role' '$dir/mallory.out'"
AKC_PASSWORD=password-bob as bob register bob >/dev/null 2>&1
kill $pid; wait $pid 2>/dev/null
start_akd adm2 --db "$dir/adm.sqlite3" --admins "alice, bob"
relogin() { for u in mallory bob; do AKC_PASSWORD=password-$u as $u login $([ $u = mallory ] && echo ALICE || echo bob) >/dev/null 2>&1; done; }
relogin
as mallory admin stats >"$dir/mallory2.out" 2>&1; rc=$?
check "... nor after a restart: the account was registered after the name was configured (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'registered after the name was configured' '$dir/adm2.log'"
as bob admin stats >"$dir/bob.out" 2>&1; rc=$?
check "an account that existed when it was named in admins gets the role (exit $rc)" "[ $rc = 0 ]"
kill $pid; wait $pid 2>/dev/null
start_akd adm3 --db "$dir/adm.sqlite3" --admins alice
relogin
as bob admin stats >"$dir/bob2.out" 2>&1; rc=$?
check "a name taken out of admins takes the role back at the next start (exit $rc)" "[ $rc = 1 ]"
"$AKD" --db "$dir/adm.sqlite3" --admin-add nobody-here >"$dir/addnone.out" 2>&1; rc=$?
check "akd --admin-add refuses a name with no account (exit $rc)" "[ $rc = 1 ] && grep -q 'there is no account nobody-here' '$dir/addnone.out'"
"$AKD" --db "$dir/adm.sqlite3" --admin-add bob >"$dir/addbob.out" 2>&1; rc=$?
as bob admin stats >"$dir/bob3.out" 2>&1; rc2=$?
check "akd --admin-add bob, akd running: bob has the role at once (exit $rc, $rc2)" "[ $rc = 0 ] && [ $rc2 = 0 ]"
"$AKD" --db "$dir/adm.sqlite3" --admin-remove bob >/dev/null 2>&1
as bob admin stats >/dev/null 2>&1; rc=$?
check "akd --admin-remove bob takes it back (exit $rc)" "[ $rc = 1 ]"
kill $pid; wait $pid 2>/dev/null

# --- e-mail addresses that cannot inject
cat >"$dir/notify" <<EOF
#!/bin/sh
echo "\$1 email=\$AK_EMAIL" >>"$dir/notify.log"
EOF
chmod +x "$dir/notify"
start_akd mail --db "$dir/mail.sqlite3" --notify-command "$dir/notify"
AKC_PASSWORD=password-carol as carol register carol >/dev/null 2>&1
n=0
for addr in '-X/var/www/x.php@a.b' '--logfile=/tmp/pwn@a.bc' '$(touch${IFS}/tmp/pwn)@a.b' 'victim@a.b,other' \
            'a b@example.org' '"q"@example.org' 'x@-example.org' 'x@example' 'x@example.o-g' 'x..y@example.org' \
            'x@example.org;rm' "x@example.org\`id\`" 'x|y@example.org' 'x/y@example.org'; do
    req=$(python3 -c 'import json,sys; print(json.dumps({"id": 2, "cmd": "settings", "email": sys.argv[1]}))' "$addr")
    printf '{"id":1,"cmd":"login","user":"carol","password":"password-carol"}\n%s\n' "$req" |
        "$AKC" --server 127.0.0.1:$port raw >"$dir/mail.out" 2>&1
    grep -q '"id":2,"ok":false,"error":{"code":"bad_request"' "$dir/mail.out" && n=$((n + 1))
done
check "addresses that are not plain are refused: $n of 14 (options, shell syntax, lists, blanks, bad domains)" "[ $n = 14 ]"
check "... and none reached the notification command" "! grep -q verify_email '$dir/notify.log' 2>/dev/null"
as carol settings email carol.smith+ak@mail.example.org >"$dir/mail-ok.out" 2>&1; rc=$?
sleep 0.5
check "a plain address is taken and verified by mail (exit $rc)" \
    "[ $rc = 0 ] && grep -q 'verify_email email=carol.smith+ak@mail.example.org' '$dir/notify.log'"
kill $pid; wait $pid 2>/dev/null

# --- dice nonces the player keeps: akc derives them (the same for a retry),
# keeps those the server took, and verify checks the record against them
# (a small position, tests/positions/soak-off.scn, so that turns go round
# and the Axis supply table is rolled in an action)
start_akd dice --db "$dir/dice.sqlite3" --allow-positions 1
"$SCENARIO" --dump "$POSITION" >"$dir/position.json" 2>/dev/null
for u in alice bob; do AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1; done
g=$(as alice --json new axis --position "$dir/position.json" | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
as bob join "$g" >/dev/null 2>&1
as alice move "$g" bologna W7 >/dev/null 2>&1
as alice end-movement "$g" >/dev/null 2>&1
as alice end-turn "$g" >/dev/null 2>&1
as bob end-movement "$g" >/dev/null 2>&1
as bob end-turn "$g" >/dev/null 2>&1     # the Axis turn 2 begins: a supply roll
as alice resign "$g" >/dev/null 2>&1
kept=$(grep -c " $g " "$dir/state-alice/akc/nonces" 2>/dev/null)
check "akc keeps the nonces the server took for its actions ($kept: a move, two ends, the resignation)" "[ '$kept' = 4 ]"
as alice verify "$g" >"$dir/dverify.out" 2>&1; rc=$?
check "akc verify checks them against the record (exit $rc)" \
    "[ $rc = 0 ] && grep -q 'dice nonce(s) this akc sent for its actions in game $g are the ones recorded' '$dir/dverify.out'"
check "... and every roll against the outcome the record gives beside its nonce" \
    "grep -q 'Every roll recomputed is the one the record gives beside its action' '$dir/dverify.out'"
as alice record "$g" >"$dir/record.json" 2>/dev/null
python3 - "$dir/record.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rolled = [i for i, a in enumerate(r["actions"]) if a.get("rolls")]
a = r["actions"][rolled[0]]
a["rolls"] = [a["rolls"][0] % 6 + 1]     # the roll an operator would rather have shown, the nonce untouched
json.dump(r, open(sys.argv[1] + ".rolled", "w"))
PY
rolled_at=$(python3 -c "import json,sys; r=json.load(open('$dir/record.json')); print([i+1 for i,a in enumerate(r['actions']) if a.get('rolls')][0])")
as alice verify --file "$dir/record.json.rolled" >"$dir/rolled.out" 2>&1; rc=$?
check "a record whose roll was edited (nonce untouched) fails, naming action $rolled_at (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'NOT VERIFIED: action $rolled_at rolled' '$dir/rolled.out'"
python3 - "$dir/record.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["actions"][0]["nonce"] = "00" * 16      # what an operator grinding the dice would record
json.dump(r, open(sys.argv[1] + ".forged", "w"))
PY
as alice verify --file "$dir/record.json.forged" >"$dir/forged.out" 2>&1; rc=$?
check "a record whose nonce was edited fails, naming the action (exit $rc)" \
    "[ $rc = 1 ] && grep -q 'NOT VERIFIED' '$dir/forged.out' && grep -q 'action 1' '$dir/forged.out'"
kill $pid; wait $pid 2>/dev/null

# --- one akd per database
start_akd first --db "$dir/one.sqlite3"
first=$pid
"$AKD" --listen 127.0.0.1:$(free_port) --db "$dir/one.sqlite3" >"$dir/second.out" 2>&1 &
second=$!
for _ in $(seq 50); do kill -0 $second 2>/dev/null || break; sleep 0.1; done
wait $second; rc=$?
check "a second akd on the same database refuses to start (exit $rc), saying why" \
    "[ $rc = 1 ] && grep -q 'another akd is already running on the database' '$dir/second.out'"
AKC_PASSWORD=password-alice as alice register alice >"$dir/reg.out" 2>&1
check "... and the first goes on serving" "grep -q 'registered' '$dir/reg.out'"
kill $first; wait $first 2>/dev/null
start_akd again --db "$dir/one.sqlite3"
check "once the first has stopped, another starts on it" "kill -0 $pid"
kill $pid; wait $pid 2>/dev/null

# --- HTTPS: SIGHUP reloads the certificate (a certbot renewal reaches
# browsers without a restart), the whole chain
cert() {  # NAME SUBJECT [CA]: NAME.pem (with CA's certificate after it) and NAME.key
    local name=$1 subject=$2 ca=${3:-}
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/$name.key" \
        -subj "$subject" -out "$dir/$name.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:%s\n' "$([ -z "$ca" ] && echo TRUE || echo FALSE)" >"$dir/$name.ext"
    if [ -n "$ca" ]; then
        openssl x509 -req -in "$dir/$name.csr" -CA "$dir/$ca.pem" -CAkey "$dir/$ca.key" -CAcreateserial \
            -days 30 -extfile "$dir/$name.ext" -out "$dir/$name.pem" 2>/dev/null
        cat "$dir/$ca.pem" >>"$dir/$name.pem"
    else
        openssl x509 -req -in "$dir/$name.csr" -signkey "$dir/$name.key" -days 30 \
            -extfile "$dir/$name.ext" -out "$dir/$name.pem" 2>/dev/null
    fi
}
fingerprint() { openssl x509 -noout -fingerprint -sha256 -in "$1" | cut -d= -f2; }
served() {  # the leaf certificate HTTPS presents now, and how many it sends
    timeout 5 openssl s_client -connect 127.0.0.1:$hport -showcerts </dev/null 2>/dev/null >"$dir/served.txt"
    openssl x509 -noout -fingerprint -sha256 -in "$dir/served.txt" 2>/dev/null | cut -d= -f2
}
cert ca "/CN=Test Authority"
cert first "/CN=first" ca
cert second "/CN=second" ca
cp "$dir/first.pem" "$dir/live.pem"; cp "$dir/first.key" "$dir/live.key"
hport=$(free_port)
start_akd tls --db "$dir/a.sqlite3" --tls-cert "$dir/live.pem" --tls-key "$dir/live.key" --http-listen 127.0.0.1:$hport
was=$(served)
check "HTTPS serves the certificate it started with" "[ -n '$was' ] && [ '$was' = '$(fingerprint "$dir/first.pem")' ]"
cp "$dir/second.pem" "$dir/live.pem"; cp "$dir/second.key" "$dir/live.key"
kill -HUP $pid; sleep 0.5
now=$(served)
check "after SIGHUP HTTPS serves the renewed one" "[ '$now' = '$(fingerprint "$dir/second.pem")' ]"
check "... with its chain (2 certificates sent)" "[ \$(grep -c 'BEGIN CERTIFICATE' '$dir/served.txt') = 2 ]"
check "... and says so in the log" "grep -q 'HTTPS: certificate reloaded' '$dir/tls.log'"
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' --cacert "$dir/ca.pem" "https://127.0.0.1:$hport/nothing")
check "... and answers HTTPS with it ($code)" "[ '$code' = 404 ]"
echo garbage >"$dir/live.pem"
kill -HUP $pid; sleep 0.5
check "a broken renewal leaves HTTPS on the good one" "[ '$(served)' = '$(fingerprint "$dir/second.pem")' ]"
kill $pid; wait $pid 2>/dev/null

# --- the key stays private: a key others may read is said; systemd's
# credentials ($CREDENTIALS_DIRECTORY) name the files by a plain name
cp "$dir/first.pem" "$dir/live.pem"; cp "$dir/first.key" "$dir/live.key"; chmod 644 "$dir/live.key"
hport=$(free_port)
start_akd open --db "$dir/a.sqlite3" --tls-cert "$dir/live.pem" --tls-key "$dir/live.key"
check "akd warns when its TLS key is readable by others" "grep -q 'the TLS key .*live.key is readable by other users (mode 644)' '$dir/open.log'"
kill $pid; wait $pid 2>/dev/null
chmod 640 "$dir/live.key"
start_akd closed --db "$dir/a.sqlite3" --tls-cert "$dir/live.pem" --tls-key "$dir/live.key"
check "... and not for a 0640 key (a group the operator chose)" "! grep -q 'readable by other users' '$dir/closed.log'"
kill $pid; wait $pid 2>/dev/null
mkdir -p "$dir/creds"; cp "$dir/second.pem" "$dir/creds/tls.pem"; cp "$dir/second.key" "$dir/creds/tls.key"; chmod 600 "$dir/creds/tls.key"
hport=$(free_port)
CREDENTIALS_DIRECTORY="$dir/creds" start_akd creds --db "$dir/a.sqlite3" --tls-cert tls.pem --tls-key tls.key --http-listen 127.0.0.1:$hport
check "tls_cert = tls.pem under systemd's LoadCredential= reads \$CREDENTIALS_DIRECTORY/tls.pem" \
    "[ '$(served)' = '$(fingerprint "$dir/second.pem")' ] && grep -q 'TLS certificate $dir/creds/tls.pem' '$dir/creds.log'"
kill $pid; wait $pid 2>/dev/null

finish
