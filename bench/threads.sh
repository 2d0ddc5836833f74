#!/bin/sh
# bench/threads.sh - the `--threads 2` speed-up on one trace, measured the way bench/README.md
# reports it: rounds of three runs, `dsgx bench --threads 1` pinned to CPU 0, the same pinned to
# CPU 1, and `dsgx bench --threads 2` on both, each a separate process of REPEAT frames, in an
# order that turns every round. Per round, the one-core frame is the one-thread frame at the
# two CPUs' mean speed (the harmonic mean of the two frame medians), and the speed-up is that
# frame divided by the two-thread frame. At the end: the median of the rounds' speed-ups with
# its quartiles, the ratio of the best rounds and of the 10th percentiles; and, as the sessions
# before the sixteenth measured it, the speed-up against CPU 1's one-thread run alone.
#
# Why both CPUs (bench/README.md, the sixteenth session): the host slows each virtual CPU on
# its own, nearly independently of the other. A two-thread run is slowed when either of its CPUs
# is, a one-thread run pinned to one CPU only when that CPU is, so against CPU 1 alone the
# two-thread run meets the host's slowdowns more often than its reference. The harmonic mean of
# one run on each CPU is slowed as often, and by as much: when one CPU runs s times slower it
# takes 2s / (1 + s) times as long, as does a two-thread run whose work the threads share out as
# they go. So a round compares the two threads with the two cores they ran on.
#
#   sh bench/threads.sh [DSGX [TRACE [ROUNDS [REPEAT]]]]
#   defaults: build/dsgx golden/ref/g_heavy_1.trace 201 40
# Runs of 40 frames give five rounds in the time of one of 200 frames, with figures within the
# same spread (bench/README.md).
# CPUs: CPUA and CPUB (default 0 and 1) for one thread, CPUS2 (default CPUA,CPUB) for two, with
# taskset when the machine has it (NOPIN=1: no pinning; both one-thread runs then float).
set -eu
DSGX=${1:-build/dsgx}
TRACE=${2:-golden/ref/g_heavy_1.trace}
ROUNDS=${3:-201}
REPEAT=${4:-40}
CPUA=${CPUA:-0}
CPUB=${CPUB:-1}
CPUS2=${CPUS2:-$CPUA,$CPUB}
[ -x "$DSGX" ] || { echo "threads.sh: $DSGX: no dsgx binary (build first)" >&2; exit 2; }
[ -r "$TRACE" ] || { echo "threads.sh: $TRACE: cannot read the trace" >&2; exit 2; }
pina="" pinb="" pin2="" la="unpinned" lb="unpinned"
if [ -z "${NOPIN:-}" ] && command -v taskset >/dev/null 2>&1; then
    pina="taskset -c $CPUA" pinb="taskset -c $CPUB" pin2="taskset -c $CPUS2"
    la="CPU $CPUA" lb="CPU $CPUB"
fi
# frame_median_us of one `dsgx bench` run
frame() {
    $1 "$DSGX" bench "$TRACE" --threads "$2" --repeat "$REPEAT" 2>/dev/null |
        awk '{for (i = 1; i < NF; i++) if ($i == "frame_median_us") print $(i + 1)}'
}
log=$(mktemp)
trap 'rm -f "$log" "$log".*' EXIT
r=1
while [ "$r" -le "$ROUNDS" ]; do
    case $((r % 3)) in
    1) a=$(frame "$pina" 1); b=$(frame "$pinb" 1); two=$(frame "$pin2" 2) ;;
    2) b=$(frame "$pinb" 1); two=$(frame "$pin2" 2); a=$(frame "$pina" 1) ;;
    *) two=$(frame "$pin2" 2); a=$(frame "$pina" 1); b=$(frame "$pinb" 1) ;;
    esac
    [ -n "$a" ] && [ -n "$b" ] && [ -n "$two" ] ||
        { echo "threads.sh: round $r: dsgx bench failed" >&2; exit 1; }
    echo "$a $b $two" >>"$log"
    printf 'round %d: one thread %s us (%s), %s us (%s), two threads %s us\n' \
        "$r" "$a" "$la" "$b" "$lb" "$two"
    r=$((r + 1))
done
# per round: the one-core frame (harmonic mean of the two one-thread frames), its speed-up, the
# speed-up against CPU B alone
awk '{ h = 2 * $1 * $2 / ($1 + $2); print h, h / $3, $2 / $3 }' "$log" >"$log.h"
col() { awk -v c="$2" '{ print $c }' "$1" | sort -g; }
col "$log.h" 1 >"$log.1"
col "$log.h" 2 >"$log.r"
col "$log.h" 3 >"$log.rb"
col "$log" 1 >"$log.a"
col "$log" 2 >"$log.b"
col "$log" 3 >"$log.2"
# q(file, p): the p-quantile (nearest rank, as the lead sections' figures) of a sorted column
q() { awk -v p="$2" '{ v[NR] = $1 } END { i = int(NR * p) + 1; if (i > NR) i = NR; print v[i] }' "$1"; }
speedup() {
    awk -v m="$(q "$1" 0.5)" -v lo="$(q "$1" 0.25)" -v hi="$(q "$1" 0.75)" -v what="$2" \
        'BEGIN { printf "  speed-up %s, median of the rounds: %.3fx (quartiles %.3f-%.3f)\n", what, m, lo, hi }'
}
printf '%s, %s rounds of %s frames:\n' "$(basename "$TRACE" .trace)" "$ROUNDS" "$REPEAT"
printf '  medians: one thread %s us (%s), %s us (%s), one core %.1f us; two threads %s us\n' \
    "$(q "$log.a" 0.5)" "$la" "$(q "$log.b" 0.5)" "$lb" "$(q "$log.1" 0.5)" "$(q "$log.2" 0.5)"
speedup "$log.r" "against one core"
awk -v a="$(q "$log.1" 0)" -v b="$(q "$log.2" 0)" -v c="$(q "$log.1" 0.1)" -v d="$(q "$log.2" 0.1)" \
    'BEGIN { printf "  best rounds: %.3fx; 10th percentiles: %.3fx\n", a / b, c / d }'
speedup "$log.rb" "against the second one-thread run ($lb) alone"
