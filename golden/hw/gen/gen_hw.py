#!/usr/bin/env python3
"""gen_hw.py - writes golden/hw/*.trace: scenes of Jaklyy's hardware test ROM polyrastertest
v1.0.2-b (https://github.com/Jaklyy/polyrastertest, MIT licence, source/tests.h and
source/main.cpp at commit 108194ec) replayed as dsgx traces: the ROM's own projection matrix,
viewport, clear values, POLYGON_ATTR, vertex colours and vertex coordinates, in the order
its drawPoly() submits them; the "Curse of Edge Marking" scenes (prt037-prt043) from the v1.0.2
release's tests.h (REL_CURSE below). The ROM's data file (the console recording) is not
copied: what each scene must show is the rule its source states, checked pixel by pixel in
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

YELLOW, GREEN, RED, BLUE = 0x03FF, 0x03E0, 0x001F, 0x7C00
ZERO_DOT = 1 << 13  # POLYGON_ATTR bit 13: 1-dot polygons drawn (ForceZeroDot)


def poly(verts, attr=OPAQUE_CULL_NONE, cols=None, copies=1, strip=False):
    """attr None: no POLYGON_ATTR write (the polygon takes the one set before it)."""
    return dict(verts=verts, attr=attr, cols=cols or [WHITE] * 4, copies=copies, strip=strip)


# (name, index in tests.h, category, the ROM's comment, main polygon, DISP3DCNT, extra polygons,
#  EDGE_COLOR 0 as rgb5)
def S(name, idx, cat, comment, verts, disp=0, ext=(), cols=None, attr=OPAQUE_CULL_NONE,
      edge0=(31, 31, 31)):
    return (name, idx, cat, comment, poly(verts, attr=attr, cols=cols), disp, list(ext), edge0)


LINE, HCLIP, LIMIT = ("Line Polygon Exception", "Horizontal Line Polygons and Clipping",
                      "Upper Limits")
OFFSCREEN = [(-256, 0), (-256, 0), (-256, 0)]  # "lazy way to not render a polygon"
BG = [(-256, -256), (-256, 256), (256, 256), (256, -256)]
ZEROS4, ZEROS3 = [(0, 0)] * 4, [(0, 0)] * 3
SCENES = [
    S("prt023_line_simple", 23, LINE, "simple line polygon - fill",
      [(-10, -5), (-10, -5), (10, 5)]),
    S("prt024_line_not_quite", 24, LINE, "not quite a line polygon - no fill",
      [(-11, -6), (-10, -5), (10, 5)]),
    S("prt025_line_collinear", 25, LINE,
      "if you can see this you're doing something wrong - no fill", [(-2, -1), (0, 0), (2, 1)]),
    S("prt026_line_cursed1", 26, LINE, "cursed line polygon 1 - fill, but like, only the line part",
      [(47, 8), (-46, -27), (47, 27), (-46, -27)]),
    S("prt027_line_cursed2", 27, LINE, "cursed line polygon 2 - see above",
      [(47, 8), (-46, -27), (0, 0), (-46, -27)]),
    S("prt028_line_cursed3", 28, LINE, "cursed line polygon 3 - fill",
      [(48, 0), (0, -27), (-40, -8), (0, -27)]),
    S("prt073_hline_1_4", 73, HCLIP, "Horizontal line polygons always render 1-4,",
      [(-32, 0), (0, 0), (48, 0), (32, 0)]),
    S("prt074_hline_1_2", 74, HCLIP, "1-2,", [(-32, 0), (32, 0), (48, 0), (0, 0)]),
    S("prt075_hline_2_4", 75, HCLIP, "or 2-4. 3 is never rendered",
      [(0, 0), (-32, 0), (48, 0), (32, 0)]),
    S("prt076_hline_clip_v1", 76, HCLIP, "Until the first vertex gets clipped.... (1-2)",
      [(-128, 0), (-32, 0), (32, 0), (48, 0)]),
    S("prt077_hline_clip_v12", 77, HCLIP, "Then things start to get interesting... (2-3)",
      [(-128, 0), (-128, 0), (32, 0), (48, 0)]),
    S("prt079_hline_clip_v123", 79, HCLIP, "3-4", [(-128, 0), (-128, 0), (-128, 0), (48, 0)]),
    S("prt080_hline_clip_v14", 80, HCLIP,
      "4th vertex being clipped might complicate things, might not, probably depends on "
      "implementation of clipping (1-2)", [(-128, 0), (-32, 0), (32, 0), (-128, 0)]),
    S("prt081_hline_clip_v124", 81, HCLIP, "2-3", [(-128, 0), (-128, 0), (32, 0), (-128, 0)]),
    # (tests.h #78 repeats #77 exactly; it is not written twice)
    S("prt082_poly_limit", 82, LIMIT, "There can only be 2048 polygons per frame.",
      [(-64, -64), (-32, -64), (-32, -32), (-64, -32)],
      ext=[poly(ZEROS3, OPAQUE_CULL_NONE | ZERO_DOT, copies=2046, strip=True),
           poly([(64, -64), (32, -64), (32, -32), (64, -32)]),
           poly([(-32, 64), (32, 64), (32, 32), (-32, 32)])]),
    S("prt083_vtx_limit_fits", 83, LIMIT, "This should render the polygon due it it barely fitting "
      "in the limit thanks to clipping", OFFSCREEN,
      ext=[poly(ZEROS4, OPAQUE_CULL_NONE | ZERO_DOT, copies=1533),
           poly(ZEROS3, OPAQUE_CULL_NONE | ZERO_DOT, copies=3),
           poly([(108, 0), (140, -32), (172, 0), (140, 32)])]),
    S("prt084_vtx_limit_over", 84, LIMIT, "This should not render due to it just barely "
      "overflowing the limit", OFFSCREEN,
      ext=[poly(ZEROS4, OPAQUE_CULL_NONE | ZERO_DOT, copies=1533),
           poly(ZEROS3, OPAQUE_CULL_NONE | ZERO_DOT, copies=4),
           poly([(108, 0), (140, -32), (172, 0), (140, 32)])]),
    S("prt085_timing_band", 85, LIMIT, "It appears that you can only render so much in one "
      "scanline before the rasterizer gives up on it. / Look at this", BG,
      ext=[poly([(-80, -5), (-80, 5), (80, 5), (80, -5)], cols=[YELLOW] * 4, copies=94)]),
    S("prt086_timing_next_line", 86, LIMIT, "Here we have the scanline *after* the polygon spam "
      "being partially aborted, doesn't seem to care about polygon size, just num of polys?", BG,
      ext=[poly([(-80, -5), (-80, 5), (0, 5), (0, -5)], cols=[YELLOW] * 4, copies=501)]),
    S("prt087_timing_mid_line", 87, LIMIT, "Parial Line, Mid Scanline", BG,
      ext=[poly([(-124, -5), (-124, 5), (-100, 5), (-100, -5)], cols=[YELLOW] * 4, copies=448)]),
    S("prt088_timing_triangle", 88, LIMIT, "Here it is with a triangle",
      [(97, -25), (72, 25), (122, 25)],
      ext=[poly([(-124, -5), (-124, 5), (-100, 5), (-100, -5)], cols=[YELLOW] * 4, copies=2048)]),
    S("prt090_timing_bg_first", 90, LIMIT, "If we render the bg first, it does not fail to render.",
      [(x, y, -1) for x, y in [(-256, -256), (-256, 4), (256, 4), (256, -256)]],
      ext=[poly([(-80, -5), (-80, 5), (80, 5), (80, -5)], cols=[YELLOW] * 4, copies=94)]),
]


CURSE = "The Curse of Edge Marking"
OUTLINE, BLEND = 1 << 5, 1 << 3
R4, B4 = [RED] * 4, [BLUE] * 4

# "The Curse of Edge Marking" as the v1.0.2 release's tests.h has it (Version "1.0.2",
# DataVersion 2: the tests its data file, recorded on a console, holds): scenes #037-#043 of
# the release (the 77-scene numbering; 108194ec's tests.h replaced them with the 21 scenes
# below). Each draws the white test polygon (z 0) and then the red polygon of the release's
# ExtendedTests entry (z -16/4096) without setting POLYGON_ATTR again, so both have the test's
# polygon ID (1 in #037, 0 in the others; dingbat docs, "Overlapping edges with edge marking"
# (round 7), which decoded the console recording); EDGE_COLOR 0 green, edge marking on.
REL_EXT = {  # the release's ExtendedTests 1..6 (z -16)
    1: [(-32, -30, -16), (-32, -32, -16), (32, 16, -16), (32, 18, -16)],
    2: [(-32, 30, -16), (-32, 32, -16), (32, -16, -16), (32, -18, -16)],
    3: [(32, 30, -16), (32, 32, -16), (-32, -16, -16), (-32, -18, -16)],
    4: [(-31, -30, -16), (-31, -32, -16), (33, 32, -16), (33, 34, -16)],
    5: [(32, -30, -16), (32, -32, -16), (-32, 16, -16), (-32, 18, -16)],
    6: [(-32, -34, -16), (32, -32, -16), (32, 32, -16), (-32, 34, -16)],
}
REL_CURSE = [  # (name, release index, the ROM's comment, test polygon, POLYGON_ATTR, ext)
    ("prt037_curse_overlap", 37, "Edge Marking + overlapping edges - I-- what?",
     [(-32, -32), (32, -32), (32, 16)], OPAQUE_CULL_NONE | (1 << 24), 1),
    ("prt038_curse_mirrored", 38, "Mirrored horizontally? - ",
     [(32, -32), (-32, -32), (-32, 16)], OPAQUE_CULL_NONE, 5),
    ("prt039_curse_swapped", 39, "oook, what if the fill rules are swapped? - No",
     [(-32, 32), (32, 32), (32, -16)], OPAQUE_CULL_NONE, 2),
    ("prt040_curse_both_fill", 40, "what if they're both supposed to fill? - No",
     [(-32, 32), (32, 32), (32, -16)], OPAQUE_CULL_NONE, 3),
    ("prt041_curse_neither", 41, "what about neither? - No",
     [(-32, -32), (32, -32), (32, 16)], OPAQUE_CULL_NONE, 4),
    ("prt042_curse_bottom", 42, "Bottom? - Yes",
     [(-32, -32), (32, -32), (32, -64), (-32, -64)], OPAQUE_CULL_NONE, 6),
    ("prt043_curse_top", 43, "Top? - No...?",
     [(-32, 32), (32, 32), (32, 64), (-32, 64)], OPAQUE_CULL_NONE, 6),
]
SCENES += [S(name, idx, CURSE, comment, verts, disp=OUTLINE, attr=attr, edge0=(0, 31, 0),
             ext=[poly(REL_EXT[e], attr=None, cols=R4)])
           for name, idx, comment, verts, attr, e in REL_CURSE]

# 108194ec's "The Curse of Edge Marking" (tests.h #037-#057 there): NOT in golden/hw, because
# what the console draws is known only from the ROM's comments (nothing recorded them).
# `gen_hw.py --pending DIR` writes them to DIR (as head037...) for whoever records them.
BACK = poly([(34, -34, -32), (34, 34, -32), (-34, 34, -32), (-34, -34, -32)], cols=B4)
EXT = {  # tests.h ExtendedTests 1..16 (the red polygon; each is followed by BACK)
    1: [(32, -32, -16), (32, 32, -16), (-32, 32, -16)],
    2: [(-1, -32, -16), (-1, 32, -16), (32, 32, -16), (32, -32, -16)],
    3: [(32, 0), (-32, 0), (32, -32)],
    4: [(-32, 32, -16), (-32, -1, -16), (32, -1, -16), (32, 32, -16)],
    6: [(-32, 32, -16), (-32, -1, -16), (32, -1, -16), (32, 32, -16)],
    7: [(-32, 32, -16), (-32, 2, -16), (32, 0, -16), (32, 32, -16)],
    8: [(-32, -1, -16), (-32, 1, -16), (32, -1, -16)],
    9: [(-32, 0, -16), (-32, -2, -16), (32, 0, -16)],
    10: [(-1, -32, -16), (-1, 32, -16), (32, 32, -16), (32, -32, -16)],
    11: [(2, -32, -16), (0, 32, -16), (32, 32, -16), (32, -32, -16)],
    12: [(-1, -32, -16), (-1, 32, -16), (1, 32, -16)],
    13: [(2, -32, -16), (0, 32, -16), (2, 32, -16)],
    15: [(-32, -1, -16), (32, -1, -16), (32, -1, -16), (-32, -1, -16)],
    16: [(-1, -32, -16), (-1, -32, -16), (-1, 32, -16), (-1, 32, -16)],
}
EXT[5] = EXT[1]


def ext(n):
    if n == 14:
        return [poly([(-32, 0, -8), (32, 0, -8), (32, 32, -8), (-32, 32, -8)], cols=R4),
                poly([(-32, -1, -16), (32, -1, -16), (32, 32, -16), (-32, 32, -16)],
                     attr=OPAQUE_CULL_NONE | (1 << 24), cols=B4)]
    return [poly(EXT[n], cols=R4), BACK]


TRI_R = [(32, -32), (-32, -32), (-32, 32)]
PENDING = [  # (name, index, comment, main polygon, DISP3DCNT, extended test or 0)
    ("head037", 37, "I hate fill rules now", poly(TRI_R), OUTLINE, 1),
    ("head038", 38, "Does not apply when poly ids are different",
     poly(TRI_R, attr=OPAQUE_CULL_NONE | (1 << 24)), OUTLINE, 1),
    ("head039", 39, "What about translucency? - no", poly(TRI_R, attr=(30 << 16) | (3 << 6)),
     OUTLINE | BLEND, 1),
    ("head040", 40, "Wireframe? - yes, for some reason?", poly(TRI_R, attr=3 << 6), OUTLINE, 5),
    ("head041", 41, "How about when over the Rear Plane? - no, but that makes sense",
     poly(TRI_R, attr=OPAQUE_CULL_NONE | (63 << 24)), OUTLINE, 0),
    ("head042", 42, "also applies to verticals babyy",
     poly([(-32, -32), (-32, 32), (0, 32), (0, -32)]), OUTLINE, 2),
    ("head043", 43, "bottom xmajor", poly([(-32, -32), (-32, 0), (32, -32)]), OUTLINE, 3),
    ("head044", 44, "bottom flat", poly([(-32, -32), (-32, 0), (32, 0), (32, -32)]), OUTLINE, 4),
    ("head045", 45, "note that it's specifically the center of the polygon, and not the slopes "
     "that this applies to in this case.", poly([(-32, -32), (-28, 0), (28, 0), (32, -32)]),
     OUTLINE, 4),
    ("head046", 46, "the rules dont seem to combine, though (weird phrasing i know)",
     poly([(-32, -32), (-32, 32), (0, 32), (0, -32)]), OUTLINE, 4),
    ("head047", 47, "Anyway now for some weird stuff:", poly([(-32, -2), (-32, 0), (32, 0)]),
     OUTLINE, 6),
    ("head048", 48, "", poly([(-32, 2), (-32, 0), (32, 0)]), OUTLINE, 7),
    ("head049", 49, "", poly([(-32, -32), (-32, 0), (32, 0), (32, -32)]), OUTLINE, 8),
    ("head050", 50, "", poly([(-32, -32), (-32, -2), (32, 0), (32, -32)]), OUTLINE, 9),
    ("head051", 51, "", poly([(-2, -32), (0, -32), (0, 32)]), OUTLINE, 10),
    ("head052", 52, "", poly([(0, -32), (2, -32), (0, 32)]), OUTLINE, 11),
    ("head053", 53, "", poly([(-32, -32), (0, -32), (0, 32), (-32, 32)]), OUTLINE, 12),
    ("head054", 54, "", poly([(-32, -32), (2, -32), (0, 32), (-32, 32)]), OUTLINE, 13),
    ("head055", 55, "does not apply if the edge becomes properly edge marked",
     poly([(-32, -32), (32, -32), (32, 0), (-32, 0)]), OUTLINE, 14),
    ("head056", 56, "line polygons (horizontal)",
     poly([(-32, -32), (-32, 0), (32, 0), (32, -32)]), OUTLINE, 15),
    ("head057", 57, "line poly (vert)", poly([(-32, -32), (-32, 32), (0, 32), (0, -32)]),
     OUTLINE, 16),
]


def submit(t, pd):
    """One TestData polygon (with its copies) the way drawPoly() submits it."""
    verts = pd["verts"]
    begun = False
    for _ in range(pd["copies"]):
        if pd["attr"] is not None:
            t.cmd(0x29, [pd["attr"]], ": %08X (glPolyFmt)" % pd["attr"])
        if pd["strip"] and begun:
            vs = verts[-1:] if len(verts) == 3 else verts[-2:]
        else:
            t.begin((3 if len(verts) == 4 else 2) if pd["strip"] else (1 if len(verts) == 4 else 0))
            begun = True
            vs = verts
        for i, v in enumerate(vs):
            t.cmd(0x20, [pd["cols"][i]], "colour %04X" % pd["cols"][i])
            x, y, z = (tuple(v) + (0,))[:3]
            t.v16(x / 4096, y / 4096, z / 4096)


def build(t, main, disp, ext, edge0=(31, 31, 31)):
    t.prologue(disp, clear=(0, 0, 0), clear_alpha=31, clear_id=63)
    # the ROM draws with 3D long powered on: an empty frame first, so that the scene is not the
    # first frame after power-on (dsgx does not time that one: raster/README.md)
    t.swap()
    t.frame("warm-up (empty)")
    t.edge_colors([edge0] + [(0, 0, 0)] * 7)
    t.viewport(0, 0, 255, 191)
    t.mtx_mode(0)
    t.load44([[PROJ[4 * i + j] / 4096 for j in range(4)] for i in range(4)],
             "polyrastertest TestData.Projection")
    t.mtx_mode(2)
    t.identity()
    submit(t, main)
    for pd in ext:
        submit(t, pd)
    t.swap()
    t.frame()


def write_pending(out):
    os.makedirs(out, exist_ok=True)
    for name, idx, comment, main, disp, n in PENDING:
        t = Trace(["%s: polyrastertest tests.h at 108194ec, test #%03d (%s): \"%s\"" % (name, idx, CURSE,
                                                                                 comment),
                   "NOT verified: the console's pixels are not known here (golden/hw/README.md)"])
        build(t, main, disp, ext(n) if n else [], edge0=(0, 31, 0))
        t.save(os.path.join(out, name + ".trace"))
    print("%d pending scenes in %s" % (len(PENDING), out))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--pending":
        write_pending(sys.argv[2])
        return
    out = os.path.normpath(os.path.join(HERE, ".."))
    man = os.path.join(out, "manifest.tsv")
    old = {}
    if os.path.exists(man):
        lines = open(man).read().splitlines()
        hdr = lines[0].split("\t")
        for l in lines[1:]:
            c = dict(zip(hdr, l.split("\t")))
            old[(c.get("name"), c.get("frame"))] = c
    rows = []
    for name, idx, cat, comment, main, disp, ext, edge0 in SCENES:
        vl = " ".join("(%s)" % ",".join(str(c) for c in v) for v in main["verts"])
        rel = " (the release's tests.h)" if cat == CURSE else ""
        t = Trace(["%s: polyrastertest v1.0.2-b test #%03d%s (%s): \"%s\"" % (name, idx, rel, cat,
                                                                             comment),
                   "main polygon vertices (VTX_16 raw): %s%s" % (vl, "; plus %d extended polygon "
                   "set(s) (tests.h ExtendedTests)" % len(ext) if ext else "")])
        build(t, main, disp, ext, edge0)
        path = os.path.join(out, name + ".trace")
        t.save(path)
        if os.path.getsize(path) > 200000:  # big traces: drop the per-line comments
            lines = open(path).read().splitlines()
            keep = [l if l.startswith("#") else l.split("#")[0].rstrip() for l in lines]
            open(path, "w").write("\n".join(l for l in keep if l) + "\n")
        for f, what in (("000", "warm-up frame (empty)"), ("001", comment)):
            prev = old.get((name, f), {})
            rows.append([name, f, prev.get("xxh3", ""), "%03d" % idx, cat, what])
    with open(man, "w") as fh:
        fh.write("name\tframe\txxh3\tprt_test\tcategory\trom_comment\n")
        for r in rows:
            fh.write("\t".join(r) + "\n")
    print("%d scenes" % len(rows))


if __name__ == "__main__":
    main()
