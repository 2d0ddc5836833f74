/*
 * interp.h - the rendering engine's attribute interpolator (perspective-correct, reduced
 * precision), along polygon edges (Y) and along spans (X).
 *
 * Hardware notes (facts from melonDS GPU3D_Soft.h "Notes on the interpolator", the reference our
 * frames are checked against; melonDS's author describes it as a theory matching hardware tests):
 *  - The hardware computes a perspective-correct factor between 0 and 1 from the two W values,
 *    with 9 fraction bits along Y (edges) and 8 along X (spans), then interpolates every
 *    attribute linearly with that factor.
 *  - Linear special case: both W equal with low bits clear (bits 0-6 along X, 1-6 along Y);
 *    then attributes use an exact linear division.
 *  - Along Y an odd W0 with an even W1 uses W0-1 in the numerator and W0+1 in the denominator;
 *    otherwise bit 0 of both W is dropped.
 *  - Depth: W-buffer values use the perspective factor; Z-buffer values are interpolated
 *    linearly through a 22-bit reciprocal of the length, with the difference reduced to 10
 *    bits along Y (then shifted back) and shifted right by 9 along X.
 * All of this is integer arithmetic; the factor division is an exact 64-bit division (melonDS:
 * "this seems to be a proper division on hardware").
 */
#ifndef DSGX_RASTER_INTERP_H
#define DSGX_RASTER_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/fixed.h"

#if defined(__GNUC__)
#define RASTER_HOT static inline __attribute__((always_inline))
#else
#define RASTER_HOT static inline
#endif

/** Interpolation direction: along an edge (Y, 9-bit factor) or along a span (X, 8-bit). */
enum { RASTER_INTERP_X = 0, RASTER_INTERP_Y = 1 };

/* Field order: what moving along a linear edge reads and writes (position, mode) first: an
 * edge keeps its interpolator at the end of its per-line fields (edge.h raster_slope). */
typedef struct raster_interp {
    int32_t x0;      /**< position of the first end point */
    int32_t xdiff;   /**< distance between the end points */
    int32_t x;       /**< current position relative to x0 */
    uint32_t factor; /**< perspective factor, 'shift' fraction bits (wraps like melonDS's u32) */
    bool linear;     /**< equal W: exact linear interpolation */
    uint8_t shift;   /**< 9 along Y, 8 along X */
    uint8_t dir;     /**< RASTER_INTERP_X or RASTER_INTERP_Y */
    int32_t w0n, w0d, w1d; /**< W values in the factor's numerator / denominator */
    int32_t xrecip_z;      /**< (1 << 22) / xdiff for Z-buffer depth, 0 when xdiff is 0 */
    uint64_t lin_recip;    /**< linear mode: floor(2^35 / xdiff) + 1, exact division (see below) */
} raster_interp;

/** Set up between positions @p x0 and @p x1 with W values @p w0, @p w1 (16-bit normalized). */
void raster_interp_setup(raster_interp *ip, int dir, int32_t x0, int32_t x1, int32_t w0,
                         int32_t w1);

/** The set-up's two divisions by the length, tabulated for lengths 1..RASTER_RECIP_MAX (one
 *  table per engine, filled once; a division costs more than the rest of a span's set-up). */
#define RASTER_RECIP_MAX 1024
typedef struct raster_recip {
    int32_t z[RASTER_RECIP_MAX + 1];    /**< (1 << 22) / n */
    int32_t y18[RASTER_RECIP_MAX + 1];  /**< (1 << 18) / n (edge slopes, edge.c) */
    uint64_t lin[RASTER_RECIP_MAX + 1]; /**< floor(2^35 / n) + 1 */
} raster_recip;

void raster_recip_init(raster_recip *t);

/* An interpolator's W along Y: an odd W0 with an even W1 is corrected by one each way;
 * otherwise bit 0 of both W is dropped (melonDS Interpolator::Setup, dir = 1). */
RASTER_HOT void raster_interp_w_y(raster_interp *ip, int32_t w0, int32_t w1)
{
    if ((w0 & 1) && !(w1 & 1)) {
        ip->w0n = w0 - 1;
        ip->w0d = w0 + 1;
        ip->w1d = w1;
    } else {
        ip->w0n = w0 & 0xFFFE;
        ip->w0d = w0 & 0xFFFE;
        ip->w1d = w1 & 0xFFFE;
    }
    ip->shift = 9;
}

/** raster_interp_setup with the reciprocals from @p tab (NULL: divide). Same result. Inline:
 *  the span loop sets one up per polygon line, with dir constant. */
