#!/bin/sh
# The Nitro fixture models of golden/nitro and golden/nitro-anim are made by the project's own
# writers (nitro/writer.h, nitro/anim_writer.h) in test_nitro_render / test_anim_render: run
# them with DSGX_NITRO_FIXTURE_DIR and check that every file they write is committed, byte for
# byte, and that every committed fixture is still written.
# Re-create: cmake --build BUILD --target golden_fixtures (test/golden.cmake), which runs
#   DSGX_NITRO_FIXTURE_DIR=golden/nitro BUILD/test/test_nitro_render and
#   DSGX_NITRO_FIXTURE_DIR=golden/nitro-anim BUILD/test/test_anim_render
# usage: nitro_fixtures.sh GOLDEN TEST_NITRO_RENDER TEST_ANIM_RENDER TMPDIR
set -u
golden=$1 tnr=$2 tar=$3 tmp=$4
rm -rf "$tmp"; mkdir -p "$tmp/nitro" "$tmp/nitro-anim"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
DSGX_NITRO_FIXTURE_DIR="$tmp/nitro" "$tnr" >/dev/null 2>&1 || bad "test_nitro_render failed"
DSGX_NITRO_FIXTURE_DIR="$tmp/nitro-anim" "$tar" >/dev/null 2>&1 || bad "test_anim_render failed"
for d in nitro nitro-anim; do
    n=0
    for f in "$tmp/$d"/*; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        b=$(basename "$f")
        if cmp -s "$f" "$golden/$d/$b"; then ok; else bad "$d/$b differs from what the writer makes (or is missing)"; fi
    done
    [ "$n" -gt 0 ] && ok || bad "$d: the writer made no fixture"
    for f in "$golden/$d"/*.nsb*; do
        [ -f "$tmp/$d/$(basename "$f")" ] && ok || bad "$d/$(basename "$f") is committed but no longer written"
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
