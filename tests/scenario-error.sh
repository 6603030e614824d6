#!/bin/sh
# scenario-error.sh AK-SCENARIO FILE: a scenario the runner must refuse.
# FILE's line "# error: TEXT" says why; the run must exit 1 (a failed
# scenario, not a crash: a sanitizer's abort or a signal is another
# status) and print TEXT, so the file fails for its reason and no other;
# a sanitizer's report fails it too (UBSan may exit 1 as well).
scenario=$1
file=$2
want=$(sed -n 's/^# error: //p' "$file" | head -1)
if [ -z "$want" ]; then
    echo "$file: no '# error: TEXT' line"
    exit 1
fi
out=$("$scenario" "$file" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc != 1 ]; then
    echo "FAIL: exit status $rc, not 1"
    exit 1
fi
case $out in
*"runtime error:"* | *Sanitizer*) echo "FAIL: a sanitizer's report"; exit 1 ;;
*"$want"*) echo "ok: refused with: $want" ;;
*) echo "FAIL: the output does not say: $want"; exit 1 ;;
esac
