#!/bin/bash
# What an operator relies on (issue 15): logfmt log lines with their
# fields, priorities for journald, systemd's notify protocol (READY,
# WATCHDOG, RELOADING, STOPPING), timestamped backups pruned to the last
# K and checked by akd --check, the default configuration file, and the
# systemd unit that `meson install` puts in place (systemd-analyze verify).
# usage: ops.sh AKD AKC BUILD_DIR
set -u
AKD=$1 AKC=$2 build=$3
dir=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
listener=""
cleanup() { for p in $pids $listener; do kill "$p" 2>/dev/null; done; rm -rf "$dir"; }
trap cleanup EXIT

# --- logfmt: ts= level= msg= conn= user= game= ---
start_akd log --db "$dir/log.sqlite3"
AKC_PASSWORD=pw-alice as alice register alice >/dev/null 2>&1
as alice new axis >/dev/null 2>&1
log=$dir/log.log
check "every line is logfmt: ts= level= msg=" \
    "! grep -v -E '^ts=[0-9T:-]+Z level=(debug|info|warn|error) msg=' '$log' | grep -q ."
check "a connection opened carries conn=" "grep -q 'msg=\"connection from 127.0.0.1\" conn=[0-9]' '$log'"
check "a connection closed carries conn= (and user= once logged in)" \
    "grep -q 'msg=\"connection from 127.0.0.1 closed\" conn=[0-9]* user=alice' '$log'"
check "a login carries conn= and user=" "grep -q 'msg=\"alice logged in from 127.0.0.1\" conn=[0-9]* user=alice' '$log'"
check "a game created carries conn=, user= and game=" "grep -q 'created game 1 as Axis\" conn=[0-9]* user=alice game=1' '$log'"
as alice resign 1 >/dev/null 2>&1 || as alice abort 1 >/dev/null 2>&1
check "a game that ends is logged with game=" "grep -E -q '(finished|aborted).*game=1' '$log'"
kill $pid; wait $pid 2>/dev/null

# --- journald: priorities instead of timestamps when stderr is the journal ---
touch "$dir/journal.log"
js=$(stat -c '%d:%i' "$dir/journal.log")
JOURNAL_STREAM=$js "$AKD" --listen 0.0.0.0:0 --allow-plaintext 1 --db "$dir/j.sqlite3" 2>>"$dir/journal.log" &
jp=$!; sleep 1; kill $jp 2>/dev/null; wait $jp 2>/dev/null
check "under journald each line starts with its syslog priority, no ts=" \
    "grep -q '^<[0-7]>level=' '$dir/journal.log' && ! grep -q 'ts=' '$dir/journal.log'"
check "... a warning as priority 4, information as 6" "grep -q '^<4>level=warn msg=\"listening on 0.0.0.0 without TLS' '$dir/journal.log' && grep -q '^<6>level=info' '$dir/journal.log'"
JOURNAL_STREAM=1:1 "$AKD" --listen 127.0.0.1:0 --db "$dir/j2.sqlite3" 2>"$dir/journal2.log" &
jp=$!; sleep 1; kill $jp 2>/dev/null; wait $jp 2>/dev/null
check "a JOURNAL_STREAM that is not our stderr is ignored" "grep -q '^ts=' '$dir/journal2.log'"

# --- systemd's notify protocol ---
python3 "$here/notify-listen.py" "$dir/notify.sock" "$dir/sd.out" &
listener=$!
for _ in $(seq 50); do [ -S "$dir/notify.sock" ] && break; sleep 0.1; done
export NOTIFY_SOCKET=$dir/notify.sock WATCHDOG_USEC=400000
start_akd notify --db "$dir/n.sqlite3"
unset NOTIFY_SOCKET WATCHDOG_USEC
sleep 1
check "READY=1 once akd listens, with a STATUS" "grep -q '^READY=1' '$dir/sd.out' && grep -q '^STATUS=listening on 127.0.0.1:$port' '$dir/sd.out'"
check "WATCHDOG=1 at half the WatchdogSec interval" "[ \$(grep -c '^WATCHDOG=1' '$dir/sd.out') -ge 3 ]"
kill -HUP $pid; sleep 0.5
check "SIGHUP (systemctl reload) sends RELOADING=1 with MONOTONIC_USEC, then READY=1" \
    "grep -q '^RELOADING=1' '$dir/sd.out' && grep -q '^MONOTONIC_USEC=[0-9]' '$dir/sd.out' && [ \$(grep -c '^READY=1' '$dir/sd.out') = 2 ]"
