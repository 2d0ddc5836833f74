/*
 * span_pixel.h - the rendering engine's pixel loops, shared by the scanline loop (span.c) and
 * the specialised span functions (span_fns.c). Internal to raster/.
 *
 * Hardware notes: see span.c (the facts these loops implement: fill rules, depth test, alpha
 * test, opaque and translucent writes, anti-aliasing coverage, shadow stencil).
 *
 * Everything here is inline so that each span function (span_fns.c) is compiled with its
 * polygon-constant flags known: the pixel loop contains no dispatch on them.
 */
#ifndef DSGX_RASTER_SPAN_PIXEL_H
#define DSGX_RASTER_SPAN_PIXEL_H

#include "gx/regs.h"
#include "raster/raster_internal.h"

#if defined(__GNUC__)
#define SPAN_INLINE   static inline __attribute__((always_inline))
#define SPAN_NOINLINE __attribute__((noinline))
#else
#define SPAN_INLINE static inline
#define SPAN_NOINLINE
#endif

enum { PART_LEFT, PART_INSIDE, PART_RIGHT };

/* Specialisation flags of a span function. */
enum {
    SPAN_DEPTH_MASK = 3, /* RASTER_DEPTH_* */
    SPAN_WBUFFER = 4,
    SPAN_SHADOW = 8, /* shadow polygon: stencil-gated */
    SPAN_AA = 16,    /* anti-aliasing on */
    SPAN_VARIANTS = 32,
    /* fused shading (fast variants, only with depth/W-buffer flags): the shader's code is
     * inlined into the pixel loop instead of called through raster_shader.shade */
    SPAN_SHADE_VERTEX = 32, /* untextured vertex colour: texcoords not interpolated */
    SPAN_SHADE_MODDEC = 64, /* textured modulate from a decoded texture */
    SPAN_DDA = 128,         /* linear Z-buffered span stepped per pixel (span_dda) */
    SPAN_FLAT = 256,        /* one vertex colour on the whole span (vertex colour or modulate) */
    /* the overlapping-edge rule (curse.c; never with SPAN_AA or SPAN_SHADOW): each pixel
     * carries its run's role (span_line.roles) */
    SPAN_CURSE = 512,
    /* SPAN_SHADE_MODDEC on a polygon whose texture repeats on both axes without flip
     * (raster_span_k.plain, known when the span function is chosen: span_vec8.h draw_vec8's
     * span functions, span_fns_vec8.c span_fn_w*p_* and span_fn_q*p_*, curse.c curse_fn_q*p_*):
     * the wrap is (coord >> 4) & mask, with the shift taken from the accumulator's own bits (the
     * perspective attribute's one shift) and no test per call */
    SPAN_TEX_PLAIN = 1024,
    /* SPAN_TEX_PLAIN with the texture's compact form (raster_span_k.ctab, pixel.h
     * raster_tex_ctab): draw_vec8 looks the texel up in registers (vec8_ctab, AVX-512 VBMI:
     * span_fns_ctab.c only) */
    SPAN_TEX_CTAB = 2048,
};

/** Everything constant over one polygon's line. */
typedef struct span_line {
    raster_engine *r;
    raster_poly *rp;
    uint32_t line;    /* buffer address of (0, y) */
    uint8_t *stencil; /* this line's stencil row */
    raster_interp ix; /* along the span */
    int32_t zl, zr;
    int64_t zbase, zk;          /* depth along the span: base + (zk * k) >> 13 (Z) or >> 8 (W) */
    uint32_t zsel;              /* which end is the smaller depth */
    int32_t den_base, den_step; /* factor denominator: xr * den_step + den_base */
    /* r, g, b, s, t along the span, as raster_attr_prep in three arrays, which the line
     * set-up writes four lanes at a time (span.c span_attrs_prepare_vec; without SSE2
     * span_attrs_prepare): the value is a_base + ((a_d * f[a_sel]) >> 8) (perspective) or
     * a_base + a_d * xs[a_sel] / xdiff (linear; span_attr_persp / span_attr_linear); and the
     * perspective product d * f[sel] mod 2^32 as a_pd + a_ps * f[0] (a_pd = 256 d, a_ps = -d
     * for sel 1, else 0 and d: d * (256 - f0) = 256 d - d f0 mod 2^32) */
    uint32_t a_base[5], a_d[5], a_sel[5], a_pd[5], a_ps[5];
    bool lin_fast; /* linear span whose products all stay below 2^25 */
    /* Z-buffered polygons: the depth's product zk * xs (xs = x - x0 or xdiff - (x - x0) by
     * zsel, |zk * xdiff| < 2^53) at pixel x is zacc0 + zstep * (x - x0) (span_dda) */
    int64_t zacc0, zstep;
    int32_t l_cov, r_cov; /* edge coverage words */
    int32_t xcov;         /* running X-major coverage */
    int32_t xstart, xend;
    uint32_t flat_color; /* SPAN_FLAT: the shaded colour of every pixel */
    int32_t l_len, r_len;
    bool l_fill, r_fill;
    uint32_t yedge;
    /** SPAN_CURSE: the RASTER_ATTR_ROLE_* of the line's runs by their edge flags (& 3): [0]
     *  inside, [1] left run, [2] right run (curse.c) */
    uint32_t roles[4];
    /** scratch of span_vec8.h vec8_slow: the depth, colour and attribute word of a step's eight
     *  lanes (here, not in the span function's frame: see there) */
    uint32_t lanes[3][8];
} span_line;

/*
 * Constants of the pixel loop: the polygon's (raster_span_k, raster_poly.spk, set up once per
 * polygon by span_fns.c setup_k) and the line's flat colour (SPAN_FLAT with
 * SPAN_SHADE_MODDEC), in a local struct of draw_line. The pixel loop reads them from there
 * and not from span_line / the shader, where they had to be re-derived at every pixel: the
 * pixel stores go through uint32_t pointers that may alias any uint32_t field.
 */
