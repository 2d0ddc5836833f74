/*
 * vertex.c - vertex commands and polygon assembly: VTX_16 (23h), VTX_10 (24h), VTX_XY (25h),
 * VTX_XZ (26h), VTX_YZ (27h), VTX_DIFF (28h), POLYGON_ATTR (29h), TEXIMAGE_PARAM (2Ah),
 * PLTT_BASE (2Bh), BEGIN_VTXS (40h), END_VTXS (41h); power-on and VBlank state of the unit.
 *
 * Hardware notes:
 * - Vertex formats (GBATEK "DS 3D Vertex"): VTX_16 three 1.3.12 values; VTX_10 three 1.3.6
 *   values placed in the top 10 bits of a 1.3.12 value; VTX_XY/XZ/YZ replace two coordinates and
 *   keep the third from the previous vertex; VTX_DIFF adds three 1.0.9 values (0.000xxxxxxxxx in
 *   1.3.12, i.e. added as raw signed 10-bit numbers) to the previous vertex, wrapping at 16 bits.
 *   POS_TEST also sets the current vertex (boxtest.c).
 * - The vertex is transformed by the clip matrix with w = 1.0: 64-bit sums >> 12 (melonDS
 *   GPU3D.cpp SubmitVertex). Its colour enters the polygon as (c5 << 12) | 0xFFF.
 * - Polygon assembly (melonDS SubmitVertex): triangles every 3, quads every 4 vertices. Strips:
 *   a triangle strip completes a polygon with every vertex after the second; odd polygons swap
 *   their first two vertices (winding alternates). A quad strip completes a polygon every two
 *   vertices after the second, with the last two swapped (v0 v1 v3 v2).
 * - POLYGON_ATTR takes effect at the next BEGIN_VTXS (GBATEK); TEXIMAGE_PARAM and PLTT_BASE at
 *   the next polygon stored.
 * - END_VTXS has no effect (GBATEK: "just a dummy command"; melonDS agrees).
 * - A BEGIN_VTXS while a polygon is incomplete is said to hang the geometry engine (newer
 *   melonDS); we only log it as a game error and discard the incomplete polygon.
 */
#include <string.h>

#include "gx/gx_internal.h"

static int16_t lo16(uint32_t v)
{
    return (int16_t)(uint16_t)(v & 0xFFFFu);
}
static int16_t hi16(uint32_t v)
{
    return (int16_t)(uint16_t)(v >> 16);
}

void gx_geom_reset(gx_engine *gx)
{
    gx_geom_state *g = &gx->geom;
    memset(g, 0, sizeof(*g));
    g->dot_w_limit = 0xFFFFFFu; /* melonDS Reset: ZeroDotWLimit */
    g->last_strip_poly = -1;
}

void gx_geom_on_vblank(gx_engine *gx, uint32_t swap_param)
{
    gx_geom_state *g = &gx->geom;
    gx->build->npolys = 0;
    gx->build->nverts = 0;
    /* melonDS keeps a pointer into the other RAM bank here; a strip continued across a swap
     * without BEGIN_VTXS therefore starts afresh in our model. */
    g->last_strip_poly = -1;
    g->wbuffer = swap_wbuffer(swap_param) != 0;
}

void gx_geom_set_1dot_depth(gx_engine *gx, uint32_t val)
{
    /* melonDS GPU3D.cpp write 04000610: limit = (val & 0x7FFF) * 0x200 + 0x1FF */
    gx->geom.dot_w_limit = (val & 0x7FFFu) * 0x200u + 0x1FFu;
}

void gx_cmd_polygon_attr(gx_engine *gx, const uint32_t *params)
{
    gx->geom.polygon_attr = params[0];
}

void gx_cmd_teximage_param(gx_engine *gx, const uint32_t *params)
{
    gx->geom.teximage = params[0];
}

void gx_cmd_pltt_base(gx_engine *gx, const uint32_t *params)
{
    gx->geom.pltt_base = params[0] & 0x1FFFu;
}

void gx_cmd_begin_vtxs(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    if (g->incomplete) gx_log(gx, DSGX_LOG_GAME, "BEGIN_VTXS with an incomplete polygon");
    g->incomplete = false;
    g->prim_type = params[0] & 3u;
    g->vtx_in_poly = 0;
    g->strip_polys = 0;
    g->last_strip_poly = -1;
    g->cur_polygon_attr = g->polygon_attr;
    uint32_t lights = polyattr_lights(g->cur_polygon_attr);
    g->lights_enabled_count =
        (lights & 1u) + ((lights >> 1) & 1u) + ((lights >> 2) & 1u) + ((lights >> 3) & 1u);
}

void gx_cmd_end_vtxs(gx_engine *gx, const uint32_t *params)
{
    (void)gx;
    (void)params;
}

