/*
 * span_fns_ctab.c - the modulate span functions of textures that repeat without flip, linear
 * (span_fns_vec8.c span_fn_wmodp_* / wfmodp_*) and perspective (qmodp_* / qfmodp_*), for
 * textures with a compact form (pixel.h raster_tex_ctab): each texel looked up in registers by
 * AVX-512 VBMI permutes (span_vec8.h vec8_ctab) instead of the AVX2 gather; chosen by
 * span_fns.c where raster_engine.tex_ctab. This translation unit alone is compiled for AVX-512
 * F, VL, BW and VBMI (CMakeLists.txt), so that draw_vec8's copies here may use them; its
 * functions run only where raster_tex_ctab_best found them in the processor.
 */
#include "raster/span_fns.h"

#if SPAN_VEC8 && VEC8_CTAB
#define SPAN_FN_CTAB(i)                                                                            \
    SPAN_FN_W(wmodpc_##i, (i) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_TEX_PLAIN | SPAN_TEX_CTAB)     \
    SPAN_FN_W(wfmodpc_##i,                                                                         \
              (i) | SPAN_SHADE_MODDEC | SPAN_DDA | SPAN_FLAT | SPAN_TEX_PLAIN | SPAN_TEX_CTAB)     \
    SPAN_FN_Q(qmodpc_##i, (i) | SPAN_SHADE_MODDEC | SPAN_TEX_PLAIN | SPAN_TEX_CTAB)                \
    SPAN_FN_Q(qfmodpc_##i, (i) | SPAN_SHADE_MODDEC | SPAN_FLAT | SPAN_TEX_PLAIN | SPAN_TEX_CTAB)
SPAN_FN_CTAB(0)
SPAN_FN_CTAB(1)
SPAN_FN_CTAB(2)
SPAN_FN_CTAB(3)
const raster_span_fn raster_spf_wmodpc[4] = TABLE4(span_fn_wmodpc_);
const raster_span_fn raster_spf_wfmodpc[4] = TABLE4(span_fn_wfmodpc_);
const raster_span_fn raster_spf_qmodpc[4] = TABLE4(span_fn_qmodpc_);
const raster_span_fn raster_spf_qfmodpc[4] = TABLE4(span_fn_qfmodpc_);

bool raster_tex_ctab_best(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi");
}
#else
#if SPAN_VEC8
/* (never chosen) */
const raster_span_fn raster_spf_wmodpc[4], raster_spf_wfmodpc[4], raster_spf_qmodpc[4],
    raster_spf_qfmodpc[4];
#endif
bool raster_tex_ctab_best(void)
{
    return false;
}
#endif
