#!/bin/bash
# Integration: akd's HTTP listener (issue 17, first part): /metrics in the
# Prometheus text format with values that follow the play, only for the
# addresses in metrics_allow, the security headers on every answer, 404
# elsewhere, HTTPS with the game port's certificate, and a clean stop.
# usage: web.sh AKD AKC
set -u
AKD=$1 AKC=$2
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; cat "$dir/wss.out" 2>/dev/null; rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
hport=$(free_port)
start_akd main --db "$dir/akd.sqlite3" --http-listen 127.0.0.1:$hport --web-dir "$(dirname "$0")/../web"
check "akd logs its HTTP listener" "grep -q 'HTTP on 127.0.0.1:$hport' '$dir/main.log'"
for u in alice bob; do AKC_PASSWORD=password-$u as $u register $u >/dev/null 2>&1; done
g=$(as alice --json new axis | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
as bob join "$g" >/dev/null 2>&1
as bob watch "$g" >/dev/null 2>&1 &
w=$!
sleep 0.3
as alice move "$g" 21pz5 W14 >/dev/null 2>&1
as alice frobnicate >/dev/null 2>&1
printf '{"id":1,"cmd":"nonsense"}\n' | "$AKC" --server 127.0.0.1:$port raw >/dev/null 2>&1
sleep 0.3
curl -s -D "$dir/m.head" "http://127.0.0.1:$hport/metrics" >"$dir/m.txt"
kill $w 2>/dev/null
check "/metrics answers 200 in the Prometheus text format" \
    "grep -q '^HTTP/1.1 200' '$dir/m.head' && grep -qi '^content-type: text/plain; version=0.0.4' '$dir/m.head'"
check "... every line a comment or NAME{LABELS} VALUE" \
    "python3 -c 'import re,sys; bad=[l for l in open(\"$dir/m.txt\") if l.strip() and not l.startswith(\"# \") and not re.match(r\"^[a-z_]+(\\{[a-z_]+=\\\"[^\\\"]*\\\"(,[a-z_]+=\\\"[^\\\"]*\\\")*\\})? -?[0-9.e+]+\$\", l.strip()) and not l.strip().endswith(\"+Inf\")]; sys.exit(1 if bad else 0)'"
check "... the running game counts" "grep -q '^akd_games{state=\"running\"} 1$' '$dir/m.txt'"
check "... the actions committed count" "grep -q '^akd_actions_total [1-9]' '$dir/m.txt'"
check "... the pushes to the watcher count" "grep -q '^akd_pushes_total [1-9]' '$dir/m.txt'"
check "... the commit latency is a histogram ending in +Inf and a count" \
    "grep -q '^akd_commit_latency_seconds_bucket{le=\"+Inf\"} [1-9]' '$dir/m.txt' && grep -q '^akd_commit_latency_seconds_count [1-9]' '$dir/m.txt'"
check "... errors by code" "grep -q '^akd_errors_total{code=\"unknown_command\"} [1-9]' '$dir/m.txt'"
check "... akd_build_info names the version, and the process series are there (start time, CPU, memory, descriptors)" \
    "grep -q '^akd_build_info{version=\"[0-9][^\"]*\",commit=\"[^\"]*\"} 1$' '$dir/m.txt' && grep -q '^process_start_time_seconds [1-9]' '$dir/m.txt' && grep -q '^process_cpu_seconds_total ' '$dir/m.txt' && grep -q '^process_resident_memory_bytes [1-9]' '$dir/m.txt' && grep -q '^process_open_fds [1-9]' '$dir/m.txt'"
check "... no per-second gauge (rates are PromQL's), and every counter ends in _total" \
    "! grep -q 'per_second' '$dir/m.txt' && ! grep -E '^# TYPE [a-z_]+ counter' '$dir/m.txt' | grep -vq '_total counter$'"
check "... logins throttled are counted apart from requests over their rate" \
    "grep -q '^akd_logins_throttled_total 0$' '$dir/m.txt' && grep -q '^akd_rate_limited_total ' '$dir/m.txt'"
check "... connections by kind" "grep -q '^akd_connections{kind=\"tcp\"} ' '$dir/m.txt' && grep -q '^akd_connections{kind=\"websocket\"} ' '$dir/m.txt'"
check "... two registrations, no password login yet, no game finished" \
    "grep -q '^akd_registrations_total 2$' '$dir/m.txt' && grep -q '^akd_logins_total 0$' '$dir/m.txt' && grep -q '^akd_games_finished_total{result=\"allied_wins\"} 0$' '$dir/m.txt'"
check "... the database's size and its WAL's, the notifications waiting; no certificate without TLS" \
    "grep -q '^akd_database_bytes{file=\"main\"} [1-9]' '$dir/m.txt' && grep -q '^akd_database_bytes{file=\"wal\"} [0-9]' '$dir/m.txt' && grep -q '^akd_notifications_waiting 0$' '$dir/m.txt' && ! grep -q tls_cert_expiry '$dir/m.txt'"
AKC_PASSWORD=password-bob as bob login bob >/dev/null 2>&1
g2=$(as alice --json new axis | sed -n 's/.*"game":\([0-9]*\).*/\1/p')
as bob join "$g2" >/dev/null 2>&1
as alice resign "$g2" >/dev/null 2>&1
curl -s "http://127.0.0.1:$hport/metrics" >"$dir/m1.txt"
check "a login and a resignation: akd_logins_total 1, one game finished, won by the Allies" \
    "grep -q '^akd_logins_total 1$' '$dir/m1.txt' && grep -q '^akd_games_finished_total{result=\"allied_wins\"} 1$' '$dir/m1.txt' && grep -q '^akd_games_finished_total{result=\"axis_wins\"} 0$' '$dir/m1.txt'"
check "answers carry a Content-Security-Policy with no inline script, and nosniff" \
    "grep -qi \"^content-security-policy: default-src 'none'.*script-src 'self'\" '$dir/m.head' && ! grep -qi 'unsafe-inline' '$dir/m.head' && grep -qi '^x-content-type-options: nosniff' '$dir/m.head'"
# the board for clients that draw it; its answer is longer than 64 KiB,
# which akc reads whole
printf '{"id":1,"cmd":"map"}\n' | timeout 20 "$AKC" --server 127.0.0.1:$port raw >"$dir/map.out" 2>&1
check "map needs no login and answers the board (a line over 64 KiB, read whole)" \
    "[ \$(head -1 '$dir/map.out' | wc -c) -gt 65536 ] && head -1 '$dir/map.out' | grep -q '\"ok\":true'"
check "... 1,385 squares, 99 road hexsides, 26 blocked (25 Qattara, 1 water), 102 counters" \
    "python3 -c 'import json; m=json.loads(open(\"$dir/map.out\").readline())[\"result\"]; assert (len(m[\"squares\"]), len(m[\"road\"]), len(m[\"blocked\"]), len(m[\"counters\"])) == (1385, 99, 26, 102)'"
check "... E18-F19 is blocked, G25 is a fortress, W6 clear, the home bases W3 and J62" \
    "python3 -c 'import json; m=json.loads(open(\"$dir/map.out\").readline())[\"result\"]; sq={s[\"hex\"]: s[\"terrain\"] for s in m[\"squares\"]}; assert [\"E18\",\"F19\"] in m[\"blocked\"] and sq[\"G25\"] == \"fortress\" and sq[\"W6\"] == \"clear\" and m[\"home_bases\"] == {\"axis\": \"W3\", \"allied\": \"J62\"}'"
# failed logins past login_failures (10) are throttled: counted as
# logins throttled, not as requests over their rate
for i in $(seq 14); do printf '{"id":%d,"cmd":"login","user":"ghost","password":"wrong-%d"}\n' $i $i; done |
    "$AKC" --server 127.0.0.1:$port raw >"$dir/guess.out" 2>&1
curl -s "http://127.0.0.1:$hport/metrics" >"$dir/m2.txt"
check "14 failed logins against a limit of 10: 4 refused rate_limited, counted once each as logins throttled, none as requests over their rate" \
    "[ \$(grep -c 'too many failed logins' '$dir/guess.out') = 4 ] && grep -q '^akd_logins_throttled_total 4$' '$dir/m2.txt' && grep -q '^akd_errors_total{code=\"rate_limited\"} 4$' '$dir/m2.txt' && grep -q '^akd_rate_limited_total 0$' '$dir/m2.txt'"
# /healthz (issue 33): 200 "ok" while the store takes writes; cheap: a
# flood of 500 on one keep-alive connection is all answered, and a player's
# action right after it too
curl -s -D "$dir/h.head" "http://127.0.0.1:$hport/healthz" >"$dir/h.txt"
check "/healthz answers 200 ok, with the security headers" \
    "grep -q '^HTTP/1.1 200' '$dir/h.head' && [ \"\$(cat '$dir/h.txt')\" = ok ] && grep -qi '^x-content-type-options: nosniff' '$dir/h.head'"
python3 - "$hport" >"$dir/hflood.out" 2>&1 <<'PY'
import http.client, sys, time
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
t0, codes = time.time(), {}
for _ in range(500):
    c.request("GET", "/healthz")
    r = c.getresponse(); r.read()
    codes[r.status] = codes.get(r.status, 0) + 1
print("codes", codes, "seconds %.2f" % (time.time() - t0))
PY
check "a flood of 500 /healthz on one connection is all answered 200, within 5 s (no 40 ms delayed ACK each: $(cat "$dir/hflood.out"))" \
    "grep -q \"codes {200: 500}\" '$dir/hflood.out' && python3 -c 'import sys; sys.exit(0 if float(open(\"$dir/hflood.out\").read().split()[-1]) < 5 else 1)'"
as alice show "$g" >"$dir/after-hflood.out" 2>&1; rc=$?
check "... and a player's request right after it is answered (exit $rc)" "[ $rc = 0 ] && grep -q 'Axis' '$dir/after-hflood.out'"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/nothing-here")
check "another path is 404 ($code)" "[ '$code' = 404 ]"
# the browser client's files (the browser test, browser.sh, plays through them)
curl -s -D "$dir/page.head" "http://127.0.0.1:$hport/" >"$dir/page.html"
check "/ is the page, text/html, with the security headers" \
    "grep -q '^HTTP/1.1 200' '$dir/page.head' && grep -qi '^content-type: text/html' '$dir/page.head' && grep -q 'src=\"/app.js\"' '$dir/page.html' && grep -qi \"^content-security-policy: default-src 'none'\" '$dir/page.head'"
check "/game/7 is the same page (a link to watch a game)" \
    "curl -s 'http://127.0.0.1:$hport/game/7' | cmp -s - '$dir/page.html'"
for path in /ladder /player/alice_2 /tournaments /tournament/3 /settings; do
    check "$path is the same page" "curl -s 'http://127.0.0.1:$hport$path' | cmp -s - '$dir/page.html'"
done
check "the modules are text/javascript, the style sheet text/css" \
    "curl -s -D - -o /dev/null 'http://127.0.0.1:$hport/app.js' | grep -qi '^content-type: text/javascript' && curl -s -D - -o /dev/null 'http://127.0.0.1:$hport/style.css' | grep -qi '^content-type: text/css'"
for path in /../meson.build /%2e%2e/meson.build /game/7x /game/ /player/a.b /player/ /tournament/x /ladder/x /web/app.js /.git/config /app.js.orig /README.md; do
    code=$(curl -s --path-as-is -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport$path")
    check "$path is 404, nothing outside web_dir or of an unknown kind ($code)" "[ '$code' = 404 ]"
done
# the queries the browser client asks: odds before a battle, replay (a
# spectator without an account may replay; odds need one)
printf '%s\n' '{"id":1,"cmd":"login","user":"alice","password":"password-alice"}' \
    "{\"id\":2,\"cmd\":\"odds\",\"game\":$g,\"attackers\":[\"21pz5\"],\"defenders\":[\"9ainf20\"]}" \
    "{\"id\":3,\"cmd\":\"replay\",\"game\":$g,\"at\":0}" \
    "{\"id\":4,\"cmd\":\"replay\",\"game\":$g,\"at\":1}" \
    "{\"id\":5,\"cmd\":\"replay\",\"game\":$g,\"at\":2}" \
    "{\"id\":6,\"cmd\":\"replay\",\"game\":$g,\"at\":-1}" | raw queries
expect queries '"id":2,"ok":true,"result":{"legal":false,"reason":{"rule":"[A-Z]'
check "odds in the movement portion says which rule forbids the battle" \
    "grep '\"id\":2' '$dir/queries.out' | grep -q 'PLAY-2.*not possible now (movement portion)'"
check "replay 0 is the opening (21pz5 on W6), replay 1 after the move (on W14)" \
    "python3 -c 'import json,sys; r={m[\"id\"]: m for m in map(json.loads, open(\"$dir/queries.out\")) if \"id\" in m}; assert r[3][\"result\"][\"state\"][\"units\"][\"21pz5\"][\"hex\"] == \"W6\" and r[3][\"result\"][\"seq\"] == 0; assert r[4][\"result\"][\"state\"][\"units\"][\"21pz5\"][\"hex\"] == \"W14\"'"
expect queries '"id":5,"ok":false,"error":{"code":"bad_request","message":"\\"at\\" is a number of actions from 0 to 1'
expect queries '"id":6,"ok":false,"error":{"code":"bad_request"'
printf '%s\n' "{\"id\":1,\"cmd\":\"replay\",\"game\":$g,\"at\":0}" "{\"id\":2,\"cmd\":\"odds\",\"game\":$g,\"attackers\":[\"21pz5\"],\"defenders\":[\"9ainf20\"]}" | raw anon
expect anon '"id":1,"ok":true,"result":{"game":'"$g"',"seq":0,"state"'
expect anon '"id":2,"ok":false,"error":{"code":"not_logged_in"'
kill $pid; wait $pid 2>/dev/null
check "akd stops cleanly with the HTTP listener (exit 0, no sanitizer report)" "! grep -q 'ERROR: \\|runtime error' '$dir/main.log' && grep -q 'stopped' '$dir/main.log'"

# Hostile and careless HTTP and WebSocket clients (an adversarial trial
# found each): akd survives connections closed before their headers, long
# or odd request lines and garbage; a WebSocket that reads nothing is
# closed and gone after its idle timeout; binary frames are refused; a
# spectator watching from a link is not dropped as a connection that never
# logged in.
hport=$(free_port)
start_akd hostile --db "$dir/akd.sqlite3" --http-listen 127.0.0.1:$hport --idle-timeout 2 --session-idle-timeout 30 --rate 0 \
    --rate-per-address 0 --output-per-address 0
python3 - "$hport" <<'PYEOF2'
import socket, sys, time
port = int(sys.argv[1])
for send in [b"", b"GET /app", b"GET /" + b"a" * 5000 + b".js HTTP/1.1\r\nHost: x\r\n\r\n",
             b"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", b"GET http://evil/x HTTP/1.1\r\nHost: x\r\n\r\n",
             b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64]:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(send)
    time.sleep(0.05)
    s.close()
time.sleep(0.3)
PYEOF2
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/")
check "akd survives HTTP connections closed early, a 5,000-byte path, OPTIONS *, an absolute URI and TLS garbage ($code)" \
    "[ '$code' = 404 ] || [ '$code' = 200 ]; kill -0 $pid && ! grep -q 'ERROR: \\|runtime error' '$dir/hostile.log'"
yes '{"id":1,"cmd":"map"}' | head -100 | WS_NO_READ=9 python3 "$(dirname "$0")/wsclient.py" "ws://127.0.0.1:$hport/ws" >"$dir/noread.out" 2>&1
check "a WebSocket that reads nothing (9 MB waiting) is closed after the idle timeout, not left open uncounted" "grep -q '^(server closed it)' '$dir/noread.out'"
printf '%s\n' '{"id":1,"cmd":"login","user":"alice","password":"password-alice"}' $(yes '{"id":1,"cmd":"map"}' | head -250) |
    WS_NO_READ=4 python3 "$(dirname "$0")/wsclient.py" "ws://127.0.0.1:$hport/ws" >"$dir/backlog.out" 2>&1
check "a logged-in one that lets 16 MiB pile up is dropped at once, and logged" \
    "grep -q '^(server closed it)' '$dir/backlog.out' && grep -q 'does not read what it is sent (.*max_output_player); closing' '$dir/hostile.log'"
printf '%s\n' '{"id":1,"cmd":"hello"}' | WS_BINARY=1 python3 "$(dirname "$0")/wsclient.py" "ws://127.0.0.1:$hport/ws" >"$dir/binary.out" 2>&1
check "a binary frame is refused as not JSON text" "grep -q 'bad_json.*binary frames are not read' '$dir/binary.out'"
printf '%s\n' "{\"id\":1,\"cmd\":\"watch\",\"game\":$g}" '#sleep 3.5' '{"id":2,"cmd":"ping"}' |
    python3 "$(dirname "$0")/wsclient.py" "ws://127.0.0.1:$hport/ws" >"$dir/spectator.out" 2>&1
check "a spectator watching without an account outlives idle_timeout (2 s) and still pings" \
    "grep -q '\"id\":2,\"ok\":true' '$dir/spectator.out' && ! grep -q idle_timeout '$dir/spectator.out'"
printf '%s\n' '{"id":1,"cmd":"hello"}' '#sleep 3.5' '{"id":2,"cmd":"ping"}' |
    python3 "$(dirname "$0")/wsclient.py" "ws://127.0.0.1:$hport/ws" >"$dir/loiter.out" 2>&1
check "... while one that neither logs in nor watches is closed at idle_timeout" "grep -q 'idle_timeout' '$dir/loiter.out'"
kill $pid; wait $pid 2>/dev/null
check "... and akd stops cleanly after all that" "! grep -q 'ERROR: \\|runtime error' '$dir/hostile.log'"

# metrics_allow: loopback is not in it here
hport=$(free_port)
start_akd closed --db "$dir/akd2.sqlite3" --http-listen 127.0.0.1:$hport --metrics-allow "10.1.2.3"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/metrics")
check "/metrics from an address not in metrics_allow is 403 ($code)" "[ '$code' = 403 ]"
check "... and logged" "grep -q '/metrics refused to' '$dir/closed.log'"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/healthz")
check "/healthz from an address not in metrics_allow is 403 too ($code)" "[ '$code' = 403 ]"
kill $pid; wait $pid 2>/dev/null

# every HTTP request is charged to its address (rate_per_address, the
# game port's bucket too): past it, 429 with retry-after and the
# connection closed; the address is served again once it has waited
hport=$(free_port)
start_akd httprate --db "$dir/akd4.sqlite3" --http-listen 127.0.0.1:$hport --web-dir "$(dirname "$0")/../web" \
    --rate-per-address 20
python3 - "$hport" >"$dir/hrate.out" 2>&1 <<'PY'
import http.client, sys, time
port = int(sys.argv[1])
codes, closed, retry = {}, 0, None
c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
for _ in range(200):
    try:
        c.request("GET", "/")
        r = c.getresponse(); r.read()
    except (http.client.HTTPException, OSError):
        closed += 1
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        continue
    codes[r.status] = codes.get(r.status, 0) + 1
    if r.status == 429:
        retry = r.getheader("retry-after")
        closed += r.getheader("connection", "") == "close"
        c.close(); c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
time.sleep(2.5)
c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
c.request("GET", "/"); after = c.getresponse().status
print("codes", sorted(codes.items()), "retry", retry, "closed", closed, "after", after)
PY
check "200 page requests from one address at 20 a second: 40 (the burst) or a few more served, the rest 429 with retry-after and the connection closed; served again after a wait ($(cat "$dir/hrate.out"))" \
    "grep -q 'retry 1 closed' '$dir/hrate.out' && grep -q 'after 200' '$dir/hrate.out' && python3 - '$dir/hrate.out' <<'PY2'
import re, sys
t = open(sys.argv[1]).read()
ok = int(re.search(r'\(200, (\d+)\)', t).group(1)); refused = int(re.search(r'\(429, (\d+)\)', t).group(1))
closed = int(re.search(r'closed (\d+)', t).group(1))
sys.exit(0 if 40 <= ok <= 80 and ok + refused == 200 and closed == refused else 1)
PY2"
check "... and akd is up" "kill -0 $pid"
kill $pid; wait $pid 2>/dev/null

# HTTPS with the certificate of the game port
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/k.pem" -out "$dir/c.pem" \
    -days 2 -subj /CN=localhost -addext 'subjectAltName=DNS:localhost,IP:127.0.0.1' 2>/dev/null
hport=$(free_port)
start_akd tls --db "$dir/akd3.sqlite3" --http-listen 127.0.0.1:$hport --tls-cert "$dir/c.pem" --tls-key "$dir/k.pem"
code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$dir/c.pem" "https://127.0.0.1:$hport/metrics")
check "with tls_cert the listener speaks HTTPS with that certificate ($code)" "[ '$code' = 200 ]"
printf '%s\n' '{"id":1,"cmd":"hello"}' '{"id":2,"cmd":"frobnicate"}' |
    python3 "$(dirname "$0")/wsclient.py" "wss://127.0.0.1:$hport/ws" "$dir/c.pem" >"$dir/wss.out" 2>&1
check "... and its WebSocket is wss: the protocol over TLS, one reply a frame" \
    "grep -q '^{\"id\":1,\"ok\":true,\"result\":{\"server\":\"akd\"' '$dir/wss.out' && grep -q '^{\"id\":2,\"ok\":false,\"error\":{\"code\":\"unknown_command\"' '$dir/wss.out'"
kill $pid; wait $pid; rc=$?
check "akd survived the HTTPS requests and stops cleanly (exit $rc, no sanitizer report)" \
    "[ $rc = 0 ] && ! grep -q 'ERROR: \\|runtime error' '$dir/tls.log'"
"$AKD" --listen 127.0.0.1:0 --db "$dir/x.sqlite3" --http-listen nonsense >"$dir/bad.out" 2>&1; rc=$?
check "a bad http_listen is a usage error" "[ $rc = 2 ] && grep -q 'http_listen wants HOST:PORT' '$dir/bad.out'"
taken=$(free_port)
python3 -c "import socket,time; s=socket.socket(); s.bind(('127.0.0.1', $taken)); s.listen(); time.sleep(5)" &
sleep 0.5
"$AKD" --listen 127.0.0.1:0 --db "$dir/y.sqlite3" --http-listen 127.0.0.1:$taken >"$dir/taken.out" 2>&1; rc=$?
check "an http_listen port already taken stops akd at start (exit $rc), saying so" \
    "[ $rc != 0 ] && grep -q 'cannot listen for HTTP on 127.0.0.1:$taken' '$dir/taken.out' && ! grep -q 'ERROR: \\|runtime error' '$dir/taken.out'"
finish
