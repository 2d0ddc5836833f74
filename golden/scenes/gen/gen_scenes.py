#!/usr/bin/env python3
"""gen_scenes.py - generates dsgx's own golden scenes (golden/scenes/*.trace) and the rows of
golden/scenes/manifest.tsv (name, frame, xxh3, features, description). Existing xxh3 cells are
kept; new scenes get an empty xxh3 until `dsgx golden update golden/scenes` baselines them
(after someone has looked at the PNG). Uses tracelib.py from golden/ref/gen.

    python3 golden/scenes/gen/gen_scenes.py            # writes golden/scenes/
"""
import math, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "ref", "gen"))
from tracelib import *  # noqa: E402,F401

SCENES = []  # (name, features, description, builder)
def scene(name, features, desc):
    def reg(fn):
        SCENES.append((name, features, desc, fn)); return fn
    return reg

def setup(t, disp=0, clear=(2, 2, 6), persp=False, **kw):
    t.prologue(disp, clear=clear, **kw)
    t.viewport(0, 0, 255, 191)
    t.ident_all(m_persp(55, 256 / 192, 0.5, 30) if persp else None)

def tri(t, a, b, c, cols):
    t.begin(0)
    for p, col in zip((a, b, c), cols): t.color(*col); t.v16(*p)
    t.end()

def finish(t): t.swap(); t.frame()