typedef struct span_k {
    const raster_span_k *p;
    /* SPAN_FLAT with SPAN_SHADE_MODDEC: vertex colour channels + 1 of the whole span, and
     * whether the modulate is the identity (white, alpha 31) */
    uint32_t fr1, fg1, fb1;
    bool ident;
    uint32_t flat; /* SPAN_FLAT: c->flat_color */
} span_k;

SPAN_INLINE void span_k_init(const span_line *c, span_k *k, int flags)
{
    k->p = &c->rp->spk;
    k->ident = false;
    k->flat = (flags & SPAN_FLAT) ? c->flat_color : 0u; /* set by raster_span_choose */
    if (!(flags & SPAN_FLAT) || !(flags & SPAN_SHADE_MODDEC)) return;
    uint32_t v6 = k->flat;
    /* ((t + 1) * 64 - 1) >> 6 = t for t <= 63 and ((a + 1) * 32 - 1) >> 5 = a for a <= 31:
     * modulating by white with polygon alpha 31 (alpha_or 0) returns the texel as it is */
    /* (tested on v6 itself, not on the fields stored below: gcc read fr1 / fg1 back as one
     * 64-bit load of two 32-bit stores, a store-forwarding stall, ~20% of span_fn_dfmod_1's
     * time under perf) */
    k->ident = (v6 & 0x3F3F3Fu) == 0x3F3F3Fu && k->p->a31;
}

/* The flat modulate's factors (fr1, fg1, fb1) of span_k_init, for the scalar pixel loop
 * (span_moddec; the vector loop takes them from k->flat itself). */
SPAN_INLINE void span_k_factors(span_k *k, int flags)
{
    if (!(flags & SPAN_FLAT) || !(flags & SPAN_SHADE_MODDEC)) return;
    k->fr1 = (k->flat & 0x3Fu) + 1;
    k->fg1 = ((k->flat >> 8) & 0x3Fu) + 1;
    k->fb1 = ((k->flat >> 16) & 0x3Fu) + 1;
}

/* raster_tex_wrap for the span loop. Repeat axes: the clamp does not limit (lo/hi are the
 * int32 extremes), and the result depends only on the texel coordinate's bits below
 * log2(2 * size) <= 11, where sext16(coord) >> 4 and (uint32)coord >> 4 agree (both are bits
 * 4-14 of coord): the sign extension and the clamp are skipped, and the mask-and-mirror is one
 * load from the engine's table for the axis' size and flip (raster_engine.wrap_tab). Same
 * result as raster_tex_wrap. */
SPAN_INLINE uint32_t span_wrap(const raster_tex_axis *ax, const uint16_t *tab, uint32_t pm,
                               int32_t coord, bool repeat)
{
    if (!repeat) return raster_tex_wrap(ax, coord);
    return tab[((uint32_t)coord >> 4) & pm];
}

/* raster_shade_modulate_decoded with the constants of k (same arithmetic, raster_modulate6).
 * @p flat: the vertex colour is k's flat colour (vr, vg, vb unused). */
SPAN_INLINE uint32_t span_moddec(const span_k *k, uint32_t vr, uint32_t vg, uint32_t vb, int32_t s,
                                 int32_t t, bool flat, bool plain)
{
    /* (@p plain, SPAN_TEX_PLAIN: both axes repeat without flip, the wrap is the bits below
     * the size, mask = size - 1) */
    uint32_t ws = plain ? ((uint32_t)s >> 4) & k->p->ax_s.mask
                        : span_wrap(&k->p->ax_s, k->p->tab_s, k->p->pm_s, s, k->p->repeat);
    uint32_t wt = plain ? ((uint32_t)t >> 4) & k->p->ax_t.mask
                        : span_wrap(&k->p->ax_t, k->p->tab_t, k->p->pm_t, t, k->p->repeat);
    uint32_t px = k->p->texels[(wt << k->p->wlog2) + ws];
    if (flat && k->ident) return px;
    uint32_t r1 = flat ? k->fr1 : (vr >> 3) + 1;
    uint32_t g1 = flat ? k->fg1 : (vg >> 3) + 1;
    uint32_t b1 = flat ? k->fb1 : (vb >> 3) + 1;
    uint32_t r = (((px & 0x3Fu) + 1) * r1 - 1) >> 6;
    uint32_t g = ((((px >> 8) & 0x3Fu) + 1) * g1 - 1) >> 6;
    uint32_t b = ((((px >> 16) & 0x3Fu) + 1) * b1 - 1) >> 6;
    uint32_t ta = px >> 24;
    uint32_t a = k->p->a31 ? ta : ((ta + 1) * k->p->pa1 - 1) >> 5; /* (a31: alpha_or is 0) */
    return r | (g << 8) | (b << 16) | ((a | k->p->alpha_or) << 24);
}

SPAN_INLINE bool depth_pass(int dt, int32_t dstz, int32_t z, uint32_t dstattr)
{
    switch (dt) {
    case RASTER_DEPTH_EQUAL_Z: return (uint32_t)(dstz - z + 0x200) <= 0x400u;
    case RASTER_DEPTH_EQUAL_W: return (uint32_t)(dstz - z + 0xFF) <= 0x1FEu;
    case RASTER_DEPTH_LESS_FRONT:
        /* over an opaque back-facing pixel: less-or-equal */
        if ((dstattr & (RASTER_ATTR_TRANSLUCENT | RASTER_ATTR_BACKFACE)) == RASTER_ATTR_BACKFACE)
            return z <= dstz;
        return z < dstz;
    default: return z < dstz;
    }
}

