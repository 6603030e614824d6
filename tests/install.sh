#!/bin/sh
# What `meson install` (run by scripts/run) puts where: akc and akd in
# bin/, akc.1 and akd.8 under share/man, so that `man akc` works once the
# prefix is set up. Installs into a scratch DESTDIR, never the system.
# usage: install.sh BUILD_DIR
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
if ! meson install -C "$build" --no-rebuild --destdir "$dir/root" >"$dir/install.log" 2>&1; then
    bad "meson install"
    cat "$dir/install.log"
    finish
    exit 1
fi
prefix=$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
root="$dir/root$prefix"
check "akc is installed in bin/" "[ -x '$root/bin/akc' ]"
check "akd is installed in bin/" "[ -x '$root/bin/akd' ]"
check "akc.1 is installed in share/man/man1" "[ -f '$root/share/man/man1/akc.1' ]"
check "akd.8 is installed in share/man/man8" "[ -f '$root/share/man/man8/akd.8' ]"
if command -v man >/dev/null; then
    check "man akc finds the page under the prefix" "MANPATH='$root/share/man' man -w akc | grep -q '$root/share/man/man1/akc.1'"
fi
check "the installed akc runs" "'$root/bin/akc' --version | grep -q '^akc '"
# A source install never takes over the package's unit (systemd reads
# /usr/local/lib/systemd/system first), its state or its configuration.
if [ "$prefix" != /usr ]; then
    units="$root/lib/systemd/system"
    check "under $prefix the units are akd-local.service, akd-local@.service, akbot-local.service" \
        "[ -f '$units/akd-local.service' ] && [ -f '$units/akd-local@.service' ] && [ -f '$units/akbot-local.service' ]"
    check "... never akd.service, akd@.service nor akbot.service" \
        "[ ! -e '$units/akd.service' ] && [ ! -e '$units/akd@.service' ] && [ ! -e '$units/akbot.service' ]"
    check "... their state apart from the package's (/var/lib/akd-local, akbot-local), their settings under $prefix" \
        "grep -qx 'StateDirectory=akd-local' '$units/akd-local.service' && grep -qx 'StateDirectory=akbot-local' '$units/akbot-local.service' && grep -q '^ExecStart=$prefix/bin/akd\$' '$units/akd-local.service'"
    check "... akbot-local waits for akd-local" "grep -q '^After=.*akd-local.service' '$units/akbot-local.service'"
    check "an instance of akd-local@NAME reads NAME.conf and keeps its state in /var/lib/akd-local-NAME" \
        "grep -qx 'ExecStart=$prefix/bin/akd --config $prefix/etc/akd/%i.conf --db /var/lib/akd-local-%i/akd.sqlite3' '$units/akd-local@.service' && grep -qx 'StateDirectory=akd-local-%i' '$units/akd-local@.service'"
fi
finish
