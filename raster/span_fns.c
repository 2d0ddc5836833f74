/*
 * span_fns.c - the specialised span functions: one compiled copy of the pixel loops
 * (span_pixel.h) per combination of polygon-constant state, and the choice among them.
 *
 * Hardware notes: none of its own (see span.c); every variant draws exactly what the generic
 * loop draws. Performance: a polygon's depth test, buffer mode, shadow and anti-aliasing flags
 * select one of 32 generic variants; common polygons (no shadow) also get variants with the
 * shading inlined (vertex colour, flat colour, modulate from a decoded texture, and on spans
 * of one vertex colour that modulate with the colour's factors fixed, or none at all for
 * white) and, on linear Z-buffered spans, the attributes stepped per pixel (span_pixel.h
 * SPAN_DDA). Opaque polygons without anti-aliasing with that shading take the vector variants
 * (span_vec.h, four pixels at a time; SSE2 machines only): span_fn_v* for linear Z-buffered
 * spans, span_fn_p* for perspective and W-buffered ones (span_fn_pf* for those of one vertex
 * colour: raster_span_k.pflat). The pixel loop's polygon constants are set up here once per
 * polygon (setup_k). This file holds the 32 generic variants and the choice; the others are
 * in span_fns_shade.c, span_fns_vec.c and span_fns_vec8.c (span_fns.h says why).
 */
#include "raster/span_fns.h"

#define SPAN_FN(n)                                                                                 \
    static void span_fn_##n(span_line *c, int32_t xcut)                                            \
    {                                                                                              \
        draw_line(c, xcut, n);                                                                     \
    }
