/*
 * viewport.c - VIEWPORT (60h) and the clip-space to screen transform.
 *
 * Hardware notes:
 * - VIEWPORT packs x1, y1, x2, y2 (8 bits each, y measured from the bottom of the screen)
 *   (GBATEK "DS 3D Viewport"). The screen Y axis points down, so the origin used for Y is
 *   191 - y2 and the height (191 - y1) - (191 - y2) + 1, masked to 8 bits; the width is
 *   x2 - x1 + 1 masked to 9 bits (melonDS GPU3D.cpp, command 0x60).
 * - Transform (melonDS GPU3D.cpp SubmitPolygon): W is first truncated to 24 bits (the polygon is
 *   not drawn if that W is 0); x' = ((x + w) * width) / (2w) + x1 and y' = ((w - y) * height) /
 *   (2w) + (191 - y2), all in unsigned 32-bit arithmetic. The divider is 32 bits wide: when
 *   w > 0xFFFF, numerators and w are halved first (losing one bit). Results are masked to
 *   9 bits (x) and 8 bits (y). W = 0 gives (0, 0).
 * Verified: against reference frames only (viewport_sub trace).
 */
#include "gx/gx_internal.h"

void gx_cmd_viewport(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    uint32_t p = params[0];
    uint32_t x1 = p & 0xFFu, y1 = (p >> 8) & 0xFFu, x2 = (p >> 16) & 0xFFu, y2 = p >> 24;

    g->viewport[0] = x1;
    g->viewport[1] = (191u - y1) & 0xFFu;
    g->viewport[2] = x2;
    g->viewport[3] = (191u - y2) & 0xFFu;
    g->viewport[4] = (g->viewport[2] - g->viewport[0] + 1u) & 0x1FFu;
    g->viewport[5] = (g->viewport[1] - g->viewport[3] + 1u) & 0xFFu;
}
