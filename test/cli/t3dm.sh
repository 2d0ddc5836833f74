#!/bin/sh
# `dsgx info` and `dsgx render` on T3DM fixtures the project generates (no Tiny3D or game
# files): test_t3dm_render dumps the models, the .sdata stream and the sprites, then the CLI
# must describe them, render single frames, sequences, sheets and traces consistently, find
# textures beside the model or in --tex-dir, warn about missing ones and reject bad input.
# usage: t3dm.sh DSGX TEST_T3DM_RENDER TMPDIR
set -u
dsgx=$1 ttr=$2 tmp=$3
rm -rf "$tmp"; mkdir -p "$tmp/fx"
DSGX_T3DM_FIXTURE_DIR="$tmp/fx" "$ttr" >/dev/null 2>&1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
fx=$tmp/fx
[ -f "$fx/anim.t3dm" ] && [ -f "$fx/bar.0.sdata" ] && [ -f "$fx/tex/ci4.sprite" ] && ok || bad fixtures

# info, text and JSON (the keys the issue names)
"$dsgx" info "$fx/anim.t3dm" > "$tmp/i1" || bad info_rc
grep -q 'T3DM version 4, 1 objects, 24 triangles' "$tmp/i1" && ok || bad info_text
grep -q 'channel 0: bone 1 rotation, 3 keyframes' "$tmp/i1" && ok || bad info_keyframes
grep -q '^  bone 1 "tip" parent 0' "$tmp/i1" && ok || bad info_hierarchy
"$dsgx" info "$fx/static.t3dm" --json > "$tmp/j1" || bad json_rc
for k in '"format":"T3DM"' '"version":4' '"vertices":30' '"indices":18' '"objects":\[' \
         '"triangles":14' '"materials":\[' '"bones":\[' '"animations":\[' '"strip_triangles":6'; do
    grep -q "$k" "$tmp/j1" && ok || bad "json key $k"
done
"$dsgx" info "$fx/textured.t3dm" | grep -q 'texture A: rom:/tex/ci8.sprite 24x24' && ok || bad info_tex

# render: a frame of a sequence is the frame alone; the trace replays to the same frame
one=$("$dsgx" render "$fx/anim.t3dm" --anim wave --frame 20 --trace "$tmp/a.trace" -o "$tmp/f20.png" | awk '{print $1}')
seq=$("$dsgx" render "$fx/anim.t3dm" --anim 0 --frames 0..30:10 -o "$tmp/seq/f%03d.png" --sheet "$tmp/sheet.png")
two=$(echo "$seq" | awk '$1=="frame" && $2==20 {print $3}')
[ -n "$one" ] && [ "$one" = "$two" ] && ok || bad "frame 20 alone $one vs in sequence $two"
[ "$(echo "$seq" | grep -c '^frame ')" -eq 4 ] && [ -f "$tmp/seq/f030.png" ] && [ -f "$tmp/sheet.png" ] && ok || bad sequence
h=$("$dsgx" hash "$tmp/seq/f020.png" | awk '{print $1}')
[ "$h" = "$two" ] && ok || bad "png hash $h vs $two"
f0=$(echo "$seq" | awk '$2==0 {print $3}')
[ "$f0" != "$two" ] && ok || bad "animation does not move"
rp=$("$dsgx" replay "$tmp/a.trace" | awk '$1=="frame" {print $3}')
[ "$rp" = "$one" ] && ok || bad "replay $rp vs render $one"
"$dsgx" explain "$tmp/a.trace" --summary > "$tmp/ex" 2>&1 && [ -s "$tmp/ex" ] && ok || bad explain
# without --anim the bind pose is drawn: differs from frame 20
bp=$("$dsgx" render "$fx/anim.t3dm" -o "$tmp/bind.png" | awk '{print $1}')
[ -n "$bp" ] && [ "$bp" != "$one" ] && ok || bad bind_pose

