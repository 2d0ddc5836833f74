#!/bin/sh
# Bad input gets a clear error naming the file and line, a non-zero exit, and no crash.
# usage: errors.sh DSGX TMPDIR [TRACE]   (TRACE: replayed on 1 and on 2 threads, same output)
set -u
dsgx=$1 tmp=$2 trace=${3:-}
mkdir -p "$tmp"
pass=0 fail=0
check() { # name expected-substring command...
    name=$1 want=$2; shift 2
    out=$("$@" 2>&1); rc=$?
    case "$out" in
    *"$want"*) if [ $rc -ne 0 ] && [ $rc -lt 128 ]; then pass=$((pass + 1)); return; fi ;;
    esac
    fail=$((fail + 1)); echo "FAIL $name (rc $rc): $out"
}
printf 'dsgx-trace 1\nw32 04000440 00000000\nw32 04000441 0\n' > "$tmp/misaligned.trace"
check misaligned "misaligned.trace:3: address 04000441 is not 4-aligned" "$dsgx" replay "$tmp/misaligned.trace"
printf 'w32 04000440 0\n' > "$tmp/noversion.trace"
check noversion "noversion.trace:1: missing version line" "$dsgx" replay "$tmp/noversion.trace"
check missing "nope.trace" "$dsgx" replay "$tmp/nope.trace"
check explain "misaligned.trace:3" "$dsgx" explain "$tmp/misaligned.trace"
check hash "neither a PNG nor a 196608-byte raw frame" "$dsgx" hash "$tmp/noversion.trace"
check unknown_cmd "unknown command" "$dsgx" frobnicate
check threads_zero "--threads wants a number from 1 to 8, not '0'" "$dsgx" replay "$tmp/misaligned.trace" --threads 0
check threads_nine "--threads wants a number from 1 to 8, not '9'" "$dsgx" bench "$tmp/misaligned.trace" --threads 9
check threads_word "--threads wants a number from 1 to 8, not 'two'" "$dsgx" golden check --threads two
# a frame before the bad line is still emitted
printf 'dsgx-trace 1\nw32 04000540 0\nframe\nbogus\n' > "$tmp/partial.trace"
out=$("$dsgx" replay "$tmp/partial.trace" 2>/dev/null)
case "$out" in "frame 0 "*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)); echo "FAIL partial: $out" ;; esac
"$dsgx" help > "$tmp/help.txt" && grep -q "replay" "$tmp/help.txt" && grep -q "explain" "$tmp/help.txt" \
    && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL help"; }
# RDLINES_COUNT: 63 until the first timed frame after 3D power-on, again after a power cycle
printf 'dsgx-trace 1\nw16 04000304 820F\nw32 04000540 0\nframe\nw32 04000540 0\nframe\nw16 04000304 0\nw16 04000304 820F\nw32 04000540 0\nframe\n' > "$tmp/power.trace"
got=$("$dsgx" replay "$tmp/power.trace" | awk '{printf "%s ", $5}')
[ "$got" = "63 46 63 " ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL power-on rdlines: $got"; }
# the same frames on 1 and on 2 threads (raster/README.md "Threads")
if [ -n "$trace" ]; then
    one=$("$dsgx" replay "$trace" --threads 1) two=$("$dsgx" replay "$trace" --threads 2)
    [ -n "$one" ] && [ "$one" = "$two" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL threads: $one / $two"; }
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
