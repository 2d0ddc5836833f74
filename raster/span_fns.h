/*
 * span_fns.h - the tables of specialised span functions (internal to raster/). The functions
 * themselves are one compiled copy of the pixel loops (span_pixel.h, span_vec.h, span_vec8.h)
 * per combination of polygon-constant state; span_fns.c chooses among them per polygon.
 *
 * They are split by family into translation units (span_fns.c the generic variants,
 * span_fns_shade.c the fused-shading scalar ones, span_fns_vec.c the SSE2 ones, span_fns_vec8.c
 * the AVX2 ones) only so that a parallel build compiles them side by side: each is heavy to
 * compile (hundreds of inlined pixel loops), most of all under the sanitizers. The calls go
 * through these tables and the polygon's pointers as before, so the split changes no code.
 */
#ifndef DSGX_RASTER_SPAN_FNS_H
#define DSGX_RASTER_SPAN_FNS_H

#include "raster/span_pixel.h"
#include "raster/span_vec8.h"

#define TABLE4(p)                                                                                  \
    {                                                                                              \
        p##0, p##1, p##2, p##3                                                                     \
    }
#define TABLE8(p)                                                                                  \
    {                                                                                              \
        p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7                                             \
    }
#define TABLE16(p)                                                                                 \
    {                                                                                              \
        p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9, p##10, p##11, p##12, p##13,    \
            p##14, p##15                                                                           \
    }

/* span_fns.c: the 32 generic variants, by the polygon's span flags (shading through
 * raster_shade) */
extern const raster_span_fn raster_spf_gen[SPAN_VARIANTS];
/* span_fns_shade.c: the shading inlined, index = depth | W-buffer | AA >> 1 (0-15) */
extern const raster_span_fn raster_spf_vtx[16], raster_spf_mod[16];
/* span_fns_shade.c: linear Z-buffered spans, index = depth | AA >> 2 (0-7) */
extern const raster_span_fn raster_spf_dvtx[8], raster_spf_dmod[8], raster_spf_dflat[8],
    raster_spf_dfmod[8], raster_spf_dgen[8];
#if SPAN_VEC
/* span_fns_vec.c: perspective or W-buffered spans four pixels at a time, index = depth |
 * W-buffer (0-7); linear Z-buffered ones, index = depth (0-3) */
extern const raster_span_fn raster_spf_pvtx[8], raster_spf_pmod[8], raster_spf_pflat[8],
    raster_spf_pfmod[8];
extern const raster_span_fn raster_spf_vvtx[4], raster_spf_vmod[4], raster_spf_vflat[4],
    raster_spf_vfmod[4];
#endif
#if SPAN_VEC8
/* span_fns_vec8.c: linear (w) and perspective (q) Z-buffered spans eight pixels at a time,
 * index = depth (0-3) */
extern const raster_span_fn raster_spf_wvtx[4], raster_spf_wmod[4], raster_spf_wflat[4],
    raster_spf_wfmod[4];
/* the same modulate, textures that repeat on both axes without flip (raster_span_k.plain:
 * SPAN_TEX_PLAIN) */
extern const raster_span_fn raster_spf_wmodp[4], raster_spf_wfmodp[4];
extern const raster_span_fn raster_spf_qvtx[4], raster_spf_qmod[4], raster_spf_qflat[4],
    raster_spf_qfmod[4];
extern const raster_span_fn raster_spf_qmodp[4], raster_spf_qfmodp[4]; /* (plain, as w*p) */
/* span_fns_ctab.c: wmodp / wfmodp / qmodp / qfmodp with the texture's compact form
 * (SPAN_TEX_CTAB), where raster_tex_ctab_best */
extern const raster_span_fn raster_spf_wmodpc[4], raster_spf_wfmodpc[4];
extern const raster_span_fn raster_spf_qmodpc[4], raster_spf_qfmodpc[4];

/* A span function eight pixels at a time and its two parts (span_vec8.h VEC8_PART_FNS). */
#define SPAN_FN_W(name, fl)                                                                        \
    VEC8_PART_FNS(span_##name, fl)                                                                 \
    static void span_fn_##name(span_line *c, int32_t xcut)                                         \
    {                                                                                              \
        draw_vec8_line(c, xcut, (fl), span_##name##_one, span_##name##_long);                      \
    }
/* The same, perspective (span_vec8.h VEC8_PERSP_FNS, draw_persp8_line). */
#define SPAN_FN_Q(name, fl)                                                                        \
    VEC8_PERSP_FNS(span_##name, fl)                                                                \
    static void span_fn_##name(span_line *c, int32_t xcut)                                         \
    {                                                                                              \
        draw_persp8_line(c, xcut, (fl), span_##name##_pone, span_##name##_plong,                   \
                         span_##name##_pline);                                                     \
    }
#endif

#endif
