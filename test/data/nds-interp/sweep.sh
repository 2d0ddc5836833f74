#!/bin/sh
# The full hardware sweep: all 198,404 slopes (4 origins x 257 dx x 193 dy), a long check run
# by hand (not in CI). Needs python3 and the nds-interp dataset (shared/hardware/nds-interp/dataset beside the project).
# usage: sweep.sh BUILD_DIR DATASET_DIR WORK_DIR
set -eu
build=$1 dataset=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
total_pass=0 total_fail=0
for o in TL TR BL BR; do
    python3 "$here/gen_traces.py" sweep "$work/sweep_$o" "$o" 0 193
    python3 "$here/make_expected.py" "$dataset" "$work/sweep_$o.manifest" > "$work/sweep_$o.expected"
    out=$(DSGX_HW_TRACE="$work/sweep_$o.trace" DSGX_HW_EXPECTED="$work/sweep_$o.expected" \
          "$build/test/test_hw_slopes" 2>&1 || true)
    line=$(echo "$out" | grep -E '^nds-interp .*passed' | sed 's/.*: //')
    echo "$o: $line"
    echo "$out" | grep 'first failure' || true
    p=$(echo "$line" | awk '{print $1}'); f=$(echo "$line" | awk '{print $3}')
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
done
echo "$total_pass passed, $total_fail failed"