#define SPAN_FN8(b)                                                                                \
    SPAN_FN(b##0)                                                                                  \
    SPAN_FN(b##1)                                                                                  \
    SPAN_FN(b##2) SPAN_FN(b##3) SPAN_FN(b##4) SPAN_FN(b##5) SPAN_FN(b##6) SPAN_FN(b##7)
/* octal-free spelling: variants 0..31 as 0x00..0x1F */
SPAN_FN8(0x0)
SPAN_FN8(0x1)
#define SPAN_FN8B(b)                                                                               \
    SPAN_FN(b##8)                                                                                  \
    SPAN_FN(b##9)                                                                                  \
    SPAN_FN(b##A) SPAN_FN(b##B) SPAN_FN(b##C) SPAN_FN(b##D) SPAN_FN(b##E) SPAN_FN(b##F)
SPAN_FN8B(0x0)
SPAN_FN8B(0x1)

const raster_span_fn raster_spf_gen[SPAN_VARIANTS] = {
    span_fn_0x00, span_fn_0x01, span_fn_0x02, span_fn_0x03, span_fn_0x04, span_fn_0x05,
    span_fn_0x06, span_fn_0x07, span_fn_0x08, span_fn_0x09, span_fn_0x0A, span_fn_0x0B,
    span_fn_0x0C, span_fn_0x0D, span_fn_0x0E, span_fn_0x0F, span_fn_0x10, span_fn_0x11,
    span_fn_0x12, span_fn_0x13, span_fn_0x14, span_fn_0x15, span_fn_0x16, span_fn_0x17,
    span_fn_0x18, span_fn_0x19, span_fn_0x1A, span_fn_0x1B, span_fn_0x1C, span_fn_0x1D,
    span_fn_0x1E, span_fn_0x1F,
};

uint8_t raster_span_isa_best(void)
{
#if SPAN_VEC8
    if (__builtin_cpu_supports("avx2")) return RASTER_SPAN_ISA_AVX2;
#endif
    return SPAN_VEC ? RASTER_SPAN_ISA_SSE2 : RASTER_SPAN_ISA_SCALAR;
}

/* The pixel loop's constants of a polygon (raster_span_k). */
static void setup_k(const raster_engine *r, raster_poly *rp)
{
    raster_span_k *k = &rp->spk;
    const raster_shader *sh = &rp->shader;
    k->alpha_ref = r->alpha_ref;
    k->polyattr = rp->polyattr;
    k->valpha = (sh->poly_alpha | sh->alpha_or) << 24;
    k->texels = sh->decoded;
    k->ctab = sh->ctab;
    k->pflat = NULL;
    for (int i = 0; i < 4; i++) {
        k->v_aref[i] = (int32_t)k->alpha_ref;
        k->v_aor[i] = (int32_t)(sh->alpha_or << 24);
    }
    if (!sh->decoded) return; /* the rest is read by SPAN_SHADE_MODDEC only */
    for (int a = 0; a < 2; a++) {
        const raster_tex_axis *ax = a ? &sh->tex.ax_t : &sh->tex.ax_s;
        for (int i = 0; i < 4; i++) {
            k->v_wrap[a][0][i] = ax->lo;
            k->v_wrap[a][1][i] = ax->hi;
            k->v_wrap[a][2][i] = (int32_t)ax->mask;
            k->v_wrap[a][3][i] = (int32_t)ax->flip;
        }
    }
    k->wlog2 = sh->tex.width_log2;
    k->ax_s = sh->tex.ax_s;
    k->ax_t = sh->tex.ax_t;
    k->repeat = k->ax_s.lo == INT32_MIN && k->ax_s.hi == INT32_MAX && k->ax_t.lo == INT32_MIN &&
                k->ax_t.hi == INT32_MAX;
    k->plain = k->repeat && !k->ax_s.flip && !k->ax_t.flip;
    k->pm_s = 2 * k->ax_s.mask + 1; /* (mask = size - 1 in every mode) */
    k->pm_t = 2 * k->ax_t.mask + 1;
    k->tab_s = &r->wrap_tab[k->ax_s.flip != 0][k->pm_s + 1];
    k->tab_t = &r->wrap_tab[k->ax_t.flip != 0][k->pm_t + 1];
    k->a31 = sh->poly_alpha == 31;
    k->pa1 = sh->poly_alpha + 1;
    k->alpha_or = sh->alpha_or;
}

/* The span functions of a polygon (raster_span_select_poly): by its flags and shading; the
 * choice per line (raster_span_choose, span_pixel.h) is then whether the line's span is
 * linear (SPAN_DDA) and, for vertex colour, flat. */
void raster_span_select_poly(const raster_engine *r, raster_poly *rp)
{
    setup_k(r, rp);
    uint8_t flags = rp->span_flags;
    rp->span_lin = rp->span_flat = NULL;
    if (raster_curse_select_poly(r, rp)) return; /* the overlapping-edge rule (curse.c) */
    if ((flags & SPAN_SHADOW) || r->span_reference) {
        rp->span_gen = raster_spf_gen[flags];
        return;
    }
    unsigned aa = (flags & SPAN_AA) ? 1u : 0u;
    if (!(flags & SPAN_WBUFFER)) {
        unsigned i = (flags & 3u) | aa << 2;
        if (rp->shader.kind == RASTER_SHADE_VERTEX) {
            rp->span_lin = raster_spf_dvtx[i];
            rp->span_flat = raster_spf_dflat[i];
        } else if (rp->shader.kind == RASTER_SHADE_MODULATE && rp->shader.decoded) {
            rp->span_lin = raster_spf_dmod[i];
            rp->span_flat = raster_spf_dfmod[i]; /* one vertex colour: span_moddec */
        } else {
            rp->span_lin = raster_spf_dgen[i];
        }
    }
#if SPAN_VEC
    /* (the same spans four pixels at a time: no anti-aliasing, not wireframe, polygon alpha
     * 31; a translucent polygon's pixels are all translucent, which the vector loop hands to
     * plot_write one by one: slower than the scalar loop) */
    const bool vec =
        !aa && !rp->wireframe && rp->shader.poly_alpha == 31 && r->span_isa >= RASTER_SPAN_ISA_SSE2;
    if (!(flags & SPAN_WBUFFER) && vec) {
        unsigned d = flags & 3u;
        const bool w = SPAN_VEC8 && r->span_isa >= RASTER_SPAN_ISA_AVX2;
        if (rp->shader.kind == RASTER_SHADE_VERTEX) {
            rp->span_lin = raster_spf_vvtx[d];
            rp->span_flat = raster_spf_vflat[d];
#if SPAN_VEC8
            if (w) rp->span_lin = raster_spf_wvtx[d], rp->span_flat = raster_spf_wflat[d];
#endif
        } else if (rp->shader.kind == RASTER_SHADE_MODULATE && rp->shader.decoded) {
            rp->span_lin = raster_spf_vmod[d];
            rp->span_flat = raster_spf_vfmod[d];
#if SPAN_VEC8
            if (w && rp->spk.plain && rp->spk.ctab && r->tex_ctab)
                rp->span_lin = raster_spf_wmodpc[d], rp->span_flat = raster_spf_wfmodpc[d];
            else if (w && rp->spk.plain)
                rp->span_lin = raster_spf_wmodp[d], rp->span_flat = raster_spf_wfmodp[d];
            else if (w)
                rp->span_lin = raster_spf_wmod[d], rp->span_flat = raster_spf_wfmod[d];
#endif
        }
        (void)w;
    }
#endif
    unsigned i = (flags & 7u) | aa << 3;
    if (rp->shader.kind == RASTER_SHADE_VERTEX)
        rp->span_gen = raster_spf_vtx[i];
    else if (rp->shader.kind == RASTER_SHADE_MODULATE && rp->shader.decoded)
        rp->span_gen = raster_spf_mod[i];
    else
        rp->span_gen = raster_spf_gen[flags];
#if SPAN_VEC
    if (vec) {
        if (rp->shader.kind == RASTER_SHADE_VERTEX) {
            rp->span_gen = raster_spf_pvtx[flags & 7u];
            rp->spk.pflat = raster_spf_pflat[flags & 7u];
        } else if (rp->shader.kind == RASTER_SHADE_MODULATE && rp->shader.decoded) {
            rp->span_gen = raster_spf_pmod[flags & 7u];
            rp->spk.pflat = raster_spf_pfmod[flags & 7u];
        }
#if SPAN_VEC8
        /* (Z-buffered: eight pixels at a time by AVX2) */
        if (r->span_isa >= RASTER_SPAN_ISA_AVX2 && !(flags & SPAN_WBUFFER)) {
            unsigned d = flags & 3u;
            if (rp->shader.kind == RASTER_SHADE_VERTEX) {
                rp->span_gen = raster_spf_qvtx[d];
                rp->spk.pflat = raster_spf_qflat[d];
            } else if (rp->shader.kind == RASTER_SHADE_MODULATE && rp->shader.decoded) {
                const bool plain = rp->spk.plain;
                rp->span_gen = plain ? raster_spf_qmodp[d] : raster_spf_qmod[d];
                rp->spk.pflat = plain ? raster_spf_qfmodp[d] : raster_spf_qfmod[d];
                if (plain && rp->spk.ctab && r->tex_ctab) {
                    rp->span_gen = raster_spf_qmodpc[d];
                    rp->spk.pflat = raster_spf_qfmodpc[d];
                }
            }
        }
#endif
    }
#endif
}
