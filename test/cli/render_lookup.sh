#!/bin/sh
# `dsgx render` / `dsgx info`: texture lookup beside the model (archive, folder, --tex, NSBTP
# names), the auto-fit camera (a flat ring, a tall thin pole, a large cube fill and centre the
# frame), --orbit still choosing any view, and `render --all --shard I/N`. Fixtures come from
# test_render_lookup (the project's writers; no game files), see its header for the tree.
# usage: render_lookup.sh DSGX TEST_RENDER_LOOKUP TMPDIR
set -u
dsgx=$1 gen=$2 tmp=$3
rm -rf "$tmp"; mkdir -p "$tmp"
DSGX_NITRO_FIXTURE_DIR="$tmp/fx" "$gen" >/dev/null 2>&1
fx=$tmp/fx
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
[ -f "$fx/loose/tree.nsbmd" ] && [ -f "$fx/arc/models.narc" ] && [ -f "$fx/fit/fit.narc" ] && ok || bad fixtures

# ---- texture lookup ----
# the folder: NSBTX files sorted by name, first match wins, ambiguity named
"$dsgx" render "$fx/loose/tree.nsbmd" -o "$tmp/tree.png" >/dev/null 2>"$tmp/e1"
grep -qx "dsgx render: texture wood from $fx/loose/wood.nsbtx" "$tmp/e1" && ok || bad "folder wood: $(cat "$tmp/e1")"
grep -qx "dsgx render: palette wood_pl from $fx/loose/wood.nsbtx" "$tmp/e1" && ok || bad "folder palette"
grep -qx "dsgx render: texture bark from $fx/loose/alt.nsbtx; also in $fx/loose/wood.nsbtx (not used)" "$tmp/e1" && ok || bad "ambiguity"
# the archive first (an LZ77 member), then the archive's folder
"$dsgx" render "$fx/arc/models.narc:0" -o "$tmp/treea.png" >/dev/null 2>"$tmp/e2"
grep -qx "dsgx render: texture wood from $fx/arc/models.narc:2 (wood.nsbtx)" "$tmp/e2" && ok || bad "archive: $(cat "$tmp/e2")"
grep -qx "dsgx render: texture leaf from $fx/arc/alt.nsbtx" "$tmp/e2" && ok || bad "archive then folder"
# --tex wins every name it holds
"$dsgx" render "$fx/loose/tree.nsbmd" --tex "$fx/loose/wood.nsbtx" -o "$tmp/treet.png" >/dev/null 2>"$tmp/e3"
grep -qx "dsgx render: texture bark from $fx/loose/wood.nsbtx (--tex)" "$tmp/e3" && ok || bad "--tex: $(cat "$tmp/e3")"
# found textures are really used: the same frame as the model holding them itself
a=$("$dsgx" render "$fx/loose/crate.nsbmd" -o "$tmp/c.png" 2>/dev/null | awk '{print $1}')
b=$("$dsgx" render "$fx/loose/crate_full.nsbmd" -o "$tmp/cf.png" 2>"$tmp/e4" | awk '{print $1}')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "crate $a vs crate_full $b"
[ ! -s "$tmp/e4" ] && ok || bad "own textures reported: $(cat "$tmp/e4")"
# the trees from the folder and from --tex differ (bark from alt.nsbtx vs wood.nsbtx)
[ "$("$dsgx" hash "$tmp/tree.png" | awk '{print $1}')" != "$("$dsgx" hash "$tmp/treet.png" | awk '{print $1}')" ] && ok || bad "--tex has no effect"
# texture-pattern names: leaf2 from extra.nsbtx, and frame 1 shows it
seq=$("$dsgx" render "$fx/loose/tree.nsbmd" --anim "$fx/loose/tree.nsbtp" --frames 0..1 -o "$tmp/p%d.png" 2>"$tmp/e5")
grep -qx "dsgx render: texture leaf2 from $fx/loose/extra.nsbtx" "$tmp/e5" && ok || bad "nsbtp: $(cat "$tmp/e5")"
f0=$(echo "$seq" | awk '$2==0 {print $3}') f1=$(echo "$seq" | awk '$2==1 {print $3}')
[ -n "$f0" ] && [ "$f0" != "$f1" ] && ok || bad "pattern frames $f0 $f1"
! grep -q "not loaded" "$tmp/e5" && ok || bad "pattern texture not loaded"
# info says the same
"$dsgx" info "$fx/arc/models.narc:0" >"$tmp/i1"
grep -qx "  texture wood from $fx/arc/models.narc:2 (wood.nsbtx)" "$tmp/i1" && ok || bad "info: $(tail -5 "$tmp/i1")"
"$dsgx" info "$fx/loose/crate_full.nsbmd" --json >"$tmp/i2"
grep -q "\"texture_sources\":\[{\"kind\":\"texture\",\"name\":\"wood\",\"file\":\"$fx/loose/crate_full.nsbmd\",\"origin\":\"model\"}" "$tmp/i2" && ok || bad "info json: $(cat "$tmp/i2")"
"$dsgx" info "$fx/loose/tree.nsbtp" | grep -qx "  texture leaf2 from $fx/loose/extra.nsbtx" && ok || bad "info nsbtp"

