#!/bin/sh
# `dsgx explain --summary` on every reference trace must print melonDS's geometry figures
# (test/data/cycles/melonds_cycles.tsv: cycles, commands, polygons, vertices per frame) exactly.
# usage: explain_summary.sh DSGX REFDIR CYCLES_TSV
set -u
dsgx=$1 ref=$2 tsv=$3
pass=0 fail=0
for t in "$ref"/*.trace; do
    name=$(basename "$t" .trace)
    exp=$(awk -F'\t' -v n="$name" '$2==n {printf "frame %d geometry_cycles %d commands %d polygons %d vertices %d\n", $3, $4, $5, $6, $7}' "$tsv")
    [ -n "$exp" ] || continue
    got=$("$dsgx" explain "$t" --summary 2>/dev/null)
    if [ "$got" = "$exp" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name"; echo "  expected: $exp" | head -3; echo "  got:      $got" | head -3
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
