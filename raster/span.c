/*
 * span.c - the scanline loop of the rendering engine: per polygon and line, the span between
 * the left and right edges, the fill rules of its edge runs, the depth test, shadow stencil,
 * alpha test, and the opaque / translucent writes into the two-layer buffers.
 *
 * Hardware notes (facts from melonDS GPU3D_Soft.cpp RenderPolygonScanline /
 * RenderShadowMaskScanline / PlotTranslucentPixel / DepthTest_*, the reference of our frames;
 * behaviours melonDS marks as verified on hardware are noted there, the rest is its model):
 *  - A line's span is split into the left edge's run (edge flag 1), the inside, and the right
 *    edge's run (edge flag 2); the first and last line add flags 4 and 8. Right vertical edges
 *    are pushed 1 pixel left (unless the span is a single pixel on a vertical left edge, or at
 *    x = 0). Crossed (swapped) edges are drawn from the right edge to the left one with the
 *    edge runs forced to 1 pixel.
 *  - Fill rules of opaque edge runs: left runs are drawn when the slope is <= 1 or negative,
 *    right runs when the slope is > 1 or vertical, the bottom pixel of X-major edges next to a
 *    flat bottom, and identical fully overlapping edges; every edge is drawn with
 *    anti-aliasing or edge marking, for translucent polygons with blending on, and for
 *    wireframe polygons (which draw only edges, plus their top and bottom lines).
 *  - Depth test less-than; less-or-equal for a front-facing pixel over an opaque back-facing
 *    one; POLYGON_ATTR bit 14 equal test with tolerance 0x200 (Z-buffer) / 0xFF (W-buffer). A
 *    failed test against an edge pixel is retried against the pixel underneath.
 *  - Alpha test: pixels with alpha <= ALPHA_TEST_REF (0 when the test is off) are dropped.
 *  - Opaque pixels (alpha 31) replace colour, depth and attributes; with anti-aliasing, edge
 *    pixels push the old pixel to the lower layer and store their coverage.
 *  - Translucent pixels are not drawn over a pixel with the same translucent polygon ID (shadow
 *    polygons: nor over an opaque pixel with their own ID), keep the fog flag only if the pixel
 *    under them had it, blend with DISP3DCNT bit 3 (raster_pixel_blend), write depth only with
 *    POLYGON_ATTR bit 11, and are also blended into the lower layer of edge pixels.
 *  - Shadow masks (mode 3, ID 0) draw nothing: they set stencil bits where their depth test
 *    FAILS; shadow polygons (ID != 0) draw only where a stencil bit is set.
 *  - Guess (melonDS's own TODOs): wireframe equal-Z rules, edge fill of swapped shadow masks.
 *
 * Performance: everything polygon-constant (shadow or not, depth test, buffer mode,
 * anti-aliasing) selects one of the specialised span functions once per polygon line
 * (span_fns[]); the pixel loops below contain no dispatch on it.
 */
#include "gx/regs.h"
#include "raster/raster_internal.h"