# textures: beside the model; from --tex-dir when moved away; missing -> one warning, untextured
t1=$("$dsgx" render "$fx/textured.t3dm" -o "$tmp/t1.png" 2>"$tmp/w1" | awk '{print $1}')
[ ! -s "$tmp/w1" ] && ok || bad "unexpected warning: $(cat "$tmp/w1")"
mkdir -p "$tmp/m" "$tmp/sprites"; cp "$fx/textured.t3dm" "$tmp/m/"; cp "$fx"/tex/*.sprite "$tmp/sprites/"
t2=$("$dsgx" render "$tmp/m/textured.t3dm" --tex-dir "$tmp/sprites" -o "$tmp/t2.png" 2>"$tmp/w2" | awk '{print $1}')
[ "$t1" = "$t2" ] && [ ! -s "$tmp/w2" ] && ok || bad "tex-dir $t1 vs $t2"
rm "$tmp/sprites/ci4.sprite"
t3=$("$dsgx" render "$tmp/m/textured.t3dm" --tex-dir "$tmp/sprites" -o "$tmp/t3.png" 2>"$tmp/w3" | awk '{print $1}')
[ -n "$t3" ] && [ "$t3" != "$t1" ] && [ "$(grep -c 'rom:/tex/ci4.sprite not found' "$tmp/w3")" -eq 1 ] && ok || bad "missing sprite: $(cat "$tmp/w3")"
# a broken sprite: a warning naming it and the reason
printf 'junk' > "$tmp/sprites/ci4.sprite"
"$dsgx" render "$tmp/m/textured.t3dm" --tex-dir "$tmp/sprites" -o "$tmp/t4.png" >/dev/null 2>"$tmp/w4"
[ $? -eq 0 ] && grep -q 'texture rom:/tex/ci4.sprite: sprite at offset' "$tmp/w4" && ok || bad "bad sprite: $(cat "$tmp/w4")"

# --all: the whole model and each object; --model one object
"$dsgx" render --all "$fx/static.t3dm" -o "$tmp/all.png" > "$tmp/all" && [ -f "$tmp/all.png" ] && [ "$(grep -c ' cube$\| floor$\| all$' "$tmp/all")" -eq 3 ] && ok || bad all
c1=$("$dsgx" render "$fx/static.t3dm" --model cube -o "$tmp/c.png" | awk '{print $1}')
c2=$(awk '$2=="cube" {print $1}' "$tmp/all")
[ -n "$c1" ] && [ "$c1" = "$c2" ] && ok || bad "--model cube $c1 vs sheet $c2"
# camera and output options reach the frame
o1=$("$dsgx" render "$fx/static.t3dm" --orbit 30 20 600 --light 1:0,-1,0:FF0000 --edge --aa -o "$tmp/o.png" | awk '{print $1}')
[ -n "$o1" ] && [ "$o1" != "$c1" ] && ok || bad options
"$dsgx" render "$fx/static.t3dm" --scale 2 -o "$tmp/s2.png" >/dev/null
wh=$(od -An -tu1 -j16 -N8 "$tmp/s2.png" | tr -s ' ')
[ "$wh" = " 0 0 2 0 0 0 1 128" ] && ok || bad "scale 2 size:$wh"

# auto-fit: the default camera is the raised three-quarter view (--orbit 30 30 0), fitted to the
# animation's frame 0 (so frame 0 is the same with or without the other frames); --near counts
d0=$("$dsgx" render "$fx/anim.t3dm" --anim wave -o "$tmp/d0.png" | awk '{print $1}')
d1=$("$dsgx" render "$fx/anim.t3dm" --anim wave --orbit 30 30 0 -o "$tmp/d1.png" | awk '{print $1}')
d2=$("$dsgx" render "$fx/anim.t3dm" --anim wave --orbit 0 0 0 -o "$tmp/d2.png" | awk '{print $1}')
d3=$("$dsgx" render "$fx/anim.t3dm" --anim wave --near 150 -o "$tmp/d3.png" | awk '{print $1}')
[ -n "$d0" ] && [ "$d0" = "$d1" ] && [ "$d0" != "$d2" ] && [ "$d0" != "$d3" ] && ok || bad "auto-fit $d0 $d1 $d2 $d3"
# --all --shard I/N: the shards together are the whole sheet, each cell once
"$dsgx" render --all "$fx/static.t3dm" --shard 1/2 -o "$tmp/sh1.png" > "$tmp/sh1" &&
"$dsgx" render --all "$fx/static.t3dm" --shard 2/2 -o "$tmp/sh2.png" > "$tmp/sh2" && ok || bad shard_rc
cat "$tmp/sh1" "$tmp/sh2" | grep -v '\.png ' | sort > "$tmp/shu"
grep -v '\.png ' "$tmp/all" | sort > "$tmp/alls"
cmp -s "$tmp/shu" "$tmp/alls" && grep -q 'shard 2 of 2, 3 in all' "$tmp/sh2" && ok || bad "shard union: $(cat "$tmp/shu")"
"$dsgx" render --all "$fx/static.t3dm" --shard 5/9 -o "$tmp/sh5.png" 2>"$tmp/e6"
[ $? -eq 1 ] && grep -q 'shard 5 of 9 is empty' "$tmp/e6" && ok || bad "empty shard: $(cat "$tmp/e6")"
"$dsgx" render "$fx/static.t3dm" --shard 1/2 -o "$tmp/x.png" 2>/dev/null
[ $? -eq 2 ] && ok || bad "--shard without --all"

# render specs (`dsgx golden check`): a T3DM scene with its sprites in a tex-dir, an object and
# an animation by name draws what `dsgx render` draws
mkdir -p "$tmp/spec/models" "$tmp/spec/sprites"
cp "$fx/textured.t3dm" "$fx/anim.t3dm" "$fx/bar.0.sdata" "$tmp/spec/models/"
cp "$fx"/tex/*.sprite "$tmp/spec/sprites/"
printf 'dsgx-render 1\nfile models/textured.t3dm\ntex-dir sprites\n' > "$tmp/spec/tex.render"
printf 'dsgx-render 1\nfile models/anim.t3dm\nanim wave\nmodel 0\nfov 40\n' > "$tmp/spec/wave.render"
w20=$("$dsgx" render "$fx/anim.t3dm" --anim wave --model 0 --fov 40 --frame 20 -o "$tmp/w20.png" | awk '{print $1}')
printf 'name\tframe\txxh3\ntex\t0\t%s\nwave\t20\t%s\n' "$t1" "$w20" > "$tmp/spec/manifest.tsv"
"$dsgx" golden check "$tmp/spec" -o "$tmp/spec-out" > "$tmp/g1" 2>&1 && grep -q '2 passed, 0 failed' "$tmp/g1" && ok || bad "spec check: $(cat "$tmp/g1")"
printf 'name\tframe\txxh3\nwave\t21\t%s\n' "$w20" > "$tmp/spec/manifest.tsv"
rm "$tmp/spec/tex.render"
"$dsgx" golden check "$tmp/spec" -o "$tmp/spec-out" > "$tmp/g2" 2>&1
[ $? -ne 0 ] && grep -q '0 passed, 1 failed' "$tmp/g2" && ok || bad "spec frame 21 must differ: $(cat "$tmp/g2")"

# --tex and --tex-dir belong to one side each: said so, exit 2
"$dsgx" render "$fx/textured.t3dm" --tex "$fx/static.t3dm" -o "$tmp/x.png" 2>"$tmp/e7"
[ $? -eq 2 ] && grep -q 'sprites are found beside the model or in --tex-dir' "$tmp/e7" && ok || bad "--tex on T3DM: $(cat "$tmp/e7")"

# errors: unknown animation, missing .sdata, bad model file, bad frames
"$dsgx" render "$fx/anim.t3dm" --anim nope --frame 1 -o "$tmp/x.png" 2>"$tmp/e1"
[ $? -ne 0 ] && grep -q "no animation 'nope'" "$tmp/e1" && ok || bad name_error
cp "$fx/anim.t3dm" "$tmp/m/"
"$dsgx" render "$tmp/m/anim.t3dm" --anim wave --frame 1 -o "$tmp/x.png" 2>"$tmp/e2"
[ $? -ne 0 ] && grep -q "missing .sdata rom:/bar.0.sdata" "$tmp/e2" && ok || bad "sdata error: $(cat "$tmp/e2")"
head -c 100 "$fx/static.t3dm" > "$tmp/cut.t3dm"
"$dsgx" info "$tmp/cut.t3dm" 2>"$tmp/e3"
[ $? -eq 1 ] && grep -q "cut.t3dm: header at offset 0x" "$tmp/e3" && ok || bad "truncated: $(cat "$tmp/e3")"
"$dsgx" render "$tmp/cut.t3dm" -o "$tmp/x.png" 2>"$tmp/e4"
[ $? -eq 1 ] && grep -q "cut.t3dm: .* at offset 0x" "$tmp/e4" && ok || bad "render truncated: $(cat "$tmp/e4")"
"$dsgx" render "$fx/anim.t3dm" --anim wave --frames 5..2 -o "$tmp/x%d.png" 2>"$tmp/e5"
[ $? -eq 2 ] && grep -q "bad --frames" "$tmp/e5" && ok || bad range_error
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