/* melonDS PlotTranslucentPixel. */
static inline void plot_translucent(raster_engine *r, uint32_t addr, uint32_t color, int32_t z,
                                    bool write_z, uint32_t polyattr, bool shadow)
{
    uint32_t dstattr = r->attr[addr];
    uint32_t attr =
        (polyattr & (RASTER_ATTR_BACKFACE | RASTER_ATTR_FOG)) |
        ((polyattr >> 8) & RASTER_ATTR_TRANS_ID_MASK) | RASTER_ATTR_TRANSLUCENT |
        (dstattr & (RASTER_ATTR_OPAQUE_ID_MASK | RASTER_ATTR_COV_MASK | RASTER_ATTR_EDGE_MASK));
    if (shadow && !(dstattr & RASTER_ATTR_TRANSLUCENT)) {
        /* shadows are not drawn over opaque pixels of their own polygon ID either */
        if ((dstattr & RASTER_ATTR_OPAQUE_ID_MASK) == (polyattr & RASTER_ATTR_OPAQUE_ID_MASK))
            return;
    } else if ((dstattr & RASTER_ATTR_TRANS_KEY) == (attr & RASTER_ATTR_TRANS_KEY)) {
        return; /* same translucent polygon ID */
    }
    if (!(dstattr & RASTER_ATTR_FOG)) attr &= ~RASTER_ATTR_FOG;
    r->color[addr] = raster_pixel_blend(color, r->color[addr], r->pixel.blending);
    if (write_z) r->depth[addr] = (uint32_t)z;
    r->attr[addr] = attr;
}

/* The span's perspective factor at relative position xr (raster_interp_update_factor with the
 * span's constants): f[0] = factor, f[1] = 256 - factor. Linear spans leave it unused. */
SPAN_INLINE void span_factor(const span_line *c, int32_t xr, uint32_t f[2])
{
    const raster_interp *ix = &c->ix;
    uint32_t q = 0;
    if (!ix->linear) {
        int64_t num = dsgx_shl64(dsgx_mul64(xr, ix->w0n), 8);
        int32_t den = dsgx_wrap32(dsgx_mul64(xr, c->den_step) + c->den_base);
        if (den > 0 && num >= 0 && num <= (int64_t)UINT32_MAX)
            q = (uint32_t)num / (uint32_t)den;
        else
            q = den == 0 ? 0u : (uint32_t)(int32_t)(num / den);
    }
    f[0] = q;
    f[1] = 256u - q;
}

/* Attribute k (0-4: r, g, b, s, t) of the span: raster_attr_persp with the factor f0 (its
 * product d * f[sel] mod 2^32 as a_pd + a_ps * f0, see span_line); raster_attr_linear at xs =
 * {xr, xdiff - xr}; and the latter on lin_fast spans, where every d * x < 2^25:
 * raster_interp_lindiv's product by lin_recip. */
SPAN_INLINE int32_t span_attr_persp(const span_line *c, int k, uint32_t f0)
{
    return (int32_t)(c->a_base[k] + ((c->a_pd[k] + c->a_ps[k] * f0) >> 8));
}

SPAN_INLINE int32_t span_attr_linear(const span_line *c, int k, const int32_t xs[2])
{
    return (int32_t)c->a_base[k] + raster_interp_lindiv(&c->ix, c->a_d[k], xs[c->a_sel[k]]);
}

SPAN_INLINE uint32_t span_attr_lin_fast(const span_line *c, int k, const uint32_t xs[2])
{
    /* (the selector as a choice, not an index: gcc kept xs on the stack for the index) */
    uint64_t n = (uint64_t)(c->a_d[k] * (c->a_sel[k] ? xs[1] : xs[0])); /* < 2^25 */
    return c->a_base[k] + (uint32_t)((n * c->ix.lin_recip) >> 35);
}

/* Z-buffer depth along the span (raster_interp_z, X direction, with the span's constants). */
SPAN_INLINE int32_t span_zz(const span_line *c, int32_t xr)
{
    int32_t k = c->zsel ? c->ix.xdiff - xr : xr;
    return dsgx_wrap32(c->zbase + dsgx_asr64(c->zk * k, 13));
}

/* W-buffer depth along the span. */
SPAN_INLINE int32_t span_wz(const span_line *c, const uint32_t f[2])
{
    return dsgx_wrap32(c->zbase + dsgx_asr64(c->zk * (int64_t)f[c->zsel], 8));
}

/*
 * Linear spans stepped pixel by pixel (SPAN_DDA). On a linear Z-buffered span with lin_fast,
 * every attribute is base + (dr * xs) >> 35 and depth is zbase + (zk * k) >> 13, with xs / k
 * = the pixel's distance from the span's start (or from its end, sel = 1). Instead of the
 * products per pixel, accumulators hold dr * xs and zk * k and add +-dr / +-zk per pixel: the
 * same integers (dr * xs < 2^61 by lin_fast's bound, zk * k < 2^53), one add per attribute.
 */
typedef struct span_dda {
    uint64_t acc[5], step[5];
    int64_t zacc, zstep;
} span_dda;

/* Accumulators at pixel x (run start); attributes k0..n-1 used (0..2: colour, 3..4: the
 * texcoords; a flat colour is not stepped). */
SPAN_INLINE void dda_init(const span_line *c, int32_t x, span_dda *d, int k0, int n)
{
    uint64_t xr = (uint32_t)(x - c->ix.x0), xl = (uint32_t)(c->ix.xdiff - (x - c->ix.x0));
    for (int k = k0; k < n; k++) {
        /* the base is folded in (dda_attr) */
        uint64_t dr = (uint64_t)c->a_d[k] * c->ix.lin_recip;
        d->acc[k] = dr * (c->a_sel[k] ? xl : xr) + ((uint64_t)c->a_base[k] << 35);
        d->step[k] = c->a_sel[k] ? 0u - dr : dr;
    }
    d->zacc = c->zacc0 + c->zstep * (int64_t)xr;
    d->zstep = c->zstep;
}

