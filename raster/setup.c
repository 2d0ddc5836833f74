/*
 * setup.c - the render list of a frame: which polygons are drawn, in which order, and the
 * per-polygon set-up (edges at the top line, depth test, attribute word, pixel stage).
 *
 * Hardware notes:
 *  - Order (GBATEK "DS 3D Polygon Attributes"/"SWAP_BUFFERS"; melonDS GPU3D.cpp VBlank): opaque
 *    polygons first, then translucent ones; each group stable-sorted by the Y-sort key (bottom
 *    Y, then top Y: gx_polygon.sort_key); with SWAP_BUFFERS bit 0 (manual sort) the
 *    translucent group keeps its submission order. Verified by the reference frames.
 *  - Skipped (melonDS GPU3D.cpp SubmitPolygon "Degenerate"): polygons with a vertex whose W is
 *    0, and polygons whose bottom Y is below 192. Line polygons (zero area) are drawn.
 *  - Edge walking (melonDS GPU3D_Soft.cpp SetupPolygon/SetupPolygonLeftEdge): from the top
 *    vertex the left edge walks forward through the vertex list for front-facing polygons and
 *    backward for back-facing ones (the right edge the other way), skipping edges that end
 *    above the current line. A polygon with all vertices on one line uses the leftmost and
 *    rightmost of vertices 0, 1 and n-1 as flat edges.
 *  - Depth test per polygon: POLYGON_ATTR bit 14 equal test (tolerance by buffer mode), else
 *    less-than, with less-or-equal for front-facing pixels over opaque back-facing ones.
 *  - Verified on hardware, unlike melonDS: a polygon is a line polygon for the fill rule only
 *    when two of its vertices share a screen position (has_shared_vertex; polyrastertest).
 */

#include <stddef.h>
#include <string.h>

#include "gx/regs.h"
#include "raster/edge_setup.h"
#include "raster/raster_internal.h"

static const gx_vertex *poly_vtx(const raster_poly *rp, unsigned i)
{
    return &rp->verts[rp->poly->vtx[i]];
}

static uint8_t next_vtx(const raster_poly *rp, uint8_t cur, bool forward)
{
    unsigned n = rp->poly->nverts;
    if (forward) return (uint8_t)(cur + 1u >= n ? 0u : cur + 1u);
    return (uint8_t)(cur == 0 ? n - 1u : cur - 1u);
}

/* The attributes the scanline loop reads along an edge from slot i (vertex a) to slot j
 * (vertex b), prepared once per edge (edge.h raster_slope_attrs). */
static void edge_attrs(raster_slope *s, const gx_polygon *p, unsigned i, unsigned j,
                       const gx_vertex *a, const gx_vertex *b)
{
    raster_slope_attrs_vtx(s, p->w[i], p->w[j], a, b);
    s->x1 = b->sx;
    raster_slope_depth(s, p->z[i], p->z[j], p->wbuffer);
}

/* An edge's ends from slot c (vertex a) to slot n (vertex b), as raster_slope_one and
 * raster_slope_pair read them. */
static raster_edge_ends edge_ends(const raster_poly *rp, unsigned c, unsigned n)
{
    const gx_polygon *p = rp->poly;
    return (raster_edge_ends){poly_vtx(rp, c), poly_vtx(rp, n), p->w[c], p->w[n], p->z[c], p->z[n]};
}

/* One edge's walk from slot *cur down to line y (forward: to the next slot) and its set-up at
 * y into @p s: raster_poly_setup_left and _right, which differ only in the fields they pass.
 * @return the edge's X on line y (raster_slope_one). */
RASTER_HOT int32_t setup_edge(raster_engine *r, raster_poly *rp, int32_t y, int side, bool forward,
                              uint8_t *cur, uint8_t *next, raster_slope *s, int32_t *ynext)
{
    while (y >= poly_vtx(rp, *next)->sy && *cur != rp->poly->vbottom) {
        *cur = *next;
        *next = next_vtx(rp, *cur, forward);
    }
    const raster_edge_ends e = edge_ends(rp, *cur, *next);
    *ynext = e.b->sy;
    return raster_slope_one(s, side, &e, !r->melonds_gaps, rp->poly->wbuffer, y, r->recip);
}

void raster_poly_setup_left(raster_engine *r, raster_poly *rp, int32_t y)
{
    rp->xl = setup_edge(r, rp, y, RASTER_SIDE_LEFT, rp->poly->facing_front, &rp->cur_l, &rp->next_l,
                        &rp->left, &rp->yl_next);
}

