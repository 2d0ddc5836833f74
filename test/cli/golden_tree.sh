#!/bin/sh
# `dsgx golden` over trees of manifests on scratch copies of the project's scenes: every
# manifest below a DIR (labels, one OUTDIR subdirectory each), render specs (pass, FAIL with a
# diff, a broken spec reported with its file and line, update adding a new spec's row),
# --shard (the shards' union is the full run, no scene twice) and --junit (one test case per
# frame, failures with the pixel count and box).
# usage: golden_tree.sh DSGX GOLDEN TMPDIR
set -u
dsgx=$1 golden=$2 tmp=$3
rm -rf "$tmp"; mkdir -p "$tmp"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
t=$(printf '\t')
ref=$golden/ref

# ---- a tree: t/a (two trace scenes), t/b/deep (a render spec), t/empty (no manifest) ----
mkdir -p "$tmp/t/a" "$tmp/t/b/deep" "$tmp/t/empty" "$tmp/t/.hidden"
for s in a_flat_triangle b_gouraud_quad; do
    cp "$ref/$s.trace" "$ref/$s.frame000.png" "$tmp/t/a/"
done
h_tri=$(awk -F'\t' '$1=="a_flat_triangle" && $2=="000" {print $3}' "$ref/manifest.tsv")
h_quad=$(awk -F'\t' '$1=="b_gouraud_quad" && $2=="000" {print $3}' "$ref/manifest.tsv")
printf 'name\tframe\txxh3\n' > "$tmp/t/a/manifest.tsv"
printf "a_flat_triangle${t}000${t}%s\nb_gouraud_quad${t}000${t}%s\n" "$h_tri" "$h_quad" >> "$tmp/t/a/manifest.tsv"
cp "$golden/nitro/lit.nsbmd" "$golden/nitro/lit.render" "$golden/nitro/lit.frame000.png" "$tmp/t/b/deep/"
h_lit=$(awk -F'\t' '$1=="lit" {print $3}' "$golden/nitro/manifest.tsv")
printf "name\tframe\txxh3\nlit${t}0${t}%s\n" "$h_lit" > "$tmp/t/b/deep/manifest.tsv"
printf 'name\tframe\txxh3\n' > "$tmp/t/.hidden/manifest.tsv" # hidden: never visited

"$dsgx" golden check "$tmp/t" -o "$tmp/out" > "$tmp/o1" 2>&1 && grep -q "^3 passed, 0 failed" "$tmp/o1" && ok || bad "tree: $(cat "$tmp/o1")"
# sorted order, labels relative to the DIR given
[ "$(grep -c '^pass ' "$tmp/o1")" -eq 3 ] && [ "$(grep '^pass ' "$tmp/o1" | sed -n 3p)" = "pass  b/deep/lit (1 frame)" ] && ok || bad "labels/order: $(cat "$tmp/o1")"
grep -q "^pass  a/a_flat_triangle" "$tmp/o1" && ok || bad "label a/"
# a directory with no manifest anywhere below is an error for check
"$dsgx" golden check "$tmp/t/empty" > "$tmp/o2" 2>&1
[ $? -ne 0 ] && grep -q "no manifest.tsv in" "$tmp/o2" && ok || bad "empty dir: $(cat "$tmp/o2")"

