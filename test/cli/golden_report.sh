#!/bin/sh
# `dsgx golden check --report DIR` seen in a browser: a scratch run with one passing, one failing
# and one xfail scene writes the page, headless Chromium loads it, and the DOM it dumps must show
# the counts and every image decoded at 256x192. The page has no script; the test loads a copy
# (probe.html) whose <img> tags get onload/onerror attributes that record naturalWidth/Height
# (or the error) as attributes, and reads them from the DOM dump. Deleting one image must then
# show exactly one error (the check can fail).
# Without a browser the test exits 77, which CTest reports as skipped (SKIP_RETURN_CODE), and
# says so. Browser: $DSGX_CHROMIUM, else chromium, chromium-browser or google-chrome in PATH
# (DSGX_CHROMIUM=none: as if there were none).
# usage: golden_report.sh DSGX GOLDEN TMPDIR
set -u
dsgx=$1 golden=$2 tmp=$3
browser=${DSGX_CHROMIUM:-}
for b in chromium chromium-browser google-chrome; do
    [ -n "$browser" ] && break
    browser=$(command -v "$b" 2>/dev/null || true)
done
[ "$browser" = none ] && browser="" # DSGX_CHROMIUM=none: behave as without a browser
if [ -z "$browser" ]; then
    echo "SKIPPED: no Chromium found (install Debian's chromium package or set DSGX_CHROMIUM):"
    echo "SKIPPED: the HTML report was not checked in a browser"
    exit 77
fi
rm -rf "$tmp"; mkdir -p "$tmp/s"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
t=$(printf '\t')
ref=$golden/ref
for s in a_flat_triangle b_gouraud_quad c_textured_quad; do
    cp "$ref/$s.trace" "$ref/$s.frame000.png" "$tmp/s/"
done
h() { awk -F'\t' -v n="$1" '$1==n && $2=="000" {print $3}' "$ref/manifest.tsv"; }
# pass; FAIL (the expected PNG of another scene: pixels differ); xfail
cp "$ref/a_flat_triangle.frame000.png" "$tmp/s/b_gouraud_quad.frame000.png"
{
    printf 'name\tframe\txxh3\txfail\n'
    printf "a_flat_triangle${t}000${t}%s${t}\n" "$(h a_flat_triangle)"
    printf "b_gouraud_quad${t}000${t}0123456789abcdef${t}\n"
    printf "c_textured_quad${t}000${t}fedcba9876543210${t}a known deviation\n"
} > "$tmp/s/manifest.tsv"
"$dsgx" golden check "$tmp/s" -o "$tmp/out" --report "$tmp/report" > "$tmp/o1" 2>&1
[ $? -eq 1 ] && grep -q "^1 passed, 1 failed" "$tmp/o1" && ok || bad "run: $(cat "$tmp/o1")"
[ -f "$tmp/report/index.html" ] && ok || bad "no index.html"
[ "$(ls "$tmp/report/img" | wc -l)" -eq 6 ] && ok || bad "6 images expected: $(ls "$tmp/report/img")"
! grep -qi '<script' "$tmp/report/index.html" && ok || bad "the page has a script"

probe() { # load probe.html (index.html with recording attributes) and dump the DOM
    sed 's|<img |<img onload="this.setAttribute('"'"'data-w'"'"',this.naturalWidth);this.setAttribute('"'"'data-h'"'"',this.naturalHeight)" onerror="this.setAttribute('"'"'data-error'"'"','"'"'1'"'"')" |g' \
        "$tmp/report/index.html" > "$tmp/report/probe.html"
    profile=$(mktemp -d)
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --virtual-time-budget=5000 --dump-dom \
        "file://$tmp/report/probe.html" > "$1" 2> "$1.err"
    st=$?
    rm -rf "$profile"
    return $st
}
probe "$tmp/dom.html" && [ -s "$tmp/dom.html" ] && ok || bad "chromium: $(tail -5 "$tmp/dom.html.err")"
dom=$tmp/dom.html
for c in 'passed">1<' 'failed">1<' 'xfail">1<' 'xpass">0<' 'scenes">3<' 'frames-failed">1<' 'frames">3<'; do
    grep -q "id=\"$c" "$dom" && ok || bad "count $c not in the DOM"
done
grep -q 'id="seconds">[0-9]*\.[0-9][0-9]<' "$dom" && ok || bad "timing not in the DOM"
rows=$(grep -o 'class="frame-row"' "$dom" | wc -l)
[ "$rows" -eq 2 ] && ok || bad "2 frame rows (FAIL, xfail) expected, got $rows"
imgs=$(grep -o '<img [^>]*>' "$dom")
n_img=$(echo "$imgs" | grep -c '<img ')
n_loaded=$(echo "$imgs" | grep -c 'data-w="256" data-h="192"')
[ "$n_img" -eq 6 ] && [ "$n_loaded" -eq 6 ] && ok || bad "images: $n_img in the page, $n_loaded decoded at 256x192"
echo "$imgs" | grep -q 'data-error="1"' && bad "an image failed to load" || ok
# side by side: the failing frame's row has expected, actual and diff
grep -o '<tr class="frame-row" data-verdict="FAIL">.*</tr>' "$dom" > "$tmp/failrow"
for k in expected actual diff; do
    grep -q "alt=\"$k\"" "$tmp/failrow" && ok || bad "no $k image in the failing row"
done
grep -q 'pixels differ in (' "$tmp/failrow" && ok || bad "no pixel count in the failing row"

# the check can fail: one image missing shows as exactly one error
rm "$(ls "$tmp/report/img"/*diff.png | head -1)"
probe "$tmp/dom2.html" || bad "chromium (second load)"
[ "$(grep -o 'data-error="1"' "$tmp/dom2.html" | wc -l)" -eq 1 ] && ok || bad "a missing image is not seen as missing"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
