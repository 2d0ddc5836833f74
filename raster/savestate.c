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
 *
 * Section RLIN, only while a line-at-a-time frame is open (raster_lines_begin, docs/cycle.md):
 * the lines drawn and finished and what the frame started from (the timing model's registers
 * and per-frame state, the shadow-mask flag), field by field as u32 (bools as 0/1). The lines
 * themselves are drawn again from the latched frame by raster_lines_resume, which
 * dsgx_state_restore calls. Every value is range-checked: the timing model adds these counters.
 */
#include <string.h>

#include "gx/state_io.h"
#include "raster/raster_internal.h"

enum { RSTA_SIZE = sizeof(((raster_engine *)0)->stencil) + 2 + 4 };

/* RLIN: drawn, finished, prev_shadow_mask_at_begin, then the timing model's fields */
enum { RLIN_WORDS = 6 + RASTER_TIMING_PAIRS + 2 + 6 + 7, RLIN_SIZE = RLIN_WORDS * 4 };
#define RLIN_BOUND (1 << 24) /* counters are cycles of one frame or line numbers: far below */

/* One list of the fields, used to write, to check and to read (put: value -> words). */
static void lines_fields(raster_lines_state *l, uint32_t *w, bool put)
{
    size_t k = 0;
    raster_timing *t = &l->timing_at_begin;
#define U(x) (put ? (void)(w[k++] = (uint32_t)(x)) : (void)((x) = w[k++]))
#define B(x) (put ? (void)(w[k++] = (x) ? 1u : 0u) : (void)((x) = w[k++] != 0))
    int32_t drawn = l->drawn, finished = l->finished;
    U(drawn);
    U(finished);
    B(l->prev_shadow_mask_at_begin);
    U(t->frames_since_power_on);
    U(t->rdlines_reg);
    B(t->timed);
    for (int i = 0; i < RASTER_TIMING_PAIRS; i++) B(t->pair_touched[i]);
    U(t->clock);
    U(t->deadline);
    for (int i = 0; i < 2; i++) {
        U(t->line_time[i]);
        B(t->line_aborted[i]);
        B(t->line_cut[i]);
    }
    U(t->buffered);
    U(t->next_read);
    U(t->rd_buffered);
    U(t->rd_next);
    U(t->rdlines_min);
    U(t->underflow_vcount);
    U(t->lines_cut);
#undef U
#undef B
    if (!put) {
        l->drawn = (int16_t)drawn;
        l->finished = (int16_t)finished;
        t->recording = false;
        t->rec_lines = NULL;
        memset(&t->rec_cur, 0, sizeof t->rec_cur);
    }
}

static const char *check_lines(const uint8_t *p)
{
    uint32_t w[RLIN_WORDS];
    for (int i = 0; i < RLIN_WORDS; i++) w[i] = dsgx_state_get_u32(p + 4 * i);
    if (w[0] > RASTER_TIMING_LINES || w[1] > w[0]) return "line counts out of range";
    if (w[2] > 1 || w[5] > 1) return "line flag not 0/1";
    if (w[4] > 0xFFu) return "RDLINES_COUNT above 8 bits";
    size_t k = 6;
    for (int i = 0; i < RASTER_TIMING_PAIRS; i++)
        if (w[k++] > 1) return "line flag not 0/1";
    for (int i = 0; i < 2 + 2 * 3 + 7; i++, k++) {
        bool flag = i >= 2 && i < 8 && (i - 2) % 3 != 0;
        if (flag ? w[k] > 1 : (int32_t)w[k] <= -RLIN_BOUND || (int32_t)w[k] >= RLIN_BOUND)
            return flag ? "line flag not 0/1" : "timing counter out of range";
    }
    return NULL;
}

void raster_state_write(const raster_engine *r, dsgx_state_out *o)
{
    size_t at = dsgx_state_begin(o, DSGX_STATE_TAG("RSTA"));
    dsgx_state_put(o, r->stencil, sizeof r->stencil);
    uint8_t b[2] = {r->prev_shadow_mask ? 1 : 0, r->timing.rdlines_reg};
    dsgx_state_put(o, b, 2);
    dsgx_state_put_u32(o, r->timing.frames_since_power_on);
    dsgx_state_end(o, at);
    if (r->lines.active) {
        raster_lines_state l = r->lines;
        uint32_t w[RLIN_WORDS];
        lines_fields(&l, w, true);
        at = dsgx_state_begin(o, DSGX_STATE_TAG("RLIN"));
        for (int i = 0; i < RLIN_WORDS; i++) dsgx_state_put_u32(o, w[i]);
        dsgx_state_end(o, at);
    }
}

int raster_state_load(raster_engine *r, const dsgx_state_section *s, size_t n, char *err,
                      size_t errlen)
{
    const dsgx_state_section *sta = NULL, *lin = NULL;
    for (size_t i = 0; i < n; i++) {
        if ((s[i].tag & 0xFFu) != 'R') continue;
        const dsgx_state_section **slot = s[i].tag == DSGX_STATE_TAG("RSTA")   ? &sta
                                          : s[i].tag == DSGX_STATE_TAG("RLIN") ? &lin
                                                                               : NULL;
        if (!slot)
            return dsgx_state_fail(err, errlen, s[i].offset - 8, "unknown rendering section");
        if (*slot) return dsgx_state_fail(err, errlen, s[i].offset - 8, "rendering section twice");
        *slot = &s[i];
    }
    if (lin && lin->size != RLIN_SIZE)
        return dsgx_state_fail(err, errlen, lin->offset, "section RLIN has %u bytes, expected %u",
                               lin->size, (unsigned)RLIN_SIZE);
    const char *why = lin ? check_lines(lin->data) : NULL;
    if (why) return dsgx_state_fail(err, errlen, lin->offset, "section RLIN: %s", why);
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
    r->lines.active = lin != NULL;
    if (lin) {
        uint32_t w[RLIN_WORDS];
        for (int i = 0; i < RLIN_WORDS; i++) w[i] = dsgx_state_get_u32(lin->data + 4 * i);
        lines_fields(&r->lines, w, false);
    }
    return 0;
}