kill $pid; wait $pid 2>/dev/null
check "STOPPING=1 at shutdown" "grep -q '^STOPPING=1' '$dir/sd.out'"

# --- backups: timestamped, every backup_hours, the last backup_keep kept ---
start_akd backup --db "$dir/b.sqlite3" --backup-dir bk --backup-hours 0.0003 --backup-keep 2
AKC_PASSWORD=pw-carol as alice register carol >/dev/null 2>&1
sleep 4
n=$(ls "$dir/bk" | grep -c -E '^akd-[0-9]{8}T[0-9]{6}Z\.sqlite3$')
check "a relative backup_dir is beside the database, made by akd" "[ -d '$dir/bk' ]"
check "backups every backup_hours, pruned to the last backup_keep ($n)" "[ '$n' = 2 ]"
check "only whole backups have their name (no partial file left)" "! ls '$dir/bk' | grep -q partial"
check "the scheduled backups are logged" "[ \$(grep -c 'database backed up to $dir/bk/akd-' '$dir/backup.log') -ge 3 ]"
newest=$(ls "$dir/bk"/akd-*.sqlite3 | tail -1)
check "backups are mode 0600" "[ \$(stat -c %a '$newest') = 600 ]"
check "akd --check passes on a backup" "'$AKD' --check '$newest' >'$dir/check.out' 2>&1"
check "... which holds the accounts" "[ \$(sqlite3 '$newest' 'SELECT count(*) FROM users') = 1 ]"
check "... and leaves nothing beside it (no -wal, no -shm)" "[ ! -e '$newest-wal' ] && [ ! -e '$newest-shm' ]"
"$AKD" --check "$dir/bk" >"$dir/check-dir.out" 2>&1; rc=$?
check "akd --check of a directory says so (exit 2)" "[ $rc = 2 ] && grep -q 'not a file' '$dir/check-dir.out'"
touch "$dir/bk/notes.txt" "$dir/bk/akd-old.sqlite3"
kill -USR1 $pid; sleep 1
check "SIGUSR1 takes one now; pruning leaves other files alone" "[ -f '$dir/bk/notes.txt' ] && [ -f '$dir/bk/akd-old.sqlite3' ]"
kill $pid; wait $pid 2>/dev/null
# a backup with a later name than now (a clock set back, a copy from
# elsewhere) does not make pruning remove the one just written
cp "$newest" "$dir/bk/akd-29991231T000000Z.sqlite3"
touch "$dir/bk/akd-20200101T000000Z.sqlite3.partial"
start_akd backup2 --db "$dir/b.sqlite3" --backup-dir bk --backup-hours 0 --backup-keep 1
check "a .partial file left by a backup cut short is removed at start" "[ ! -e '$dir/bk/akd-20200101T000000Z.sqlite3.partial' ]"
kill -USR1 $pid; sleep 1
written=$(sed -n 's/.*database backed up to \([^ "]*\).*/\1/p' "$dir/backup2.log" | tail -1)
check "the backup just written is kept, whatever the names of the others" "[ -n '$written' ] && [ -f '$written' ]"
kill $pid; wait $pid 2>/dev/null
# --- restore (issue 33): the documented way (docs/operations.md,
# "Restore") leaves the database to the service's user, who starts on it;
# a restore that leaves it root's is refused in words (owner, mode, path)
# instead of SQLite's "unable to open database file". As root, akd runs as
# nobody (the packaged unit's own user is made by systemd); otherwise the
# file's mode shuts the user out.
svc=$(mktemp -d); chmod 755 "$svc"
backup=$(ls "$dir/bk"/akd-2*.sqlite3 | tail -1)
check "a backup to restore from ($backup)" "[ -f '$backup' ]"
if [ "$(id -u)" = 0 ]; then
    cp "$AKD" "$svc/akd"
    printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups %s/akd "$@"\n' "$svc" >"$svc/akd-as-service"
    chmod 755 "$svc/akd" "$svc/akd-as-service"
    install -d -m 0700 -o 65534 -g 65534 "$svc/state"
    "$AKD" --check "$backup" >/dev/null 2>&1 &&
        install -m 0600 -o "$(stat -c %u "$svc/state")" "$backup" "$svc/state/akd.sqlite3"
    rm -f "$svc/state/akd.sqlite3-wal" "$svc/state/akd.sqlite3-shm"
    AKD_REAL=$AKD; AKD=$svc/akd-as-service
    start_akd restored --db "$svc/state/akd.sqlite3"
    check "restored the documented way, akd starts as the service's user on the backup" \
        "[ \$(stat -c %u '$svc/state/akd.sqlite3') = 65534 ] && grep -q listening '$dir/restored.out'"
    AKC_PASSWORD=pw-carol as carol login carol >"$dir/restored-login.out" 2>&1
    check "... and the account in the backup logs in" "grep -q 'logged in as carol' '$dir/restored-login.out'"
    kill $pid; wait $pid 2>/dev/null
    install -m 0600 "$backup" "$svc/state/root.sqlite3"
    timeout 10 "$AKD" --listen 127.0.0.1:0 --db "$svc/state/root.sqlite3" >"$dir/root.out" 2>&1; rc=$?
    check "a database restored as root's is refused in words: owner, mode, user, what to do (exit $rc)" \
        "[ $rc != 0 ] && grep -q 'root.sqlite3 belongs to root (uid 0), mode 0600, and akd runs as nobody (uid 65534), who may not read and write it; give it to akd' '$dir/root.out'"
    timeout 10 "$AKD" --listen 127.0.0.1:0 --db "$svc/akd.sqlite3" >"$dir/rootdir.out" 2>&1; rc=$?
    check "a directory akd may not write in is named, and why (exit $rc)" \
        "[ $rc != 0 ] && grep -q 'belongs to root (uid 0), mode 0755, and akd runs as nobody (uid 65534): akd must be able to create files there' '$dir/rootdir.out'"
    AKD=$AKD_REAL
