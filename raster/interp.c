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
        t->y18[n] = (1 << 18) / (int32_t)n;
        t->lin[n] = (((uint64_t)1 << 35) / n) + 1u;
    }
    t->z[0] = 0;
    t->y18[0] = 0;
    t->lin[0] = 0;
}

void raster_interp_setup(raster_interp *ip, int dir, int32_t x0, int32_t x1, int32_t w0, int32_t w1)
{
    raster_interp_setup_tab(ip, dir, x0, x1, w0, w1, NULL);
}