/* Move the accumulators to the next pixel (steps: +-dr, +-zk, signs chosen in dda_init; the
 * unsigned wrap of "+ (0 - dr)" is exactly "- dr"). */
SPAN_INLINE void dda_step(span_dda *d, int k0, int n)
{
    for (int k = k0; k < n; k++) d->acc[k] += d->step[k];
    d->zacc += d->zstep;
}

/* Attribute k at the accumulators' pixel (= the lin_fast formula in plot), modulo 2^29: the
 * accumulator holds dr * xs + (base << 35) (mod 2^64; dr * xs < 2^61 and the low 35 bits of
 * the base term are 0, so no carry is lost below bit 64), whose bits 35-63 are base +
 * ((dr * xs) >> 35) mod 2^29. Exact for what reads them: colours are 9-bit (< 2^29) and
 * texcoords are used through their low 16 bits only (texture.h). One add per pixel less. */
SPAN_INLINE uint32_t dda_attr(const span_line *c, const span_dda *d, int k)
{
    (void)c;
    return (uint32_t)(d->acc[k] >> 35);
}

/* The depth test of a pixel at @p addr (layer 0) with the retry against the pixel under an
 * edge pixel: on success *addr / *dstattr are those of the layer that passed. */
SPAN_INLINE bool plot_depth(const raster_engine *r, int dt, uint32_t *addr, uint32_t *dstattr,
                            int32_t z)
{
    if (depth_pass(dt, (int32_t)r->depth[*addr], z, *dstattr)) return true;
    if (!(*dstattr & RASTER_ATTR_EDGE_MASK) || *addr >= RASTER_BUF_SIZE) return false;
    *addr += RASTER_BUF_SIZE;
    *dstattr = r->attr[*addr];
    return depth_pass(dt, (int32_t)r->depth[*addr], z, *dstattr);
}

/* What a pixel that passed the depth test at @p addr writes: alpha test, opaque write (with
 * anti-aliasing coverage) or translucent blend (melonDS RenderPolygonScanline's pixel body
 * after the depth test). */
SPAN_INLINE void plot_write(span_line *c, uint32_t addr, uint32_t dstattr, int32_t z,
                            uint32_t color, uint32_t edge, int part, int flags, const span_k *k)
{
    raster_engine *r = c->r;
    const raster_poly *rp = c->rp;
    uint32_t alpha = color >> 24;

    if (alpha <= k->p->alpha_ref) return;

    if (alpha == 31) {
        uint32_t attr = k->p->polyattr | edge;
        if ((flags & SPAN_AA) && (part != PART_INSIDE || (attr & RASTER_ATTR_EDGE_MASK))) {
            int32_t cov = 31;
            if (part == PART_LEFT) {
                cov = c->l_cov;
                if ((uint32_t)cov & RASTER_COV_XMAJOR) {
                    cov = c->xcov >> 5;
                    if (cov > 31) cov = 31;
                    c->xcov += c->l_cov & 0x3FF;
                }
            } else if (part == PART_RIGHT) {
                cov = c->r_cov;
                if ((uint32_t)cov & RASTER_COV_XMAJOR) {
                    cov = 31 - (c->xcov >> 5);
                    if (cov < 0) cov = 0;
                    c->xcov += c->r_cov & 0x3FF;
                }
            }
            attr |= (uint32_t)cov << RASTER_ATTR_COV_SHIFT;
            if (addr < RASTER_BUF_SIZE) {
                /* push the old pixel to the lower layer */
                r->color[addr + RASTER_BUF_SIZE] = r->color[addr];
                r->depth[addr + RASTER_BUF_SIZE] = r->depth[addr];
                r->attr[addr + RASTER_BUF_SIZE] = r->attr[addr];
            }
        }
        r->depth[addr] = (uint32_t)z;
        r->color[addr] = color;
        r->attr[addr] = attr;
        return;
    }

    bool write_z = polyattr_trans_depth(rp->poly->attr) != 0;
    bool shadow = (flags & SPAN_SHADOW) != 0;
    plot_translucent(r, addr, color, z, write_z, rp->polyattr, shadow);
    if ((dstattr & RASTER_ATTR_EDGE_MASK) && addr < RASTER_BUF_SIZE)
        plot_translucent(r, addr + RASTER_BUF_SIZE, color, z, write_z, rp->polyattr, shadow);
}

/* The pixel's colour from its attributes (vr, vg, vb: the vertex colour, s, t: the texcoords)
 * by the span's shading (plot and plot_lin1). */
SPAN_INLINE uint32_t plot_color(const span_line *c, const span_k *k, int flags, uint32_t vr,
                                uint32_t vg, uint32_t vb, int32_t s, int32_t t)
{
    if (flags & SPAN_SHADE_MODDEC)
        return span_moddec(k, vr, vg, vb, s, t, (flags & SPAN_FLAT) != 0,
                           (flags & SPAN_TEX_PLAIN) != 0);
    if (flags & SPAN_FLAT) return k->flat;
    if (flags & SPAN_SHADE_VERTEX) /* = raster_shade_vertex, the alpha from k */
        return (vr >> 3) | ((vg >> 3) << 8) | ((vb >> 3) << 16) | k->p->valpha;
    return raster_shade(&c->rp->shader, vr, vg, vb, s, t);
}

/* One pixel of a polygon line (melonDS RenderPolygonScanline's pixel body). @p d: the linear
 * accumulators at x (SPAN_DDA only). */