# ---- auto-fit: lit-pixel box against an empty frame ----
head -c 196608 /dev/zero >"$tmp/zero.raw"
# prints "W H CX2 CY2 N": box size, twice its centre, lit pixels
box() { "$dsgx" diff "$1" "$tmp/zero.raw" | sed -n 's/^\([0-9]*\) differing pixels in (\([0-9]*\),\([0-9]*\))-(\([0-9]*\),\([0-9]*\)).*/\4 \2 \5 \3 \1/p' |
        awk '{print $1-$2+1, $3-$4+1, $1+$2, $3+$4, $5} END {if (!NR) print 0, 0, 0, 0, 0}'; }
for m in ring pole big; do
  "$dsgx" render "$fx/fit/$m.nsbmd" -o "$tmp/$m.png" >/dev/null 2>&1
  set -- $(box "$tmp/$m.png")
  # fills at least 85% of the width or the height (the rule: 90%), centred within 2 pixels
  awk -v w="$1" -v h="$2" 'BEGIN { exit !(w >= 0.85 * 256 || h >= 0.85 * 192) }' && ok || bad "$m fills ${1}x$2"
  awk -v w="$1" -v h="$2" 'BEGIN { exit !(w <= 0.92 * 256 && h <= 0.92 * 192) }' && ok || bad "$m margin ${1}x$2"
  awk -v x="$3" -v y="$4" 'BEGIN { d = x - 255; e = y - 191; exit !(d <= 4 && d >= -4 && e <= 4 && e >= -4) }' && ok || bad "$m centre $3/2 $4/2"
  eval "${m}_h=$2 ${m}_n=$5"
done
# fitted to the model as its animation poses it at frame 0 (the node moved to (40, 25, -30))
"$dsgx" render "$fx/fit/pole.nsbmd" --anim "$fx/fit/shift.nsbca" --frame 1 -o "$tmp/moved.png" >/dev/null 2>&1
set -- $(box "$tmp/moved.png")
[ "$2" -ge 163 ] && [ "$2" -le 177 ] && [ "$3" -ge 251 ] && [ "$3" -le 259 ] && [ "$4" -ge 187 ] && [ "$4" -le 195 ] && ok || bad "animated pole box $*"
# a damaged NSBTX beside the model is skipped and said so (the ring needs no texture: not read)
"$dsgx" render "$fx/fit/ring.nsbmd" -o "$tmp/r.png" >/dev/null 2>"$tmp/e9"
[ ! -s "$tmp/e9" ] && ok || bad "ring stderr: $(cat "$tmp/e9")"
"$dsgx" render "$fx/fit/ring.nsbmd" --anim "$fx/loose/tree.nsbtp" -o "$tmp/r.png" >/dev/null 2>"$tmp/e9"
grep -q "1 texture file(s) beside the model could not be used" "$tmp/e9" && ok || bad "damaged: $(cat "$tmp/e9")"
# the flat ring shows its face, not a line
[ "$ring_h" -ge 60 ] && [ "$ring_n" -ge 4000 ] && ok || bad "ring is a line: height $ring_h, $ring_n pixels"
# --orbit still picks any view: edge-on (pitch 0) the ring is a line again
"$dsgx" render "$fx/fit/ring.nsbmd" --orbit 0 0 0 -o "$tmp/edge.png" >/dev/null 2>&1
set -- $(box "$tmp/edge.png")
[ "$2" -le 3 ] && [ "$1" -ge 200 ] && ok || bad "edge-on ring ${1}x$2"
# --orbit with a distance, --eye/--at: the camera the user gives
"$dsgx" render "$fx/fit/ring.nsbmd" --orbit 0 90 40 -o "$tmp/top.png" >/dev/null 2>&1
set -- $(box "$tmp/top.png")
[ "$1" -lt 100 ] && [ "$2" -lt 100 ] && [ "$2" -gt 20 ] && ok || bad "orbit at distance 40 ${1}x$2"
"$dsgx" render "$fx/fit/ring.nsbmd" --eye 0 30 0.01 --at 0 0 0 -o "$tmp/eye.png" >/dev/null 2>&1
set -- $(box "$tmp/eye.png")
[ "$1" -lt 60 ] && [ "$2" -lt 60 ] && [ "$2" -gt 10 ] && ok || bad "eye/at ${1}x$2"

