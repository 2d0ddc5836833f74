/*
 * curse.c - "The Curse of Edge Marking": which of two overlapping edges of the same polygon ID
 * is drawn when edge marking is on (polyrastertest's name for it).
 *
 * Hardware notes:
 *  - The rule: with edge marking on (DISP3DCNT bit 5) and anti-aliasing off (bit 4), where an
 *    edge pixel of an opaque polygon (wireframes included) falls on an edge pixel of an
 *    earlier opaque polygon with the same polygon ID, a left edge wins over a right edge when
 *    neither is X-major (Y-major, diagonal or vertical), and a top X-major run or the inside
 *    of a polygon's top line wins over a bottom X-major run or the inside of its bottom line:
 *    whichever polygon is nearer and whichever is drawn first. A later polygon's winning edge
 *    replaces the pixel whatever the depths; a later polygon's losing edge leaves it alone
 *    whatever the depths. X-major runs are top or bottom as the fill rules name them: a left
 *    run going left and a right run going right are top edges (those the fill rules fill), a
 *    left run going right and a right run going left bottom edges. Two edges of different
 *    kinds (a right diagonal over a bottom X-major run) follow the depth test, as do
 *    different polygon IDs, translucent polygons and pixels, the clear plane, and every
 *    polygon with anti-aliasing on.
 *  - Evidence: Jaklyy's polyrastertest v1.0.2-b, whose data file records the console's colours
 *    for "The Curse of Edge Marking" (scenes #037-#043 of the release, a white polygon and a
 *    red one 16/4096 behind it with the same ID), decoded by another emulator project (dingbat
 *    docs, "Overlapping edges with edge marking" (round 7)): the red polygon's top X-major run
 *    shows over the white one's bottom X-major run (#037, #038) and over its bottom line but
 *    not over its inside a line higher (#042); the white one's top run over the red one's
 *    bottom run (#039, #040), its top line over the red one's bottom run (#043) and a right
 *    diagonal over a bottom run (#041, different kinds) show white. The rule itself is the
 *    ROM's source's statement ("Edgemarking (only) + overlapping edges + same id = no fill",
 *    "right ymajor/vert (overriden by left ymajor/vert)", "bottom xmajor/flat (overriden by
 *    top xmajor/flat)"; not for different IDs, translucency, anti-aliasing or the rear plane,
 *    yes for wireframes, "specifically the center of the polygon, and not the slopes", "the
 *    rules dont seem to combine"), with which dingbat passes all 77 recorded scenes.
 *  - Assumed (no recording shows them): the left/right half (only top/bottom is recorded);
 *    one role per pixel, an edge run's before its line's (the left and right pixels of a top
 *    or bottom line are edges, not its inside: "not the slopes"); swapped lines and flat
 *    (one-line) polygons take no part; an opaque polygon's translucent texels follow the rule
 *    too (it is chosen per polygon, before the texel is known), and the pixel they blend into
 *    then has no role.
 *  - melonDS has no such rule: its mode (raster_set_melonds_gaps) leaves it out.
 *
 * Performance: the rule is chosen once per polygon (raster_curse_select_poly, called by
 * span_fns.c): polygons that take part draw through the span functions here, every other
 * polygon draws as before. They are span_fns.c's variants (the same choice by depth test,
 * buffer mode and shading) compiled with SPAN_CURSE: the roles are set once per line, and the
 * pixel loop reads its run's role from them before the depth test. Opaque textured polygons
 * that are not wireframe take the vector variants (span_vec.h draw_vec, four pixels at a time, the
 * role and verdict per lane; Z-buffered spans eight at a time with AVX2, span_vec8.h
 * draw_vec8_line for linear ones and draw_persp8_line for perspective ones), as span_fns.c
 * chooses them for every other polygon.
 */
#include "gx/regs.h"
#include "raster/span_pixel.h"
#include "raster/span_vec8.h"

