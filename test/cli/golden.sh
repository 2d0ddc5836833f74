#!/bin/sh
# `dsgx golden check/update` end to end on a scratch scene directory: pass, FAIL (with actual
# and diff PNGs), xfail (reported, run passes), XPASS (an xfail that matches fails the run),
# update (re-baselines our manifest and PNG), and a reference directory that update refuses to
# rewrite without --note.
# usage: golden.sh DSGX REFDIR TMPDIR
set -u
dsgx=$1 ref=$2 tmp=$3
rm -rf "$tmp"; mkdir -p "$tmp/s" "$tmp/r"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
good=60d135fe01c621db # a_flat_triangle frame 0 (golden/ref/manifest.tsv)
cp "$ref/a_flat_triangle.trace" "$tmp/s/tri.trace"
cp "$ref/a_flat_triangle.frame000.png" "$tmp/s/tri.frame000.png"
t=$(printf '\t')
man() { printf 'name\tframe\txxh3\txfail\n' > "$tmp/s/manifest.tsv"; printf "tri${t}000${t}%s${t}%s\n" "$1" "$2" >> "$tmp/s/manifest.tsv"; }

man "$good" ""
"$dsgx" golden check "$tmp/s" -o "$tmp/out" > "$tmp/o1" 2>&1 && grep -q "1 passed, 0 failed" "$tmp/o1" && ok || bad "pass: $(cat "$tmp/o1")"

man 0123456789abcdef ""
"$dsgx" golden check "$tmp/s" -o "$tmp/out" > "$tmp/o2" 2>&1
[ $? -ne 0 ] && grep -q "0 passed, 1 failed" "$tmp/o2" && ok || bad "mismatch: $(cat "$tmp/o2")"
[ -f "$tmp/out/tri.frame000.actual.png" ] && [ -f "$tmp/out/tri.frame000.diff.png" ] && ok || bad "actual/diff PNGs"

man 0123456789abcdef "known deviation for the test"
"$dsgx" golden check "$tmp/s" -o "$tmp/out" > "$tmp/o3" 2>&1 && grep -qi "xfail" "$tmp/o3" && ok || bad "xfail: $(cat "$tmp/o3")"

man "$good" "should no longer fail"
"$dsgx" golden check "$tmp/s" -o "$tmp/out" > "$tmp/o4" 2>&1
[ $? -ne 0 ] && grep -q "XPASS" "$tmp/o4" && ok || bad "xpass: $(cat "$tmp/o4")"

man 0123456789abcdef ""
"$dsgx" golden update "$tmp/s" > "$tmp/o5" 2>&1 && grep -q "$good" "$tmp/s/manifest.tsv" && ok || bad "update: $(cat "$tmp/o5")"
"$dsgx" golden check "$tmp/s" -o "$tmp/out" > /dev/null 2>&1 && ok || bad "check after update"

# a reference directory: update must not rewrite xxh3 without --note
cp "$ref/a_flat_triangle.trace" "$tmp/r/tri.trace"
printf 'reference\n' > "$tmp/r/REFERENCE-README.md"
printf 'name\tframe\txxh3\n' > "$tmp/r/manifest.tsv"; printf "tri${t}000${t}0123456789abcdef\n" >> "$tmp/r/manifest.tsv"
"$dsgx" golden update "$tmp/r" > "$tmp/o6" 2>&1
[ $? -ne 0 ] && grep -q "0123456789abcdef" "$tmp/r/manifest.tsv" && ok || bad "reference update without --note: $(cat "$tmp/o6")"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