void gx_geom_transform(gx_engine *gx, const int16_t v[3], int32_t out[4])
{
    const int32_t *m = gx_mtx_clip_of(&gx->mtx);
    for (int k = 0; k < 4; k++) {
        int64_t sum = dsgx_mul64(v[0], m[k]) + dsgx_mul64(v[1], m[4 + k]) +
                      dsgx_mul64(v[2], m[8 + k]) + dsgx_mul64(FX32_ONE, m[12 + k]);
        out[k] = dsgx_wrap32(dsgx_asr64(sum, 12));
    }
}

static void swap_vtx(gx_vertex *a, gx_vertex *b)
{
    gx_vertex t = *a;
    *a = *b;
    *b = t;
}

void gx_geom_submit_vertex(gx_engine *gx)
{
    gx_geom_state *g = &gx->geom;
    gx_vertex *v = &g->buf[g->vtx_in_poly];

    memset(v, 0, sizeof(*v));
    gx_geom_transform(gx, g->cur_vtx, v->clip);
    for (int k = 0; k < 3; k++)
        v->color5[k] = (int32_t)(((uint32_t)g->vtx_color[k] << 12) | 0xFFFu);
    if (teximage_texgen(g->teximage) == 3) {
        gx_texgen_vertex(gx, g->cur_vtx, v->texcoord);
    } else {
        v->texcoord[0] = g->tex_cur[0];
        v->texcoord[1] = g->tex_cur[1];
    }
    v->clipped = false;
    gx_geom_assemble_vertex(gx);
}

void gx_geom_assemble_vertex(gx_engine *gx)
{
    gx_geom_state *g = &gx->geom;
    gx_vertex *v = &g->buf[g->vtx_in_poly];

    if (gx->hooks.vertex) gx->hooks.vertex(gx->hooks.user, gx, v->clip, v->color5, v->texcoord);

    g->poly_completed = false;
    g->poly_rejected = false;
    g->vtx_in_poly++;

    switch (g->prim_type) {
    case 0: /* separate triangles */
    case 1: /* separate quads */
        if (g->vtx_in_poly == (g->prim_type == 0 ? 3u : 4u)) {
            g->vtx_in_poly = 0;
            gx_geom_submit_polygon(gx);
            g->strip_polys++;
        }
        break;
    case 2: /* triangle strip */
        if (g->strip_polys & 1u) {
            swap_vtx(&g->buf[0], &g->buf[1]);
            g->vtx_in_poly = 2;
            gx_geom_submit_polygon(gx);
            g->strip_polys++;
            g->buf[1] = g->buf[2];
        } else if (g->vtx_in_poly == 3) {
            g->vtx_in_poly = 2;
            gx_geom_submit_polygon(gx);
            g->strip_polys++;
            g->buf[0] = g->buf[1];
            g->buf[1] = g->buf[2];
        }
        break;
    default: /* quad strip */
        if (g->vtx_in_poly == 4) {
            swap_vtx(&g->buf[2], &g->buf[3]);
            g->vtx_in_poly = 2;
            gx_geom_submit_polygon(gx);
            g->strip_polys++;
            g->buf[0] = g->buf[3];
            g->buf[1] = g->buf[2];
        }
        break;
    }
    g->incomplete = !g->poly_completed;
}

void gx_cmd_vtx16(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    g->cur_vtx[0] = lo16(params[0]);
    g->cur_vtx[1] = hi16(params[0]);
    g->cur_vtx[2] = lo16(params[1]);
    gx_geom_submit_vertex(gx);
}

void gx_cmd_vtx10(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    for (int k = 0; k < 3; k++) /* 1.3.6 -> 1.3.12: the 10 bits become the top of 16 */
        g->cur_vtx[k] = (int16_t)(uint16_t)(((params[0] >> (10 * k)) & 0x3FFu) << 6);
    gx_geom_submit_vertex(gx);
}

void gx_cmd_vtx_xy(gx_engine *gx, const uint32_t *params)
{
    gx->geom.cur_vtx[0] = lo16(params[0]);
    gx->geom.cur_vtx[1] = hi16(params[0]);
    gx_geom_submit_vertex(gx);
}

void gx_cmd_vtx_xz(gx_engine *gx, const uint32_t *params)
{
    gx->geom.cur_vtx[0] = lo16(params[0]);
    gx->geom.cur_vtx[2] = hi16(params[0]);
    gx_geom_submit_vertex(gx);
}

void gx_cmd_vtx_yz(gx_engine *gx, const uint32_t *params)
{
    gx->geom.cur_vtx[1] = lo16(params[0]);
    gx->geom.cur_vtx[2] = hi16(params[0]);
    gx_geom_submit_vertex(gx);
}

void gx_cmd_vtx_diff(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    for (int k = 0; k < 3; k++) {
        int32_t d = dsgx_sext(params[0] >> (10 * k), 10);
        g->cur_vtx[k] = (int16_t)(uint16_t)((uint32_t)g->cur_vtx[k] + (uint32_t)d);
    }
    gx_geom_submit_vertex(gx);
}
