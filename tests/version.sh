#!/bin/bash
# The one version (issue 33): meson.build, the three binaries' --version,
# the man pages' headers and debian/changelog's top entry agree; and
# scripts/release, run on a copy of the sources, moves all of them to the
# next version, and refuses a version that is not one or not above.
# Arguments: AKD AKC AKBOT.
. "$(dirname "$0")/lib.sh"
AKD=$1 AKC=$2 AKBOT=$3
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

versions() {    # the versions a source tree names, one per line
    sed -n "s/^  version : '\([0-9.]*\)',$/\1/p" "$1/meson.build"
    for page in "$1"/man/*.[18]; do sed -n '1s/^\.TH .* "[a-z]* \([0-9.]*\)".*/\1/p' "$page"; done
    sed -n '1s/^afrika-korps (\([0-9.]*\)).*/\1/p' "$1/debian/changelog"
}
v=$(sed -n "s/^  version : '\([0-9.]*\)',$/\1/p" "$src/meson.build")
check "meson.build names a version ($v)" "[ -n '$v' ]"
pages=$(ls "$src"/man/*.[18] | wc -l)
check "the $pages man pages and debian/changelog name the same one, each (nothing unread)" \
    "[ \"\$(versions '$src' | sort -u)\" = '$v' ] && [ \$(versions '$src' | wc -l) = \$((pages + 2)) ]"
check "akd, akc and akbot print it" \
    "'$AKD' --version | grep -q '^akd $v\\b' && '$AKC' --version | grep -q '^akc $v\\b' && '$AKBOT' --version | grep -q '^akbot $v\\b'"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    check "built from git, --version names the commit" "'$AKD' --version | grep -q '(commit [0-9a-fv][^)]*)'"
fi

mkdir "$dir/copy"
(cd "$src" && git ls-files -z 2>/dev/null | xargs -0 tar cf - meson.build man debian 2>/dev/null || tar cf - meson.build man debian) | tar xf - -C "$dir/copy"
next=$(echo "$v" | awk -F. '{print $1 "." $2 "." $3 + 1}')
sh "$src/scripts/release" "$v" --dir "$dir/copy" >"$dir/same.out" 2>&1; rc=$?
check "release of the current version is refused (exit $rc)" "[ $rc = 2 ] && grep -q 'not above' '$dir/same.out'"
sh "$src/scripts/release" "1.2" --dir "$dir/copy" >"$dir/bad.out" 2>&1; rc=$?
check "release of '1.2' is refused (exit $rc)" "[ $rc = 2 ] && grep -q 'not a version' '$dir/bad.out'"
check "... and nothing changed" "[ \"\$(versions '$dir/copy' | sort -u)\" = '$v' ]"
sh "$src/scripts/release" "$next" --dir "$dir/copy" >"$dir/next.out" 2>&1; rc=$?
check "release $next moves meson.build, every man page and debian/changelog to it (exit $rc)" \
    "[ $rc = 0 ] && [ \"\$(versions '$dir/copy' | sort -u)\" = '$next' ] && [ \$(versions '$dir/copy' | wc -l) = \$(versions '$src' | wc -l) ]"
check "... the changelog keeps the earlier entries below the new one" \
    "grep -q '^afrika-korps ($v)' '$dir/copy/debian/changelog' && head -1 '$dir/copy/debian/changelog' | grep -q '($next)'"
if command -v dpkg-parsechangelog >/dev/null; then
    check "... and dpkg-parsechangelog reads it" "dpkg-parsechangelog -l '$dir/copy/debian/changelog' -S Version | grep -qx '$next'"
fi
finish