# ---------------- primitives, culling, vertex formats ----------------
for _p, _n in enumerate(["triangles", "quads", "tri_strip", "quad_strip"]):
    def _b(t, p=_p):
        setup(t); t.poly_attr()
        t.begin(p)
        n = [6, 8, 8, 8][p]
        for i in range(n):
            x = -0.8 + 1.6 * (i // 2) / (n // 2 - 1 if n > 2 else 1)
            y = 0.5 if i % 2 == 0 else -0.5
            if p == 0: x = -0.8 + 0.3 * i; y = [0.5, -0.5, 0.5][i % 3]
            if p == 1:
                q, k = divmod(i, 4); x0 = -0.9 + q * 0.95
                x, y = [(x0, 0.5), (x0, -0.5), (x0 + 0.8, -0.5), (x0 + 0.8, 0.5)][k]
            t.color(31 * (i % 3 == 0), 31 * (i % 3 == 1), 31 * (i % 3 == 2)); t.v16(x, y)
        t.end(); finish(t)
    scene("prim_" + _n, "begin_vtxs,%s,gouraud" % _n.replace("_", "-"),
          "BEGIN_VTXS %d (%s) with per-vertex RGB colours across the screen." % (_p, _n))(_b)

for _name, _front, _back in (("cull_back", True, False), ("cull_front", False, True), ("cull_none", True, True)):
    def _b(t, f=_front, bk=_back):
        setup(t); t.poly_attr(front=f, back=bk)
        tri(t, (-0.9, 0.6, 0), (-0.9, -0.6, 0), (-0.1, 0, 0), [(31, 8, 8)] * 3)   # CCW: front
        tri(t, (0.1, 0, 0), (0.9, 0.6, 0), (0.9, -0.6, 0), [(8, 8, 31)] * 3)      # CW: back
        finish(t)
    scene(_name, "culling,winding,polygon-attr-bits6-7",
          "A front-facing (left, red) and a back-facing (right, blue) triangle with render front=%d back=%d." % (_front, _back))(_b)

for _fmt in ("v16", "v10", "vxy", "vxz", "vyz", "vdiff"):
    def _b(t, f=_fmt):
        setup(t, persp=True); t.trans(0, 0, -2.5); t.mult33(m_rot('x', 25)); t.poly_attr()
        t.begin(1); t.color(31, 20, 4)
        pts = [(-0.7, 0.5, 0.3), (-0.7, -0.5, 0.3), (0.7, -0.5, -0.3), (0.7, 0.5, -0.3)]
        prev = None
        for p in pts:
            if f == "v10" or prev is None and f != "v16": t.v10(*p) if f == "v10" else t.v16(*p)
            elif f == "v16": t.v16(*p)
            elif f == "vxy": t.vxy(p[0], p[1]) if p[2] == prev[2] else t.v16(*p)
            elif f == "vxz": t.vxz(p[0], p[2]) if p[1] == prev[1] else t.v16(*p)
            elif f == "vyz": t.vyz(p[1], p[2]) if p[0] == prev[0] else t.v16(*p)
            elif f == "vdiff": t.vdiff(p[0] - prev[0], p[1] - prev[1], p[2] - prev[2]) if all(abs(p[i] - prev[i]) < 0.12 or True for i in range(3)) and max(abs(p[i] - prev[i]) for i in range(3)) < 0.124 else t.v16(*p)
            prev = p
        t.end()
        # a strip of small steps where VTX_DIFF applies
        t.color(4, 24, 31); t.begin(2); x, y = -0.9, -0.9; t.v16(x, y, 0)
        for i in range(14):
            dx, dy = 0.1, (0.1 if i % 2 == 0 else -0.1)
            if f == "vdiff": t.vdiff(dx, dy, 0)
            else: t.v16(x + dx, y + dy, 0)
            x, y = x + dx, y + dy
        t.end(); finish(t)
    scene("vtx_" + _fmt, "vertex-format,%s" % _fmt,
          "A tilted perspective quad and a zig-zag strip submitted with %s where the format allows." % _fmt)(_b)

# ---------------- matrices ----------------
@scene("mtx_push_pop_tree", "mtx_push,mtx_pop,matrix-hierarchy,mtx_trans,mtx_scale",
       "A 3-level hierarchy of cubes built with MTX_PUSH/MTX_POP around TRANS/SCALE/ROT.")
def _(t):
    setup(t, persp=True); t.trans(0, -0.3, -4); t.mult33(m_mul(m_rot('y', 30), m_rot('x', 15))); t.poly_attr()
    def node(level):
        draw_cube(t, 0.35)
        if level == 0: return
        for dx in (-1, 1):
            t.push(); t.trans(dx * 0.9, 0.8, 0); t.scale(0.6, 0.6, 0.6); t.mult33(m_rot('z', 20 * dx)); node(level - 1); t.pop()
    node(2); finish(t)

@scene("mtx_store_restore", "mtx_store,mtx_restore,position-stack",
       "Five quads positioned from matrices saved with MTX_STORE at indices 0..4 and reloaded with MTX_RESTORE in reverse order.")
def _(t):
    setup(t); t.poly_attr()
    for i in range(5):
        t.identity(); t.trans(-0.8 + 0.4 * i, 0.3 * math.sin(i), 0); t.scale(0.15, 0.15 + 0.05 * i, 1); t.store(i)
    t.identity()
    for i in reversed(range(5)):
        t.restore(i); t.rect(-1, -1, 1, 1, 0, col=(6 * i + 7, 31 - 6 * i, 16))
    finish(t)

@scene("mtx_ortho_proj", "projection-matrix,orthographic,mtx_load_4x4",
       "An orthographic projection (MTX_LOAD_4X4) of a rotated cube: parallel edges stay parallel.")
def _(t):
    setup(t); t.mtx_mode(0); t.load44(m_ortho(-2, 2, -1.5, 1.5, 0.1, 10)); t.mtx_mode(2); t.identity()
    t.trans(0, 0, -4); t.mult33(m_mul(m_rot('y', 35), m_rot('x', 25))); t.poly_attr(); draw_cube(t, 0.9); finish(t)

@scene("mtx_mult43_scale_neg", "mtx_mult_4x3,mtx_scale,negative-scale,winding",
       "MTX_MULT_4X3 and a negative X scale mirror a cube (the winding flips, culling keeps the outside).")
def _(t):
    setup(t, persp=True); t.trans(0, 0, -4); t.poly_attr(back=False)
    t.push(); t.trans(-1.1, 0, 0); t.mult43(m_mul(m_rot('y', 30), m_rot('x', 20))); draw_cube(t, 0.6); t.pop()
    t.push(); t.trans(1.1, 0, 0); t.scale(-1, 1, 1); t.mult43(m_mul(m_rot('y', 30), m_rot('x', 20))); draw_cube(t, 0.6); t.pop()
    finish(t)

# ---------------- lighting ----------------
for _i in range(4):
    def _b(t, li=_i):
        setup(t, persp=True)
        dirs = [(-1, -1, -1), (1, -1, -1), (0, 1, -1), (0, 0, -1)]
        cols = [(31, 8, 8), (8, 31, 8), (8, 8, 31), (31, 31, 31)]
        t.light_vec(li, *dirs[li]); t.light_col(li, cols[li])
        t.dif_amb((28, 28, 28), (4, 4, 4)); t.spe_emi((0, 0, 0), (0, 0, 0))
        t.trans(0, 0, -3.2); t.poly_attr(lights=1 << li); draw_sphere(t, 1.1, 20, 12); finish(t)
    scene("light_single_%d" % _i, "lighting,light-%d,diffuse,ambient" % _i,
          "A sphere lit by light %d alone (diffuse + ambient)." % _i)(_b)

@scene("light_specular_table", "lighting,specular,shininess-table,spe_emi-table-bit",
       "Specular highlight through a squared shininess table (SPE_EMI bit 15) on a sphere.")
def _(t):
    setup(t, persp=True); t.light_vec(0, -0.5, -0.5, -1); t.light_col(0, (31, 31, 31))
    t.shininess([min(255, (i * i) // 64) for i in range(128)])
    t.dif_amb((16, 4, 4), (3, 1, 1)); t.spe_emi((31, 31, 31), (0, 0, 0), table=True)
    t.trans(0, 0, -3); t.poly_attr(lights=1); draw_sphere(t, 1.1, 20, 12); finish(t)

@scene("light_emission_only", "lighting,emission,no-lights-enabled",
       "Polygons with lighting enabled through DIF_AMB/SPE_EMI but no light bits: only emission shows.")
def _(t):
    setup(t, persp=True); t.dif_amb((31, 31, 31), (10, 10, 10)); t.spe_emi((0, 0, 0), (6, 14, 24))
    t.trans(0, 0, -3); t.normal(0, 0, 1); t.poly_attr(lights=0); draw_sphere(t, 1.0); finish(t)

# ---------------- polygon modes, toon, highlight, shadow ----------------
for _mode, _nm in ((0, "modulate"), (1, "decal"), (2, "toon"), (3, "highlight")):
    def _b(t, mode=_mode, nm=_nm):
        disp = 1 | (2 if nm == "highlight" else 0)
        setup(t, disp=disp); load_std_texture(t); t.toon_table(TOON_RAMP)
        t.teximage(0, 32, 32, 3); t.pltt_base(0)
        t.poly_attr(mode=min(mode, 2))
        t.begin(1); t.quad([(-0.8, 0.7, 0), (-0.8, -0.7, 0), (0.8, -0.7, 0), (0.8, 0.7, 0)],
                           [(31, 4, 4), (4, 31, 4), (4, 4, 31), (31, 31, 4)], [(0, 0), (0, 32), (32, 32), (32, 0)]); t.end()
        finish(t)
    scene("polymode_" + _nm, "polygon-mode,%s,texture,vertex-colour" % _nm,
          "A textured quad with per-corner colours in polygon mode %s." % _nm)(_b)

@scene("shadow_volume_box", "shadow-polygons,shadow-mask-id0,polygon-mode-3,stencil",
       "A shadow volume (box) over a floor: mask pass with ID 0, then the shadow with ID 5 darkens the floor inside it.")
def _(t):
    setup(t, disp=8, persp=True); t.trans(0, -0.5, -3.5); t.mult33(m_rot('x', 35))
    t.poly_attr(pid=1); t.begin(1); t.color(20, 26, 20)
    t.quad([(-2, 0, -2), (-2, 0, 2), (2, 0, 2), (2, 0, -2)]); t.end()
    def box():
        t.push(); t.trans(0.2, 0, 0.1); t.scale(0.8, 1.2, 0.8); draw_cube(t, 0.5, cols=[(0, 0, 0)]); t.pop()
    t.poly_attr(mode=3, back=True, front=False, alpha=16, pid=0); box()
    t.poly_attr(mode=3, back=False, front=True, alpha=16, pid=5); box()
    finish(t)

# ---------------- textures ----------------
def tex_quad(t, w, h, fmt, s1=None, t1=None, **kw):
    t.teximage(0, w, h, fmt, **kw)
    s1 = w if s1 is None else s1; t1 = h if t1 is None else t1
    t.begin(1); t.color(31, 31, 31)
    t.quad([(-0.9, 0.9, 0), (-0.9, -0.9, 0), (0.9, -0.9, 0), (0.9, 0.9, 0)], None, [(0, 0), (0, t1), (s1, t1), (s1, 0)]); t.end()

def grad_pix(w, h, n):
    return [[((x * n) // w + (y * n) // h) % n for x in range(w)] for y in range(h)]

for _fmt, _bpp, _nm in ((2, 2, "4colour"), (3, 4, "16colour"), (4, 8, "256colour")):
    def _b(t, fmt=_fmt, bpp=_bpp):
        setup(t, disp=1); n = 1 << bpp
        t.vram_lcdc('A'); t.vram_lcdc('E')
        t.tex_data(0, enc_bits(grad_pix(32, 32, n), bpp), "gradient indices")
        t.pal_data(0, [rgb((i * 31) // max(1, n - 1), (i * 7) % 32, 31 - (i * 31) // max(1, n - 1)) for i in range(n)], "palette")
        t.vram_tex('A', 0); t.vram_pal(); t.pltt_base(0, fmt); t.poly_attr(); tex_quad(t, 32, 32, fmt); finish(t)
    scene("tex_" + _nm, "texture,tex-format-%d,%s,palette" % (_fmt, _nm),
          "A 32x32 %s texture of diagonal index bands over the whole palette." % _nm)(_b)

@scene("tex_a3i5_fade", "texture,tex-format-1,a3i5,texture-alpha,blending",
       "A3I5 texture whose alpha ramps left to right over a striped background.")
def _(t):
    setup(t, disp=1 | 8); bg_stripes(t)
    t.vram_lcdc('A'); t.vram_lcdc('E')
    t.tex_data(0, bytes([((x * 8) // 32) << 5 | (y % 32) for y in range(32) for x in range(32)]), "A3I5")
    t.pal_data(0, [rgb(i, 31 - i, 16) for i in range(32)], "32 colours"); t.vram_tex('A', 0); t.vram_pal()
    t.pltt_base(0, 1); t.poly_attr(pid=3); tex_quad(t, 32, 32, 1); finish(t)

@scene("tex_direct_colour", "texture,tex-format-7,direct-colour,texture-alpha-bit15",
       "A 64x64 direct-colour texture (RGB gradient) with a transparent (bit 15 clear) checker hole pattern.")
def _(t):
    setup(t, disp=1, clear=(10, 2, 2))
    t.vram_lcdc('A')
    pix = [[(rgb(x // 2, y // 2, 31 - x // 2) | (0 if ((x // 8 + y // 8) % 5 == 0) else 0x8000)) for x in range(64)] for y in range(64)]
    t.tex_data(0, enc_16(pix), "direct colour"); t.vram_tex('A', 0); t.poly_attr(); tex_quad(t, 64, 64, 7); finish(t)

for _nm, _kw in (("repeat", dict(rs=True, rt=True)), ("flip", dict(rs=True, rt=True, fs=True, ft=True)),
                 ("clamp", dict(rs=False, rt=False)), ("repeat_s_clamp_t", dict(rs=True, rt=False))):
    def _b(t, kw=_kw):
        setup(t, disp=1); load_std_texture(t); t.pltt_base(0); t.poly_attr(); tex_quad(t, 32, 32, 3, s1=96, t1=96, **kw); finish(t)
    scene("texwrap_" + _nm, "texture,texture-wrap,%s" % _nm.replace("_", "-"),
          "The standard texture over texcoords 0..96 (3x) with wrap mode %s." % _nm)(_b)

@scene("tex_colour0_transparent", "texture,colour0-transparent,teximage-bit29",
       "The 16-colour standard texture with TEXIMAGE_PARAM bit 29: palette index 0 (cell borders) becomes transparent.")
def _(t):
    setup(t, disp=1, clear=(31, 16, 0)); load_std_texture(t); t.pltt_base(0); t.poly_attr(); tex_quad(t, 32, 32, 3, c0=True); finish(t)

for _g in (1,):  # modes 2 and 3: own scenes below (spheres need an emission/lit colour, see README)
    def _b(t, g=_g):
        setup(t, disp=1, persp=True); load_std_texture(t); t.pltt_base(0)
        t.mtx_mode(3); t.identity(); t.scale(1.0 if g == 1 else 16, 1.0 if g == 1 else 16, 1.0 if g == 1 else 16)
        if g == 1: t.trans(8, 4, 0)
        t.mtx_mode(2); t.trans(0, 0, -3); t.mult33(m_mul(m_rot('y', 30), m_rot('x', 20)))
        t.poly_attr(); t.teximage(0, 32, 32, 3, gen=g)
        if g == 1: draw_cube(t, 0.8, cols=[(31, 31, 31)], tex=(32, 32))
        else: t.texcoord(16, 16); draw_sphere(t, 1.0, 16, 10, col=(31, 31, 31))
        finish(t)
    scene("texgen_mode%d" % _g, "texgen,texture-matrix,mtx_mode_3,texgen-mode-%d" % _g,
          "Texture coordinate generation mode %d (1 texcoord, 2 normal, 3 vertex) through a scaled texture matrix." % _g)(_b)

# Texgen modes 2 and 3. Every NORMAL recomputes the vertex colour from the lights enabled in POLYGON_ATTR,
# starting from the SPE_EMI emission colour, and overwrites COLOR (melonDS GPU3D.cpp CalculateLighting /
# LightVertex; GBATEK "DS 3D Polygon Light Parameters"): with no lights and emission 0 a sphere sent with
# NORMALs is black whatever COLOR said, so these scenes use a white emission or a real light.
# Texcoords: mode 2 s,t = TEXCOORD + (normal 1.0.9 * texture matrix) >> 21 (1.0 normal x scale k -> k/16 texels),
# mode 3 s,t = TEXCOORD + (vertex 1.3.12 * texture matrix) >> 24 (1.0 vertex x scale k -> k/16 texels).
@scene("texgen_mode2", "texgen,texture-matrix,mtx_mode_3,texgen-mode-2,texgen-normal,env-mapping,lighting",
       "Texgen mode 2 (normal source, sphere/env map) on two spheres, texture matrix scale 256 (y negated) so s,t = 16 + 16*normal: "
       "left unlit with white emission (rotated Y 30, texture follows the object normals), right lit by light 0 with the texture "
       "matrix also rotated Z 45.")
def _(t):
    setup(t, disp=1, clear=(3, 3, 8), persp=True); load_std_texture(t); t.pltt_base(0)
    t.mtx_mode(3); t.identity(); t.scale(256, -256, 256); t.mtx_mode(2)
    t.teximage(0, 32, 32, 3, gen=2); t.texcoord(16, 16)
    t.c("left: no lights, white emission -> every NORMAL sets the vertex colour to white")
    t.spe_emi((0, 0, 0), (31, 31, 31)); t.poly_attr(back=False)
    t.push(); t.trans(-0.85, 0, -3); t.mult33(m_rot('y', 30)); draw_sphere(t, 0.72, 16, 10, col=(31, 31, 31)); t.pop()
    t.c("right: light 0, no emission; texture matrix = rotZ45 * scale")
    t.mtx_mode(3); t.mult33(m_rot('z', 45)); t.mtx_mode(2)
    t.light_vec(0, -1, -1, -1); t.light_col(0, (31, 31, 31)); t.dif_amb((31, 31, 31), (6, 6, 6)); t.spe_emi((0, 0, 0), (0, 0, 0))
    t.poly_attr(lights=1, back=False)
    t.push(); t.trans(0.85, 0, -3); draw_sphere(t, 0.72, 16, 10, col=(31, 31, 31)); t.pop()
    finish(t)

@scene("texgen_mode3", "texgen,texture-matrix,mtx_mode_3,texgen-mode-3,texgen-vertex,planar-projection",
       "Texgen mode 3 (vertex source): left a cube rotated (Y 35, X 25) with texture matrix scale 600 (planar projection along "
       "object z, continuous across faces); right a sphere (white emission) rotated Y 40 with texture matrix rotZ 30 * scale 360.")
def _(t):
    setup(t, disp=1, clear=(3, 3, 8), persp=True); load_std_texture(t); t.pltt_base(0)
    t.mtx_mode(3); t.identity(); t.scale(600, -600, 600); t.mtx_mode(2)
    t.teximage(0, 32, 32, 3, gen=3); t.texcoord(16, 16); t.poly_attr(back=False)
    t.push(); t.trans(-0.85, 0, -3); t.mult33(m_mul(m_rot('y', 35), m_rot('x', 25))); draw_cube(t, 0.45, cols=[(31, 31, 31)]); t.pop()
    t.mtx_mode(3); t.identity(); t.scale(360, -360, 360); t.mult33(m_rot('z', 30)); t.mtx_mode(2)
    t.c("sphere: NORMALs with no lights -> vertex colour = emission: make it white")
    t.spe_emi((0, 0, 0), (31, 31, 31))
    t.push(); t.trans(0.85, 0, -3); t.mult33(m_rot('y', 40)); draw_sphere(t, 0.7, 16, 10, col=(31, 31, 31)); t.pop()
    finish(t)

# ---------------- translucency, alpha, depth ----------------
for _a in (4, 12, 20, 28):
    def _b(t, a=_a):
        setup(t, disp=8); bg_stripes(t)
        t.poly_attr(alpha=a, pid=5); t.begin(1); t.color(31, 24, 0)
        t.quad([(-0.6, 0.6, 0), (-0.6, -0.6, 0), (0.6, -0.6, 0), (0.6, 0.6, 0)]); t.end(); finish(t)
    scene("alpha_%02d" % _a, "translucent,polygon-alpha,alpha-blending",
          "One quad of polygon alpha %d blended over opaque stripes." % _a)(_b)

@scene("alpha_test_ref", "alpha-test,alpha_test_ref,disp3dcnt-bit2",
       "Quads of alpha 2..30 in steps of 4 with ALPHA_TEST_REF 16: those at or below 16 disappear.")
def _(t):
    setup(t, disp=8 | 4); bg_stripes(t); t.alpha_test_ref(16)
    for i, a in enumerate(range(2, 31, 4)):
        t.poly_attr(alpha=a, pid=10 + i); t.rect(-0.95 + i * 0.24, -0.5, -0.75 + i * 0.24, 0.5, 0, col=(31, 31, 0))
    finish(t)

@scene("translucent_overlap_ids", "translucent,translucent-polygon-id,same-id-no-overdraw",
       "Three overlapping translucent quads: two share ID 7 (no blend where they overlap), one has ID 8.")
def _(t):
    setup(t, disp=8); bg_stripes(t)
    for i, (pid, col) in enumerate(((7, (31, 0, 0)), (7, (0, 31, 0)), (8, (0, 0, 31)))):
        t.poly_attr(alpha=16, pid=pid); x = -0.7 + i * 0.35; t.rect(x, -0.4 + i * 0.15, x + 0.7, 0.5 + i * 0.15, -0.1 * i, col=col)
    finish(t)

@scene("depth_interpenetrate", "depth-test,z-buffer,intersecting-polygons,perspective",
       "Two quads intersecting along a line in perspective: the depth test cuts them along it.")
def _(t):
    setup(t, persp=True); t.trans(0, 0, -3); t.poly_attr()
    t.begin(1); t.color(31, 8, 8); t.quad([(-1, 0.8, -0.8), (-1, -0.8, -0.8), (1, -0.8, 0.8), (1, 0.8, 0.8)])
    t.color(8, 8, 31); t.quad([(-1, 0.6, 0.8), (-1, -0.6, 0.8), (1, -0.6, -0.8), (1, 0.6, -0.8)]); t.end(); finish(t)

for _w in (False, True):
    def _b(t, w=_w):
        setup(t, persp=True); t.mtx_mode(0); t.load44(m_persp(55, 256 / 192, 0.2, 60)); t.mtx_mode(2); t.identity(); t.scale(4, 4, 4); t.poly_attr()
        for k in range(6):
            z = -1 - k * 2.5; t.begin(1); t.color(31 - 5 * k, 5 * k, 16)
            z = -2 - k * 3.0; x = -2.4 + k * 0.9
            t.quad([(c[0] / 4, c[1] / 4, c[2] / 4) for c in ((x, 1.2, z), (x, -1.2, z - 3), (x + 2.2, -1.2, z - 3), (x + 2.2, 1.2, z))]); t.end()
        t.swap(wbuf=w); t.frame()
    scene("depth_%sbuffer_stack" % ("w" if _w else "z"), "depth-buffer,%s-buffer,swap_buffers-bit1,perspective" % ("w" if _w else "z"),
          "Six slanted overlapping quads receding to far depth, %s-buffered." % ("W" if _w else "Z"))(_b)

@scene("depth_equal_decal", "depth-test-equal,polygon-attr-bit14,decal-overlay",
       "A coplanar overlay drawn with depth test EQUAL on top of a perspective floor.")
def _(t):
    setup(t, persp=True); t.trans(0, -0.6, -3); t.mult33(m_rot('x', 40)); t.poly_attr()
    t.begin(1); t.color(10, 20, 10); t.quad([(-1.5, 0, -1.5), (-1.5, 0, 1.5), (1.5, 0, 1.5), (1.5, 0, -1.5)]); t.end()
    t.poly_attr(deq=True, pid=2); t.begin(1); t.color(31, 31, 8); t.quad([(-0.5, 0, -1.5), (-0.5, 0, 1.5), (0.5, 0, 1.5), (0.5, 0, -1.5)]); t.end()
    finish(t)

# ---------------- clipping, viewport, dots, lines ----------------
@scene("clip_near_tunnel", "near-plane-clip,side-clip,perspective,attribute-interpolation-after-clip",
       "A corridor of gouraud quads passing through the near plane and out of every side of the view.")
def _(t):
    setup(t, persp=True); t.poly_attr(front=True, back=True)
    for k in range(5):
        z0, z1 = 1 - k * 2.0, -1 - k * 2.0; c = [(31, 6 * k, 0), (0, 31, 6 * k), (6 * k, 0, 31)]
        for (a, b) in (((-1.5, -1), (1.5, -1)), ((1.5, -1), (1.5, 1)), ((1.5, 1), (-1.5, 1)), ((-1.5, 1), (-1.5, -1))):
            t.begin(1); t.color(*c[0]); t.v16(a[0] / 2, a[1] / 2, z0 / 8); t.color(*c[1]); t.v16(b[0] / 2, b[1] / 2, z0 / 8)
            t.color(*c[2]); t.v16(b[0] / 2, b[1] / 2, z1 / 8); t.color(*c[1]); t.v16(a[0] / 2, a[1] / 2, z1 / 8); t.end()
    finish(t)

@scene("clip_far_plane", "far-plane-clip,polygon-attr-bit12,far-plane-reject",
       "Two long quads crossing the far plane: bit 12 set clips (left), clear rejects the whole polygon (right).")
def _(t):
    setup(t); t.mtx_mode(0); t.load44(m_persp(55, 256 / 192, 0.5, 6)); t.mtx_mode(2); t.identity(); t.scale(2, 2, 2)
    for i, fc in enumerate((True, False)):
        t.poly_attr(far_clip=fc, pid=i); x = -1.2 + 1.4 * i
        t.begin(1); t.color(31, 20 * i, 31 - 20 * i); t.quad([(x / 2, 0.4, -1), (x / 2, -0.4, -1), ((x + 0.9) / 2, -0.4, -4.5), ((x + 0.9) / 2, 0.4, -4.5)]); t.end()
    finish(t)

for _nm, _vp in (("left_half", (0, 0, 127, 191)), ("corner", (160, 100, 255, 191)), ("tiny", (100, 80, 131, 103))):
    def _b(t, vp=_vp):
        setup(t); t.viewport(*vp); t.poly_attr()
        tri(t, (-1, 1, 0), (-1, -1, 0), (1, -1, 0), [(31, 0, 0), (0, 31, 0), (0, 0, 31)])
        t.begin(1); t.color(31, 31, 0); t.quad([(0.2, 0.9, 0), (0.2, 0.2, 0), (0.9, 0.2, 0), (0.9, 0.9, 0)]); t.end(); finish(t)
    scene("viewport_" + _nm, "viewport,viewport-transform", "A triangle and a quad in viewport %s." % (_vp,))(_b)

@scene("dot_depth_cutoff", "1-dot-polygons,disp_1dot_depth,polygon-attr-bit13",
       "Rows of 1-dot polygons at increasing depth with DISP_1DOT_DEPTH 4.0: far dots vanish unless bit 13.")
def _(t):
    setup(t, persp=True); t.dot_depth(4.0); f = 1 / math.tan(math.radians(55) / 2); t.scale(2, 2, 2)
    for row, bit in ((0, False), (1, True)):
        t.poly_attr(dot=bit, pid=row + 1); t.begin(0); t.color(31, 31, 31)
        for k in range(16):
            W = 1 + k * 0.5; px = 8 + k * 15; py = 64 + row * 64
            x = ((px + 0.5) / 128 - 1) * W * (256 / 192) / f; y = (1 - (py + 0.5) / 96) * W / f; e = 0.05 * W / 96 / f
            t.v16(x / 2, y / 2, -W / 2); t.v16((x + e) / 2, y / 2, -W / 2); t.v16(x / 2, (y + e) / 2, -W / 2)
        t.end()
    finish(t)

@scene("line_fan", "line-polygons,degenerate-triangles,edge-slopes",
       "A fan of zero-area triangles (lines) at 16 angles from the centre.")
def _(t):
    setup(t); t.poly_attr()
    t.begin(0)
    for k in range(16):
        a = 2 * math.pi * k / 16; x, y = 0.9 * math.cos(a), 0.9 * math.sin(a)
        t.color(31, 2 * k, 31 - 2 * k); t.v16(0, 0, 0); t.v16(x, y, 0); t.v16(x, y, 0)
    t.end(); finish(t)

@scene("wireframe_cube", "wireframe,polygon-alpha-0,perspective",
       "A rotated cube drawn with polygon alpha 0 (wireframe) over a solid one.")
def _(t):
    setup(t, persp=True); t.trans(0, 0, -3.5); t.mult33(m_mul(m_rot('y', 40), m_rot('x', 25)))
    t.poly_attr(back=False); draw_cube(t, 0.5)
    t.poly_attr(alpha=0, pid=3); t.scale(1.6, 1.6, 1.6); draw_cube(t, 0.5, cols=[(31, 31, 31)]); finish(t)

@scene("slope_sweep", "edge-slopes,x-major,y-major,rasterization",
       "Thin triangles at slopes from near-horizontal to near-vertical (edge-gap rule visible on X-major edges).")
def _(t):
    setup(t); t.poly_attr(); t.begin(0)
    for k in range(12):
        x0 = -0.95 + k * 0.16; h = 0.1 + k * 0.15
        t.color(31, 16, 2 * k); t.v16(x0, 0.9, 0); t.v16(x0, 0.9 - h, 0); t.v16(x0 + 0.14, 0.9 - h * 0.2, 0)
    t.end(); finish(t)

# ---------------- rendering-engine post passes ----------------
@scene("edge_marking_ids", "edge-marking,edge-color-table,polygon-id",
       "Overlapping quads with polygon IDs 0..7 (edge colours by ID>>3 groups), edge marking on.")
def _(t):
    setup(t, disp=0x20); t.edge_colors([(31, 0, 0), (0, 31, 0), (0, 0, 31), (31, 31, 0), (0, 31, 31), (31, 0, 31), (31, 31, 31), (16, 16, 16)])
    for i in range(8):
        t.poly_attr(pid=i * 8); x = -0.9 + i * 0.2; t.rect(x, -0.6 + 0.05 * i, x + 0.35, 0.6 - 0.05 * i, -0.05 * i, col=(10 + 2 * i, 10, 20 - 2 * i))
    finish(t)

@scene("antialias_star", "anti-aliasing,edge-coverage,disp3dcnt-bit4",
       "A rotated star of thin opaque triangles with anti-aliasing on.")
def _(t):
    setup(t, disp=0x10, clear=(2, 2, 8)); t.poly_attr(); t.begin(0)
    for k in range(7):
        a = 2 * math.pi * k / 7 + 0.1
        t.color(31, 31 - 4 * k, 4 * k); t.v16(0, 0, 0); t.v16(0.9 * math.cos(a), 0.9 * math.sin(a), 0); t.v16(0.9 * math.cos(a + 0.25), 0.9 * math.sin(a + 0.25), 0)
    t.end(); finish(t)

for _shift in (0, 4, 8):
    def _b(t, sh=_shift):
        setup(t, disp=0x80 | sh << 8, persp=True); t.fog_color((20, 20, 26), 31); t.fog_offset(0x7000)
        t.fog_table([min(127, i * 4) for i in range(32)]); t.scale(2, 2, 2); t.poly_attr(fog=True)
        for k in range(8):
            z = -0.75 - k * 0.65; t.begin(1); t.color(31, 8 + 3 * k, 4)
            t.quad([(-1 + 0.25 * k, 0.3, z), (-1 + 0.25 * k, -0.3, z), (-0.65 + 0.25 * k, -0.3, z), (-0.65 + 0.25 * k, 0.3, z)]); t.end()
        finish(t)
    scene("fog_shift_%d" % _shift, "fog,fog-shift,fog-table,fog-offset", "Eight quads receding into fog, FOG_SHIFT %d." % _shift)(_b)

@scene("clear_rear_colour_fog", "clear-color,clear-fog-bit,fog,clear-polygon-id",
       "The clear colour with its fog bit set and fog enabled: the rear plane is fogged like a far pixel.")
def _(t):
    setup(t, disp=0x80, clear=(4, 20, 4), clear_fog=True); t.fog_color((31, 0, 31), 31); t.fog_offset(0)
    t.fog_table([min(127, i * 8) for i in range(32)]); t.poly_attr(); t.rect(-0.4, -0.4, 0.4, 0.4, 0, col=(31, 31, 31)); finish(t)

@scene("clear_alpha_zero", "clear-color,clear-alpha,translucent",
       "A transparent clear colour (alpha 0) with opaque and translucent quads: alpha of the result frame.")
def _(t):
    setup(t, disp=8, clear=(0, 0, 0), clear_alpha=0)
    t.poly_attr(); t.rect(-0.8, -0.8, 0, 0.8, 0, col=(31, 10, 10)); t.poly_attr(alpha=12, pid=4); t.rect(-0.3, -0.5, 0.8, 0.5, -0.1, col=(10, 10, 31)); finish(t)

@scene("toon_ramp_sphere", "toon-table,toon-shading,lighting,polygon-mode-2",
       "A lit sphere in toon mode: the red channel of the lit colour indexes the 32-entry toon table.")
def _(t):
    setup(t, persp=True); t.toon_table(TOON_RAMP); t.light_vec(0, -1, -1, -1); t.light_col(0, (31, 31, 31))
    t.dif_amb((31, 31, 31), (2, 2, 2)); t.spe_emi((0, 0, 0), (0, 0, 0)); t.trans(0, 0, -3); t.poly_attr(lights=1, mode=2); draw_sphere(t, 1.1, 20, 12); finish(t)

@scene("overflow_vertices_quads", "vertex-ram-overflow,quads,6144-vertex-limit,vtx_xy",
       "1560 small quads (6240 vertices, VTX_XY): the quads past vertex RAM's 6144 entries are dropped (end of the bottom row missing).")
def _(t):
    setup(t); t.poly_attr(); t.begin(1); t.v16(0, 0, 0); t.v16(0, 0, 0); t.v16(0, 0, 0); t.v16(0, 0, 0)
    for i in range(1, 1560):
        if i % 40 == 0 or i == 1: t.color((i // 40) % 32, 31 - (i // 40) % 32, 16)
        x = -1 + (i % 40) * 0.05; y = 1 - (i // 40) * 0.05
        t.vxy(x, y); t.vxy(x, y - 0.045); t.vxy(x + 0.045, y - 0.045); t.vxy(x + 0.045, y)
    t.end(); finish(t)

@scene("light_four_colours", "lighting,multiple-lights,light-0,light-1,light-2,light-3",
       "A sphere lit by four coloured lights from four directions at once.")
def _(t):
    setup(t, persp=True)
    for i, (d, c) in enumerate((((-1, 0, -1), (31, 0, 0)), ((1, 0, -1), (0, 31, 0)), ((0, -1, -1), (0, 0, 31)), ((0, 1, -1), (20, 20, 20)))):
        t.light_vec(i, *d); t.light_col(i, c)
    t.dif_amb((31, 31, 31), (2, 2, 2)); t.spe_emi((0, 0, 0), (0, 0, 0)); t.trans(0, 0, -3); t.poly_attr(lights=15); draw_sphere(t, 1.1, 20, 12); finish(t)

@scene("clear_depth_partial", "clear-depth,depth-test",
       "CLEAR_DEPTH at mid range: quads behind the clear plane's depth are hidden, nearer ones drawn.")
def _(t):
    setup(t, clear_depth=0x7000, persp=True); t.poly_attr()
    for k in range(6):
        z = -0.6 - k * 0.9; t.begin(1); t.color(31, 31 - 5 * k, 5 * k)
        t.quad([(-1.6 + 0.5 * k, 0.5, z), (-1.6 + 0.5 * k, -0.5, z), (-1.1 + 0.5 * k, -0.5, z), (-1.1 + 0.5 * k, 0.5, z)]); t.end()
    finish(t)

@scene("edge_marking_antialias", "edge-marking,anti-aliasing,polygon-id",
       "Edge marking and anti-aliasing together on a rotated cube over a quad with a different ID.")
def _(t):
    setup(t, disp=0x30, persp=True); t.edge_colors([(31, 31, 31)] * 8)
    t.poly_attr(pid=0); t.rect(-1.5, -1.2, 1.5, 1.2, -3.5, col=(6, 6, 14))
    t.trans(0, 0, -3); t.mult33(m_mul(m_rot('y', 33), m_rot('x', 21))); t.poly_attr(back=False, pid=16); draw_cube(t, 0.6); finish(t)

@scene("translucent_depth_update", "translucent,translucent-depth-update,polygon-attr-bit11",
       "Two translucent quads crossing an opaque bar: the first updates depth (bit 11), so the second is hidden behind it.")
def _(t):
    setup(t, disp=8); bg_stripes(t)
    t.poly_attr(alpha=16, pid=20, xl_depth=True); t.rect(-0.7, -0.3, 0.3, 0.5, -0.2, col=(31, 0, 0))
    t.poly_attr(alpha=16, pid=21); t.rect(-0.3, -0.6, 0.7, 0.2, 0.0, col=(0, 31, 0)); finish(t)

for _w, _h in ((8, 8), (16, 8), (8, 32)):
    def _b(t, w=_w, h=_h):
        setup(t, disp=1); t.vram_lcdc('A'); t.vram_lcdc('E')
        t.tex_data(0, enc_bits([[((x + y) % 4) + (4 if (x ^ y) & 1 else 0) for x in range(w)] for y in range(h)], 4), "%dx%d" % (w, h))
        t.pal_data(0, STD_PAL, "std palette"); t.vram_tex('A', 0); t.vram_pal(); t.pltt_base(0); t.poly_attr(); tex_quad(t, w, h, 3); finish(t)
    scene("tex_size_%dx%d" % (_w, _h), "texture,texture-size,non-square-textures,magnification",
          "A %dx%d 16-colour texture magnified over a large quad." % (_w, _h))(_b)

# ---------------- game-like and multi-frame scenes ----------------
def terrain(t, phase, n=10):
    for j in range(n - 1):
        t.begin(2)
        for i in range(n):
            for jj in (j, j + 1):
                x = -3 + 6 * i / (n - 1); z = -1 - 6 * jj / (n - 1)
                y = -0.9 + 0.35 * math.sin(i * 0.9 + phase) * math.cos(jj * 0.7)
                h = int(16 + 14 * math.sin(i * 0.9 + phase) * math.cos(jj * 0.7))
                t.color(4, max(0, min(31, h)), 6); t.v16(x / 4, y / 4, z / 4)
        t.end()

@scene("game_flyover", "scene,multi-frame,triangle-strips,fog,perspective,camera-motion",
       "Game-like: 4 frames of a camera flying over a fogged heightfield, the terrain scrolling each frame.")
def _(t):
    t.prologue(0x80 | 5 << 8, clear=(18, 22, 31)); t.fog_color((18, 22, 31), 31); t.fog_offset(0x7E00)
    t.fog_table([min(127, i * 2) for i in range(32)])
    for f in range(4):
        t.sec("frame %d" % f); t.viewport(0, 0, 255, 191); t.mtx_mode(0); t.load44(m_persp(60, 256 / 192, 0.1, 10))
        t.mtx_mode(2); t.identity(); t.scale(4, 4, 4); t.mult33(m_rot('x', 12)); t.poly_attr(fog=True); terrain(t, f * 0.6)
        t.swap(); t.frame()

@scene("game_character_spin", "scene,multi-frame,matrix-hierarchy,lighting,texture,edge-marking",
       "Game-like: a textured, lit 'character' (body, head, arms) turning over 3 frames with edge marking.")
def _(t):
    t.prologue(0x21, clear=(6, 10, 18)); load_std_texture(t); t.edge_colors([(0, 0, 0)] * 8)
    for f in range(3):
        t.sec("frame %d" % f); t.viewport(0, 0, 255, 191); t.mtx_mode(0); t.load44(m_persp(50, 256 / 192, 0.5, 20)); t.mtx_mode(2); t.identity()
        t.light_vec(0, -0.5, -0.6, -0.7); t.light_col(0, (31, 31, 31)); t.dif_amb((26, 26, 26), (8, 8, 8)); t.spe_emi((0, 0, 0), (0, 0, 0))
        t.trans(0, -0.2, -4.5); t.mult33(m_rot('y', 40 * f - 30)); t.teximage(0, 32, 32, 3); t.pltt_base(0)
        t.poly_attr(lights=1, back=False, pid=1); t.push(); t.scale(0.9, 1.3, 0.6); draw_cube(t, 0.5, cols=None, normals=True, tex=(32, 32)); t.pop()
        t.c("head: untextured (TEXIMAGE_PARAM 0), otherwise the body's texture samples stale texcoords")
        t.teximage(0, 8, 8, 0, rs=False, rt=False)
        t.poly_attr(lights=1, back=False, pid=2); t.push(); t.trans(0, 0.95, 0); draw_sphere(t, 0.32, 12, 8, col=(31, 24, 20)); t.pop()
        t.teximage(0, 32, 32, 3)
        for s in (-1, 1):
            t.poly_attr(lights=1, back=False, pid=3); t.push(); t.trans(0.6 * s, 0.1, 0); t.mult33(m_rot('z', 20 * s + 10 * f * s)); t.scale(0.2, 0.8, 0.2)
            draw_cube(t, 0.5, cols=None, normals=True, tex=(32, 32)); t.pop()
        t.swap(); t.frame()

@scene("game_hud_over_3d", "scene,orthographic,perspective,translucent,hud,projection-change",
       "Game-like: a perspective room with a translucent orthographic HUD (health bar, panel) drawn last in the same frame.")
def _(t):
    setup(t, disp=8, persp=True); t.trans(0, 0, -1); t.poly_attr(front=True, back=True)
    for (a, col) in ((0, (14, 10, 6)), (90, (10, 14, 6)), (180, (6, 10, 14)), (270, (12, 12, 12))):
        t.push(); t.mult33(m_rot('y', a)); t.begin(1); t.color(*col); t.quad([(-1.5, 1, -1.5), (-1.5, -1, -1.5), (1.5, -1, -1.5), (1.5, 1, -1.5)]); t.end(); t.pop()
    t.push(); t.trans(0, -0.5, -0.3); t.mult33(m_mul(m_rot('y', 30), m_rot('x', 20))); t.poly_attr(back=False); draw_cube(t, 0.3); t.pop()
    t.mtx_mode(0); t.load44(m_ortho(0, 8, 0, 6, -1, 1)); t.mtx_mode(2); t.identity()
    t.poly_attr(alpha=20, pid=40); t.rect(8 / 32, 160 / 32, 136 / 32, 184 / 32, 0, col=(4, 4, 4))
    t.poly_attr(alpha=28, pid=41); t.rect(12 / 32, 164 / 32, 100 / 32, 180 / 32, 0, col=(31, 4, 4))
    t.poly_attr(alpha=14, pid=42); t.rect(180 / 32, 8 / 32, 248 / 32, 60 / 32, 0, col=(4, 12, 31)); finish(t)

@scene("game_particles", "scene,translucent,many-small-polygons,auto-y-sort,blending",
       "Game-like: 300 small translucent additive-looking particles (varying alpha and ID) over a dark scene.")
def _(t):
    setup(t, disp=8, clear=(1, 1, 4)); import random; rnd = random.Random(7)
    t.poly_attr(); t.rect(-1, -1, 1, -0.6, 0.5, col=(4, 8, 4))
    for i in range(300):
        x, y = rnd.uniform(-0.95, 0.9), rnd.uniform(-0.6, 0.9); s = rnd.uniform(0.02, 0.06)
        t.poly_attr(alpha=rnd.randint(4, 24), pid=(i % 60) + 1)
        t.begin(0); t.color(31, rnd.randint(10, 31), rnd.randint(0, 8)); t.v16(x, y + s, 0); t.v16(x - s, y - s, 0); t.v16(x + s, y - s, 0); t.end()
    finish(t)

@scene("game_racetrack", "scene,perspective,near-plane-clip,texture,texture-repeat,quad-strip",
       "Game-like: a textured race track (repeating texture on a quad strip) curving into the distance with a horizon.")
def _(t):
    setup(t, disp=1, clear=(16, 24, 31), persp=True); load_std_texture(t); t.pltt_base(0)
    t.mtx_mode(0); t.load44(m_persp(60, 256 / 192, 0.2, 40)); t.mtx_mode(2); t.identity(); t.trans(0, -0.5, 0); t.scale(8, 8, 8)
    t.poly_attr(front=True, back=True, pid=1); t.begin(1); t.color(6, 18, 6); t.quad([(-5, 0, 0.06), (-5, 0, -5), (5, 0, -5), (5, 0, 0.06)]); t.end()
    t.teximage(0, 32, 32, 3, rs=True, rt=True); t.poly_attr(front=True, back=True, pid=2); t.begin(3); t.color(31, 31, 31)
    for k in range(16):
        z = 0.4 - k * 1.2; cx = 1.5 * math.sin(k * 0.25)
        t.texcoord(0, k * 32); t.v16((cx - 1) / 8, 0.01 / 8, z / 8); t.texcoord(32, k * 32); t.v16((cx + 1) / 8, 0.01 / 8, z / 8)
    t.end(); finish(t)

@scene("multiframe_swap_attrs", "multi-frame,swap_buffers-bit0,manual-sort,translucent",
       "Two frames of the same three overlapping translucent quads (alpha 14) submitted bottom-most first: auto Y-sort draws the top-most first, manual sort (SWAP_BUFFERS bit 0) keeps submission order, so the overlap colours differ.")
def _(t):
    setup(t, disp=8)
    for f, manual in enumerate((False, True)):
        if f: t.viewport(0, 0, 255, 191)
        t.poly_attr(); t.rect(-1, -1, 1, 1, 0.5, col=(8, 8, 8))
        t.c("submitted bottom-most (red) first: auto Y-sort draws the top-most (blue) first, manual sort keeps this order")
        for i, col in enumerate(((31, 0, 0), (0, 31, 0), (0, 0, 31))):
            t.poly_attr(alpha=14, pid=10 + i); t.rect(-0.6 + i * 0.3, -0.6 + i * 0.25, 0.2 + i * 0.3, 0.1 + i * 0.25, -0.1 * i, col=col)
        t.swap(manual_sort=manual); t.frame()

@scene("multiframe_reemit", "multi-frame,frame-without-swap,re-emit",
       "Frame 0 draws a quad; frame 1 has no SWAP_BUFFERS, so the last frame is re-emitted (trace semantics).")
def _(t):
    setup(t); t.poly_attr(); t.rect(-0.5, -0.5, 0.5, 0.5, 0, col=(31, 31, 0)); t.swap(); t.frame()
    t.poly_attr(); t.rect(-0.9, -0.9, -0.6, -0.6, 0, col=(31, 0, 0)); t.frame()

@scene("multiframe_texture_anim", "multi-frame,vram-reupload,texture,palette-animation",
       "Four frames of palette animation: the palette is rewritten through LCDC before each frame.")
def _(t):
    setup(t, disp=1); load_std_texture(t)
    for f in range(4):
        t.vram_lcdc('E'); t.pal_data(0, [STD_PAL[0]] + [STD_PAL[1 + (i + f * 3) % 15] for i in range(15)], "rotated palette"); t.vram_pal()
        t.viewport(0, 0, 255, 191); t.pltt_base(0); t.poly_attr(); tex_quad(t, 32, 32, 3); t.swap(); t.frame()

@scene("multiframe_depth_sort_fog", "multi-frame,swap_buffers-bit1,swap_buffers-bit0,w-buffer,z-buffer,fog,state-across-frames",
       "Four frames whose SWAP_BUFFERS alternate the depth mode (W/Z) and translucent sorting while fog is switched on, changed and off between frames; lights, material, matrices and the stack are set in frame 0 only and carried across (the frame dumps of each frame must start from that state).")
def _(t):
    setup(t, persp=True); t.mtx_mode(0); t.load44(m_persp(55, 256 / 192, 0.2, 60))
    t.fog_color((20, 20, 26), 31); t.fog_offset(0x7000); t.fog_table([min(127, i * 4) for i in range(32)])
    t.mtx_mode(2); t.identity(); t.light_vec(0, -0.5, -0.5, -0.7); t.light_col(0, (31, 31, 28))
    t.dif_amb((24, 24, 24), (6, 6, 6)); t.spe_emi((0, 0, 0), (0, 0, 0))
    t.scale(4, 4, 4); t.store(3)
    # (fog enable, fog shift, W-buffer bit and manual-sort bit of this frame's SWAP_BUFFERS)
    for f, (fog, shift, wbuf, manual) in enumerate(((False, 0, True, False), (True, 4, False, True),
                                                    (True, 8, True, False), (False, 0, True, True))):
        t.disp3dcnt(0x08 | (0x80 if fog else 0) | shift << 8)
        t.mtx_mode(2); t.restore(3); t.poly_attr(lights=1, fog=True)
        for k in range(5):
            t.begin(1); t.normal(0, 0, 1)
            z = -2 - k * 3.0; x = -2.4 + k * 0.9 + 0.1 * f
            t.quad([(c[0] / 4, c[1] / 4, c[2] / 4) for c in ((x, 1.2, z), (x, -1.2, z - 3), (x + 2.2, -1.2, z - 3), (x + 2.2, 1.2, z))]); t.end()
        t.c("translucent quads submitted bottom-most first: the sort bit decides their order")
        t.mtx_mode(2); t.identity(); t.trans(0, 0, -1.2)
        for i, col in enumerate(((31, 0, 0), (0, 31, 0), (0, 0, 31))):
            t.poly_attr(alpha=14, pid=10 + i, fog=True); t.rect(-0.6 + i * 0.3, -0.6 + i * 0.25, 0.2 + i * 0.3, 0.1 + i * 0.25, -0.1 * i, col=col)
        t.swap(manual_sort=manual, wbuf=wbuf); t.frame()

def main():
    out = os.path.normpath(os.path.join(HERE, ".."))
    man = os.path.join(out, "manifest.tsv")
    old = {}
    if os.path.exists(man):
        lines = open(man).read().splitlines(); hdr = lines[0].split("\t")
        for l in lines[1:]:
            c = dict(zip(hdr, l.split("\t"))); old[(c.get("name"), c.get("frame"))] = c
    rows = []
    for name, feats, desc, fn in SCENES:
        t = Trace(["%s: %s" % (name, desc)]); fn(t)
        path = os.path.join(out, name + ".trace"); t.save(path)
        if os.path.getsize(path) > 200000:  # keep traces small: drop per-line comments of big ones
            lines = open(path).read().splitlines()
            keep = [l if l.startswith("#") else l.split("#")[0].rstrip() for l in lines]
            open(path, "w").write("\n".join(l for l in keep if l) + "\n")
        for f in range(t.nframes):
            prev = old.get((name, "%03d" % f), {})
            rows.append([name, "%03d" % f, prev.get("xxh3", ""), feats, desc, prev.get("xfail", ""),
                         prev.get("dsgx_xxh3", ""), prev.get("dsgx_note", "")])
    with open(man, "w") as fh:
        fh.write("name\tframe\txxh3\tfeatures\tdescription\txfail\tdsgx_xxh3\tdsgx_note\n")
        for r in rows: fh.write("\t".join(r) + "\n")
    print("%d scenes, %d frames" % (len(SCENES), len(rows)))

if __name__ == "__main__":
    main()
