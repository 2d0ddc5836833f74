/*
 * raster_scene.h - hand-built gx_frame scenes for the rasterizer's unit tests (H3): polygons
 * given directly in screen coordinates, drawn through the scanline loop into the engine's
 * buffers (no final pass), so tests can read colour/depth/attribute words.
 */
#ifndef DSGX_TEST_RASTER_SCENE_H
#define DSGX_TEST_RASTER_SCENE_H

#include <stdlib.h>
#include <string.h>

#include "gx/regs.h"
#include "raster/raster_internal.h"

typedef struct scene {
    gx_frame *f;
    raster_engine *r;
} scene;

static inline void scene_init(scene *s, uint16_t disp3dcnt)
{
    s->f = calloc(1, sizeof *s->f);
    s->r = raster_create();
    s->f->regs.disp3dcnt = disp3dcnt;
}

static inline void scene_free(scene *s)
{
    free(s->f);
    raster_destroy(s->r);
}

/** Add a polygon with @p n screen vertices (x, y pairs), one colour (5-bit rgb), constant
 *  depth @p z and W 0x1000. attr: full POLYGON_ATTR. Winding as given; facing as given. */
static inline gx_polygon *scene_poly(scene *s, int n, const int *xy, uint32_t attr, int32_t z,
                                     bool front, unsigned r5, unsigned g5, unsigned b5)
{
    gx_frame *f = s->f;
    gx_polygon *p = &f->polys[f->npolys++];
    memset(p, 0, sizeof *p);
    p->nverts = (uint8_t)n;
    p->attr = attr;
    p->facing_front = front;
    uint32_t a = polyattr_alpha(attr);
    p->translucent = a > 0 && a < 31;
    int32_t ytop = 192, ybot = 0, xbot = 0;
    for (int i = 0; i < n; i++) {
        gx_vertex *v = &f->verts[f->nverts];
        memset(v, 0, sizeof *v);
        v->sx = xy[2 * i];
        v->sy = xy[2 * i + 1];
        v->clip[3] = 0x1000;
        v->color[0] = (uint16_t)(r5 ? r5 << 4 | 0xF : 0);
        v->color[1] = (uint16_t)(g5 ? g5 << 4 | 0xF : 0);
        v->color[2] = (uint16_t)(b5 ? b5 << 4 | 0xF : 0);
        p->vtx[i] = (uint16_t)f->nverts++;
        p->z[i] = z;
        p->w[i] = 0x1000;
        /* top: first vertex with the smallest y; bottom: largest y, then largest x (melonDS) */
        if (v->sy < ytop) {
            ytop = v->sy;
            p->vtop = (uint8_t)i;
            p->xtop = v->sx;
        }
        if (v->sy > ybot || (v->sy == ybot && v->sx > xbot)) {
            ybot = v->sy;
            xbot = v->sx;
            p->vbottom = (uint8_t)i;
        }
    }
    p->ytop = ytop;
    p->ybottom = ybot;
    p->xbottom = xbot;
    p->sort_key = (uint32_t)(ybot << 8 | ytop) | (p->translucent ? 0x10000u : 0);
    uint32_t mode = polyattr_mode(attr), id = polyattr_id(attr);
    p->shadow_mask = mode == POLYMODE_SHADOW && id == 0;
    p->shadow = mode == POLYMODE_SHADOW && id != 0;
    return p;
}

/** Clear to colour 0 / alpha 0, depth @p clear_z, opaque ID 0, then draw every line. */
static inline void scene_draw(scene *s, bool melonds_gaps, uint32_t clear_z)
{
    raster_engine *r = s->r;
    for (size_t i = 0; i < 2 * RASTER_BUF_SIZE; i++) {
        r->color[i] = 0;
        r->depth[i] = clear_z;
        r->attr[i] = 0;
    }
    r->melonds_gaps = melonds_gaps;
    r->disp3dcnt = s->f->regs.disp3dcnt;
    r->alpha_ref = disp3dcnt_alpha_test(r->disp3dcnt) ? s->f->regs.alpha_ref : 0;
    r->fill_all_edges = disp3dcnt_antialias(r->disp3dcnt) || disp3dcnt_edge_marking(r->disp3dcnt);
    raster_pixel_frame_setup(&r->pixel, &s->f->regs);
    raster_setup_frame(r, s->f, s->f);
    raster_timing_frame_begin(&r->timing, s->f);
    raster_draw_lines(r, 0, 192);
    raster_timing_frame_end(&r->timing, NULL);
}

static inline uint32_t scene_color(const scene *s, int x, int y)
{
    return s->r->color[raster_addr(x, y)];
}
static inline uint32_t scene_attr(const scene *s, int x, int y)
{
    return s->r->attr[raster_addr(x, y)];
}
static inline uint32_t scene_depth(const scene *s, int x, int y)
{
    return s->r->depth[raster_addr(x, y)];
}

/** First and last drawn (alpha != 0) pixel of row y, -1 when none. */
static inline void scene_row_extent(const scene *s, int y, int *first, int *last)
{
    *first = *last = -1;
    for (int x = 0; x < 256; x++) {
        if (scene_color(s, x, y) >> 24) {
            if (*first < 0) *first = x;
            *last = x;
        }
    }
}

/* POLYGON_ATTR builders */
static inline uint32_t attr_make(unsigned alpha, unsigned id, unsigned mode)
{
    return 0xC0u | mode << 4 | (uint32_t)alpha << 16 | (uint32_t)id << 24;
}

#endif