void raster_poly_setup_right(raster_engine *r, raster_poly *rp, int32_t y)
{
    rp->xr = setup_edge(r, rp, y, RASTER_SIDE_RIGHT, !rp->poly->facing_front, &rp->cur_r,
                        &rp->next_r, &rp->right, &rp->yr_next);
}

/* The edges at line y of a polygon drawn on one line (@p flat), or of every other polygon in a
 * reference engine (raster_engine.ref_lines) edge by edge; the other polygons' edges are set
 * up by walk_edges and raster_slope_pair. */
static __attribute__((noinline)) void setup_edges_other(raster_engine *r, raster_poly *rp,
                                                        int32_t y, bool flat)
{
    const gx_polygon *p = rp->poly;
    uint8_t vtop = p->vtop;

    if (flat) {
        /* One-line polygon: leftmost and rightmost of vertices 0, 1 and n-1 (melonDS). */
        uint8_t vl = 0, vr = 0;
        uint8_t cand[2] = {1, (uint8_t)(p->nverts - 1u)};
        for (int k = 0; k < 2; k++) {
            uint8_t i = cand[k];
            if (poly_vtx(rp, i)->sx < poly_vtx(rp, vl)->sx) vl = i;
            if (poly_vtx(rp, i)->sx > poly_vtx(rp, vr)->sx) vr = i;
        }
        rp->cur_l = rp->next_l = vl;
        rp->cur_r = rp->next_r = vr;
        rp->flat = true;
        rp->xl = raster_slope_setup_flat(&rp->left, RASTER_SIDE_LEFT, poly_vtx(rp, vl)->sx);
        rp->xr = raster_slope_setup_flat(&rp->right, RASTER_SIDE_RIGHT, poly_vtx(rp, vr)->sx);
        edge_attrs(&rp->left, p, vl, vl, poly_vtx(rp, vl), poly_vtx(rp, vl));
        edge_attrs(&rp->right, p, vr, vr, poly_vtx(rp, vr), poly_vtx(rp, vr));
        rp->yl_next = rp->yr_next = poly_vtx(rp, vl)->sy;
        return;
    }
    rp->flat = false;
    if (y >= p->ybottom) y = p->ybottom - 1;
    rp->cur_l = rp->cur_r = vtop;
    rp->next_l = next_vtx(rp, vtop, p->facing_front);
    rp->next_r = next_vtx(rp, vtop, !p->facing_front);
    raster_poly_setup_left(r, rp, y);
    raster_poly_setup_right(r, rp, y);
}

/* The walk of raster_poly_setup_left and _right from the top vertex to line y (the polygon's
 * top line, or a band's first line below it: the edges are then set up from the vertex walk at
 * y, the same state as stepping down from the top line, edge.c raster_slope_setup), with the
 * slots in locals until the end (a store to the state of a byte may alias the polygon and its
 * vertices): both edges' ends in @p el, @p er for raster_slope_pair. @return the line to set
 * them up at (a band that starts on the bottom line never draws the polygon: its edges are set
 * up on the line above, which has edges). */
RASTER_HOT int32_t walk_edges(raster_poly *rp, int32_t y, raster_edge_ends *el,
                              raster_edge_ends *er)
{
    const gx_polygon *p = rp->poly;
    if (y >= p->ybottom) y = p->ybottom - 1;
    const gx_vertex *verts = rp->verts;
    const uint16_t *vtx = p->vtx;
    const unsigned n = p->nverts, vbottom = p->vbottom, vtop = p->vtop;
    /* (each edge's step through the slots modulo n: +1 forward, n - 1 backward) */
    const unsigned stl = p->facing_front ? 1u : n - 1u, str = n - stl;
    unsigned cl = vtop, cr = vtop;
    unsigned nl = vtop + stl, nr = vtop + str;
    nl -= nl >= n ? n : 0u;
    nr -= nr >= n ? n : 0u;
    /* (a step is rarer than none: only past a horizontal top edge at the polygon's top line; as
     * unlikely, the loops leave the straight path, whose registers then hold the rest of the
     * activation's values, g_heavy_1 -15 instructions a polygon) */
    while (RASTER_UNLIKELY(y >= verts[vtx[nl]].sy && cl != vbottom)) {
        cl = nl;
        nl = cl + stl;
        nl -= nl >= n ? n : 0u;
    }
    while (RASTER_UNLIKELY(y >= verts[vtx[nr]].sy && cr != vbottom)) {
        cr = nr;
        nr = cr + str;
        nr -= nr >= n ? n : 0u;
    }
    /* (edge_ends' form from the registers the walk holds: edge_ends itself loaded rp->verts
     * and p->vtx again, g_heavy_1 +5 instructions a polygon) */
    *el = (raster_edge_ends){&verts[vtx[cl]], &verts[vtx[nl]], p->w[cl],
                             p->w[nl],        p->z[cl],        p->z[nl]};
    *er = (raster_edge_ends){&verts[vtx[cr]], &verts[vtx[nr]], p->w[cr],
                             p->w[nr],        p->z[cr],        p->z[nr]};
    rp->cur_l = (uint8_t)cl;
    rp->next_l = (uint8_t)nl;
    rp->cur_r = (uint8_t)cr;
    rp->next_r = (uint8_t)nr;
    rp->yl_next = el->b->sy;
    rp->yr_next = er->b->sy;
    return y;
}