# ---- render specs: a failing frame, a broken spec ----
sed -i "s/$h_lit/0123456789abcdef/" "$tmp/t/b/deep/manifest.tsv"
"$dsgx" golden check "$tmp/t" -o "$tmp/out" > "$tmp/o3" 2>&1
[ $? -ne 0 ] && grep -q "^FAIL  b/deep/lit" "$tmp/o3" && grep -q "expected 0123456789abcdef, got $h_lit" "$tmp/o3" && ok || bad "spec mismatch: $(cat "$tmp/o3")"
[ -f "$tmp/out/b/deep/lit.frame000.actual.png" ] && [ -f "$tmp/out/b/deep/lit.frame000.diff.png" ] && ok || bad "spec failure images in OUTDIR/b/deep"
# the actual frame of the spec is what `dsgx render` draws with the same options
h_render=$("$dsgx" render "$tmp/t/b/deep/lit.nsbmd" --eye 0 0.5 5 --at 0 0 0 --fov 30 --near 0.5 --far 16 --clear 28C4 --clear-alpha 31 -o "$tmp/lit.png" | awk '{print $1}')
[ "$h_render" = "$h_lit" ] && ok || bad "render $h_render vs spec $h_lit"
cp "$tmp/t/b/deep/lit.render" "$tmp/lit.render.bak"
printf 'dsgx-render 1\nfile lit.nsbmd\neye 0 0.5\n' > "$tmp/t/b/deep/lit.render"
"$dsgx" golden check "$tmp/t/b" -o "$tmp/out" > "$tmp/o4" 2>&1
[ $? -ne 0 ] && grep -q "lit.render:3: 'eye' takes 3 values" "$tmp/o4" && ok || bad "broken spec: $(cat "$tmp/o4")"
printf 'dsgx-render 1\nfile missing.nsbmd\n' > "$tmp/t/b/deep/lit.render"
"$dsgx" golden check "$tmp/t/b" -o "$tmp/out" > "$tmp/o5" 2>&1
[ $? -ne 0 ] && grep -q "dsgx render. failed on frame 0" "$tmp/o5" && ok || bad "spec with a missing file: $(cat "$tmp/o5")"
cp "$tmp/lit.render.bak" "$tmp/t/b/deep/lit.render"
# update re-baselines the spec's row and adds a row for a new spec
cp "$golden/nitro/formats.nsbmd" "$golden/nitro/formats.render" "$tmp/t/b/deep/"
"$dsgx" golden update "$tmp/t/b/deep" > "$tmp/o6" 2>&1 && grep -q "^lit${t}0${t}$h_lit" "$tmp/t/b/deep/manifest.tsv" && ok || bad "update spec: $(cat "$tmp/o6")"
h_formats=$(awk -F'\t' '$1=="formats" {print $3}' "$golden/nitro/manifest.tsv")
grep -q "^formats${t}000${t}$h_formats" "$tmp/t/b/deep/manifest.tsv" && [ -f "$tmp/t/b/deep/formats.frame000.png" ] && ok || bad "update new spec: $(cat "$tmp/t/b/deep/manifest.tsv")"

# ---- shards: the union of 1/3, 2/3, 3/3 is the full run, each scene once ----
"$dsgx" golden check "$ref" -o "$tmp/out" > "$tmp/full" 2> "$tmp/full.err"
# stderr is not a terminal here: no progress line, nothing at all on stderr
[ ! -s "$tmp/full.err" ] && ok || bad "stderr not empty without a terminal: $(head -c 300 "$tmp/full.err")"
grep -E '^(pass |FAIL |xfail|XPASS) ' "$tmp/full" | sort > "$tmp/full.lines"
: > "$tmp/shards.lines"
for i in 1 2 3; do
    "$dsgx" golden check "$ref" --shard $i/3 -o "$tmp/out" > "$tmp/s$i" 2>&1 || bad "shard $i/3 failed: $(cat "$tmp/s$i")"
    grep -q "^shard $i/3: " "$tmp/s$i" && ok || bad "shard line $i"
    grep -E '^(pass |FAIL |xfail|XPASS) ' "$tmp/s$i" >> "$tmp/shards.lines"
done
sort "$tmp/shards.lines" > "$tmp/shards.sorted"
n_full=$(wc -l < "$tmp/full.lines")
[ "$n_full" -gt 10 ] && cmp -s "$tmp/full.lines" "$tmp/shards.sorted" && ok || bad "shards union differs from the full run ($n_full scenes)"
[ -z "$(sort "$tmp/shards.lines" | uniq -d)" ] && ok || bad "a scene in two shards"
# shard sizes differ by at most one
sizes=$(for i in 1 2 3; do grep -cE '^(pass |FAIL |xfail|XPASS) ' "$tmp/s$i"; done | sort -n | tr '\n' ' ')
set -- $sizes
[ $(($3 - $1)) -le 1 ] && ok || bad "unbalanced shards: $sizes"
# the same shard twice is the same scene list
"$dsgx" golden check "$ref" --shard 2/3 -o "$tmp/out" 2>&1 | grep -E '^(pass |FAIL )' > "$tmp/s2b"
grep -E '^(pass |FAIL )' "$tmp/s2" | cmp -s - "$tmp/s2b" && ok || bad "shard 2/3 not deterministic"
for b in 0/3 4/3 x 1/0; do
    "$dsgx" golden check "$ref" --shard "$b" > "$tmp/sb" 2>&1
    [ $? -eq 2 ] && grep -q "bad --shard" "$tmp/sb" && ok || bad "--shard $b accepted"