else
    install -m 0000 "$backup" "$svc/shut.sqlite3"
    timeout 10 "$AKD" --listen 127.0.0.1:0 --db "$svc/shut.sqlite3" >"$dir/root.out" 2>&1; rc=$?
    check "a database akd may not read is refused in words: owner, mode, what to do (exit $rc)" \
        "[ $rc != 0 ] && grep -q 'shut.sqlite3 belongs to .*, mode 0000, and akd runs as .*, who may not read and write it' '$dir/root.out'"
fi
rm -rf "$svc"

# the schedule survives restarts (issue 33): with a backup younger than
# backup_hours akd waits for it to fall due; with only older ones (or
# none) it takes one a second after start
rm -f "$dir/bk"/akd-2999*.sqlite3
before=$(ls "$dir/bk" | grep -c -E '^akd-[0-9]{8}T[0-9]{6}Z\.sqlite3$')
start_akd sched --db "$dir/b.sqlite3" --backup-dir bk --backup-hours 1 --backup-keep 5
sleep 2.5
after=$(ls "$dir/bk" | grep -c -E '^akd-[0-9]{8}T[0-9]{6}Z\.sqlite3$')
check "restarted with a backup younger than backup_hours, akd takes none at start ($before then $after)" "[ '$after' = '$before' ]"
check "... and logs when the next is due" "grep -q 'the newest backup in $dir/bk is [0-9]* s old: the next in 3[0-9][0-9][0-9] s' '$dir/sched.log'"
kill $pid; wait $pid 2>/dev/null
mkdir "$dir/bk-old"
cp "$(ls "$dir/bk"/akd-2*.sqlite3 | tail -1)" "$dir/bk-old/akd-20200101T000000Z.sqlite3"
hport=$(free_port)
start_akd sched2 --db "$dir/b.sqlite3" --backup-dir bk-old --backup-hours 1 --backup-keep 5 --http-listen 127.0.0.1:$hport
sleep 2.5
check "restarted with only a backup older than backup_hours, akd takes one a second after start" \
    "[ \$(ls '$dir/bk-old' | grep -c -E '^akd-20[0-9]{6}T[0-9]{6}Z[.]sqlite3$') = 2 ]"
curl -s "http://127.0.0.1:$hport/metrics" >"$dir/bm.txt"
check "/metrics gives the newest backup's age and no failure" \
    "grep -q '^akd_backup_age_seconds [0-9]$' '$dir/bm.txt' && grep -q '^akd_backup_failures_total 0$' '$dir/bm.txt'"
# a failed backup is an error, counted, and tried again: the directory
# replaced by a file (root too cannot write into that), then put back
rm -rf "$dir/bk-old" && touch "$dir/bk-old"
kill -USR1 $pid; sleep 1
curl -s "http://127.0.0.1:$hport/metrics" >"$dir/bm2.txt"
check "a failed backup is logged as an error and counted in /metrics" \
    "grep -q 'error.*backup to $dir/bk-old/akd-.* failed.*tried again' '$dir/sched2.log' && grep -q '^akd_backup_failures_total 1$' '$dir/bm2.txt'"