#if defined(__GNUC__)
#define SPAN_INLINE static inline __attribute__((always_inline))
#else
#define SPAN_INLINE static inline
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
    SPAN_FLAT = 256,        /* with SPAN_SHADE_VERTEX: one colour on the whole span */
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
    raster_attr_prep ap[5];     /* r, g, b, s, t along the span */
    uint64_t lin_dr[5];         /* linear spans: d * lin_recip per attribute */
    bool lin_fast;              /* linear span whose products all stay below 2^25 */
    int32_t cl[3], cr[3];       /* vertex colour at the left / right end */
    int32_t sl, tl, sr, tr;
    int32_t l_cov, r_cov; /* edge coverage words */
    int32_t xcov;         /* running X-major coverage */
    int32_t xstart, xend;
    uint32_t flat_color; /* SPAN_FLAT: the shaded colour of every pixel */
    int32_t l_len, r_len;
    bool l_fill, r_fill;
    uint32_t yedge;
} span_line;

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
static void plot_translucent(raster_engine *r, uint32_t addr, uint32_t color, int32_t z,
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

/* Accumulators at pixel x (run start); @p n: attributes used (3: colour only, 5: with the
 * texcoords). */
SPAN_INLINE void dda_init(const span_line *c, int32_t x, span_dda *d, int n)
{
    uint64_t xr = (uint32_t)(x - c->ix.x0), xl = (uint32_t)(c->ix.xdiff - (x - c->ix.x0));
    for (int k = 0; k < n; k++) {
        d->acc[k] = c->lin_dr[k] * (c->ap[k].sel ? xl : xr);
        d->step[k] = c->ap[k].sel ? 0u - c->lin_dr[k] : c->lin_dr[k];
    }
    d->zacc = c->zk * (int64_t)(c->zsel ? xl : xr);
    d->zstep = c->zsel ? -c->zk : c->zk;
}

/* Move the accumulators to the next pixel (steps: +-dr, +-zk, signs chosen in dda_init; the
 * unsigned wrap of "+ (0 - dr)" is exactly "- dr"). */
SPAN_INLINE void dda_step(span_dda *d, int n)
{
    for (int k = 0; k < n; k++) d->acc[k] += d->step[k];
    d->zacc += d->zstep;
}

/* Attribute k at the accumulators' pixel (= the lin_fast formula in plot). */
SPAN_INLINE uint32_t dda_attr(const span_line *c, const span_dda *d, int k)
{
    return c->ap[k].base + (uint32_t)(d->acc[k] >> 35);
}

/* One pixel of a polygon line (melonDS RenderPolygonScanline's pixel body). @p d: the linear
 * accumulators at x (SPAN_DDA only). */
SPAN_INLINE void plot(span_line *c, int32_t x, uint32_t edge, int part, int flags,
                      const span_dda *d)
{
    raster_engine *r = c->r;
    const raster_poly *rp = c->rp;
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

    if (!depth_pass(dt, (int32_t)r->depth[addr], z, dstattr)) {
        /* retry against the pixel under an edge pixel */
        if (!(dstattr & RASTER_ATTR_EDGE_MASK) || addr >= RASTER_BUF_SIZE) return;
        addr += RASTER_BUF_SIZE;
        dstattr = r->attr[addr];
        if (!depth_pass(dt, (int32_t)r->depth[addr], z, dstattr)) return;
    }

    /* texcoords are not interpolated for untextured vertex colour (never read) */
    const bool tex = !(flags & SPAN_SHADE_VERTEX);
    uint32_t vr, vg, vb;
    int32_t s = 0, t = 0;
    if (flags & SPAN_FLAT) {
        vr = vg = vb = 0; /* unused: the span's colour is flat_color */
    } else if (flags & SPAN_DDA) {
        vr = dda_attr(c, d, 0);
        vg = dda_attr(c, d, 1);
        vb = dda_attr(c, d, 2);
        if (tex) {
            s = (int32_t)dda_attr(c, d, 3);
            t = (int32_t)dda_attr(c, d, 4);
        }
    } else if (!ix->linear) {
        if (!wbuf) span_factor(c, xr, f);
        vr = (uint32_t)raster_attr_persp(&c->ap[0], f, 8);
        vg = (uint32_t)raster_attr_persp(&c->ap[1], f, 8);
        vb = (uint32_t)raster_attr_persp(&c->ap[2], f, 8);
        if (tex) {
            s = raster_attr_persp(&c->ap[3], f, 8);
            t = raster_attr_persp(&c->ap[4], f, 8);
        }
    } else if (c->lin_fast) {
        /* linear, every d * x < 2^25: one multiply by d * lin_recip (see interp.h) */
        const uint64_t xs[2] = {(uint64_t)xr, (uint64_t)(ix->xdiff - xr)};
        vr = c->ap[0].base + (uint32_t)((c->lin_dr[0] * xs[c->ap[0].sel]) >> 35);
        vg = c->ap[1].base + (uint32_t)((c->lin_dr[1] * xs[c->ap[1].sel]) >> 35);
        vb = c->ap[2].base + (uint32_t)((c->lin_dr[2] * xs[c->ap[2].sel]) >> 35);
        if (tex) {
            s = (int32_t)(c->ap[3].base + (uint32_t)((c->lin_dr[3] * xs[c->ap[3].sel]) >> 35));
            t = (int32_t)(c->ap[4].base + (uint32_t)((c->lin_dr[4] * xs[c->ap[4].sel]) >> 35));
        }
    } else {
        const int32_t xs[2] = {xr, ix->xdiff - xr};
        vr = (uint32_t)raster_attr_linear(ix, &c->ap[0], xs);
        vg = (uint32_t)raster_attr_linear(ix, &c->ap[1], xs);
        vb = (uint32_t)raster_attr_linear(ix, &c->ap[2], xs);
        if (tex) {
            s = raster_attr_linear(ix, &c->ap[3], xs);
            t = raster_attr_linear(ix, &c->ap[4], xs);
        }
    }
    uint32_t color;
    if (flags & SPAN_FLAT)
        color = c->flat_color;
    else if (flags & SPAN_SHADE_VERTEX)
        color = raster_shade_vertex(&rp->shader, vr, vg, vb);
    else if (flags & SPAN_SHADE_MODDEC)
        color = raster_shade_modulate_decoded(&rp->shader, vr, vg, vb, s, t);
    else
        color = raster_shade(&rp->shader, vr, vg, vb, s, t);
    uint32_t alpha = color >> 24;

    if (alpha <= r->alpha_ref) return;

    if (alpha == 31) {
        uint32_t attr = rp->polyattr | edge;
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

static int32_t min32(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

/* The three runs of one line (melonDS RenderPolygonScanline, parts 1-3). @p xcut: the
 * timing model's limit (pixels x < xcut only). */
/* Pixels [x, end) of one run: with SPAN_DDA the accumulators (at pixel dx) step with x; they
 * are set up again only where x jumps over pixels (an edge run that is not filled). */
#define RUN(x, end, body)                                                                          \
    do {                                                                                           \
        if ((flags & SPAN_DDA) && (x) < (end) && (x) != dx) dda_init(c, dx = (x), &d, nattr);      \
        for (; (x) < (end); (x)++) {                                                               \
            body;                                                                                  \
            if (flags & SPAN_DDA) dda_step(&d, nattr), dx++;                                       \
        }                                                                                          \
    } while (0)

SPAN_INLINE void draw_line(span_line *c, int32_t xcut, int flags)
{
    span_dda d;
    d.zacc = d.zstep = 0; /* (the rest is set by dda_init before any use: dx) */
    int32_t dx = INT32_MIN; /* pixel of the accumulators (none yet) */
    /* vertex colour: no texcoords; flat colour: no attribute at all */
    const int nattr = (flags & SPAN_FLAT) ? 0 : (flags & SPAN_SHADE_VERTEX) ? 3 : 5;
    const bool wire = c->rp->wireframe;
    int32_t x = c->xstart < 0 ? 0 : c->xstart;
    int32_t end1 = min32(c->xend + 1, min32(256, xcut));
    int32_t xlimit;

    /* left edge */
    xlimit = min32(c->xstart + c->l_len, end1);
    if ((uint32_t)c->l_cov & RASTER_COV_XMAJOR) {
        c->xcov = (c->l_cov >> 12) & 0x3FF;
        if (c->xcov == 0x3FF) c->xcov = 0;
    }
    if (!c->l_fill) {
        x = xlimit < 0 ? 0 : xlimit;
    } else {
        RUN(x, xlimit, plot(c, x, c->yedge | RASTER_ATTR_EDGE_LEFT, PART_LEFT, flags, &d));
    }

    /* inside (wireframe: only the first and last line) */
    xlimit = min32(c->xend - c->r_len + 1, end1);
    if (wire && !c->yedge) {
        if (x < xlimit) x = xlimit;
    } else {
        RUN(x, xlimit, plot(c, x, c->yedge, PART_INSIDE, flags, &d));
    }

    /* right edge */
    if ((uint32_t)c->r_cov & RASTER_COV_XMAJOR) {
        c->xcov = (c->r_cov >> 12) & 0x3FF;
        if (c->xcov == 0x3FF) c->xcov = 0;
    }
    if (c->r_fill) {
        RUN(x, end1, plot(c, x, c->yedge | RASTER_ATTR_EDGE_RIGHT, PART_RIGHT, flags, &d));
    }
}

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

typedef void (*span_fn)(span_line *c, int32_t xcut);
static const span_fn span_fns[SPAN_VARIANTS] = {
    span_fn_0x00, span_fn_0x01, span_fn_0x02, span_fn_0x03, span_fn_0x04, span_fn_0x05,
    span_fn_0x06, span_fn_0x07, span_fn_0x08, span_fn_0x09, span_fn_0x0A, span_fn_0x0B,
    span_fn_0x0C, span_fn_0x0D, span_fn_0x0E, span_fn_0x0F, span_fn_0x10, span_fn_0x11,
    span_fn_0x12, span_fn_0x13, span_fn_0x14, span_fn_0x15, span_fn_0x16, span_fn_0x17,
    span_fn_0x18, span_fn_0x19, span_fn_0x1A, span_fn_0x1B, span_fn_0x1C, span_fn_0x1D,
    span_fn_0x1E, span_fn_0x1F,
};

/* Fused-shading variants for the common polygon: no shadow, no anti-aliasing; index
 * = depth test | W-buffer (flags & 7). */
#define SPAN_FN_FUSED(n)                                                                           \
    static void span_fn_vtx_##n(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        draw_line(c, xcut, n | SPAN_SHADE_VERTEX);                                                 \
    }                                                                                              \
    static void span_fn_mod_##n(span_line *c, int32_t xcut)                                        \
    {                                                                                              \
        draw_line(c, xcut, n | SPAN_SHADE_MODDEC);                                                 \
    }
#define SPAN_FN_DDA(n)                                                                             \
    static void span_fn_dvtx_##n(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_line(c, xcut, n | SPAN_SHADE_VERTEX | SPAN_DDA);                                      \
    }                                                                                              \
    static void span_fn_dmod_##n(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_line(c, xcut, n | SPAN_SHADE_MODDEC | SPAN_DDA);                                      \
    }                                                                                              \
    static void span_fn_dgen_##n(span_line *c, int32_t xcut)                                       \
    {                                                                                              \
        draw_line(c, xcut, n | SPAN_DDA);                                                          \
    }                                                                                              \
    static void span_fn_dflat_##n(span_line *c, int32_t xcut)                                      \
    {                                                                                              \
        draw_line(c, xcut, n | SPAN_SHADE_VERTEX | SPAN_DDA | SPAN_FLAT);                          \
    }
SPAN_FN_FUSED(0)
SPAN_FN_FUSED(1)
SPAN_FN_FUSED(2)
SPAN_FN_FUSED(3)
SPAN_FN_FUSED(4)
SPAN_FN_FUSED(5)
SPAN_FN_FUSED(6)
SPAN_FN_FUSED(7)
/* DDA variants exist for the Z-buffer depth tests only (flags 0-3) */
SPAN_FN_DDA(0)
SPAN_FN_DDA(1)
SPAN_FN_DDA(2)
SPAN_FN_DDA(3)
static const span_fn span_fns_dvtx[4] = {span_fn_dvtx_0, span_fn_dvtx_1, span_fn_dvtx_2,
                                         span_fn_dvtx_3};
static const span_fn span_fns_dmod[4] = {span_fn_dmod_0, span_fn_dmod_1, span_fn_dmod_2,
                                         span_fn_dmod_3};
static const span_fn span_fns_dflat[4] = {span_fn_dflat_0, span_fn_dflat_1, span_fn_dflat_2,
                                          span_fn_dflat_3};
static const span_fn span_fns_dgen[4] = {span_fn_dgen_0, span_fn_dgen_1, span_fn_dgen_2,
                                         span_fn_dgen_3};
static const span_fn span_fns_vtx[8] = {span_fn_vtx_0, span_fn_vtx_1, span_fn_vtx_2, span_fn_vtx_3,
                                        span_fn_vtx_4, span_fn_vtx_5, span_fn_vtx_6, span_fn_vtx_7};
static const span_fn span_fns_mod[8] = {span_fn_mod_0, span_fn_mod_1, span_fn_mod_2, span_fn_mod_3,
                                        span_fn_mod_4, span_fn_mod_5, span_fn_mod_6, span_fn_mod_7};

/* The span function of a polygon line: by the polygon's flags and shading, and whether the
 * line's span is linear (SPAN_DDA). */
static span_fn choose_span_fn(const raster_poly *rp, span_line *c)
{
    uint8_t flags = rp->span_flags;
    if (!(flags & (SPAN_SHADOW | SPAN_AA | SPAN_WBUFFER)) && c->ix.linear && c->lin_fast) {
        if (rp->shader.kind == RASTER_SHADE_VERTEX) {
            if ((c->ap[0].d | c->ap[1].d | c->ap[2].d) == 0) {
                /* every pixel gets the colour of the span's start */
                c->flat_color =
                    raster_shade_vertex(&rp->shader, c->ap[0].base, c->ap[1].base, c->ap[2].base);
                return span_fns_dflat[flags & 3u];
            }
            return span_fns_dvtx[flags & 3u];
        }
        if (rp->shader.kind == RASTER_SHADE_MODULATE && rp->shader.decoded)
            return span_fns_dmod[flags & 3u];
        return span_fns_dgen[flags & 3u];
    }
    if (!(flags & (SPAN_SHADOW | SPAN_AA))) {
        if (rp->shader.kind == RASTER_SHADE_VERTEX) return span_fns_vtx[flags & 7u];
        if (rp->shader.kind == RASTER_SHADE_MODULATE && rp->shader.decoded)
            return span_fns_mod[flags & 7u];
    }
    return span_fns[flags];
}

/* ---- shadow masks (melonDS RenderShadowMaskScanline) ---- */

SPAN_INLINE void mask_pixel(span_line *c, int32_t x, int dt, bool wbuf)
{
    raster_engine *r = c->r;
    uint32_t addr = c->line + (uint32_t)x;
    raster_interp_set_pos(&c->ix, x);
    if (wbuf) raster_interp_update_factor(&c->ix);
    int32_t z = raster_interp_z(&c->ix, c->zl, c->zr, wbuf);
    uint32_t dstattr = r->attr[addr];
    if (!depth_pass(dt, (int32_t)r->depth[addr], z, dstattr)) c->stencil[x] = 1;
    if (dstattr & RASTER_ATTR_EDGE_MASK) {
        addr += RASTER_BUF_SIZE;
        if (!depth_pass(dt, (int32_t)r->depth[addr], z, r->attr[addr])) c->stencil[x] |= 2;
    }
}

static void draw_mask_line(span_line *c, int32_t xcut, int dt, bool wbuf)
{
    const bool wire = c->rp->wireframe;
    int32_t x = c->xstart < 0 ? 0 : c->xstart;
    int32_t end1 = min32(c->xend + 1, min32(256, xcut));
    int32_t xlimit = min32(c->xstart + c->l_len, end1);
    if (!c->l_fill) {
        x = xlimit < 0 ? 0 : xlimit;
    } else {
        for (; x < xlimit; x++) mask_pixel(c, x, dt, wbuf);
    }
    xlimit = min32(c->xend - c->r_len + 1, end1);
    if (wire && !c->yedge) {
        if (x < xlimit) x = xlimit;
    } else {
        for (; x < xlimit; x++) mask_pixel(c, x, dt, wbuf);
    }
    if (c->r_fill) {
        for (; x < end1; x++) mask_pixel(c, x, dt, wbuf);
    }
}

/* ---- per polygon line ---- */

/* Span constants for the pixel loops: the same arithmetic as raster_interp_attr/_z along X,
 * with everything that does not depend on the pixel computed once. */
static void span_prepare(span_line *c, bool wbuffer)
{
    const raster_interp *ix = &c->ix;
    c->den_step = ix->w0d - ix->w1d;
    c->den_base = dsgx_wrap32(dsgx_mul64(ix->xdiff, ix->w1d));
    for (int k = 0; k < 3; k++) raster_attr_prepare(&c->ap[k], c->cl[k], c->cr[k]);
    raster_attr_prepare(&c->ap[3], c->sl, c->sr);
    raster_attr_prepare(&c->ap[4], c->tl, c->tr);
    c->lin_fast = false;
    if (ix->linear && ix->lin_recip != 0 && ix->xdiff <= 1024) {
        /* d * x <= d * xdiff: the exactness bound of raster_interp_lindiv holds for the span */
        uint32_t dmax = 0;
        for (int k = 0; k < 5; k++) dmax = c->ap[k].d > dmax ? c->ap[k].d : dmax;
        c->lin_fast = ((uint64_t)dmax * (uint64_t)ix->xdiff) >> 25 == 0;
        for (int k = 0; k < 5; k++) c->lin_dr[k] = (uint64_t)c->ap[k].d * ix->lin_recip;
    }

    int32_t z0 = c->zl, z1 = c->zr;
    c->zsel = z0 < z1 ? 0u : 1u;
    c->zbase = z0 < z1 ? z0 : z1;
    int32_t disp = z0 < z1 ? z1 - z0 : z0 - z1;
    if (ix->xdiff == 0 || z0 == z1) {
        c->zbase = z0;
        c->zk = 0;
    } else if (wbuffer) {
        c->zk = disp; /* base + (disp * f) >> 8 */
    } else {
        c->zk = (int64_t)(disp >> 9) * ix->xrecip_z; /* base + (disp >> 9) * k * recip >> 13 */
    }
}

/* Run lengths of the span's start edge a and end edge b; their coverage only with
 * anti-aliasing (the only reader of l_cov / r_cov). */
static void edge_runs(const raster_poly *rp, const raster_slope *a, const raster_slope *b,
                      bool swapped, span_line *c)
{
    if (rp->span_flags & SPAN_AA) {
        raster_slope_edge_params(a, swapped, &c->l_len, &c->l_cov);
        raster_slope_edge_params(b, swapped, &c->r_len, &c->r_cov);
    } else {
        c->l_len = raster_slope_edge_length(a, swapped);
        c->r_len = raster_slope_edge_length(b, swapped);
        c->l_cov = c->r_cov = 0;
    }
}

/* Edges, span ends, fill rules and edge runs of a polygon on line y (the part of melonDS's
 * scanline functions before the pixel loops). */
static void line_setup(raster_engine *r, raster_poly *rp, int32_t y, span_line *c)
{
    raster_slope *L = &rp->left, *R = &rp->right;

    if (!rp->flat) {
        if (y >= rp->yl_next && rp->cur_l != rp->vbottom) raster_poly_setup_left(r, rp, y);
        if (y >= rp->yr_next && rp->cur_r != rp->vbottom) raster_poly_setup_right(r, rp, y);
    }

    int32_t xstart = rp->xl, xend = rp->xr;
    /* W, colour and texcoords along both edges, from their per-edge preparation */
    int32_t lv[RASTER_EDGE_ATTRS], rv[RASTER_EDGE_ATTRS];
    raster_slope_attr_values(L, lv);
    raster_slope_attr_values(R, rv);
    const int32_t *vs = lv, *ve = rv; /* the span's start and end edge */
    int32_t wl = lv[RASTER_EA_W], wr = rv[RASTER_EA_W];
    c->zl = raster_interp_z(&L->interp, L->z0, L->z1, rp->wbuffer);
    c->zr = raster_interp_z(&R->interp, R->z0, R->z1, rp->wbuffer);

    /* right vertical edges are pushed 1 pixel left (melonDS) */
    if (R->inc == 0 && (L->inc != 0 || xstart != xend) && xend != 0) xend--;

    bool fill_all = rp->fill_all;
    bool bottom = y == rp->ybottom - 1;

    if (xstart > xend) {
        /* crossed edges: draw from the right edge to the left one */
        vs = rv, ve = lv;
        edge_runs(rp, R, L, true, c);
        int32_t tx = xstart;
        xstart = xend, xend = tx;
        int32_t tw = wl;
        wl = wr, wr = tw;
        int32_t tz = c->zl;
        c->zl = c->zr, c->zr = tz;
        bool flatb = bottom && R->x1 != L->x1; /* lower vertices of the span's edges */
        if (fill_all) {
            c->l_fill = c->r_fill = true;
        } else {
            c->l_fill = R->negative || !R->xmajor || (flatb && R->xmajor);
            c->r_fill = (!L->negative && L->xmajor) ||
                        (!(L->negative && L->xmajor) && R->inc == 0) || (flatb && L->xmajor);
        }
    } else {
        edge_runs(rp, L, R, false, c);
        bool flatb = bottom && L->x1 != R->x1;
        if (fill_all) {
            c->l_fill = c->r_fill = true;
        } else {
            c->l_fill = L->negative || !L->xmajor || (flatb && L->xmajor) ||
                        (L->inc == R->inc && xstart + c->l_len == xend + 1);
            c->r_fill = (!R->negative && R->xmajor) || R->inc == 0 || (flatb && R->xmajor);
        }
    }

    /* attributes along the edges */
    for (int k = 0; k < 3; k++) {
        c->cl[k] = vs[RASTER_EA_R + k];
        c->cr[k] = ve[RASTER_EA_R + k];
    }
    c->sl = vs[RASTER_EA_S];
    c->tl = vs[RASTER_EA_T];
    c->sr = ve[RASTER_EA_S];
    c->tr = ve[RASTER_EA_T];

    c->yedge = y == rp->ytop ? RASTER_ATTR_EDGE_TOP : (bottom ? RASTER_ATTR_EDGE_BOTTOM : 0u);
    c->xstart = xstart;
    c->xend = xend;
    c->xcov = 0;
    c->r = r;
    c->rp = rp;
    c->line = raster_addr(0, y);
    c->stencil = &r->stencil[(y & 1) * 256];
    raster_interp_setup_tab(&c->ix, RASTER_INTERP_X, xstart, xend + 1, wl, wr, r->recip);
    span_prepare(c, rp->wbuffer);
}

uint8_t raster_span_flags(const raster_engine *r, const raster_poly *rp)
{
    return (uint8_t)(rp->depth_test | (rp->poly->wbuffer ? SPAN_WBUFFER : 0) |
                     (rp->is_shadow ? SPAN_SHADOW : 0) |
                     (disp3dcnt_antialias(r->disp3dcnt) ? SPAN_AA : 0));
}

static void step_edges(raster_poly *rp)
{
    rp->xl = raster_slope_step(&rp->left);
    rp->xr = raster_slope_step(&rp->right);
}

/* The pixels a line draw may touch, [max(xstart, 0), min(xend + 1, 256, xcut)), as
 * draw_line / draw_mask_line bound them, are made valid for the lazy clear (render.c). */
static void span_touch(raster_engine *r, int32_t y, const span_line *c, int32_t xcut)
{
    int32_t x0 = c->xstart < 0 ? 0 : c->xstart;
    raster_span_begin(r, y, x0, min32(c->xend + 1, min32(256, xcut)));
}

static void mask_line(raster_engine *r, raster_poly *rp, int32_t y)
{
    span_line c;
    if (!r->prev_shadow_mask) {
        for (int i = 0; i < 256; i++) r->stencil[(y & 1) * 256 + i] = 0;
    }
    r->prev_shadow_mask = true;
    line_setup(r, rp, y, &c);

    /* the whole mask has one alpha (shadows use decal); alpha-tested up front, and the edges
     * are then not stepped (melonDS returns early) */
    uint32_t alpha = rp->wireframe ? 31u : rp->alpha;
    if (raster_timing_line_aborted(&r->timing, y)) {
        step_edges(rp);
        return;
    }
    if (alpha <= r->alpha_ref) {
        (void)raster_timing_poly_span(&r->timing, y, c.xstart, c.xend, false);
        return;
    }
    int32_t xcut = raster_timing_poly_span(&r->timing, y, c.xstart, c.xend, true);
    if (xcut >= 0) {
        span_touch(r, y, &c, xcut);
        draw_mask_line(&c, xcut, rp->depth_test, rp->wbuffer);
    }
    step_edges(rp);
}

static void poly_line(raster_engine *r, raster_poly *rp, int32_t y)
{
    span_line c;
    r->prev_shadow_mask = false;
    line_setup(r, rp, y, &c);
    if (!raster_timing_line_aborted(&r->timing, y)) {
        int32_t xcut = raster_timing_poly_span(&r->timing, y, c.xstart, c.xend, true);
        if (xcut >= 0) {
            span_touch(r, y, &c, xcut);
            choose_span_fn(rp, &c)(&c, xcut);
        }
    }
    step_edges(rp);
}

/* The polygons on line y, in render-list order: those still on it from the line above, merged
 * with those whose top line is y. Same set as testing ytop <= y <= ybottom for every polygon. */
static void update_active(raster_engine *r, int32_t y)
{
    uint32_t n = 0, k = 0;
    uint16_t next = y < 256 ? r->start_first[y] : 0xFFFF;
    for (;;) {
        uint16_t a = 0xFFFF;
        while (k < r->nactive) {
            a = r->active[k];
            if (r->polys[a].ybottom >= y) break;
            a = 0xFFFF, k++;
        }
        if (a == 0xFFFF && next == 0xFFFF) break;
        if (next < a) {
            raster_poly_activate(r, &r->polys[next]);
            r->active_tmp[n++] = next;
            next = r->start_next[next];
        } else {
            r->active_tmp[n++] = a;
            k++;
        }
    }
    for (uint32_t i = 0; i < n; i++) r->active[i] = r->active_tmp[i];
    r->nactive = n;
}

void raster_draw_scanline(raster_engine *r, int32_t y)
{
    if (y == 0) r->nactive = 0;
    update_active(r, y);
    /* Lazy clear: a line crossed by many polygons is cleared whole at once (one vectorised
     * fill instead of many small range extensions); same buffer contents either way. */
    if (r->lazy_clear && r->nactive >= 8) raster_span_begin(r, y, 0, 256);
    raster_timing_line_begin(&r->timing, y);
    for (uint32_t i = 0; i < r->nactive; i++) {
        raster_poly *rp = &r->polys[r->active[i]];
        if (y == rp->ybottom && rp->ytop != rp->ybottom) {
            raster_timing_poly_bottom(&r->timing, y);
            continue;
        }
        if (rp->is_mask)
            mask_line(r, rp, y);
        else
            poly_line(r, rp, y);
    }
    raster_timing_line_end(&r->timing, y);
}
