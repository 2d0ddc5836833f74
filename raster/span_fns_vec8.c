/*
 * span_fns_vec8.c - the span functions eight pixels at a time (span_vec8.h, AVX2, compiled for it
 * function by function): linear (span_fn_w*) and perspective (span_fn_q*) Z-buffered spans;
 * chosen by span_fns.c.
 * (span_fns.h: one translation unit a family, so that a parallel build compiles them side by
 * side.)
 */
#include "raster/span_fns.h"

#if SPAN_VEC8
/* The same linear Z-buffered spans eight pixels at a time (span_vec8.h, AVX2: compiled for it
 * function by function, called only on engines with raster_engine.span_isa AVX2). The spans of
 * more than eight pixels are drawn out of line (span_long_*, draw_vec8_line's @p lf), so that
 * the span function holds only the one-step copy of draw_vec8 and the one-pixel path. */
#define SPAN_FN_VEC8(i)                                                                            \
    SPAN_FN_W(wvtx_##i, (i) | SPAN_SHADE_VERTEX | SPAN_DDA)                                        \
    SPAN_FN_W(wmod_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA)                                        \
    SPAN_FN_W(wflat_##i, (i) | SPAN_SHADE_VERTEX | SPAN_DDA | SPAN_FLAT)                           \
    SPAN_FN_W(wfmod_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT)                           \
    SPAN_FN_W(wmodp_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_TEX_PLAIN)                      \
    SPAN_FN_W(wfmodp_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT | SPAN_TEX_PLAIN)
SPAN_FN_VEC8(0)
SPAN_FN_VEC8(1)
SPAN_FN_VEC8(2)
SPAN_FN_VEC8(3)
const raster_span_fn raster_spf_wvtx[4] = TABLE4(span_fn_wvtx_);
const raster_span_fn raster_spf_wmod[4] = TABLE4(span_fn_wmod_);
const raster_span_fn raster_spf_wflat[4] = TABLE4(span_fn_wflat_);
const raster_span_fn raster_spf_wfmod[4] = TABLE4(span_fn_wfmod_);
/* (the modulate's for textures that repeat on both axes without flip: SPAN_TEX_PLAIN) */
const raster_span_fn raster_spf_wmodp[4] = TABLE4(span_fn_wmodp_);
const raster_span_fn raster_spf_wfmodp[4] = TABLE4(span_fn_wfmodp_);
/* Perspective Z-buffered spans eight pixels at a time (span_vec8.h draw_persp8_line; the
 * W-buffered ones keep the four-lane step): index = depth (0-3). */
#define SPAN_FN_PVEC8(i)                                                                           \
    SPAN_FN_Q(qvtx_##i, (i) | SPAN_SHADE_VERTEX)                                                   \
    SPAN_FN_Q(qmod_##i, (i) | SPAN_SHADE_MODDEC)                                                   \
    SPAN_FN_Q(qflat_##i, (i) | SPAN_SHADE_VERTEX | SPAN_FLAT)                                      \
    SPAN_FN_Q(qfmod_##i, (i) | SPAN_SHADE_MODDEC | SPAN_FLAT)                                      \
    SPAN_FN_Q(qmodp_##i, (i) | SPAN_SHADE_MODDEC | SPAN_TEX_PLAIN)                                 \
    SPAN_FN_Q(qfmodp_##i, (i) | SPAN_SHADE_MODDEC | SPAN_FLAT | SPAN_TEX_PLAIN)
SPAN_FN_PVEC8(0)
SPAN_FN_PVEC8(1)
SPAN_FN_PVEC8(2)
SPAN_FN_PVEC8(3)
const raster_span_fn raster_spf_qvtx[4] = TABLE4(span_fn_qvtx_);
const raster_span_fn raster_spf_qmod[4] = TABLE4(span_fn_qmod_);
const raster_span_fn raster_spf_qflat[4] = TABLE4(span_fn_qflat_);
const raster_span_fn raster_spf_qfmod[4] = TABLE4(span_fn_qfmod_);
/* (the modulate's for textures that repeat on both axes without flip: SPAN_TEX_PLAIN) */
const raster_span_fn raster_spf_qmodp[4] = TABLE4(span_fn_qmodp_);
const raster_span_fn raster_spf_qfmodp[4] = TABLE4(span_fn_qfmodp_);
#endif