done

# ---- JUnit XML: 3 frames pass, 1 fails (the spec), 1 xfail ----
printf 'name\tframe\txxh3\txfail\n' > "$tmp/t/a/manifest.tsv"
printf "a_flat_triangle${t}000${t}%s${t}\nb_gouraud_quad${t}000${t}0123456789abcdef${t}known & <odd>\n" "$h_tri" >> "$tmp/t/a/manifest.tsv"
sed -i "s/^lit${t}0${t}$h_lit/lit${t}0${t}fedcba9876543210/" "$tmp/t/b/deep/manifest.tsv"
cp "$golden/nitro/textured.frame000.png" "$tmp/t/b/deep/lit.frame000.png" # pixels differ too
"$dsgx" golden check "$tmp/t" -o "$tmp/out" --junit "$tmp/j.xml" --report "$tmp/rep" > "$tmp/o7" 2>&1
[ $? -ne 0 ] && [ -s "$tmp/j.xml" ] && ok || bad "junit run: $(cat "$tmp/o7")"
# the report's text (the browser test, cli.golden_report, checks what a browser shows)
for c in 'passed">2<' 'failed">1<' 'xfail">1<' 'frames">4<'; do
    grep -q "id=\"$c" "$tmp/rep/index.html" && ok || bad "report count $c"
done
for f in $(grep -o 'src="[^"]*"' "$tmp/rep/index.html" | sed 's/src="//; s/"$//'); do
    [ -s "$tmp/rep/$f" ] && ok || bad "report image $f missing"
done
[ "$(grep -o '<img ' "$tmp/rep/index.html" | wc -l)" -eq 6 ] && ok || bad "report: 6 images (FAIL and xfail rows)"
grep -q 'known &amp; &lt;odd&gt;' "$tmp/rep/index.html" && ok || bad "report escaping"
[ "$(grep -c '<testcase ' "$tmp/j.xml")" -eq 4 ] && ok || bad "junit: 4 testcases expected: $(cat "$tmp/j.xml")"
[ "$(grep -c '<testsuite ' "$tmp/j.xml")" -eq 2 ] && ok || bad "junit: one suite per directory"
grep -q '<testsuites name="dsgx golden check" tests="4" failures="1" errors="0" skipped="1"' "$tmp/j.xml" && ok || bad "junit totals: $(head -3 "$tmp/j.xml")"
grep -q '<failure type="mismatch" message="expected fedcba9876543210, got '"$h_lit"'; [0-9]* pixels differ in ([0-9]*,[0-9]*)-([0-9]*,[0-9]*)"' "$tmp/j.xml" && ! grep -q ' 0 pixels differ' "$tmp/j.xml" && ok || bad "junit failure message: $(grep -A2 failure "$tmp/j.xml")"
grep -q 'name="b_gouraud_quad.frame000"' "$tmp/j.xml" && grep -q '<skipped message="xfail: known &amp; &lt;odd&gt;"/>' "$tmp/j.xml" && ok || bad "junit xfail/escaping"
if command -v python3 > /dev/null 2>&1; then
    python3 - "$tmp/j.xml" > "$tmp/py" 2>&1 <<'EOF' && ok || bad "junit XML does not parse: $(cat "$tmp/py")"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites"
cases = root.findall("./testsuite/testcase")
assert len(cases) == 4, len(cases)
fails = [c for c in cases if c.find("failure") is not None]
assert len(fails) == 1 and fails[0].get("name") == "lit.frame000", fails
body = fails[0].find("failure").text
assert "differing pixels" in body and "bounding box" in body, body
EOF
else
    echo "note: python3 absent: the JUnit file was checked with grep only, not parsed"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