/* The roles of a line's runs (span_line.roles, by the runs' edge flags). */
static void curse_roles(span_line *c)
{
    const raster_poly *rp = c->rp;
    c->roles[0] = c->roles[1] = c->roles[2] = c->roles[3] = 0;
    /* a swapped line is drawn from the right edge to the left one: its span does not start at
     * the left edge's X (span.c line_setup) */
    if (rp->flat || c->xstart != rp->xl) return;
    const raster_slope *L = &rp->left, *R = &rp->right;
    if (c->yedge == RASTER_ATTR_EDGE_TOP)
        c->roles[0] = RASTER_ATTR_ROLE_TOP;
    else if (c->yedge == RASTER_ATTR_EDGE_BOTTOM)
        c->roles[0] = RASTER_ATTR_ROLE_BOTTOM;
    if (L->xmajor)
        c->roles[RASTER_ATTR_EDGE_LEFT] =
            L->negative ? RASTER_ATTR_ROLE_TOP : RASTER_ATTR_ROLE_BOTTOM;
    else
        c->roles[RASTER_ATTR_EDGE_LEFT] = RASTER_ATTR_ROLE_LEFT;
    if (R->xmajor)
        c->roles[RASTER_ATTR_EDGE_RIGHT] =
            R->negative ? RASTER_ATTR_ROLE_BOTTOM : RASTER_ATTR_ROLE_TOP;
    else
        c->roles[RASTER_ATTR_EDGE_RIGHT] = RASTER_ATTR_ROLE_RIGHT;
}

/* span_fns.c's variants with SPAN_CURSE (no anti-aliasing or shadow here): generic by depth
 * test and buffer mode (0-7); vertex colour and modulate by the less-than depth tests (0-1)
 * and buffer mode (4), and on linear Z-buffered spans the per-pixel stepped ones by the
 * less-than depth tests. The equal depth test (POLYGON_ATTR bit 14, rare) is drawn by the
 * generic ones: the same pixels. */
#define CURSE_FN(name, n)                                                                          \
    static void curse_fn_##name(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        curse_roles(c);                                                                            \
        draw_line(c, xcut, (n) | SPAN_CURSE);                                                      \
    }