static uint8_t choose_depth_test(const gx_polygon *p)
{
    if (polyattr_depth_equal(p->attr))
        return p->wbuffer ? RASTER_DEPTH_EQUAL_W : RASTER_DEPTH_EQUAL_Z;
    return p->facing_front ? RASTER_DEPTH_LESS_FRONT : RASTER_DEPTH_LESS;
}

/* Work estimates (about the instructions of the scanline loop; only where threads split a
 * frame depends on them): a polygon's set-up, each of its lines, each pixel of a line (more
 * when W differs between vertices: perspective spans divide per pixel). */
enum { WORK_POLY = 2800, WORK_LINE = 850, WORK_PIXEL = 40, WORK_PIXEL_PERSP = 110 };

/* Twice the screen area of a polygon (shoelace formula). */
static int64_t area2(const gx_vertex *verts, const gx_polygon *p)
{
    int64_t a = 0;
    for (unsigned i = 0; i < p->nverts; i++) {
        const gx_vertex *u = &verts[p->vtx[i]];
        const gx_vertex *v = &verts[p->vtx[i + 1u < p->nverts ? i + 1u : 0u]];
        a += (int64_t)u->sx * v->sy - (int64_t)v->sx * u->sy;
    }
    return a < 0 ? -a : a;
}

/* Whether a polygon's W values differ (its spans are perspective-correct). */
static bool poly_persp(const gx_polygon *p)
{
    bool persp = false;
    for (unsigned i = 1; i < p->nverts; i++) persp |= p->w[i] != p->w[0];
    return persp;
}

/* Each line's estimated work (raster_engine.line_work), for the split over threads. A
 * polygon's average width: a triangle's from its extent (raster_engine.box), half the box's
 * width (its area is at most half the box's), other polygons' their area over their lines
 * (the shoelace formula over the vertices and a division, ~110 instructions per polygon: for
 * every polygon that was ~14 us more of g_heavy_1's frame set-up on the render thread,
 * bench/README.md "bands"; with the area of quads kept, every golden/ref frame stays on the
 * side of SPLIT_MIN_WORK it was on). Out of line: the one-thread frame does not run it. */
__attribute__((noinline)) static void plan_line_work(raster_engine *r)
{
    int64_t diff[193] = {0};
    for (uint32_t i = 0; i < r->npolys; i++) {
        const gx_polygon *p = r->list[i];
        const raster_list_box *bx = &r->box[i];
        int32_t top = bx->ytop < 0 ? 0 : (bx->ytop > 191 ? 191 : bx->ytop);
        int32_t bottom = bx->ybottom < top ? top : (bx->ybottom > 191 ? 191 : bx->ybottom);
        int64_t lines = (int64_t)p->ybottom - p->ytop + 1;
        int64_t pixels = p->nverts == 3 ? ((int64_t)bx->x1 - bx->x0 + 1) / 2 + 1
                                        : area2(r->verts, p) / 2 / (lines > 0 ? lines : 1) + 1;
        if (pixels > 256) pixels = 256;
        int64_t per_line = WORK_LINE + (poly_persp(p) ? WORK_PIXEL_PERSP : WORK_PIXEL) * pixels;
        diff[top] += WORK_POLY + per_line;
        diff[top + 1] -= WORK_POLY;
        diff[bottom + 1] -= per_line;
    }
    int64_t run = 0;
    for (int y = 0; y < 192; y++) {
        run += diff[y];
        r->line_work[y] = run > UINT32_MAX ? UINT32_MAX : (uint32_t)run;
    }
}

static void plan_frame(raster_engine *r)
{
    if (r->threads < 2) { /* (line_work: only where to split) */
        for (int y = 0; y < 192; y++) r->line_work[y] = 0;
        return;
    }
    plan_line_work(r);
}

