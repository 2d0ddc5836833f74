/*
 * clip.c - clipping polygons against the view volume (-w <= x, y, z <= w).
 *
 * Hardware notes:
 * - Plane order Z (far then near), Y, X, each in two passes (+plane then -plane). GBATEK does
 *   not give the order; melonDS GPU3D.cpp ClipPolygon clips Z, then Y, then X, noting that the
 *   hardware seems to process Y before X. Followed here because frames must match melonDS.
 * - A vertex outside a plane is replaced by the intersection points with its inside neighbours
 *   (previous first, then next), in place (melonDS GPU3D.cpp ClipAgainstPlane), except that
 *   the point where vertex 0 is clipped against the LAST vertex becomes the last vertex of the
 *   list. Hardware (Jaklyy/polyrastertest "Horizontal Line Polygons and Clipping", recorded on
 *   a console; the rule is Jaklyy's melonDS PR #1892): a horizontal line polygon draws from
 *   its vertex 0, 1 and last (raster/setup.c), so once its first vertex is clipped it draws
 *   vertices 1-2 (quad -128,-32,32,48: x -128..-32) or 2-3 (-128,-128,32,48: -128..32), which
 *   only this order gives; melonDS (new point first) draws the whole line. melonDS does not
 *   do this, and no reference frame changes (a rotation of the list: a filled polygon's edges
 *   are the same).
 * - Interpolation factor (melonDS ClipSegment): num = w_in - p*c_in (32-bit), den = num -
 *   (w_out - p*c_out) truncated to 32 bits; attribute = in + (out - in) * num / den, with a 64-bit
 *   product and a division truncating toward zero. The clipped coordinate is set to p*w.
 * - Colours stay at 5 bits while clipping: after each plane every colour is reset to
 *   (c5 << 12) | 0xFFF (melonDS: "vertex colors are kept at 5-bit during clipping").
 * - Far plane: with POLYGON_ATTR bit 12 clear, a vertex beyond the far plane rejects the whole
 *   polygon (GBATEK "POLYGON_ATTR bit 12: far-plane intersecting polygons 0 hide, 1 render
 *   clipped"; melonDS returns 0 vertices).
 * - Vertices before `clipstart` (strip vertices reused from the previous polygon) are not tested;
 *   they were inside when that polygon was stored.
 * - A list never grows past GX_MAX_POLY_VERTS (10): a convex polygon gains at most one vertex per
 *   plane (4 + 6). Only polygons that 32-bit wrapping made non-convex can cross a plane more
 *   often; their vertices past the tenth are dropped (every write is bounded; before, an inside
 *   vertex could be written past the end of the list: found by unit.test_gx_polygon_diff).
 * Guess (inherited from melonDS): the exact precision of the hardware's interpolation.
 */
#include <string.h>

#include "gx/gx_internal.h"

static int32_t sub32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a - (uint32_t)b);
}
static int32_t add32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

/* w - plane * c, in 32-bit wrapping arithmetic as the reference computes it. */
static int32_t plane_dist(const gx_vertex *v, int comp, int plane)
{
    return plane > 0 ? sub32(v->clip[3], v->clip[comp]) : add32(v->clip[3], v->clip[comp]);
}

/* in + (out - in) * num / den, 64-bit product, quotient truncated toward zero. */
static int64_t lerp(int32_t in, int32_t out, int64_t num, int32_t den)
{
    if (den == 0) /* cannot happen for a vertex pair straddling the plane; guard anyway */
        return in;
    return (int64_t)in + ((int64_t)sub32(out, in) * num) / den;
}

/* The point where the edge from `in` (outside) to `out` (inside) crosses the plane. */
static void clip_segment(gx_vertex *dst, const gx_vertex *in, const gx_vertex *out, int comp,
                         int plane, bool attribs)
{
    int64_t num = plane_dist(in, comp, plane);
    int32_t den = dsgx_wrap32(num - plane_dist(out, comp, plane));

    *dst = *in;
    for (int k = 0; k < 4; k++)
        if (k != comp) dst->clip[k] = dsgx_wrap32(lerp(in->clip[k], out->clip[k], num, den));
    dst->clip[comp] = plane > 0 ? dst->clip[3] : (int32_t)(0u - (uint32_t)dst->clip[3]);

    if (attribs) {
        for (int k = 0; k < 3; k++)
            dst->color5[k] = dsgx_wrap32(lerp(in->color5[k], out->color5[k], num, den));
        for (int k = 0; k < 2; k++)
            dst->texcoord[k] =
                (int16_t)(uint16_t)(uint64_t)lerp(in->texcoord[k], out->texcoord[k], num, den);
    }
    dst->clipped = true;
}

