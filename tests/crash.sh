#!/bin/sh
# The crash test's short run (scripts/crash-test runs the long one):
# a few SIGKILL cycles of the test build, nothing acknowledged lost.
# usage: crash.sh AKD AK-SCENARIO POSITION.scn CYCLES
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$2" --dump "$3" >"$dir/position.json" 2>/dev/null
# First, that the check sees a loss: an acknowledged action removed.
if AK_CRASH_TAMPER=1 python3 "$(dirname "$0")/crash.py" "$1" "$dir/position.json" 2 5 >"$dir/tamper.out" 2>&1 ||
   ! grep -q "LOST: game" "$dir/tamper.out"; then
    echo "FAIL the crash test did not notice an acknowledged action removed"; cat "$dir/tamper.out"; exit 1
fi
echo "ok   the crash test notices an acknowledged action removed"
exec python3 "$(dirname "$0")/crash.py" "$1" "$dir/position.json" "$4" 3
