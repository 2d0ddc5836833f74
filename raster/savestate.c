/*
 * savestate.c - the rendering engine's section of a save state.
 *
 * What a frame leaves behind for the next (render.c "State kept across frames"): the shadow
 * stencil of the last two lines and the "previous polygon was a shadow mask" flag, and the
 * scanline-timing model's registers (frames since power-on, RDLINES_COUNT). The pixel buffers
 * are not saved: every frame clears what it reads (render.c), so a frame does not depend on
 * them. Host settings (threads, melonDS gaps) are not state and are not saved.
 *
 * Section RSTA: stencil (512 bytes), prev_shadow_mask (1), rdlines_reg (1),
 * frames_since_power_on (u32 little-endian).
 */
#include "gx/state_io.h"
#include "raster/raster_internal.h"

enum { RSTA_SIZE = sizeof(((raster_engine *)0)->stencil) + 2 + 4 };

void raster_state_write(const raster_engine *r, dsgx_state_out *o)
{
    size_t at = dsgx_state_begin(o, DSGX_STATE_TAG("RSTA"));
    dsgx_state_put(o, r->stencil, sizeof r->stencil);
    uint8_t b[2] = {r->prev_shadow_mask ? 1 : 0, r->timing.rdlines_reg};
    dsgx_state_put(o, b, 2);
    dsgx_state_put_u32(o, r->timing.frames_since_power_on);
    dsgx_state_end(o, at);
}

int raster_state_load(raster_engine *r, const dsgx_state_section *s, size_t n, char *err,
                      size_t errlen)
{
    const dsgx_state_section *sta = NULL;
    for (size_t i = 0; i < n; i++) {
        if ((s[i].tag & 0xFFu) != 'R') continue;
        if (s[i].tag != DSGX_STATE_TAG("RSTA"))
            return dsgx_state_fail(err, errlen, s[i].offset - 8, "unknown rendering section");
        if (sta) return dsgx_state_fail(err, errlen, s[i].offset - 8, "section RSTA twice");
        sta = &s[i];
    }
    if (!sta) return dsgx_state_fail(err, errlen, 0, "section RSTA missing");
    if (sta->size != RSTA_SIZE)
        return dsgx_state_fail(err, errlen, sta->offset, "section RSTA has %u bytes, expected %u",
                               sta->size, (unsigned)RSTA_SIZE);
    const uint8_t *p = sta->data + sizeof r->stencil;
    if (p[0] > 1) return dsgx_state_fail(err, errlen, sta->offset, "shadow-mask flag not 0/1");
    if (!r) return 0;
    memcpy(r->stencil, sta->data, sizeof r->stencil);
    r->prev_shadow_mask = p[0] != 0;
    r->timing.rdlines_reg = p[1];
    r->timing.frames_since_power_on = dsgx_state_get_u32(p + 2);
    return 0;
}