static bool outside(const gx_vertex *v, int comp, int plane)
{
    /* -w in 32-bit wrapping arithmetic, as the reference negates it */
    return plane > 0 ? v->clip[comp] > v->clip[3]
                     : v->clip[comp] < (int32_t)(0u - (uint32_t)v->clip[3]);
}

/* One pass: src -> dst against one plane. Returns the new count, or -1 to reject. */
static int clip_pass(gx_vertex *dst, const gx_vertex *src, int nverts, int clipstart, int comp,
                     int plane, bool attribs, bool far_clip)
{
    int c = clipstart;
    for (int k = 0; k < clipstart; k++) dst[k] = src[k];
    /* vertex 0 clipped against the last vertex: that point goes to the end of the list */
    gx_vertex first_prev;
    bool have_first_prev = false;

    for (int i = clipstart; i < nverts; i++) {
        const gx_vertex *v = &src[i];
        if (!outside(v, comp, plane)) {
            if (c < GX_MAX_POLY_VERTS) dst[c++] = *v;
            continue;
        }
        if (comp == 2 && plane > 0 && !far_clip) return -1;
        const gx_vertex *prev = &src[i == 0 ? nverts - 1 : i - 1];
        const gx_vertex *next = &src[i + 1 >= nverts ? 0 : i + 1];
        if (!outside(prev, comp, plane)) {
            if (i == 0) {
                clip_segment(&first_prev, v, prev, comp, plane, attribs);
                have_first_prev = true;
            } else if (c < GX_MAX_POLY_VERTS) {
                clip_segment(&dst[c++], v, prev, comp, plane, attribs);
            }
        }
        if (!outside(next, comp, plane) && c < GX_MAX_POLY_VERTS)
            clip_segment(&dst[c++], v, next, comp, plane, attribs);
    }
    if (have_first_prev && c < GX_MAX_POLY_VERTS) dst[c++] = first_prev;
    return c;
}

int gx_clip_polygon(gx_vertex *v, int nverts, int clipstart, bool attribs, bool far_clip)
{
    static const int order[3] = {2, 1, 0}; /* Z, Y, X (melonDS ClipPolygon) */
    gx_vertex tmp[GX_MAX_POLY_VERTS];

    /* Fast path (most polygons): no vertex outside any plane. Every pass would copy the list
     * unchanged, and the colour rounding below gives the same value however often it runs. */
    bool inside = true;
    for (int i = clipstart; i < nverts && inside; i++)
        for (int comp = 0; comp < 3 && inside; comp++)
            inside = !outside(&v[i], comp, +1) && !outside(&v[i], comp, -1);
    if (inside) {
        for (int i = 0; i < nverts; i++)
            for (int k = 0; k < 3; k++)
                v[i].color5[k] = (int32_t)(((uint32_t)v[i].color5[k] & ~0xFFFu) + 0xFFFu);
        return nverts;
    }

    for (int p = 0; p < 3; p++) {
        int comp = order[p];
        nverts = clip_pass(tmp, v, nverts, clipstart, comp, +1, attribs, far_clip);
        if (nverts < 0) return 0;
        nverts = clip_pass(v, tmp, nverts, clipstart, comp, -1, attribs, far_clip);
        /* colours back to 5 bits with the low 12 bits set (melonDS ClipAgainstPlane) */
        for (int i = 0; i < nverts; i++)
            for (int k = 0; k < 3; k++)
                v[i].color5[k] = (int32_t)(((uint32_t)v[i].color5[k] & ~0xFFFu) + 0xFFFu);
    }
    return nverts;
}
