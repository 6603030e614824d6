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
finish
