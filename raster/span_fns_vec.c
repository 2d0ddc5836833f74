/*
 * span_fns_vec.c - the span functions four pixels at a time (span_vec.h, SSE2): linear
 * Z-buffered (span_fn_v*) and perspective or W-buffered (span_fn_p*); chosen by span_fns.c.
 * (span_fns.h: one translation unit a family, so that a parallel build compiles them side by
 * side.)
 */
#include "raster/span_fns.h"

#if SPAN_VEC
/* Linear Z-buffered spans four pixels at a time (span_vec.h), without anti-aliasing, for
 * polygons that are not wireframe: index = depth (0-3). */
#define SPAN_FN_VEC(i)                                                                             \
    static void span_fn_vvtx_##i(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_vec_line(c, xcut, (i) | SPAN_SHADE_VERTEX | SPAN_DDA);                                \
    }                                                                                              \
    static void span_fn_vmod_##i(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_vec_line(c, xcut, (i) | SPAN_SHADE_MODDEC | SPAN_DDA);                                \
    }                                                                                              \
    static void span_fn_vflat_##i(span_line *c, int32_t xcut)                                      \
    {                                                                                              \
        draw_vec_line(c, xcut, (i) | SPAN_SHADE_VERTEX | SPAN_DDA | SPAN_FLAT);                    \
    }                                                                                              \
    static void span_fn_vfmod_##i(span_line *c, int32_t xcut)                                      \
    {                                                                                              \
        draw_vec_line(c, xcut, (i) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT);                    \
    }
/* Perspective or W-buffered spans four pixels at a time (same conditions): index = depth |
 * W-buffer (0-7). */
#define SPAN_FN_PVEC(i)                                                                            \
    static void span_fn_pvtx_##i(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_persp_line(c, xcut, (i) | SPAN_SHADE_VERTEX);                                         \
    }                                                                                              \
    static void span_fn_pmod_##i(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_persp_line(c, xcut, (i) | SPAN_SHADE_MODDEC);                                         \
    }                                                                                              \
    static void span_fn_pflat_##i(span_line *c, int32_t xcut)                                      \
    {                                                                                              \
        draw_persp_line(c, xcut, (i) | SPAN_SHADE_VERTEX | SPAN_FLAT);                             \
    }                                                                                              \
    static void span_fn_pfmod_##i(span_line *c, int32_t xcut)                                      \
    {                                                                                              \
        draw_persp_line(c, xcut, (i) | SPAN_SHADE_MODDEC | SPAN_FLAT);                             \
    }
SPAN_FN_PVEC(0)
SPAN_FN_PVEC(1)
SPAN_FN_PVEC(2)
SPAN_FN_PVEC(3)
SPAN_FN_PVEC(4)
SPAN_FN_PVEC(5)
SPAN_FN_PVEC(6)
SPAN_FN_PVEC(7)
SPAN_FN_VEC(0)
SPAN_FN_VEC(1)
SPAN_FN_VEC(2)
SPAN_FN_VEC(3)
const raster_span_fn raster_spf_pvtx[8] = {span_fn_pvtx_0, span_fn_pvtx_1, span_fn_pvtx_2,
                                           span_fn_pvtx_3, span_fn_pvtx_4, span_fn_pvtx_5,
                                           span_fn_pvtx_6, span_fn_pvtx_7};
const raster_span_fn raster_spf_pmod[8] = {span_fn_pmod_0, span_fn_pmod_1, span_fn_pmod_2,
                                           span_fn_pmod_3, span_fn_pmod_4, span_fn_pmod_5,
                                           span_fn_pmod_6, span_fn_pmod_7};
const raster_span_fn raster_spf_pflat[8] = {span_fn_pflat_0, span_fn_pflat_1, span_fn_pflat_2,
                                            span_fn_pflat_3, span_fn_pflat_4, span_fn_pflat_5,
                                            span_fn_pflat_6, span_fn_pflat_7};
const raster_span_fn raster_spf_pfmod[8] = {span_fn_pfmod_0, span_fn_pfmod_1, span_fn_pfmod_2,
                                            span_fn_pfmod_3, span_fn_pfmod_4, span_fn_pfmod_5,
                                            span_fn_pfmod_6, span_fn_pfmod_7};
const raster_span_fn raster_spf_vvtx[4] = TABLE4(span_fn_vvtx_);
const raster_span_fn raster_spf_vmod[4] = TABLE4(span_fn_vmod_);
const raster_span_fn raster_spf_vflat[4] = TABLE4(span_fn_vflat_);
const raster_span_fn raster_spf_vfmod[4] = TABLE4(span_fn_vfmod_);
#endif