SPAN_INLINE void plot(span_line *c, int32_t x, uint32_t edge, int part, int flags,
                      const span_dda *d, const span_k *k)
{
    raster_engine *r = c->r;
    const int dt = flags & SPAN_DEPTH_MASK;
    const bool wbuf = (flags & SPAN_WBUFFER) != 0;
    uint32_t addr = c->line + (uint32_t)x;
    uint32_t dstattr = r->attr[addr];

    if (flags & SPAN_SHADOW) {
        uint8_t st = c->stencil[x];
        if (!st) return;
        if (!(st & 1)) addr += RASTER_BUF_SIZE;
        if (!(st & 2)) dstattr &= ~RASTER_ATTR_EDGE_MASK; /* not under AA edges */
    }

    const raster_interp *ix = &c->ix;
    int32_t xr = x - ix->x0;
    uint32_t f[2];
    int32_t z;
    if (flags & SPAN_DDA) {
        z = dsgx_wrap32(c->zbase + dsgx_asr64(d->zacc, 13));
    } else if (wbuf) {
        span_factor(c, xr, f);
        z = span_wz(c, f);
    } else {
        z = span_zz(c, xr);
    }

    /* the overlapping-edge rule (curse.c): a role that wins over the pixel's replaces it, one
     * that loses to it leaves it alone, whatever the depths; otherwise the depth test */
    bool forced = false;
    if (flags & SPAN_CURSE) {
        uint32_t role = part == PART_LEFT ? c->roles[RASTER_ATTR_EDGE_LEFT]
                        : part == PART_RIGHT
                            ? c->roles[RASTER_ATTR_EDGE_RIGHT]
                            : c->roles[edge & (RASTER_ATTR_EDGE_LEFT | RASTER_ATTR_EDGE_RIGHT)];
        int verdict = raster_curse_verdict(dstattr, k->p->polyattr, role);
        if (verdict < 0) return;
        forced = verdict > 0;
        edge |= role;
    }
    if (!forced && !plot_depth(r, dt, &addr, &dstattr, z)) return;

    /* texcoords are not interpolated for untextured vertex colour (never read) */
    const bool tex = !(flags & SPAN_SHADE_VERTEX);
    uint32_t vr, vg, vb;
    int32_t s = 0, t = 0;
    if (flags & SPAN_DDA) {
        vr = vg = vb = 0; /* flat: unused, the span's colour is flat_color */
        if (!(flags & SPAN_FLAT)) {
            vr = dda_attr(c, d, 0);
            vg = dda_attr(c, d, 1);
            vb = dda_attr(c, d, 2);
        }
        if (tex) {
            s = (int32_t)dda_attr(c, d, 3);
            t = (int32_t)dda_attr(c, d, 4);
        }
    } else if (!ix->linear) {
        if (!wbuf) span_factor(c, xr, f);
        vr = (uint32_t)span_attr_persp(c, 0, f[0]);
        vg = (uint32_t)span_attr_persp(c, 1, f[0]);
        vb = (uint32_t)span_attr_persp(c, 2, f[0]);
        if (tex) {
            s = span_attr_persp(c, 3, f[0]);
            t = span_attr_persp(c, 4, f[0]);
        }
    } else if (c->lin_fast) {
        /* linear, every d * x < 2^25: one multiply by lin_recip (see interp.h) */
        const uint32_t xs[2] = {(uint32_t)xr, (uint32_t)(ix->xdiff - xr)};
        vr = span_attr_lin_fast(c, 0, xs);
        vg = span_attr_lin_fast(c, 1, xs);
        vb = span_attr_lin_fast(c, 2, xs);
        if (tex) {
            s = (int32_t)span_attr_lin_fast(c, 3, xs);
            t = (int32_t)span_attr_lin_fast(c, 4, xs);
        }
    } else {
        const int32_t xs[2] = {xr, ix->xdiff - xr};
        vr = (uint32_t)span_attr_linear(c, 0, xs);
        vg = (uint32_t)span_attr_linear(c, 1, xs);
        vb = (uint32_t)span_attr_linear(c, 2, xs);
        if (tex) {
            s = span_attr_linear(c, 3, xs);
            t = span_attr_linear(c, 4, xs);
        }
    }
    uint32_t color = plot_color(c, k, flags, vr, vg, vb, s, t);
    plot_write(c, addr, dstattr, z, color, edge, part, flags, k);
}

/* Attribute @p k of a plot1 pixel: at factor @p f0 (persp) or at xs (a lin_fast line). */
SPAN_INLINE uint32_t plot1_attr(const span_line *c, int k, bool persp, uint32_t f0,
                                const uint32_t xs[2])
{
    return persp ? (uint32_t)span_attr_persp(c, k, f0) : span_attr_lin_fast(c, k, xs);
}

/*
 * One pixel of a Z-buffered line whose kind is known (flags without SPAN_DDA, SPAN_SHADOW,
 * SPAN_WBUFFER or SPAN_AA, which the span functions that call it never have): plot's pixel
 * with the depth first, and the span's constants (span_k), the factor, the attributes and the
 * texel only once the depth test (or the overlapping-edge rule) lets the pixel through. The same
 * pixels and writes as plot (unit.test_raster_span_diff). @p persp is a constant at each call:
 * - plot_lin1: a linear lin_fast line (the one-pixel spans of draw_vec_line and
 *   draw_vec8_line), no perspective or lin_fast test;
 * - plot_persp1: a perspective line (the one-pixel spans of span_vec8.h draw_persp8_line).
 *   draw_line took such a span through its three runs (~245 instructions a call,
 *   scene_terrain ~400 calls a frame).
 */
