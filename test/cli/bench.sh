#!/bin/sh
# `dsgx bench` runs and prints well-formed figures in its three formats (text, --json, --csv),
# and one engine pair (gx + raster, one thread) allocates less than 8 MiB. Not a timed test:
# only the shape of the output and that every time is a positive number are checked.
# --models: PNG screenshots of Nitro fixture models (made by the project's writer through
# TEST_NITRO_RENDER) on one reused engine pair: the PNGs decode to the frames `render --all`
# draws with fresh state per model (and `render --model I`, on engines of its own, draws the same).
# usage: bench.sh DSGX TRACE_DIR [TEST_NITRO_RENDER TMPDIR]
set -u
dsgx=$1 dir=$2 tnr=${3:-} tmp=${4:-}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
t1=$dir/g_heavy_1.trace t2=$dir/a_flat_triangle.trace
num='[0-9][0-9]*\.[0-9]'

# text: one line per trace, three positive medians
out=$("$dsgx" bench "$t1" "$t2" --repeat 2 --threads 1 2>/dev/null)
n=$(printf '%s\n' "$out" | grep -c "^[a-z_0-9]* render_median_us $num geometry_median_us $num frame_median_us $num\$")
[ "$n" = 2 ] && ok || bad "text lines: $out"
printf '%s\n' "$out" | awk '$3 <= 0 || $5 <= 0 || $7 < $3 { exit 1 }' && ok || bad "text values: $out"

# JSON: valid (python3 when installed), both traces, figures and memory
json=$("$dsgx" bench "$t1" "$t2" --repeat 2 --threads 1 --json 2>/dev/null)
if command -v python3 >/dev/null 2>&1; then
    printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["threads"] == 1 and d["repeat"] == 2 and d["cores"] >= 1
names = [t["name"] for t in d["traces"]]
assert names == ["g_heavy_1", "a_flat_triangle"], names
for t in d["traces"]:
    assert t["frames"] == 1
    for k in ("render_median_us", "geometry_median_us", "frame_median_us"):
        assert isinstance(t[k], float) and t[k] > 0, (k, t[k])
    i = t["instructions_per_frame"]
    assert i is None or (isinstance(i, int) and i > 0)
assert d["traces"][0]["polygons"] == 2000 and d["traces"][0]["vertices"] == 6000
m = d["memory"]
assert 0 < m["engine_pair_allocated_bytes"] < 8 * 1024 * 1024, m
assert m["process_peak_rss_kib"] > 0
' && ok || bad "json (python3): $json"
fi
printf '%s\n' "$json" | grep -q '"name": "g_heavy_1", "frames": 1, "render_median_us": [0-9.]*, "geometry_median_us": [0-9.]*, "frame_median_us": [0-9.]*, "instructions_per_frame": [0-9a-z]*, "commands": [0-9]*, "polygons": 2000, "vertices": 6000}' \
    && ok || bad "json g_heavy_1 entry: $json"
open=$(printf '%s' "$json" | tr -cd '{[' | wc -c) close=$(printf '%s' "$json" | tr -cd '}]' | wc -c)
[ "$open" = "$close" ] && [ "$open" -gt 0 ] && ok || bad "json brackets $open/$close"
alloc=$(printf '%s\n' "$json" | sed -n 's/.*"engine_pair_allocated_bytes": \([0-9]*\).*/\1/p')
[ -n "$alloc" ] && [ "$alloc" -gt 1000000 ] && [ "$alloc" -lt 8388608 ] && ok \
    || bad "engine pair allocation '$alloc' not in (1 MB, 8 MiB)"

# CSV: the header, then one row of 14 fields per trace, on 2 threads (the 4 --cycles fields
# empty without --cycles), and with --cycles 64 those filled in
csv=$("$dsgx" bench "$t1" "$t2" --repeat 2 --threads 2 --csv 2>/dev/null)
head=$(printf '%s\n' "$csv" | head -n 1)
[ "$head" = "trace,frames,render_median_us,geometry_median_us,frame_median_us,instructions_per_frame,commands,polygons,vertices,threads,cycles,cycle_geometry_median_us,cycle_ratio,stalls" ] \
    && ok || bad "csv header: $head"
printf '%s\n' "$csv" | awk -F, 'NR > 1 { rows++; if (NF != 14 || $3 <= 0 || $4 <= 0 || $5 <= 0 || $10 != 2 || $11 != "") exit 1 }
    END { if (rows != 2) exit 1 }' && ok || bad "csv rows: $csv"
csv=$("$dsgx" bench "$t2" --repeat 2 --threads 1 --cycles 64 --csv 2>/dev/null)
printf '%s\n' "$csv" | awk -F, 'NR > 1 { rows++; if (NF != 14 || $11 != 64 || $12 <= 0 || $13 <= 0) exit 1 }
    END { if (rows != 1) exit 1 }' && ok || bad "csv rows with --cycles: $csv"