RASTER_HOT void raster_interp_setup_tab(raster_interp *ip, int dir, int32_t x0, int32_t x1,
                                        int32_t w0, int32_t w1, const raster_recip *tab)
{
    ip->x0 = x0;
    ip->xdiff = x1 - x0;
    ip->x = 0;
    ip->factor = 0;
    ip->dir = (uint8_t)dir;
    /* the two reciprocals below come from the table for lengths 1..RASTER_RECIP_MAX */
    bool in_tab = tab && ip->xdiff > 0 && ip->xdiff <= RASTER_RECIP_MAX;
    /* melonDS Interpolator::Setup: reciprocal for Z-buffer depth, (1 << 22) / length. */
    if (in_tab)
        ip->xrecip_z = tab->z[ip->xdiff];
    else
        ip->xrecip_z = ip->xdiff != 0 ? (1 << 22) / ip->xdiff : 0;

    /* Linear when both W are equal and their low bits are clear: bits 0-6 along X, 1-6 along Y
     * (melonDS Interpolator::Setup). */
    int32_t mask = dir == RASTER_INTERP_Y ? 0x7E : 0x7F;
    ip->linear = w0 == w1 && !(w0 & mask);
    if (!ip->linear || ip->xdiff <= 0 || ip->xdiff > 1024)
        ip->lin_recip = 0; /* 0: raster_interp_lindiv divides */
    else if (in_tab)
        ip->lin_recip = tab->lin[ip->xdiff];
    else
        ip->lin_recip = (((uint64_t)1 << 35) / (uint64_t)ip->xdiff) + 1u;

    if (dir == RASTER_INTERP_Y) {
        raster_interp_w_y(ip, w0, w1);
    } else {
        ip->w0n = w0;
        ip->w0d = w0;
        ip->w1d = w1;
        ip->shift = 8;
    }
}

/** Move to position @p x only (no factor): enough for Z-buffer depth and linear mode. */
RASTER_HOT void raster_interp_set_pos(raster_interp *ip, int32_t x)
{
    ip->x = x - ip->x0;
}

/** The perspective factor num / den of raster_interp_update_factor (melonDS: a 64-bit signed
 * division, 0 when den is 0), num its 64-bit numerator's bits: by a 32-bit divide where that
 * gives the same quotient (den > 0, 0 <= num <= UINT32_MAX: its upper half 0). */
RASTER_HOT uint32_t raster_interp_quotient(uint64_t num, int32_t den)
{
    if (den > 0 && !(num >> 32)) return (uint32_t)num / (uint32_t)den;
    return den == 0 ? 0u : (uint32_t)(int32_t)((int64_t)num / den);
}

/** Compute the perspective factor at the current position (after raster_interp_set_pos). */
RASTER_HOT void raster_interp_update_factor(raster_interp *ip)
{
    if (ip->xdiff == 0 || ip->linear) return;
    int32_t x = ip->x;
    /* melonDS GPU3D_Soft.h Interpolator::SetX: num = (x * w0n) << shift (64-bit),
     * den = x * w0d + (xdiff - x) * w1d (32-bit), factor = num / den (0 when den is 0). */
    int64_t num = dsgx_shl64(dsgx_mul64(x, ip->w0n), ip->shift);
    int32_t den = dsgx_wrap32(dsgx_mul64(x, ip->w0d) + dsgx_mul64(ip->xdiff - x, ip->w1d));
    ip->factor = raster_interp_quotient((uint64_t)num, den);
}

/** Move to position @p x and compute the factor. */
RASTER_HOT void raster_interp_set(raster_interp *ip, int32_t x)
{
    raster_interp_set_pos(ip, x);
    raster_interp_update_factor(ip);
}

/* Linear mode: d * x / xdiff (melonDS: a 64-bit division). Done as a multiplication by
 * lin_recip = floor(2^35 / xdiff) + 1, which is exact for d * x < 2^25 and xdiff <= 1024
 * (Granlund & Montgomery 1994, theorem 4.2); larger products take the division. */
RASTER_HOT int32_t raster_interp_lindiv(const raster_interp *ip, uint32_t d, int32_t x)
{
    uint64_t n = (uint64_t)d * (uint32_t)x; /* x < 0 makes n large unless d = 0 */
    if ((n >> 25) != 0 || ip->lin_recip == 0)
        return (int32_t)(dsgx_mul64((int32_t)d, x) / ip->xdiff);
    return (int32_t)((n * ip->lin_recip) >> 35);
}

/** Interpolate an attribute (colour, texture coordinate, W) between @p a0 and @p a1. */
RASTER_HOT int32_t raster_interp_attr(const raster_interp *ip, int32_t a0, int32_t a1)
{
    if (ip->xdiff == 0 || a0 == a1) return a0;
    if (!ip->linear) {
        /* melonDS: the product is unsigned 32-bit (s32 * u32), shifted logically. */
        uint32_t one = 1u << ip->shift;
        if (a0 < a1)
            return (int32_t)((uint32_t)a0 + (((uint32_t)(a1 - a0) * ip->factor) >> ip->shift));
        return (int32_t)((uint32_t)a1 + (((uint32_t)(a0 - a1) * (one - ip->factor)) >> ip->shift));
    }
    if (a0 < a1) return a0 + raster_interp_lindiv(ip, (uint32_t)(a1 - a0), ip->x);
    return a1 + raster_interp_lindiv(ip, (uint32_t)(a0 - a1), ip->xdiff - ip->x);
}