# ---- --all --shard I/N ----
"$dsgx" render --all "$fx/fit/fit.narc" -o "$tmp/all.png" >"$tmp/all" 2>"$tmp/alle"
"$dsgx" render --all "$fx/fit/fit.narc" --shard 1/2 -o "$tmp/s1.png" >"$tmp/s1" 2>/dev/null
"$dsgx" render --all "$fx/fit/fit.narc" --shard 2/2 -o "$tmp/s2.png" >"$tmp/s2" 2>/dev/null
grep -v '\.png ' "$tmp/all" | sort >"$tmp/all.l"
cat "$tmp/s1" "$tmp/s2" | grep -v '\.png ' | sort >"$tmp/s.l"
[ "$(wc -l <"$tmp/all.l")" -eq 3 ] && cmp -s "$tmp/all.l" "$tmp/s.l" && ok || bad "shards do not cover the models once"
[ "$(grep -c 'nsbmd/' "$tmp/s1")" -eq 2 ] && [ "$(grep -c 'nsbmd/' "$tmp/s2")" -eq 1 ] && ok || bad "round robin"
grep -q "^$tmp/s1.png .*2 model(s) (shard 1 of 2, 3 in all)" "$tmp/s1" && ok || bad "shard summary: $(tail -1 "$tmp/s1")"
# the --all cell is the model rendered alone
r=$("$dsgx" render "$fx/fit/fit.narc:pole.nsbmd" -o "$tmp/x.png" 2>/dev/null | awk '{print $1}')
grep -q "^$r pole.nsbmd/pole" "$tmp/all" && ok || bad "--all cell differs from render"
# not a terminal: no progress line
[ ! -s "$tmp/alle" ] && ok || bad "stderr not empty off a terminal: $(cat "$tmp/alle")"
# 130 models: every one rendered and printed, every 3rd on the sheet; 3 shards cover them once
"$dsgx" render --all "$fx/many.narc" -o "$tmp/many.png" >"$tmp/m" 2>"$tmp/me"
[ "$(grep -c '\.nsbmd\|^[0-9a-f]* [0-9]*/' "$tmp/m")" -eq 130 ] && grep -q "130 model(s)" "$tmp/m" && ok || bad "many: $(tail -1 "$tmp/m")"
grep -q "the sheet shows every 3rd model of 130" "$tmp/me" && ok || bad "many sheet: $(cat "$tmp/me")"
for i in 1 2 3; do "$dsgx" render --all "$fx/many.narc" --shard $i/3 -o "$tmp/m$i.png" 2>/dev/null; done |
  grep -v '\.png ' | sort >"$tmp/m.s"
grep -v '\.png ' "$tmp/m" | sort >"$tmp/m.a"
cmp -s "$tmp/m.a" "$tmp/m.s" && [ "$(sort -u -k2 "$tmp/m.s" | wc -l)" -eq 130 ] && ok || bad "3 shards of 130"
for s in 0/2 3/2 1/0 x; do
  "$dsgx" render --all "$fx/fit/fit.narc" --shard "$s" -o "$tmp/x.png" >/dev/null 2>"$tmp/e6"
  [ $? -eq 2 ] && grep -q "bad --shard" "$tmp/e6" && ok || bad "shard $s accepted"
done
"$dsgx" render "$fx/fit/ring.nsbmd" --shard 1/2 -o "$tmp/x.png" >/dev/null 2>"$tmp/e7"
[ $? -eq 2 ] && grep -q "needs --all" "$tmp/e7" && ok || bad "--shard without --all"
"$dsgx" render --all "$fx/fit/fit.narc" --shard 4/5 -o "$tmp/x.png" >/dev/null 2>"$tmp/e8"
[ $? -eq 1 ] && grep -q "shard 4 of 5 is empty" "$tmp/e8" && ok || bad "empty shard"
# on a terminal (util-linux script), a run over a second shows the progress line
if command -v script >/dev/null 2>&1; then
  t0=$(date +%s%N)
  script -qec "'$dsgx' render '$fx/fit/ring.nsbmd' --frames 0..500 -o '$tmp/pr/f%d.png'" /dev/null >"$tmp/tty" 2>&1
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  if grep -q "render: [0-9]*/501 frames" "$tmp/tty"; then ok
  elif [ "$ms" -lt 1500 ]; then echo "SKIP progress on a terminal: the run took only ${ms} ms"
  else bad "no progress line on a terminal (${ms} ms)"; fi
else
  echo "SKIP progress on a terminal (no script command)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