/* The material state of a polygon: everything set up from its POLYGON_ATTR, TEXIMAGE_PARAM,
 * PLTT_BASE, facing and buffer mode (and the frame's constant engine state). */
static void setup_material(raster_engine *r, const gx_frame *in, raster_poly *rp,
                           const gx_polygon *p)
{
    rp->alpha = (uint8_t)polyattr_alpha(p->attr);
    rp->wireframe = rp->alpha == 0;
    /* Opaque attribute word: polygon ID (24-29), fog (15), back-facing (4) (melonDS). */
    rp->polyattr = (polyattr_id(p->attr) << RASTER_ATTR_OPAQUE_ID_SHIFT) |
                   (polyattr_fog(p->attr) ? RASTER_ATTR_FOG : 0u) |
                   (p->facing_front ? 0u : RASTER_ATTR_BACKFACE);
    rp->depth_test = choose_depth_test(p);
    /* melonDS GPU3D.cpp: IsShadowMask = mode 3 with ID 0; IsShadow = mode 3 otherwise. */
    bool mode3 = polyattr_mode(p->attr) == POLYMODE_SHADOW;
    rp->is_mask = mode3 && polyattr_id(p->attr) == 0;
    rp->is_shadow = mode3 && !rp->is_mask;
    rp->span_flags = raster_span_flags(r, rp);
    rp->fill_all = r->fill_all_edges || (rp->alpha < 31 && r->pixel.blending) || rp->wireframe;
    raster_shader_setup(&rp->shader, &r->pixel, p->attr, p->teximage, p->pltt_base, in->tex_vram,
                        in->pal_vram);
    raster_shader_use_cache(&rp->shader, &r->texcache, p->teximage, p->pltt_base);
    raster_span_select_poly(r, rp);
    rp->lin_mat = !r->ref_lines && rp->span_lin && !disp3dcnt_antialias(r->disp3dcnt) &&
                  !rp->is_mask && !p->wbuffer;
    rp->mat_serial = r->frame_serial;
    rp->mat_attr = p->attr;
    rp->mat_teximage = p->teximage;
    rp->mat_pltt = p->pltt_base;
    rp->mat_front = p->facing_front;
    rp->mat_wbuffer = p->wbuffer;
}

/* A slot keeps the state of the polygon that used it last (raster_engine.slot). When the new
 * polygon has that polygon's material in the same frame, its material state is kept as it is:
 * setup_material computes it from the fields compared here and from engine state that is
 * constant during a frame, so it would write the same values again (the texture cache is
 * planned for the whole frame before any polygon is set up and only read here). Checked by
 * test_raster_setup (polygons of different materials in one reused slot, and the next frame)
 * and the golden traces (textures). */
static bool material_reusable(const raster_engine *r, const raster_poly *rp, const gx_polygon *p)
{
    return rp->mat_serial == r->frame_serial && rp->mat_attr == p->attr &&
           rp->mat_teximage == p->teximage && rp->mat_pltt == p->pltt_base &&
           rp->mat_front == p->facing_front && rp->mat_wbuffer == p->wbuffer;
}

/* A vertex's screen position (sx, sy) as one word. */
static uint64_t screen_pos(const gx_vertex *v)
{
    uint64_t xy; /* (sx, sy as one word: equal words, equal positions) */
    memcpy(&xy, &v->sx, sizeof xy);
    return xy;
}
_Static_assert(offsetof(gx_vertex, sy) == offsetof(gx_vertex, sx) + 4, "sx, sy adjacent");

/* A line polygon, for the fill rule (span.c line_setup): two of its vertices, adjacent or not,
 * at the same screen position. Hardware: Jaklyy/polyrastertest "Line Polygon Exception"
 * (recorded on a console): the triangle (-10,-5), (-10,-5), (10,5) fills its edges, the
 * collinear (-2,-1), (0,0), (2,1) with three distinct vertices draws nothing, the quads whose
 * vertices 1 and 3 coincide fill their line part; Jaklyy's melonDS PR #1824 ("the ds only
 * checks for line polygons by checking whether vertices are at the same x and y screen
 * coordinates"). melonDS d3cd6164 treats every span whose edges have equal slopes as a line. */