kill $pid; wait $pid 2>/dev/null
rm -f "$dir/bk-old"
# ... and tried again: with backups every second the retry comes at once;
# the directory put back, the next try succeeds
start_akd sched3 --db "$dir/b.sqlite3" --backup-dir bk-retry --backup-hours 0.0003 --backup-keep 2
rm -rf "$dir/bk-retry" && touch "$dir/bk-retry"
sleep 2.5
tries=$(grep -c "backup to .*bk-retry.* failed" "$dir/sched3.log")
rm -f "$dir/bk-retry" && mkdir "$dir/bk-retry"
sleep 2.5
check "a failed scheduled backup is tried again ($tries failures), and succeeds once the directory is back" \
    "[ '$tries' -ge 1 ] && ls '$dir/bk-retry' | grep -q -E '^akd-[0-9]{8}T[0-9]{6}Z[.]sqlite3$'"
kill $pid; wait $pid 2>/dev/null
mkdir -p "$dir/ro"; chmod 500 "$dir/ro"
if [ "$(id -u)" != 0 ]; then
    "$AKD" --listen 127.0.0.1:1 --db "$dir/r.sqlite3" --backup-dir "$dir/ro" >"$dir/ro.out" 2>&1
    check "a backup_dir akd cannot write is refused at start" "grep -q 'not a directory akd can write' '$dir/ro.out'"
fi
"$AKD" --listen 127.0.0.1:1 --db "$dir/r.sqlite3" --backup-hours -1 >"$dir/bh.out" 2>&1
check "a bad backup_hours is refused" "grep -q 'backup_hours is a number of hours' '$dir/bh.out'"

# --- the default configuration file ---
cat >"$dir/default.conf" <<CONF
listen = 127.0.0.1:1
db = $dir/default.sqlite3
log_level = nonsense
CONF
AKD_CONFIG=$dir/default.conf "$AKD" >"$dir/default.out" 2>&1
check "without --config akd reads \$AKD_CONFIG (here: its error, with the line)" \
    "grep -q 'default.conf:3: log_level is debug' '$dir/default.out'"
AKD_CONFIG=$dir/default.conf "$AKD" --config /dev/null --listen 127.0.0.1:1 >"$dir/default2.out" 2>&1
check "--config replaces the default file" "! grep -q 'default.conf' '$dir/default2.out'"
check "akd --help names the installed default file" "'$AKD' --help | grep -q 'akd/akd.conf'"
sed -i 's/log_level = nonsense/log_level = warn/' "$dir/default.conf"
AKD_CONFIG=$dir/default.conf "$AKD" --listen 127.0.0.1:0 >"$dir/default3.out" 2>&1 &
dp=$!; sleep 1
check "the default file's db is used, flags override its other lines" \
    "[ -f '$dir/default.sqlite3' ] && grep -q 'listening on 127.0.0.1:0' '$dir/default3.out'"
kill $dp 2>/dev/null; wait $dp 2>/dev/null

