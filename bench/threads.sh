#!/bin/sh
# bench/threads.sh - the `--threads 2` speed-up on one trace, measured the way bench/README.md
# reports it: rounds alternating `dsgx bench --threads 1` (pinned to one CPU) and
# `dsgx bench --threads 2` (on two), each a separate process of REPEAT frames; per round the
# ratio of the two frame medians; at the end the median of the rounds' ratios with its
# quartiles, the ratio of the best rounds and of the 10th percentiles. A busy host spreads the
# rounds: only many rounds, and the quiet ones, say much (bench/README.md, the lead sections).
#
#   sh bench/threads.sh [DSGX [TRACE [ROUNDS [REPEAT]]]]
#   defaults: build/dsgx golden/ref/g_heavy_1.trace 41 200
# CPUs: CPU1 (default 1) for one thread, CPUS2 (default 0,1) for two, with taskset when the
# machine has it (NOPIN=1: no pinning).
set -eu
DSGX=${1:-build/dsgx}
TRACE=${2:-golden/ref/g_heavy_1.trace}
ROUNDS=${3:-41}
REPEAT=${4:-200}
CPU1=${CPU1:-1}
CPUS2=${CPUS2:-0,1}
[ -x "$DSGX" ] || { echo "threads.sh: $DSGX: no dsgx binary (build first)" >&2; exit 2; }
[ -r "$TRACE" ] || { echo "threads.sh: $TRACE: cannot read the trace" >&2; exit 2; }
pin1="" pin2=""
if [ -z "${NOPIN:-}" ] && command -v taskset >/dev/null 2>&1; then
    pin1="taskset -c $CPU1" pin2="taskset -c $CPUS2"
fi
# frame_median_us of one `dsgx bench` run
frame() {
    $1 "$DSGX" bench "$TRACE" --threads "$2" --repeat "$REPEAT" 2>/dev/null |
        awk '{for (i = 1; i < NF; i++) if ($i == "frame_median_us") print $(i + 1)}'
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
r=1
while [ "$r" -le "$ROUNDS" ]; do
    if [ $((r % 2)) = 1 ]; then
        one=$(frame "$pin1" 1); two=$(frame "$pin2" 2)
    else
        two=$(frame "$pin2" 2); one=$(frame "$pin1" 1)
    fi
    [ -n "$one" ] && [ -n "$two" ] || { echo "threads.sh: round $r: dsgx bench failed" >&2; exit 1; }
    echo "$one $two" >>"$log"
    printf 'round %d: one thread %s us, two threads %s us\n' "$r" "$one" "$two"
    r=$((r + 1))
done
# q(p): the p-quantile (nearest rank, as the lead sections' figures) of a sorted column
awk '{ print $1 / $2 }' "$log" | sort -g >"$log.r"
awk '{ print $1 }' "$log" | sort -g >"$log.1"
awk '{ print $2 }' "$log" | sort -g >"$log.2"
q() { awk -v p="$2" '{ v[NR] = $1 } END { i = int(NR * p) + 1; if (i > NR) i = NR; print v[i] }' "$1"; }
printf '%s, %s rounds of %s frames:\n' "$(basename "$TRACE" .trace)" "$ROUNDS" "$REPEAT"
printf '  medians: one thread %s us, two threads %s us\n' "$(q "$log.1" 0.5)" "$(q "$log.2" 0.5)"
awk -v m="$(q "$log.r" 0.5)" -v lo="$(q "$log.r" 0.25)" -v hi="$(q "$log.r" 0.75)" \
    'BEGIN { printf "  speed-up, median of the rounds: %.3fx (quartiles %.3f-%.3f)\n", m, lo, hi }'
awk -v a="$(q "$log.1" 0)" -v b="$(q "$log.2" 0)" -v c="$(q "$log.1" 0.1)" -v d="$(q "$log.2" 0.1)" \
    'BEGIN { printf "  best rounds: %.3fx; 10th percentiles: %.3fx\n", a / b, c / d }'
rm -f "$log.r" "$log.1" "$log.2"
