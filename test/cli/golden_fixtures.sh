#!/bin/sh
# The fixture files of the golden scenes drawn from models (golden/nitro, golden/nitro-anim,
# golden/t3dm) are made by the project's own writers (nitro/writer.h, nitro/anim_writer.h,
# t3dm/writer.h, t3dm/sprite_writer.h) inside unit tests that write them on request: run each
# such test with its fixture variable set to a fresh directory and check that every file it
# writes is committed, byte for byte, and that every committed fixture is still written.
# Re-create: cmake --build BUILD --target golden_fixtures (test/golden.cmake).
# usage: golden_fixtures.sh GOLDEN TMPDIR  DIR VARIABLE TEST 'PATTERNS'  [DIR VARIABLE TEST 'PATTERNS' ...]
#   DIR: below GOLDEN; VARIABLE: the test's fixture variable (DSGX_NITRO_FIXTURE_DIR...);
#   PATTERNS: the committed fixtures, relative to DIR (e.g. '*.t3dm *.sdata tex/*.sprite')
set -u
golden=$1 tmp=$2
shift 2
rm -rf "$tmp"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
while [ $# -ge 4 ]; do
    d=$1 var=$2 prog=$3 pats=$4
    shift 4
    mkdir -p "$tmp/$d"
    env "$var=$tmp/$d" "$prog" >/dev/null 2>&1 || bad "$(basename "$prog") failed"
    n=0
    for f in $(cd "$tmp/$d" && find . -type f | sort); do
        n=$((n + 1))
        f=${f#./}
        if cmp -s "$tmp/$d/$f" "$golden/$d/$f"; then ok; else bad "$d/$f differs from what the writer makes (or is missing)"; fi
    done
    [ "$n" -gt 0 ] && ok || bad "$d: the writer made no fixture"
    for p in $pats; do
        for f in "$golden/$d"/$p; do
            [ -f "$f" ] || { bad "$d/$p: nothing committed"; continue; }
            r=${f#"$golden/$d/"}
            [ -f "$tmp/$d/$r" ] && ok || bad "$d/$r is committed but no longer written"
        done
    done
done
[ $# -eq 0 ] || bad "usage: a group of DIR VARIABLE TEST PATTERNS is incomplete"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