SPAN_INLINE void plot1(span_line *c, int32_t x, uint32_t edge, int flags, bool persp)
{
    raster_engine *r = c->r;
    uint32_t addr = c->line + (uint32_t)x;
    uint32_t dstattr = r->attr[addr];
    const int32_t xr = x - c->ix.x0;
    const int32_t z = span_zz(c, xr);

    bool forced = false;
    if (flags & SPAN_CURSE) { /* plot's rule, PART_INSIDE */
        uint32_t role = c->roles[edge & (RASTER_ATTR_EDGE_LEFT | RASTER_ATTR_EDGE_RIGHT)];
        int verdict = raster_curse_verdict(dstattr, c->rp->spk.polyattr, role);
        if (verdict < 0) return;
        forced = verdict > 0;
        edge |= role;
    }
    if (!forced && !plot_depth(r, flags & SPAN_DEPTH_MASK, &addr, &dstattr, z)) return;

    span_k k;
    span_k_init(c, &k, flags);
    span_k_factors(&k, flags);
    uint32_t f[2] = {0, 0};
    if (persp) span_factor(c, xr, f);
    const uint32_t xs[2] = {(uint32_t)xr, (uint32_t)(c->ix.xdiff - xr)};
    uint32_t vr = 0, vg = 0, vb = 0; /* flat: unused, the span's colour is flat_color */
    int32_t s = 0, t = 0;
    if (!(flags & SPAN_FLAT)) {
        vr = plot1_attr(c, 0, persp, f[0], xs);
        vg = plot1_attr(c, 1, persp, f[0], xs);
        vb = plot1_attr(c, 2, persp, f[0], xs);
    }
    if (!(flags & SPAN_SHADE_VERTEX)) { /* texcoords: as plot, only where they are read */
        s = (int32_t)plot1_attr(c, 3, persp, f[0], xs);
        t = (int32_t)plot1_attr(c, 4, persp, f[0], xs);
    }
    uint32_t color = plot_color(c, &k, flags, vr, vg, vb, s, t);
    plot_write(c, addr, dstattr, z, color, edge, PART_INSIDE, flags, &k);
}

SPAN_INLINE void plot_lin1(span_line *c, int32_t x, uint32_t edge, int flags)
{
    plot1(c, x, edge, flags, false);
}

SPAN_INLINE void plot_persp1(span_line *c, int32_t x, uint32_t edge, int flags)
{
    plot1(c, x, edge, flags, true);
}

#include "raster/span_vec.h"

/* The line set-up of the span's attributes without SSE2 (span.c span_prepare; with SSE2
 * span.c's span_attrs_prepare_vec, from the values in registers): raster_attr_prepare of the
 * five attributes r, g, b, s, t from their values @p a0 at the span's start and @p a1 at its
 * end (five int32 each), into c->a_base / a_d / a_sel, and for a perspective span (@p persp)
 * a_pd / a_ps. */
SPAN_INLINE void span_attrs_prepare(span_line *c, const int32_t *a0, const int32_t *a1, bool persp)
{
    for (int k = 0; k < 5; k++) {
        bool lt = a0[k] < a1[k];
        c->a_sel[k] = lt ? 0u : 1u;
        c->a_base[k] = (uint32_t)(lt ? a0[k] : a1[k]);
        c->a_d[k] = lt ? (uint32_t)a1[k] - (uint32_t)a0[k] : (uint32_t)a0[k] - (uint32_t)a1[k];
        if (!persp) continue;
        c->a_ps[k] = (uint32_t)a1[k] - (uint32_t)a0[k];
        c->a_pd[k] = lt ? 0u : c->a_d[k] << 8;
    }
}

/* Whether every attribute's d * xdiff < 2^25 (lin_fast's bound; xdiff <= 1024): the OR of the
 * products is below 2^25 exactly when each is. */
SPAN_INLINE bool span_attrs_lin_fast(const span_line *c, int32_t xdiff)
{
    uint64_t any = 0;
    for (int k = 0; k < 5; k++) any |= (uint64_t)c->a_d[k] * (uint32_t)xdiff;
    return any >> 25 == 0;
}

