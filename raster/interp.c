/*
 * interp.c - set-up of the perspective-correct attribute interpolator (see interp.h).
 *
 * Hardware notes: models the interpolator as melonDS GPU3D_Soft.h describes it (theory matching
 * hardware tests by melonDS's author; our reference frames come from it): W precision along Y
 * (bit 0 dropped, odd/even correction) and the linear special case. Guess (melonDS's own
 * caveat): Z-buffer depth interpolation "still doesn't quite match hardware".
 */
#include "raster/interp.h"

#include <stddef.h>

void raster_recip_init(raster_recip *t)
{
    for (uint32_t n = 1; n <= RASTER_RECIP_MAX; n++) {
        t->z[n] = (1 << 22) / (int32_t)n;
        t->lin[n] = (((uint64_t)1 << 35) / n) + 1u;
    }
    t->z[0] = 0;
    t->lin[0] = 0;
}

void raster_interp_setup(raster_interp *ip, int dir, int32_t x0, int32_t x1, int32_t w0, int32_t w1)
{
    raster_interp_setup_tab(ip, dir, x0, x1, w0, w1, NULL);
}

void raster_interp_setup_tab(raster_interp *ip, int dir, int32_t x0, int32_t x1, int32_t w0,
                             int32_t w1, const raster_recip *tab)
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
        /* Along Y: an odd W0 with an even W1 is corrected by one each way; otherwise bit 0 of
         * both W is dropped (melonDS Interpolator::Setup, dir = 1). */
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
    } else {
        ip->w0n = w0;
        ip->w0d = w0;
        ip->w1d = w1;
        ip->shift = 8;
    }
}