RASTER_HOT bool has_shared_vertex(const raster_poly *rp)
{
    unsigned n = rp->poly->nverts;
    if (n == 3) { /* (most polygons: three compares, no branch) */
        uint64_t a = screen_pos(poly_vtx(rp, 0)), b = screen_pos(poly_vtx(rp, 1));
        uint64_t c = screen_pos(poly_vtx(rp, 2));
        return (a == b) | (a == c) | (b == c);
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = screen_pos(poly_vtx(rp, i));
        for (unsigned j = i + 1; j < n; j++)
            if (a == screen_pos(poly_vtx(rp, j))) return true;
    }
    return false;
}

/* The polygon's lines may take span.c's line_setup_lin: Z-buffered, no anti-aliasing, no
 * shadow or shadow mask (the span functions with linear variants: span_lin), more than one
 * line, and every vertex W equal with bits 0-6 clear: then every edge (linear along Y when
 * bits 1-6 are clear) and every span (bits 0-6) is linear with that W (interp.h). The part
 * that depends on the material and the frame: raster_poly.lin_mat (setup_material). */
RASTER_HOT bool lin_line(const raster_poly *rp, const gx_polygon *p)
{
    if (!rp->lin_mat || p->ytop == p->ybottom || (p->w[0] & 0x7F)) return false;
    if (p->nverts == 3) return (p->w[1] == p->w[0]) & (p->w[2] == p->w[0]);
    for (unsigned i = 1; i < p->nverts; i++)
        if (p->w[i] != p->w[0]) return false;
    return true;
}

/* The polygon's state but its edges (raster_poly_activate). */
RASTER_HOT void setup_poly(raster_engine *r, const gx_frame *in, raster_poly *rp,
                           const gx_polygon *p)
{
    rp->poly = p;
    rp->verts = r->verts;
    rp->ytop = p->ytop;
    rp->ybottom = p->ybottom;
    rp->vbottom = p->vbottom;
    rp->wbuffer = p->wbuffer;
    if (!material_reusable(r, rp, p)) setup_material(r, in, rp, p);
    rp->line_poly = has_shared_vertex(rp);
    rp->lin_line = lin_line(rp, p);
    rp->lin_w = p->w[0];
}

/* The activation up to its edges' attributes: the polygon's state and the walk to its first
 * edges (@p y: the line they start on, on return); false when setup_edges_other has set the
 * polygon up (one line, or the reference engine's edge-by-edge path). Inline in both copies of
 * the activation (activate_avx2, activate_plain). */
static inline __attribute__((always_inline)) bool activate_walk(raster_engine *r, raster_poly *rp,
                                                                int32_t *y, raster_edge_ends *el,
                                                                raster_edge_ends *er)
{
    setup_poly(r, r->frame, rp, rp->poly);
    const bool flat = rp->ytop == rp->ybottom;
    if (flat || r->ref_lines) {
        setup_edges_other(r, rp, *y, flat);
        return false;
    }
    rp->flat = false;
    *y = walk_edges(rp, *y, el, er);
    return true;
}

#if RASTER_EDGE_AVX2
/* activate_avx2's edges: the walk and both edges set up at once with the AVX2 attribute pass
 * (edge_setup.h raster_slope_pair_avx2), inline. @p lin (a constant): the polygon is lin_line
 * (W equal with bits 0-6 clear, not W-buffered), so its edges are linear without their
 * tests. */
RASTER_EDGE_AVX2_FN void activate_edges_avx2(const raster_engine *r, raster_poly *rp, int32_t y,
                                             bool lin)
{
    raster_edge_ends el, er;
    int32_t x[2];
    /* (the table is there: the set-ups inlined below need not test for it, four tests) */
    const raster_recip *tab = r->recip;
    if (!tab) __builtin_unreachable();
    rp->flat = false;
    y = walk_edges(rp, y, &el, &er);
    raster_slope_pair_avx2(&rp->left, &rp->right, &el, &er, !r->melonds_gaps,
                           lin ? false : rp->wbuffer, y, tab, x, lin);
    rp->xl = x[0];
    rp->xr = x[1];
}

/* raster_poly_activate of an engine with span_isa AVX2 and its reciprocal table (render.c
 * allocates it; an engine without one takes activate_plain, which divides): the polygon's
 * state, then its edges, inline, in two copies: a lin_line polygon's specialised (g_heavy_1's
 * every one: its edges are linear, W equal with bits 0-6 clear, not W-buffered; their tests
 * and the perspective terms go: g_heavy_1 -58 instructions a polygon), the other polygons'
 * generic (+22: the function's allocation shared, scene_terrain; the generic copy out of line
 * cost them +35, and the walk shared by both copies the lin_line ones +5). */