/**
 * An attribute prepared for many positions of one interpolator (the span loop): the smaller
 * end, the absolute difference and which end is smaller, so that per pixel the value is
 * base + ((d * f[sel]) >> shift) (perspective, f = {factor, 2^shift - factor}) or
 * base + d * x[sel] / xdiff (linear, x = {x, xdiff - x}): the same results as
 * raster_interp_attr().
 */
typedef struct raster_attr_prep {
    uint32_t base, d;
    uint32_t sel;
} raster_attr_prep;

RASTER_HOT void raster_attr_prepare(raster_attr_prep *ap, int32_t a0, int32_t a1)
{
    ap->sel = a0 < a1 ? 0u : 1u;
    ap->base = (uint32_t)(a0 < a1 ? a0 : a1);
    ap->d = a0 < a1 ? (uint32_t)(a1 - a0) : (uint32_t)(a0 - a1);
}

/** Perspective value: @p f = {factor, (1 << shift) - factor}. */
RASTER_HOT int32_t raster_attr_persp(const raster_attr_prep *ap, const uint32_t f[2],
                                     unsigned shift)
{
    return (int32_t)(ap->base + ((ap->d * f[ap->sel]) >> shift));
}

/** Linear value: @p xs = {x, xdiff - x} relative to the interpolator's start. */
RASTER_HOT int32_t raster_attr_linear(const raster_interp *ip, const raster_attr_prep *ap,
                                      const int32_t xs[2])
{
    return (int32_t)ap->base + raster_interp_lindiv(ip, ap->d, xs[ap->sel]);
}

/**
 * An attribute prepared once for many positions of one interpolator (an edge's attribute over
 * its lines): raster_attr_prep (with d = 0 when the interpolator has length 0, so the value is
 * a0, as raster_interp_attr gives) and, for linear interpolators, dr = d * lin_recip when
 * d * xdiff < 2^25 (the exactness bound of raster_interp_lindiv over [0, xdiff]), else 0.
 */
RASTER_HOT void raster_attr_prepare_on(const raster_interp *ip, raster_attr_prep *ap, uint64_t *dr,
                                       int32_t a0, int32_t a1)
{
    if (ip->xdiff == 0) a1 = a0;
    raster_attr_prepare(ap, a0, a1);
    *dr = 0;
    if (ip->linear && ip->lin_recip != 0 && ((uint64_t)ap->d * (uint64_t)ip->xdiff) >> 25 == 0)
        *dr = (uint64_t)ap->d * ip->lin_recip;
}

/** The value of a prepared attribute at the interpolator's current position: the same result
 *  as raster_interp_attr(ip, a0, a1). */
RASTER_HOT int32_t raster_attr_at(const raster_interp *ip, const raster_attr_prep *ap, uint64_t dr)
{
    if (ap->d == 0) return (int32_t)ap->base;
    if (!ip->linear) {
        uint32_t f = ap->sel ? (1u << ip->shift) - ip->factor : ip->factor;
        return (int32_t)(ap->base + ((ap->d * f) >> ip->shift));
    }
    int32_t x = ap->sel ? ip->xdiff - ip->x : ip->x;
    if (dr != 0 && (uint32_t)x <= (uint32_t)ip->xdiff)
        return (int32_t)(ap->base + (uint32_t)((dr * (uint32_t)x) >> 35));
    return (int32_t)ap->base + raster_interp_lindiv(ip, ap->d, x);
}

/** Interpolate a depth value: W-buffer (perspective factor) or Z-buffer (linear, reduced). */
RASTER_HOT int32_t raster_interp_z(const raster_interp *ip, int32_t z0, int32_t z1, bool wbuffer)
{
    if (ip->xdiff == 0 || z0 == z1) return z0;
    if (wbuffer) {
        /* melonDS InterpolateZ, W-buffering: 64-bit product with the (u32) factor. */
        /* The complement (1 << shift) - factor is unsigned 32-bit there too. */
        if (z0 < z1)
            return dsgx_wrap32(z0 +
                               dsgx_asr64((int64_t)(z1 - z0) * (int64_t)ip->factor, ip->shift));
        uint32_t rest = (1u << ip->shift) - ip->factor;
        return dsgx_wrap32(z1 + dsgx_asr64((int64_t)(z0 - z1) * (int64_t)rest, ip->shift));
    }
    int32_t base, disp, factor;
    if (z0 < z1) {
        base = z0, disp = z1 - z0, factor = ip->x;
    } else {
        base = z1, disp = z0 - z1, factor = ip->xdiff - ip->x;
    }
    if (ip->dir == RASTER_INTERP_Y) {
        /* Along Y the difference is reduced to 10 bits first, then shifted back. */
        unsigned sh = 0;
        if (disp > 0x3FF) { /* = shifting right until disp <= 0x3FF */
            sh = 22u - (unsigned)__builtin_clz((uint32_t)disp);
            disp >>= sh;
        }
        int64_t v = dsgx_asr64((int64_t)disp * factor * ip->xrecip_z, 22);
        return dsgx_wrap32(base + dsgx_shl64(v, sh));
    }
    disp >>= 9;
    return dsgx_wrap32(base + dsgx_asr64((int64_t)disp * factor * ip->xrecip_z, 13));
}

#endif
