#!/bin/sh
# `dsgx replay --cycles SLICE` (the geometry engine's cycle-driven mode, docs/cycle.md) prints the
# same frame lines (hash, RDLINES_COUNT, underflow) as run-to-completion replay; 1-cycle slices
# make the heavy trace stall its writes; a frame dump with a set-up VBlank (golden/ntrfd-later)
# replays alike; bad slices are refused.
# usage: cycles.sh DSGX GOLDEN_DIR
set -u
dsgx=$1 golden=$2
pass=0 fail=0
for t in "$golden/ref/g_heavy_1.trace" "$golden/ref/multiframe_3.trace" \
    "$golden/ntrfd-later/wbuffer_vs_zbuffer.frame001.ntrfd" \
    "$golden/rdlines/band_bottom.trace"; do
    want=$("$dsgx" replay "$t" --threads 1 2>/dev/null)
    for slice in 1 64; do
        got=$("$dsgx" replay "$t" --threads 1 --cycles $slice 2>/dev/null)
        if [ -n "$want" ] && [ "$got" = "$want" ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL $t --cycles $slice:"; echo "$got"; echo "expected:"; echo "$want"
        fi
    done
done
err=$("$dsgx" replay "$golden/ref/g_heavy_1.trace" --threads 1 --cycles 1 2>&1 >/dev/null)
case "$err" in
"cycles: 0 writes"*) fail=$((fail + 1)); echo "FAIL no stall reported: $err" ;;
"cycles: "*" writes stalled for "*) pass=$((pass + 1)) ;;
*) fail=$((fail + 1)); echo "FAIL stall line: $err" ;;
esac
for bad in 0 x 1000001; do
    out=$("$dsgx" replay "$golden/ref/multiframe_3.trace" --cycles $bad 2>&1); rc=$?
    case "$out" in
    *"--cycles wants a slice of 1..1000000 cycles"*) [ $rc -eq 2 ] && pass=$((pass + 1)) && continue ;;
    esac
    fail=$((fail + 1)); echo "FAIL --cycles $bad (rc $rc): $out"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