static __attribute__((noinline, target("avx2"))) void activate_avx2(raster_engine *r,
                                                                    raster_poly *rp, int32_t y)
{
    setup_poly(r, r->frame, rp, rp->poly);
    const bool flat = rp->ytop == rp->ybottom;
    if (flat || r->ref_lines) {
        setup_edges_other(r, rp, y, flat);
        return;
    }
    if (rp->lin_line)
        activate_edges_avx2(r, rp, y, true);
    else
        activate_edges_avx2(r, rp, y, false);
}
#endif

/* raster_poly_activate of other engines: each edge's attributes by raster_slope_attrs_vtx. */
static __attribute__((noinline)) void activate_plain(raster_engine *r, raster_poly *rp, int32_t y)
{
    raster_edge_ends el, er;
    int32_t x[2];
    if (!activate_walk(r, rp, &y, &el, &er)) return;
    raster_slope_pair(&rp->left, &rp->right, &el, &er, !r->melonds_gaps, rp->wbuffer, y, r->recip,
                      x);
    rp->xl = x[0];
    rp->xr = x[1];
}

void raster_poly_activate(raster_engine *r, raster_poly *rp, int32_t y)
{
#if RASTER_EDGE_AVX2
    if (r->span_isa == RASTER_SPAN_ISA_AVX2 && r->recip) {
        activate_avx2(r, rp, y);
        return;
    }
#endif
    activate_plain(r, rp, y);
}

/** Drawn at all (melonDS's Degenerate flag: a vertex with W = 0, or bottom below 192); if so,
 *  its screen extent in @p box (from the same vertex walk). */
static bool poly_drawable(const gx_vertex *verts, const gx_polygon *p, raster_list_box *box)
{
    if (p->nverts < 1 || p->nverts > GX_MAX_POLY_VERTS || p->ybottom > 192) return false;
    int32_t x0 = INT32_MAX, x1 = INT32_MIN;
    for (unsigned i = 0; i < p->nverts; i++) {
        if (p->vtx[i] >= GX_MAX_VERTICES) return false;
        const gx_vertex *v = &verts[p->vtx[i]];
        if (v->clip[3] == 0) return false;
        x0 = v->sx < x0 ? v->sx : x0;
        x1 = v->sx > x1 ? v->sx : x1;
    }
    box->x0 = x0;
    box->x1 = x1;
    box->ytop = p->ytop;
    box->ybottom = p->ybottom;
    return true;
}

/* A polygon's TEXIMAGE_PARAM and PLTT_BASE as one word (adjacent fields). */
static inline uint64_t tex_word(const gx_polygon *p)
{
    uint64_t w;
    memcpy(&w, &p->teximage, sizeof w);
    return w;
}
_Static_assert(offsetof(gx_polygon, pltt_base) == offsetof(gx_polygon, teximage) + 4,
               "TEXIMAGE_PARAM and PLTT_BASE adjacent");

/* The texture cache's plan (pixel.h raster_tex_cache_plan) for the polygons in list order.
 * A run of consecutive polygons with the same TEXIMAGE_PARAM and PLTT_BASE is planned by one
 * call with the run's area: the plan adds each polygon's area (its bounding box's width times
 * its lines) to its texture's entry and decodes the texture once the sum reaches its texel
 * count, so one call with the run's sum leaves the same entries (the decode happens within
 * the run either way, before the next texture's polygons; what is decoded depends only on
 * TEXIMAGE_PARAM, PLTT_BASE and the frame, not on which polygon of the run triggers it).
 * Untextured polygons are not planned at all (the plan ignores them). A run's area is summed
 * only until it reaches the texture's texel count: the entry's area then reaches it with
 * either sum, and from there on the cache does the same (it decodes now if the budget allows,
 * and an entry not decoded now never is: the budget only shrinks), so its area beyond the
 * texel count is never read; g_heavy_1's runs of one texture are summed for a few dozen
 * polygons, not all. The reference, a call per polygon with its own area, is
 * test_raster_setup's plan_ref.
 * Run k is list[first[k]] up to list[first[k + 1]] (list[m] for the last one): found in
 * raster_setup_frame's pass over the polygons when the list is in polygon-RAM order (no sort),
 * else by list_runs; empty runs (run 0 when the first polygon starts a run of its own) are
 * not planned. */
