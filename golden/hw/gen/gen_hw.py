#!/usr/bin/env python3
"""gen_hw.py - writes golden/hw/*.trace: scenes of Jaklyy's hardware test ROM polyrastertest
v1.0.2-b (https://github.com/Jaklyy/polyrastertest, MIT licence, source/tests.h and
source/main.cpp at commit 108194ec) replayed as dsgx traces: the ROM's own projection matrix,
viewport, clear values, POLYGON_ATTR, vertex colours and vertex coordinates, in the order
its drawPoly() submits them. The ROM's data file (the console recording) is not copied: what
each scene must show is the rule its source states, checked pixel by pixel in
test/unit/test_hw_rules.c. Uses tracelib.py from golden/ref/gen.

    python3 golden/hw/gen/gen_hw.py          # writes golden/hw/ (keeps existing xxh3 cells)
"""
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "ref", "gen"))
from tracelib import Trace  # noqa: E402

# polyrastertest main.h: TestData defaults
PROJ = [131586, 0, 0, 0, 0, -175677, 0, 0, 0, 0, -1024, 0, 16, 21, -4096, 4096]
OPAQUE_CULL_NONE = (31 << 16) | (3 << 6)
WHITE = 0x7FFF

# (name, index in tests.h, category, the ROM's comment, vertices)
SCENES = [
    ("prt023_line_simple", 23, "Line Polygon Exception", "simple line polygon - fill",
     [(-10, -5), (-10, -5), (10, 5)]),
    ("prt024_line_not_quite", 24, "Line Polygon Exception", "not quite a line polygon - no fill",
     [(-11, -6), (-10, -5), (10, 5)]),
    ("prt025_line_collinear", 25, "Line Polygon Exception",
     "if you can see this you're doing something wrong - no fill", [(-2, -1), (0, 0), (2, 1)]),
    ("prt026_line_cursed1", 26, "Line Polygon Exception",
     "cursed line polygon 1 - fill, but like, only the line part",
     [(47, 8), (-46, -27), (47, 27), (-46, -27)]),
    ("prt027_line_cursed2", 27, "Line Polygon Exception", "cursed line polygon 2 - see above",
     [(47, 8), (-46, -27), (0, 0), (-46, -27)]),
    ("prt028_line_cursed3", 28, "Line Polygon Exception", "cursed line polygon 3 - fill",
     [(48, 0), (0, -27), (-40, -8), (0, -27)]),
    ("prt073_hline_1_4", 73, "Horizontal Line Polygons and Clipping",
     "Horizontal line polygons always render 1-4,", [(-32, 0), (0, 0), (48, 0), (32, 0)]),
    ("prt074_hline_1_2", 74, "Horizontal Line Polygons and Clipping", "1-2,",
     [(-32, 0), (32, 0), (48, 0), (0, 0)]),
    ("prt075_hline_2_4", 75, "Horizontal Line Polygons and Clipping",
     "or 2-4. 3 is never rendered", [(0, 0), (-32, 0), (48, 0), (32, 0)]),
    ("prt076_hline_clip_v1", 76, "Horizontal Line Polygons and Clipping",
     "Until the first vertex gets clipped.... (1-2)", [(-128, 0), (-32, 0), (32, 0), (48, 0)]),
    ("prt077_hline_clip_v12", 77, "Horizontal Line Polygons and Clipping",
     "Then things start to get interesting... (2-3)", [(-128, 0), (-128, 0), (32, 0), (48, 0)]),
    ("prt079_hline_clip_v123", 79, "Horizontal Line Polygons and Clipping", "3-4",
     [(-128, 0), (-128, 0), (-128, 0), (48, 0)]),
    ("prt080_hline_clip_v14", 80, "Horizontal Line Polygons and Clipping",
     "4th vertex being clipped might complicate things, might not, probably depends on "
     "implementation of clipping (1-2)", [(-128, 0), (-32, 0), (32, 0), (-128, 0)]),
    ("prt081_hline_clip_v124", 81, "Horizontal Line Polygons and Clipping", "2-3",
     [(-128, 0), (-128, 0), (32, 0), (-128, 0)]),
]
# (tests.h #78 repeats #77 exactly; it is not written twice)


def build(t, verts):
    t.prologue(0, clear=(0, 0, 0), clear_alpha=31, clear_id=63)
    t.edge_colors([(31, 31, 31)] + [(0, 0, 0)] * 7)
    t.viewport(0, 0, 255, 191)
    t.mtx_mode(0)
    t.load44([[PROJ[4 * i + j] / 4096 for j in range(4)] for i in range(4)],
             "polyrastertest TestData.Projection")
    t.mtx_mode(2)
    t.identity()
    t.cmd(0x29, [OPAQUE_CULL_NONE], ": opaque, cull none, ID 0 (glPolyFmt)")
    t.begin(1 if len(verts) == 4 else 0)
    for x, y in verts:
        t.cmd(0x20, [WHITE], "white")
        t.v16(x / 4096, y / 4096, 0)
    t.swap()
    t.frame()


def main():
    out = os.path.normpath(os.path.join(HERE, ".."))
    man = os.path.join(out, "manifest.tsv")
    old = {}
    if os.path.exists(man):
        lines = open(man).read().splitlines()
        hdr = lines[0].split("\t")
        for l in lines[1:]:
            c = dict(zip(hdr, l.split("\t")))
            old[c.get("name")] = c
    rows = []
    for name, idx, cat, comment, verts in SCENES:
        t = Trace(["%s: polyrastertest v1.0.2-b test #%03d (%s): \"%s\"" % (name, idx, cat, comment),
                   "vertices (VTX_16 raw): %s" % " ".join("(%d,%d)" % v for v in verts)])
        build(t, verts)
        t.save(os.path.join(out, name + ".trace"))
        prev = old.get(name, {})
        rows.append([name, "000", prev.get("xxh3", ""), "%03d" % idx, cat, comment])
    with open(man, "w") as fh:
        fh.write("name\tframe\txxh3\tprt_test\tcategory\trom_comment\n")
        for r in rows:
            fh.write("\t".join(r) + "\n")
    print("%d scenes" % len(rows))


if __name__ == "__main__":
    main()
