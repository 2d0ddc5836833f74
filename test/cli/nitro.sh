#!/bin/sh
# `dsgx render` and `dsgx info` on Nitro fixtures the project generates (no game files): the
# fixture writers in test_nitro_render/test_anim_render dump .nsbmd/.nsbca.. files, then the
# CLI must render single frames, sequences and sheets consistently and reject bad options.
# usage: nitro.sh DSGX TEST_NITRO_RENDER TEST_ANIM_RENDER TMPDIR
set -u
dsgx=$1 tnr=$2 tar=$3 tmp=$4
rm -rf "$tmp"; mkdir -p "$tmp/fx"
DSGX_NITRO_FIXTURE_DIR="$tmp/fx" "$tnr" >/dev/null 2>&1
DSGX_NITRO_FIXTURE_DIR="$tmp/fx" "$tar" >/dev/null 2>&1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
[ -f "$tmp/fx/anim.nsbmd" ] && [ -f "$tmp/fx/anim.nsbca" ] && [ -f "$tmp/fx/multi.nsbmd" ] && ok || bad fixtures

# info, text and JSON
"$dsgx" info "$tmp/fx/anim.nsbmd" | grep -q '^model "anim"' && ok || bad info
"$dsgx" info "$tmp/fx/anim.nsbca" | grep -q 'joint (NSBCA)' && ok || bad info_anim
"$dsgx" info "$tmp/fx/anim.nsbca" --json | grep -q '"animation_details"' && ok || bad info_json

# a frame of a sequence is the same frame rendered alone
one=$("$dsgx" render "$tmp/fx/anim.nsbmd" --anim "$tmp/fx/anim.nsbca:swing" --frame 2 -o "$tmp/f2.png" | awk '{print $1}')
seq=$("$dsgx" render "$tmp/fx/anim.nsbmd" --anim "$tmp/fx/anim.nsbca:swing" --frames 0..3 \
      -o "$tmp/seq/f%03d.png" --sheet "$tmp/sheet.png")
two=$(echo "$seq" | awk '$1=="frame" && $2==2 {print $3}')
[ -n "$one" ] && [ "$one" = "$two" ] && ok || bad "frame 2 alone $one vs in sequence $two"
[ "$(echo "$seq" | grep -c '^frame ')" -eq 4 ] && [ -f "$tmp/seq/f003.png" ] && [ -f "$tmp/sheet.png" ] && ok || bad sequence
# the PNG written for frame 2 hashes to what was printed
h=$("$dsgx" hash "$tmp/seq/f002.png" | awk '{print $1}')
[ "$h" = "$two" ] && ok || bad "png hash $h vs $two"
# frames differ as the joint animates
f0=$(echo "$seq" | awk '$2==0 {print $3}')
[ "$f0" != "$two" ] && ok || bad "animation does not move"

# errors: unknown animation name, bad range, misfit
"$dsgx" render "$tmp/fx/anim.nsbmd" --anim "$tmp/fx/anim.nsbca:nope" --frame 1 -o "$tmp/x.png" 2>"$tmp/e1"
[ $? -ne 0 ] && grep -q "no animation 'nope'" "$tmp/e1" && ok || bad name_error
"$dsgx" render "$tmp/fx/anim.nsbmd" --frames 5..2 -o "$tmp/x%d.png" 2>"$tmp/e2"
[ $? -ne 0 ] && grep -q "bad --frames" "$tmp/e2" && ok || bad range_error
"$dsgx" render "$tmp/fx/multi.nsbmd" --anim "$tmp/fx/anim.nsbca:big" --frame 0 -o "$tmp/x.png" 2>"$tmp/e3"
[ $? -ne 0 ] && [ -s "$tmp/e3" ] && ok || bad misfit

# contact sheet of every model in a file, and a scaled screenshot
"$dsgx" render --all "$tmp/fx/multi.nsbmd" -o "$tmp/all.png" >/dev/null && [ -f "$tmp/all.png" ] && ok || bad all
"$dsgx" render "$tmp/fx/lit.nsbmd" --scale 2 -o "$tmp/s2.png" >/dev/null
# PNG IHDR: width and height are big-endian u32 at bytes 16..23
wh=$(od -An -tu1 -j16 -N8 "$tmp/s2.png" | tr -s ' ')
[ "$wh" = " 0 0 2 0 0 0 1 128" ] && ok || bad "scale 2 size:$wh"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