static void plan_runs(raster_engine *r, const gx_frame *in, const uint32_t *first, uint32_t nruns,
                      uint32_t m)
{
    for (uint32_t k = 0; k < nruns; k++) {
        uint32_t i = first[k], end = k + 1u < nruns ? first[k + 1u] : m;
        if (i == end) continue;
        const gx_polygon *p = r->list[i];
        uint32_t teximage = p->teximage;
        if (teximage_format(teximage) == TEXFMT_NONE) continue;
        const uint64_t texels = (64u << teximage_size_s(teximage)) << teximage_size_t(teximage);
        uint64_t area = 0;
        for (; i < end && area < texels; i++) {
            const raster_list_box *bx = &r->box[i];
            area += (uint32_t)(bx->x1 - bx->x0 + 1) * (uint32_t)(bx->ybottom - bx->ytop + 1);
        }
        raster_tex_cache_plan(&r->texcache, &r->pixel, p->attr, teximage, p->pltt_base,
                              in->tex_vram, in->pal_vram,
                              area > UINT32_MAX ? UINT32_MAX : (uint32_t)area);
    }
}

/* The runs of plan_runs in the list (raster_setup_frame sorted it): run_first as its pass
 * over the polygons writes it. @return the runs. */
static uint32_t list_runs(const raster_engine *r, uint32_t *first)
{
    uint32_t nruns = 1;
    uint64_t word = 0;
    first[0] = 0;
    for (uint32_t i = 0; i < r->npolys; i++) {
        if (tex_word(r->list[i]) != word) {
            first[nruns++] = i;
            word = tex_word(r->list[i]);
        }
    }
    return nruns;
}

/* The terms of span.c pmajor_estimate's upper bound of each line's timing charges, added up in
 * raster_setup_frame's pass over the polygons (one pass, not a second over the list): each
 * polygon charges 12 plus the pixel cost of its bounding box's width on each line it is drawn
 * on (ytop through ybottom - 1, or its one line when flat) and 4 on its bottom line, and it
 * crosses lines ytop through ybottom. Both as differences from the line above
 * (raster_engine.est[y]: the charges times RASTER_EST_ONE, plus the polygons that cross; the
 * sum down to a line is its charges times RASTER_EST_ONE plus its count, < RASTER_EST_ONE:
 * at most GX_MAX_POLYGONS). The lines are taken modulo 256 only to stay in the array: the
 * bound is read only when every polygon has 0 <= ytop <= ybottom (<= 192: poly_drawable),
 * and lines 192 on are not read. */
static inline void est_add(int64_t *est, const raster_list_box *bx)
{
    int64_t width = (int64_t)bx->x1 + 1 - (bx->x0 < 0 ? 0 : bx->x0);
    int64_t cost = RASTER_TIMING_PER_POLY +
                   (width > RASTER_TIMING_FREE_PIXELS ? width - RASTER_TIMING_FREE_PIXELS : 0);
    const int64_t c = cost * RASTER_EST_ONE;
    /* (the charge that ends on line ybottom + 1: the bottom line's 4, or a flat polygon's
     * whole charge, on its one line) */
    const int64_t b =
        bx->ytop == bx->ybottom ? c : (int64_t)RASTER_TIMING_EMPTY_LINE * RASTER_EST_ONE;
    const uint32_t top = (uint32_t)bx->ytop & 0xFFu, bot = (uint32_t)bx->ybottom & 0xFFu;
    est[top] += c + 1;
    est[bot] -= c - b;
    est[bot + 1] -= b + 1;
}
_Static_assert(GX_MAX_POLYGONS < RASTER_EST_ONE, "a line's count below RASTER_EST_ONE");

/* Sort entries: key << 11 | position among the drawn polygons in polygon-RAM order (key: 16
 * bits, translucent flag on top, bit 27), so sorting the whole words is a stable sort by key.
 * Done as an LSD radix sort in two stable passes (the input in index order): by the top Y byte
 * (bits 11-18), then by the translucent flag and the bottom Y byte together (bits 19-27, 512
 * buckets). The same order as a comparison sort of the words, at a few operations per polygon;
 * both histograms in one pass. */
static void sort_entries(uint32_t *v, uint32_t *tmp, uint32_t n)
{
    uint32_t ca[256 + 1] = {0}, cb[512 + 1] = {0};
    for (uint32_t i = 0; i < n; i++) {
        ca[((v[i] >> 11) & 0xFFu) + 1]++;
        cb[((v[i] >> 19) & 0x1FFu) + 1]++;
    }
    for (unsigned b = 0; b < 256; b++) ca[b + 1] += ca[b];
    for (unsigned b = 0; b < 512; b++) cb[b + 1] += cb[b];
    for (uint32_t i = 0; i < n; i++) tmp[ca[(v[i] >> 11) & 0xFFu]++] = v[i];
    for (uint32_t i = 0; i < n; i++) v[cb[(tmp[i] >> 19) & 0x1FFu]++] = tmp[i];
}

