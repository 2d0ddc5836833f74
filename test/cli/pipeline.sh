#!/bin/sh
# The pipelined replay end to end (tools/core/system.h): `dsgx replay` prints the same frame
# lines and writes the same PNG and raw frames with --threads 1, 2 and 3, on a trace that
# rewrites VRAM between frames and on one whose frames underflow; `dsgx bench --threads 2`
# (the pipelined stream of passes) runs and prints its line (figures are not checked).
# usage: pipeline.sh DSGX GOLDENDIR TMPDIR
set -u
dsgx=$1 golden=$2 tmp=$3
rm -rf "$tmp"; mkdir -p "$tmp"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

for trace in scenes/multiframe_texture_anim rdlines/band_bottom; do
    name=$(basename "$trace")
    for n in 1 2 3; do
        "$dsgx" replay "$golden/$trace.trace" --threads "$n" -o "$tmp/$name.$n" --raw \
            > "$tmp/$name.$n.txt" 2>&1 || bad "$name --threads $n: exit status"
    done
    frames=$(grep -c '^frame ' "$tmp/$name.1.txt")
    [ "$frames" -ge 4 ] && ok || bad "$name: $frames frames"
    for n in 2 3; do
        cmp -s "$tmp/$name.1.txt" "$tmp/$name.$n.txt" && ok || bad "$name --threads $n: output"
        for f in "$tmp/$name.1"/*; do
            cmp -s "$f" "$tmp/$name.$n/$(basename "$f")" || bad "$name --threads $n: $(basename "$f")"
        done
        [ "$(ls "$tmp/$name.1" | wc -l)" -eq "$(ls "$tmp/$name.$n" | wc -l)" ] && ok ||
            bad "$name --threads $n: files"
    done
done
grep -q 'underflow 1' "$tmp/band_bottom.2.txt" && ok || bad "band_bottom: no underflow frame"

"$dsgx" bench "$golden/scenes/multiframe_texture_anim.trace" --threads 2 --repeat 3 \
    > "$tmp/bench.txt" 2> "$tmp/bench.err" && ok || bad "bench: exit status"
grep -q '^multiframe_texture_anim ' "$tmp/bench.txt" && ok || bad "bench: $(cat "$tmp/bench.txt")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