static inline int32_t min32(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

/* The three runs of one line (melonDS RenderPolygonScanline, parts 1-3). @p xcut: the
 * timing model's limit (pixels x < xcut only). */
/* Pixels [x, end) of one run: with SPAN_DDA the accumulators (at pixel dx) step with x; they
 * are set up again only where x jumps over pixels (an edge run that is not filled). */
#define RUN(x, end, body)                                                                          \
    do {                                                                                           \
        if ((flags & SPAN_DDA) && (x) < (end) && (x) != dx) dda_init(c, dx = (x), &d, k0, nattr);  \
        for (; (x) < (end); (x)++) {                                                               \
            body;                                                                                  \
            if (flags & SPAN_DDA) dda_step(&d, k0, nattr), dx++;                                   \
        }                                                                                          \
    } while (0)

#if SPAN_VEC
/* x * m + b for the span's factor terms, as 64-bit integers. */
static inline int64_t persp_term(int32_t x, int64_t m, int64_t b)
{
    return (int64_t)x * m + b;
}

/* Whether draw_vec's perspective arithmetic is exact on pixels [xs, xe) of a perspective (or
 * W-buffered) line, checked at the first and last pixel (every term is linear in x, or a ratio
 * of two linear terms with a positive denominator, so monotone): numerator (xr * w0n) << 8 in
 * [0, 2^32), denominator xr * den_step + den_base in [1, 2^31) (no wrap: span_factor's
 * unsigned division), factor <= 256; each attribute's difference d <= 2^16 (d * factor <=
 * 2^24: exact in float); W-buffer 0 <= zk < 2^32. */
static inline bool persp_ok(const span_line *c, int32_t xs, int32_t xe, int flags)
{
    const raster_interp *ix = &c->ix;
    if (ix->linear || xs >= xe) return false;
    bool ok = true;
    for (int e = 0; e < 2; e++) {
        int32_t xr = (e ? xe - 1 : xs) - ix->x0;
        int64_t num = persp_term(xr, (int64_t)ix->w0n * 256, 0);
        int64_t den = persp_term(xr, c->den_step, c->den_base);
        /* (floor(num / den) <= 256 is num < 257 * den for den > 0: no division) */
        ok = ok && num >= 0 && num <= (int64_t)UINT32_MAX && den > 0 && den <= INT32_MAX &&
             num < 257 * den;
    }
    for (int a = 0; a < ((flags & SPAN_SHADE_VERTEX) ? 3 : 5); a++) ok = ok && c->a_d[a] <= 65536u;
    if (flags & SPAN_WBUFFER) ok = ok && c->zk >= 0 && c->zk <= (int64_t)UINT32_MAX;
    return ok;
}
#endif

/* Pixels [xs, xe) of a SPAN_DDA line without anti-aliasing as one loop, the edge flag
 * chosen per pixel: left run before lim1, right run from lim2 (see draw_line). */
SPAN_INLINE void draw_short(span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2,
                            int flags, const span_k *kp)
{
    span_dda d;
    d.zacc = d.zstep = 0;
    int32_t dx = INT32_MIN;
    const int nattr = (flags & SPAN_SHADE_VERTEX) ? ((flags & SPAN_FLAT) ? 0 : 3) : 5;
    const int k0 = (flags & SPAN_FLAT) ? 3 : 0;
    for (int i = k0; i < nattr; i++) d.acc[i] = d.step[i] = 0; /* (quiets -Wmaybe-uninitialized) */
    RUN(xs, xe,
        plot(c, xs,
             c->yedge | (xs < lim1   ? RASTER_ATTR_EDGE_LEFT
                         : xs < lim2 ? 0u
                                     : RASTER_ATTR_EDGE_RIGHT),
             PART_INSIDE, flags, &d, kp));
}

/* A line's pixel runs (draw_line, draw_vec_line, draw_persp_line): the first pixel x and the
 * end end1 (clipped to the screen and the timing model's cut xcut); left run [x, lim1) if
 * filled, inside [max(x, lim1), lim2), right run from there to end1 if filled; [xs, xe) the
 * pixels drawn, as one range. */
typedef struct span_runs {
    int32_t x, end1, lim1, lim2, xs, xe;
} span_runs;

static inline span_runs span_line_runs(const span_line *c, int32_t xcut)
{
    span_runs u;
    u.x = c->xstart < 0 ? 0 : c->xstart;
    u.end1 = min32(c->xend + 1, min32(256, xcut));
    u.lim1 = min32(c->xstart + c->l_len, u.end1);
    u.lim2 = min32(c->xend - c->r_len + 1, u.end1);
    int32_t after_left = c->l_fill ? (u.x > u.lim1 ? u.x : u.lim1) : (u.lim1 < 0 ? 0 : u.lim1);
    int32_t after_inside = after_left > u.lim2 ? after_left : u.lim2;
    u.xs = c->l_fill ? u.x : after_left;
    u.xe = c->r_fill ? u.end1 : after_inside;
    return u;
}

SPAN_INLINE void draw_line(span_line *c, int32_t xcut, int flags)
{
    span_dda d;
    d.zacc = d.zstep = 0;   /* (the rest is set by dda_init before any use: dx) */
    int32_t dx = INT32_MIN; /* pixel of the accumulators (none yet) */
    /* vertex colour: no texcoords; flat colour: no colour (flat vertex colour: nothing) */
    const int nattr = (flags & SPAN_SHADE_VERTEX) ? ((flags & SPAN_FLAT) ? 0 : 3) : 5;
    const int k0 = (flags & SPAN_FLAT) ? 3 : 0;
    span_k k;
    span_k_init(c, &k, flags);
    span_k_factors(&k, flags);
    for (int i = k0; i < nattr; i++) d.acc[i] = d.step[i] = 0; /* (quiets -Wmaybe-uninitialized) */
    const bool wire = c->rp->wireframe;
    const span_runs u = span_line_runs(c, xcut);
    int32_t x = u.x, end1 = u.end1;
    int32_t xlimit;

    /* Short lines without anti-aliasing: a pixel's run only decides its edge flag (plot reads
     * the part for the coverage alone), so the three runs below are drawn as one loop: the
     * same pixels in the same order, the flag chosen per pixel by comparing x with the runs'
     * limits. Left run [x, lim1) if filled, inside [max(x, lim1), lim2), right run from there
     * to end1 if filled (the runs below, with their x carried from one to the next). One loop
     * exit per line instead of three pays on heavy scenes' few-pixel lines; on long lines, and
     * on perspective spans (their pixels cost more), the per-pixel choice costs more than it
     * saves (callgrind: c_textured_quad, scene_terrain), so they keep the three loops. */
    const int32_t lim1 = u.lim1, lim2 = u.lim2, xs = u.xs, xe = u.xe;
    if ((flags & SPAN_DDA) && !(flags & SPAN_AA) && !wire && xe - xs <= 16) {
        draw_short(c, xs, xe, lim1, lim2, flags, &k);
        return;
    }

    /* left edge */
    xlimit = min32(c->xstart + c->l_len, end1);
    if ((uint32_t)c->l_cov & RASTER_COV_XMAJOR) {
        c->xcov = (c->l_cov >> 12) & 0x3FF;
        if (c->xcov == 0x3FF) c->xcov = 0;
    }
    if (!c->l_fill) {
        x = xlimit < 0 ? 0 : xlimit;
    } else {
        RUN(x, xlimit, plot(c, x, c->yedge | RASTER_ATTR_EDGE_LEFT, PART_LEFT, flags, &d, &k));
    }

    /* inside (wireframe: only the first and last line) */
    xlimit = min32(c->xend - c->r_len + 1, end1);
    if (wire && !c->yedge) {
        if (x < xlimit) x = xlimit;
    } else {
#if SPAN_VEC
        /* anti-aliasing: the inside of a line that is not the first or last has no edge flag,
         * so its pixels take no coverage and are drawn as without anti-aliasing, four at a
         * time where the arithmetic allows (opaque polygons: see raster_span_select_poly);
         * the same for the overlapping-edge rule (SPAN_CURSE, curse.c): such pixels have no
         * role, so the rule leaves them to the depth test */
        if ((flags & (SPAN_AA | SPAN_CURSE)) && (flags & (SPAN_SHADE_MODDEC | SPAN_SHADE_VERTEX)) &&
            !c->yedge && k.p->valpha == 31u << 24 && xlimit - x > SPAN_VEC_MIN &&
            ((flags & SPAN_DDA) || persp_ok(c, x, xlimit, flags))) {
            /* (no role, so no rule: draw_vec without SPAN_CURSE) */
            draw_vec(c, x, xlimit, INT32_MIN, INT32_MAX, flags & ~SPAN_CURSE, &k, false);
            x = xlimit;
        }
#endif
        RUN(x, xlimit, plot(c, x, c->yedge, PART_INSIDE, flags, &d, &k));
    }

    /* right edge */
    if ((uint32_t)c->r_cov & RASTER_COV_XMAJOR) {
        c->xcov = (c->r_cov >> 12) & 0x3FF;
        if (c->xcov == 0x3FF) c->xcov = 0;
    }
    if (c->r_fill) {
        RUN(x, end1, plot(c, x, c->yedge | RASTER_ATTR_EDGE_RIGHT, PART_RIGHT, flags, &d, &k));
    }
}

#if SPAN_VEC
/* A SPAN_DDA line with fused shading, without anti-aliasing, of a polygon that is not
 * wireframe (span_fns.c chooses these per polygon): the runs of draw_line's short loop, then
 * draw_vec (span_vec.h) on [xs, xe), whatever the length. */
SPAN_INLINE void draw_vec_line(span_line *c, int32_t xcut, int flags)
{
    const span_runs u = span_line_runs(c, xcut);
    const int32_t lim1 = u.lim1, lim2 = u.lim2, xs = u.xs, xe = u.xe;
    if (xe - xs == 1) {
        /* one pixel: its depth and attributes straight from the span's products (the line
         * is lin_fast), no accumulators to set up, the constants only past the depth test */
        uint32_t edge = xs < lim1 ? RASTER_ATTR_EDGE_LEFT : xs < lim2 ? 0u : RASTER_ATTR_EDGE_RIGHT;
        plot_lin1(c, xs, c->yedge | edge, flags & ~SPAN_DDA);
        return;
    }
    span_k k;
    span_k_init(c, &k, flags);
    if (xe - xs <= SPAN_VEC_MIN) {
        span_k_factors(&k, flags);
        draw_short(c, xs, xe, lim1, lim2, flags, &k);
    } else if (xe - xs <= 4)
        draw_vec(c, xs, xe, lim1, lim2, flags, &k, true);
    else
        draw_vec(c, xs, xe, lim1, lim2, flags, &k, false);
}
#endif

#if SPAN_VEC
/* A perspective (or W-buffered) line with fused shading, without anti-aliasing, of a polygon
 * that is not wireframe: draw_vec when the span's factor and attributes stay in the ranges
 * where its arithmetic is exact, else draw_line. Checked at the first and last pixel (every
 * term is linear in x, or a ratio of two linear terms with a positive denominator, so
 * monotone): numerator (xr * w0n) << 8 in [0, 2^32), denominator xr * den_step + den_base in
 * [1, 2^31) (no wrap: span_factor's unsigned division), factor <= 256; each attribute's
 * difference d <= 2^16 (d * factor <= 2^24: exact in float); W-buffer 0 <= zk < 2^32. */
SPAN_INLINE void draw_persp_line(span_line *c, int32_t xcut, int flags)
{
    const span_runs u = span_line_runs(c, xcut);
    const int32_t lim1 = u.lim1, lim2 = u.lim2, xs = u.xs, xe = u.xe;
    if (xe - xs <= SPAN_VEC_MIN || !persp_ok(c, xs, xe, flags)) {
        draw_line(c, xcut, flags);
        return;
    }
    span_k k;
    span_k_init(c, &k, flags);
    draw_vec(c, xs, xe, lim1, lim2, flags, &k, false);
}
#endif

/** The span function for a polygon line, from the polygon's choice (raster_span_select_poly):
 *  the SPAN_DDA variant when the line's span is linear with small products, with one colour
 *  (SPAN_FLAT, sets c->flat_color) when an untextured span's colour does not change. Inline:
 *  once per polygon line. */
static inline raster_span_fn raster_span_choose(const raster_poly *rp, span_line *c)
{
    if (rp->span_lin && c->ix.linear && c->lin_fast) {
        if (rp->span_flat && (c->a_d[0] | c->a_d[1] | c->a_d[2]) == 0) {
            /* every pixel gets the colour of the span's start (the vertex colour's 6-bit
             * channels, which a textured flat span modulates: span_k_init): = raster_shade_vertex
             * with the alpha from the pixel loop's constants (spk.valpha, which the loop reads
             * anyway; the shader's own fields would be one more cache line per line) */
            c->flat_color = (c->a_base[0] >> 3) | ((c->a_base[1] >> 3) << 8) |
                            ((c->a_base[2] >> 3) << 16) | rp->spk.valpha;
            return rp->span_flat;
        }
        return rp->span_lin;
    }
    if (rp->spk.pflat && (c->a_d[0] | c->a_d[1] | c->a_d[2]) == 0) {
        /* the same for the other spans (perspective, W-buffer) with a vector variant: the
         * colour a_base + ((a_pd + a_ps * f0) >> 8) is a_base where every d is 0 */
        c->flat_color = (c->a_base[0] >> 3) | ((c->a_base[1] >> 3) << 8) |
                        ((c->a_base[2] >> 3) << 16) | rp->spk.valpha;
        return rp->spk.pflat;
    }
    return rp->span_gen;
}

#endif