void raster_setup_frame(raster_engine *r, const gx_frame *in, const gx_frame *ram)
{
    uint32_t order[GX_MAX_POLYGONS], tmp[GX_MAX_POLYGONS];
    raster_list_box ubox[GX_MAX_POLYGONS]; /* (the unsorted frame's extents and list) */
    const gx_polygon *ulist[GX_MAX_POLYGONS];
    uint32_t n = in->npolys > GX_MAX_POLYGONS ? GX_MAX_POLYGONS : in->npolys;
    bool manual = swap_manual_sort(in->regs.swap_param) != 0;
    bool shadows = false, ytop_ok = true, sorted = true;

    /* Opaque group first, then translucent (bit 27 of the entry); manual sort drops the Y key
     * of translucent polygons so their submission order stays. Polygons that are not drawn are
     * left out before sorting (a stable sort of the rest gives the order they have in the
     * sorted whole). The drawn polygons and their extents are written to the list in
     * polygon-RAM order, which is the list while the entries ascend (a scene drawn top to
     * bottom: no copy); from the first entry out of order on, to ubox / ulist, sorted into the
     * list below. */
    raster_list_box *box = r->box;
    const gx_polygon **list = r->list;
    uint32_t m = 0, above = 0;
    int64_t *est = r->est;
    memset(r->est, 0, sizeof r->est);
    /* The texture plan's runs (plan_runs), used when the list stays in polygon-RAM order: where
     * TEXIMAGE_PARAM and PLTT_BASE (one 8-byte word) change. Run 0 starts at the first polygon
     * with the word 0 (it stays empty when the first polygon's differs: no test for the first
     * polygon in the loop). */
    uint32_t run_first[GX_MAX_POLYGONS + 1];
    uint32_t nruns = 1;
    uint64_t run_tex = 0;
    run_first[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        const gx_polygon *p = &ram->polys[i];
        if (!poly_drawable(ram->verts, p, &box[m])) continue;
        if (tex_word(p) != run_tex) {
            run_first[nruns++] = m;
            run_tex = tex_word(p);
        }
        /* Y-sort key as melonDS GPU3D.cpp SubmitPolygon builds it: bottom Y << 8 | top Y. */
        uint32_t key = ((uint32_t)p->ybottom & 0xFFu) << 8 | ((uint32_t)p->ytop & 0xFFu);
        if (p->translucent && manual) key = 0;
        shadows |= polyattr_mode(p->attr) == POLYMODE_SHADOW;
        ytop_ok &= p->ytop >= 0 && p->ytop <= p->ybottom;
        list[m] = p;
        est_add(est, &box[m]);
        uint32_t e = (p->translucent ? 1u << 27 : 0u) | (key << 11) | m;
        order[m] = e;
        if (sorted & (e < above)) { /* (the first entry out of order: once a frame at most) */
            sorted = false;
            for (uint32_t k = 0; k <= m; k++) {
                ubox[k] = box[k];
                ulist[k] = list[k];
            }
            box = ubox;
            list = ulist;
        }
        above = e + 1u;
        m++;
    }
    if (!sorted) {
        sort_entries(order, tmp, m);
        for (uint32_t k = 0; k < m; k++) {
            uint32_t j = order[k] & 0x7FFu;
            r->list[k] = ulist[j];
            r->box[k] = ubox[j];
        }
    }

    /* (the rest of the set-up waits for the polygon's top line: raster_poly_activate) */
    r->npolys = m;
    r->has_shadows = shadows;
    r->list_ytop_ok = ytop_ok;
    r->frame = in;
    r->verts = ram->verts;
    r->frame_serial++; /* (a slot's material state from an earlier frame is not reused) */

    /* lists of polygons by top line, for the scanline loop's active list */
    for (int y = 0; y < 256; y++) r->start_first[y] = 0xFFFF;
    for (uint32_t i = r->npolys; i-- > 0;) {
        uint32_t ytop = (uint32_t)r->box[i].ytop & 0xFFu; /* (the polygon's, beside the list) */
        r->start_next[i] = r->start_first[ytop];
        r->start_first[ytop] = (uint16_t)i;
    }
    if (r->pixel.texturing) { /* (the texture cache's plan) */
        if (!sorted) nruns = list_runs(r, run_first);
        plan_runs(r, in, run_first, nruns, m);
    }
    plan_frame(r);
}
