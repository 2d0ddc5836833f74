/*
 * span_fns_shade.c - the span functions with the shading inlined (vertex colour, modulate from a
 * decoded texture), generic and linear Z-buffered (SPAN_DDA), scalar; chosen by span_fns.c.
 * (span_fns.h: one translation unit a family, so that a parallel build compiles them side by
 * side.)
 */
#include "raster/span_fns.h"

/* Fused-shading variants for polygons without shadow: anti-aliasing (16), W-buffer (4) and the
 * depth test (0-3) stay flags; index = depth | W-buffer | AA >> 1 (0-15). */
#define SPAN_FN_FUSED(i, n)                                                                        \
    static void span_fn_vtx_##i(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        draw_line(c, xcut, (n) | SPAN_SHADE_VERTEX);                                               \
    }                                                                                              \
    static void span_fn_mod_##i(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        draw_line(c, xcut, (n) | SPAN_SHADE_MODDEC);                                               \
    }
/* Linear Z-buffered spans: index = depth | AA >> 2 (0-7). */
#define SPAN_FN_DDA(i, n)                                                                          \
    static void span_fn_dvtx_##i(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_line(c, xcut, (n) | SPAN_SHADE_VERTEX | SPAN_DDA);                                    \
    }                                                                                              \
    static void span_fn_dmod_##i(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_line(c, xcut, (n) | SPAN_SHADE_MODDEC | SPAN_DDA);                                    \
    }                                                                                              \
    static void span_fn_dgen_##i(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_line(c, xcut, (n) | SPAN_DDA);                                                        \
    }                                                                                              \
    static void span_fn_dflat_##i(span_line *c, int32_t xcut)                                      \
    {                                                                                              \
        draw_line(c, xcut, (n) | SPAN_SHADE_VERTEX | SPAN_DDA | SPAN_FLAT);                        \
    }                                                                                              \
    static void span_fn_dfmod_##i(span_line *c, int32_t xcut)                                      \
    {                                                                                              \
        draw_line(c, xcut, (n) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT);                        \
    }
SPAN_FN_FUSED(0, 0)
SPAN_FN_FUSED(1, 1)
SPAN_FN_FUSED(2, 2)
SPAN_FN_FUSED(3, 3)
SPAN_FN_FUSED(4, 4)
SPAN_FN_FUSED(5, 5)
SPAN_FN_FUSED(6, 6)
SPAN_FN_FUSED(7, 7)
SPAN_FN_FUSED(8, SPAN_AA | 0)
SPAN_FN_FUSED(9, SPAN_AA | 1)
SPAN_FN_FUSED(10, SPAN_AA | 2)
SPAN_FN_FUSED(11, SPAN_AA | 3)
SPAN_FN_FUSED(12, SPAN_AA | 4)
SPAN_FN_FUSED(13, SPAN_AA | 5)
SPAN_FN_FUSED(14, SPAN_AA | 6)
SPAN_FN_FUSED(15, SPAN_AA | 7)
SPAN_FN_DDA(0, 0)
SPAN_FN_DDA(1, 1)
SPAN_FN_DDA(2, 2)
SPAN_FN_DDA(3, 3)
SPAN_FN_DDA(4, SPAN_AA | 0)
SPAN_FN_DDA(5, SPAN_AA | 1)
SPAN_FN_DDA(6, SPAN_AA | 2)
SPAN_FN_DDA(7, SPAN_AA | 3)

const raster_span_fn raster_spf_dvtx[8] = TABLE8(span_fn_dvtx_);
const raster_span_fn raster_spf_dmod[8] = TABLE8(span_fn_dmod_);
const raster_span_fn raster_spf_dflat[8] = TABLE8(span_fn_dflat_);
const raster_span_fn raster_spf_dfmod[8] = TABLE8(span_fn_dfmod_);
const raster_span_fn raster_spf_dgen[8] = TABLE8(span_fn_dgen_);
const raster_span_fn raster_spf_vtx[16] = TABLE16(span_fn_vtx_);
const raster_span_fn raster_spf_mod[16] = TABLE16(span_fn_mod_);
