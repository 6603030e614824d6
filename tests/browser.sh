#!/bin/bash
# The browser client in Debian's chromium, driven by playwright-core
# (tests/browser/play.mjs and community.mjs say what they check), against a test akd with its
# HTTP listener serving web/. scripts/setup installs chromium, Node.js and
# the test's npm package (tests/browser/package-lock.json); without them
# this test is skipped (exit 77) and says why. Screenshots land in
# $AK_ARTIFACTS (default build-test/browser-artifacts).
# Every position of tests/positions/*.scn is made into a JSON position
# (ak-scenario --dump) that play.mjs reads by name.
# A computer player (akbot, account "computer") plays beside akd.
# usage: browser.sh AKD AK-SCENARIO TABLE POSITIONS-DIR AKBOT
set -u
AKD=$1 SCENARIO=$2 TABLE=$3 POSITIONS=$4 AKBOT=$5
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$dir"' EXIT
. "$here/lib.sh"

chromium=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$chromium" ] || ! command -v node >/dev/null || [ ! -d "$here/browser/node_modules/playwright-core" ]; then
    echo "SKIP: the browser tests need chromium, node and tests/browser/node_modules (scripts/setup installs them)"
    exit 77
fi
hport=$(free_port)
# an operator's account (community.mjs makes a tournament with it): made,
# then given the admin role with akd stopped, as docs/operations.md says
start_akd akd --db "$dir/akd.sqlite3"
PYTHONPATH="$here" python3 -c 'import sys; from akd_conn import Conn; r = Conn(int(sys.argv[1])).call("register", user="tdir", password="password-tdir"); sys.exit(0 if r.get("ok") else 1)' $port \
    || { echo "cannot register the operator"; exit 1; }
echo password-computer >"$dir/bot-password"
"$AKBOT" --server 127.0.0.1:$port --user computer --password-file "$dir/bot-password" --register >/dev/null \
    || { echo "cannot register the computer player"; exit 1; }
kill $pid; wait $pid 2>/dev/null
"$AKD" --db "$dir/akd.sqlite3" --admin-add tdir >/dev/null || { echo "cannot make tdir an admin"; exit 1; }
"$AKD" --db "$dir/akd.sqlite3" --computer-add computer >/dev/null || { echo "cannot mark the computer player"; exit 1; }
start_akd akd --db "$dir/akd.sqlite3" --http-listen 127.0.0.1:$hport --web-dir "$here/../web" --allow-positions 1 --updated-crt "$TABLE"
"$AKBOT" --server 127.0.0.1:$port --user computer --password-file "$dir/bot-password" >"$dir/akbot.log" 2>&1 &
pids="$pids $!"
mkdir -p "$dir/positions"
for scn in "$POSITIONS"/*.scn; do
    name=$(basename "$scn" .scn)
    "$SCENARIO" --dump "$scn" >"$dir/positions/$name.json" 2>/dev/null || { echo "cannot make the position $name"; exit 1; }
done
artifacts=${AK_ARTIFACTS:-$PWD/browser-artifacts}
CHROMIUM=$chromium timeout 300 node "$here/browser/play.mjs" "http://127.0.0.1:$hport" "127.0.0.1:$port" \
    "$dir/positions" "$artifacts"
rc=$?
CHROMIUM=$chromium timeout 300 node "$here/browser/community.mjs" "http://127.0.0.1:$hport" "127.0.0.1:$port" tdir password-tdir
[ $? = 0 ] || rc=1
kill $pid; wait $pid 2>/dev/null
[ $rc = 0 ] || { echo "--- akd's log (last 40 lines)"; tail -40 "$dir/akd.log"; echo "--- akbot's"; tail -20 "$dir/akbot.log"; }
if grep -q 'ERROR: \|runtime error' "$dir/akd.log" "$dir/akbot.log"; then
    echo "FAIL: a sanitizer report in akd's or akbot's log:"; grep -A20 'ERROR: \|runtime error' "$dir/akd.log" "$dir/akbot.log" | head -40
    rc=1
fi
exit $rc