# a missing trace is an error, the others are still measured
out=$("$dsgx" bench "$dir/nope.trace" "$t2" --repeat 1 --csv 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "^a_flat_triangle," && ok || bad "missing trace (rc $rc): $out"

if [ -n "$tnr" ]; then
    rm -rf "$tmp"; mkdir -p "$tmp/fx" "$tmp/png"
    DSGX_NITRO_FIXTURE_DIR="$tmp/fx" "$tnr" >/dev/null 2>&1
    out=$("$dsgx" bench --models "$tmp/fx/multi.nsbmd" "$tmp/fx/lit.nsbmd" --repeat 2 -o "$tmp/png")
    printf '%s\n' "$out" | grep -q "^multi screenshots 6 wall_s $num[0-9]* cpu_s $num[0-9]* per_s [0-9]* per_cpu_s [0-9]*\$" \
        && printf '%s\n' "$out" | grep -q "^total screenshots 8 " && ok || bad "models output: $out"
    want=$("$dsgx" render --all "$tmp/fx/multi.nsbmd" -o "$tmp/sheet.png" | awk 'NF == 2 && $2 ~ /\// {print $1}' | tr '\n' ' ')
    got=$(for i in 0 1 2; do "$dsgx" hash "$tmp/png/multi.nsbmd.$i.png" | awk '{print $1}'; done | tr '\n' ' ')
    [ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "models frames '$got' vs render --all '$want'"
    # ... and those are the frames of fresh engines (`render --model I`: engines of its own, the
    # camera measured on an engine of its own): reuse (render_one, render_measure) changes nothing
    fresh=$(for i in 0 1 2; do "$dsgx" render "$tmp/fx/multi.nsbmd" --model $i -o "$tmp/m$i.png" | awk '{print $1}'; done | tr '\n' ' ')
    [ "$want" = "$fresh" ] && ok || bad "render --all '$want' vs fresh engines '$fresh'"
    "$dsgx" bench --models "$dir/g_heavy_1.trace" --repeat 1 >/dev/null 2>&1 && bad "models on a trace" || ok
fi

# bench/threads.sh (the --threads 2 speed-up, bench/README.md): two rounds of two frames print
# both rounds (two one-thread runs and a two-thread run) and a summary with numbers, the
# speed-up against one core and against the second run alone; a missing binary is an error
# naming it
thr=$(dirname "$0")/../../bench/threads.sh
out=$(NOPIN=1 sh "$thr" "$dsgx" "$t1" 2 2 2>&1)
[ "$(printf '%s\n' "$out" |
    grep -c "^round [12]: one thread $num us (unpinned), $num us (unpinned), two threads $num us\$")" = 2 ] &&
    printf '%s\n' "$out" | grep -q "^  medians: one thread $num us (unpinned), $num us (unpinned), one core $num us; two threads $num us\$" &&
    printf '%s\n' "$out" | grep -q "^  speed-up against one core, median of the rounds: $num[0-9]*x (quartiles $num" &&
    printf '%s\n' "$out" | grep -q "^  best rounds: $num[0-9]*x; 10th percentiles: $num" &&
    printf '%s\n' "$out" | grep -q "^  speed-up against the second one-thread run (unpinned) alone, median of the rounds: $num[0-9]*x (quartiles $num" && ok ||
    bad "threads.sh: $out"
# the summary's speed-ups from the rounds: per round the harmonic mean of the two one-thread
# frames over the two-thread frame; the median of two rounds is the larger (nearest rank)
want=$(printf '%s\n' "$out" | awk '/^round/ { n = 0
        for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+$/) v[++n] = $i
        h = 2 * v[1] * v[2] / (v[1] + v[2]); if (h / v[3] > m) m = h / v[3]
        if (v[2] / v[3] > mb) mb = v[2] / v[3] }
    END { printf "%.3fx %.3fx", m, mb }')
got=$(printf '%s\n' "$out" | awk '/^  speed-up/ { sub(/.*median of the rounds: /, ""); printf "%s%s", sep, $1; sep = " " }')
[ "$want" = "$got" ] && ok || bad "threads.sh speed-ups '$got', from the rounds '$want'"
out=$(sh "$thr" "$dir/no-such-dsgx" "$t1" 1 1 2>&1) && bad "threads.sh without a binary" ||
    { printf '%s' "$out" | grep -q "no-such-dsgx: no dsgx binary" && ok || bad "threads.sh error: $out"; }

echo "bench: $pass passed, $fail failed"
[ $fail -eq 0 ]