# --- the systemd unit and the default configuration meson installs ---
inst=$dir/inst
if meson install -C "$build" --no-rebuild --destdir "$inst" >"$dir/inst.log" 2>&1; then
    unit=$(find "$inst" -name akd.service -o -name akd-local.service | head -1)   # a /usr install or another prefix's
    conf=$(find "$inst" -path '*akd/akd.conf' | head -1)
    check "meson install puts akd.service (akd-local.service outside /usr) under lib/systemd/system" "[ -n '$unit' ] && echo '$unit' | grep -q 'lib/systemd/system/akd\\(-local\\)\\?.service'"
    check "... and a commented akd.conf under etc/akd" "[ -n '$conf' ] && [ \$(grep -c '^#' '$conf') -ge 20 ]"
    check "the unit is Type=notify with a watchdog, sandboxed, reload is SIGHUP" \
        "grep -q '^Type=notify' '$unit' && grep -q '^WatchdogSec=' '$unit' && grep -q '^DynamicUser=yes' '$unit' && grep -q '^ProtectSystem=strict' '$unit' && grep -q '^NoNewPrivileges=yes' '$unit' && grep -q '^StateDirectory=akd' '$unit' && grep -q 'ExecReload=.*-HUP' '$unit' && grep -q '^Restart=on-failure' '$unit'"
    # the installed akd.conf, read as akd would (its db moved here)
    sed "s|^db = .*|db = $dir/conf.sqlite3|" "$conf" >"$dir/installed.conf"
    "$AKD" --config "$dir/installed.conf" --listen 127.0.0.1:0 >"$dir/installed.out" 2>&1 &
    ip=$!; sleep 1
    check "the installed akd.conf is valid: akd starts with it, backups beside the db" \
        "grep -q 'listening' '$dir/installed.out' && [ -d '$dir/backups' ]"
    kill $ip 2>/dev/null; wait $ip 2>/dev/null
    if command -v systemd-analyze >/dev/null; then
        # verify wants ExecStart's program where the unit says it is
        bin=$(sed -n 's/^ExecStart=//p' "$unit")
        if [ -x "$bin" ] || { mkdir -p "$(dirname "$bin")" 2>/dev/null && cp "$AKD" "$bin" 2>/dev/null && copied=1; }; then
            # --man=no: the unit's Documentation=man:akd(8) is installed with
            # it, not yet on this machine's man path (the install test checks
            # the page itself)
            systemd-analyze verify --man=no "$unit" >"$dir/verify.out" 2>&1
            check "systemd-analyze verify passes on akd.service" "! grep -v -i 'no such file\\|Failed to connect\\|Bus\\|System has not been booted' '$dir/verify.out' | grep -q akd.service"
            [ "${copied:-0}" = 1 ] && rm -f "$bin"
        else
            echo "skip systemd-analyze verify: cannot place $bin"
        fi
    fi
else
    bad "meson install"; cat "$dir/inst.log"
fi

# The Updated ruleset's combat results table (updated_crt): checked whole
# at start; a bad one stops akd (exit 2) naming the file and the line.
crt="$(dirname "$0")/data/crt-test.txt"
start_akd crt --db "$dir/crt.sqlite3" --updated-crt "$crt"
check "updated_crt: akd starts with the test table and logs what it read" \
    "grep -q 'updated_crt .*crt-test.txt: .*TEST TABLE.*10 columns, modified rolls -1 to 8' '$dir/crt.log'"
AKC_PASSWORD=password-dora as dora register dora >/dev/null 2>&1
AKC_PASSWORD=password-dora as dora new axis --ruleset updated >"$dir/crt-new.out" 2>&1; rc=$?
check "with a table akc starts a game of the updated ruleset (exit $rc)" "[ $rc = 0 ]"
ugame=$(grep -o '[0-9]\+' "$dir/crt-new.out" | head -1)
AKC_PASSWORD=password-dora as dora show "$ugame" >"$dir/crt-show.out" 2>&1
check "akc show draws it: the updated ruleset, the table's name" \
    "grep -q '^updated, ' '$dir/crt-show.out' && grep -q 'Combat results table: TEST TABLE' '$dir/crt-show.out'"
kill $pid; wait $pid 2>/dev/null
sed 's/^roll 3 .*/roll 3 AL50% AL50% - DR2 HX DL1 DL50% DL50% DL1\/DR2 DL2\/DR9%/' "$crt" >"$dir/bad-crt.txt"
"$AKD" --listen 127.0.0.1:0 --db "$dir/crt2.sqlite3" --updated-crt "$dir/bad-crt.txt" >"$dir/badcrt.out" 2>&1; rc=$?
check "a bad cell stops akd (exit $rc) naming the file, the line and the cell" \
    "[ $rc = 2 ] && grep -q 'updated_crt .*bad-crt.txt: line 17: .DL2/DR9%. (column 6-1) is not a result' '$dir/badcrt.out'"
"$AKD" --listen 127.0.0.1:0 --db "$dir/crt2.sqlite3" --updated-crt "$dir/none.txt" >"$dir/nocrt.out" 2>&1; rc=$?
check "a missing table stops akd (exit $rc) and says so" "[ $rc = 2 ] && grep -q 'updated_crt .*none.txt: No such file' '$dir/nocrt.out'"
head -c 300000 /dev/zero >"$dir/zero-crt.txt"
"$AKD" --listen 127.0.0.1:0 --db "$dir/crt2.sqlite3" --updated-crt "$dir/zero-crt.txt" >"$dir/zerocrt.out" 2>&1; rc=$?
check "a binary or oversized file is refused (exit $rc)" "[ $rc = 2 ] && grep -q 'updated_crt .*zero-crt.txt: longer than 256 KiB' '$dir/zerocrt.out'"
finish
