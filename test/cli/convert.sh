#!/bin/sh
# cli.convert: `dsgx convert` between traces and NTRFD dumps, for any frame.
#   convert.sh DSGX GOLDEN_DIR TMPDIR
# - a dump of each frame N of a multi-frame trace (--frame N) replays to the trace's frame N;
# - a dump whose saved swap parameter selects W-buffering becomes a text trace with a set-up
#   frame first: its frame 1 is the dump's frame (frame 0 is the set-up VBlank);
# - bad --frame values and frames that cannot be dumped are refused with a reason.
set -u
dsgx=$1 golden=$2 tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
fails=0 passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

trace=$golden/scenes/multiframe_depth_sort_fog.trace
"$dsgx" replay "$trace" > "$tmp/trace.txt" 2>/dev/null || bad "replay $trace"
for f in 0 1 2 3; do
    "$dsgx" convert "$trace" --frame $f -o "$tmp/f$f.ntrfd" || { bad "convert --frame $f"; continue; }
    want=$(awk -v f=$f '$2 == f { print $3 }' "$tmp/trace.txt")
    got=$("$dsgx" replay "$tmp/f$f.ntrfd" 2>/dev/null | awk '{ print $3 }')
    [ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "frame $f: dump $got, trace $want"
done

# frame 1 follows a W-buffered swap: its text trace carries a set-up frame
"$dsgx" convert "$tmp/f1.ntrfd" -o "$tmp/f1.trace" || bad "dump -> trace"
grep -q '^# set-up frame' "$tmp/f1.trace" && ok || bad "no set-up frame comment in f1.trace"
n=$("$dsgx" replay "$tmp/f1.trace" 2>/dev/null | grep -c '^frame')
[ "$n" = 2 ] && ok || bad "f1.trace has $n frames, expected 2 (set-up + the dump's)"
got=$("$dsgx" replay "$tmp/f1.trace" 2>/dev/null | awk '$2 == 1 { print $3 }')
want=$(awk '$2 == 1 { print $3 }' "$tmp/trace.txt")
[ "$got" = "$want" ] && ok || bad "f1.trace frame 1 $got, trace frame 1 $want"
# frame 0's dump needs none
"$dsgx" convert "$tmp/f0.ntrfd" -o "$tmp/f0.trace" || bad "dump -> trace"
grep -q '^# set-up frame' "$tmp/f0.trace" && bad "f0.trace has a set-up frame" || ok

# errors
out=$("$dsgx" convert "$trace" --frame x -o "$tmp/x.ntrfd" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "frame number" && ok || bad "--frame x: rc $rc: $out"
out=$("$dsgx" convert "$trace" --frame 9 -o "$tmp/x.ntrfd" 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "no frame 9" && ok || bad "--frame 9: rc $rc: $out"
out=$("$dsgx" convert "$golden/scenes/multiframe_reemit.trace" --frame 1 -o "$tmp/x.ntrfd" 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "no SWAP_BUFFERS" && ok || bad "re-emitted frame: rc $rc: $out"
[ ! -e "$tmp/x.ntrfd" ] && ok || bad "a refused dump left a file"

echo "$passes passed, $fails failed"
[ $fails = 0 ]