#define CURSE_FUSED(i, n)                                                                          \
    CURSE_FN(vtx_##i, (n) | SPAN_SHADE_VERTEX)                                                     \
    CURSE_FN(mod_##i, (n) | SPAN_SHADE_MODDEC)
#define CURSE_DDA(i)                                                                               \
    CURSE_FN(dgen_##i, (i) | SPAN_DDA)                                                             \
    CURSE_FN(dvtx_##i, (i) | SPAN_SHADE_VERTEX | SPAN_DDA)                                         \
    CURSE_FN(dmod_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA)                                         \
    CURSE_FN(dflat_##i, (i) | SPAN_SHADE_VERTEX | SPAN_DDA | SPAN_FLAT)                            \
    CURSE_FN(dfmod_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT)
CURSE_FN(gen_0, 0)
CURSE_FN(gen_1, 1)
CURSE_FN(gen_2, 2)
CURSE_FN(gen_3, 3)
CURSE_FN(gen_4, 4)
CURSE_FN(gen_5, 5)
CURSE_FN(gen_6, 6)
CURSE_FN(gen_7, 7)
CURSE_FUSED(0, 0)
CURSE_FUSED(1, 1)
CURSE_FUSED(2, SPAN_WBUFFER | 0)
CURSE_FUSED(3, SPAN_WBUFFER | 1)
CURSE_DDA(0)
CURSE_DDA(1)

#if SPAN_VEC
/* Opaque textured polygons that are not wireframe (as span_fns.c raster_span_select_poly):
 * four pixels at a time (span_vec.h), the roles per lane. Linear Z-buffered spans by the
 * less-than depth tests (0-1), perspective or W-buffered ones by those and the buffer mode. */
#define CURSE_VFN(name, n)                                                                         \
    static void curse_fn_##name(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        curse_roles(c);                                                                            \
        draw_vec_line(c, xcut, (n) | SPAN_CURSE);                                                  \
    }
#define CURSE_PFN(name, n)                                                                         \
    static void curse_fn_##name(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        curse_roles(c);                                                                            \
        draw_persp_line(c, xcut, (n) | SPAN_CURSE);                                                \
    }
#define CURSE_VEC(i)                                                                               \
    CURSE_VFN(vmod_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA)                                        \
    CURSE_VFN(vfmod_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT)
#define CURSE_PVEC(i, n)                                                                           \
    CURSE_PFN(pmod_##i, (n) | SPAN_SHADE_MODDEC)                                                   \
    CURSE_PFN(pfmod_##i, (n) | SPAN_SHADE_MODDEC | SPAN_FLAT)
CURSE_VEC(0)
CURSE_VEC(1)
CURSE_PVEC(0, 0)
CURSE_PVEC(1, 1)
CURSE_PVEC(2, SPAN_WBUFFER | 0)
CURSE_PVEC(3, SPAN_WBUFFER | 1)
#endif
#if SPAN_VEC8
/* Perspective Z-buffered spans eight pixels at a time (AVX2, span_vec8.h draw_persp8_line),
 * by the less-than depth tests (0-1). */
/* (the lines draw_persp8_line leaves to draw_line, outside persp_ok's ranges, by curse_*_pline,
 * the roles already set) */
#define CURSE_P8FN(name, n)                                                                        \
    VEC8_PERSP_FNS(curse_##name, (n) | SPAN_CURSE)                                                 \
    static void curse_fn_##name(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        curse_roles(c);                                                                            \
        draw_persp8_line(c, xcut, (n) | SPAN_CURSE, curse_##name##_pone, curse_##name##_plong,     \
                         curse_##name##_pline);                                                    \
    }
/* Linear Z-buffered spans eight pixels at a time (AVX2, span_vec8.h draw_vec8_line;
 * draw_vec8 has the rule's lanes), by the less-than depth tests (0-1); the spans of more than
 * eight pixels out of line, as span_fns_vec8.c's. */
#define CURSE_W8FN(name, n)                                                                        \
    VEC8_PART_FNS(curse_##name, (n) | SPAN_CURSE)                                                  \
    static void curse_fn_##name(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        curse_roles(c);                                                                            \
        draw_vec8_line(c, xcut, (n) | SPAN_CURSE, curse_##name##_one, curse_##name##_long);        \
    }
CURSE_W8FN(wmod_0, SPAN_SHADE_MODDEC | SPAN_DDA | 0)
CURSE_W8FN(wmod_1, SPAN_SHADE_MODDEC | SPAN_DDA | 1)
CURSE_W8FN(wfmod_0, SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT | 0)
CURSE_W8FN(wfmod_1, SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT | 1)
CURSE_P8FN(qmod_0, SPAN_SHADE_MODDEC | 0)
CURSE_P8FN(qmod_1, SPAN_SHADE_MODDEC | 1)
CURSE_P8FN(qfmod_0, SPAN_SHADE_MODDEC | SPAN_FLAT | 0)
CURSE_P8FN(qfmod_1, SPAN_SHADE_MODDEC | SPAN_FLAT | 1)
/* (the modulate's for textures that repeat on both axes without flip: SPAN_TEX_PLAIN, as
 * span_fns_vec8.c's) */
CURSE_P8FN(qmodp_0, SPAN_SHADE_MODDEC | SPAN_TEX_PLAIN | 0)
CURSE_P8FN(qmodp_1, SPAN_SHADE_MODDEC | SPAN_TEX_PLAIN | 1)
CURSE_P8FN(qfmodp_0, SPAN_SHADE_MODDEC | SPAN_FLAT | SPAN_TEX_PLAIN | 0)
CURSE_P8FN(qfmodp_1, SPAN_SHADE_MODDEC | SPAN_FLAT | SPAN_TEX_PLAIN | 1)
#endif

#define T2(p)                                                                                      \
    {                                                                                              \
        curse_fn_##p##_0, curse_fn_##p##_1                                                         \
    }
#define T4(p)                                                                                      \
    {                                                                                              \
        curse_fn_##p##_0, curse_fn_##p##_1, curse_fn_##p##_2, curse_fn_##p##_3                     \
    }
static const raster_span_fn curse_gen[8] = {curse_fn_gen_0, curse_fn_gen_1, curse_fn_gen_2,
                                            curse_fn_gen_3, curse_fn_gen_4, curse_fn_gen_5,
                                            curse_fn_gen_6, curse_fn_gen_7};
static const raster_span_fn curse_vtx[4] = T4(vtx), curse_mod[4] = T4(mod);
static const raster_span_fn curse_dgen[2] = T2(dgen), curse_dvtx[2] = T2(dvtx),
                            curse_dmod[2] = T2(dmod), curse_dflat[2] = T2(dflat),
                            curse_dfmod[2] = T2(dfmod);
#if SPAN_VEC
static const raster_span_fn curse_vmod[2] = T2(vmod), curse_vfmod[2] = T2(vfmod),
                            curse_pmod[4] = T4(pmod), curse_pfmod[4] = T4(pfmod);
#endif
#if SPAN_VEC8
static const raster_span_fn curse_qmod[2] = T2(qmod), curse_qfmod[2] = T2(qfmod),
                            curse_qmodp[2] = T2(qmodp), curse_qfmodp[2] = T2(qfmodp),
                            curse_wmod[2] = T2(wmod), curse_wfmod[2] = T2(wfmod);
#endif

bool raster_curse_select_poly(const raster_engine *r, raster_poly *rp)
{
    /* (melonDS has no such rule: its mode, raster_set_melonds_gaps, draws without it) */
    if (r->melonds_gaps) return false;
    if (!disp3dcnt_edge_marking(r->disp3dcnt) || disp3dcnt_antialias(r->disp3dcnt)) return false;
    if (rp->is_shadow || rp->is_mask || (rp->alpha != 31 && !rp->wireframe)) return false;
    unsigned i = rp->span_flags & (SPAN_DEPTH_MASK | SPAN_WBUFFER);
    rp->span_lin = rp->span_flat = NULL;
    rp->span_gen = curse_gen[i];
    /* (the equal tests, 2 and 3: generic; so is the reference of unit.test_raster_span_diff,
     * which compares these variants' four-pixel inside runs with it) */
    if ((i & RASTER_DEPTH_EQUAL_Z) || r->span_reference) return true;
    /* the choice of span_fns.c raster_span_select_poly, with these variants */
    bool vtx = rp->shader.kind == RASTER_SHADE_VERTEX;
    bool mod = rp->shader.kind == RASTER_SHADE_MODULATE && rp->shader.decoded;
    unsigned d = i & 1u, f = d | ((i & SPAN_WBUFFER) ? 2u : 0u);
    if (!(i & SPAN_WBUFFER)) {
        rp->span_lin = vtx ? curse_dvtx[d] : mod ? curse_dmod[d] : curse_dgen[d];
        rp->span_flat = vtx ? curse_dflat[d] : mod ? curse_dfmod[d] : NULL;
    }
    if (vtx) rp->span_gen = curse_vtx[f];
    if (mod) rp->span_gen = curse_mod[f];
#if SPAN_VEC
    /* (textured only: with the untextured ones too, edge_marking_8 ran 2.00 M instructions
     * and f_edge_fog 2.14 M, against 1.93 M and 2.01 M: their spans cost a few instructions a
     * pixel, less than the rule's lanes) */
    if (!rp->wireframe && rp->shader.poly_alpha == 31 && mod &&
        r->span_isa >= RASTER_SPAN_ISA_SSE2) {
        if (!(i & SPAN_WBUFFER)) {
            rp->span_lin = curse_vmod[d];
            rp->span_flat = curse_vfmod[d];
        }
        rp->span_gen = curse_pmod[f];
        rp->spk.pflat = curse_pfmod[f];
#if SPAN_VEC8
        if (r->span_isa >= RASTER_SPAN_ISA_AVX2 && !(i & SPAN_WBUFFER)) {
            rp->span_lin = curse_wmod[d];
            rp->span_flat = curse_wfmod[d];
            const bool plain = rp->spk.plain;
            rp->span_gen = plain ? curse_qmodp[d] : curse_qmod[d];
            rp->spk.pflat = plain ? curse_qfmodp[d] : curse_qfmod[d];
        }
#endif
    }
#endif
    return true;
}
