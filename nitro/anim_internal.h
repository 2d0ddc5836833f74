/*
 * anim_internal.h - declarations shared by the animation parsers and evaluators (anim_*.c).
 */
#ifndef DSGX_NITRO_ANIM_INTERNAL_H
#define DSGX_NITRO_ANIM_INTERNAL_H

#include "nitro/anim.h"
#include "nitro/nitro_internal.h"

/* Little-endian reads at absolute offsets the parser has checked. */
static inline uint16_t nan_u16(const uint8_t *d, uint32_t at)
{
    return (uint16_t)(d[at] | (d[at + 1] << 8));
}
static inline uint32_t nan_u32(const uint8_t *d, uint32_t at)
{
    return (uint32_t)d[at] | ((uint32_t)d[at + 1] << 8) | ((uint32_t)d[at + 2] << 16) |
           ((uint32_t)d[at + 3] << 24);
}
static inline int32_t nan_s16(const uint8_t *d, uint32_t at)
{
    return (int16_t)nan_u16(d, at);
}

/** Step from an info word's bits 30-31 as the runtime tests them: 0 -> 1, bit 30 -> 2, else 4. */
static inline unsigned nan_step(uint32_t info)
{
    if (!(info & 0xc0000000u)) return 1;
    return (info & 0x40000000u) ? 2 : 4;
}

/** Bytes per sample of a curve. */
unsigned nan_stride(const nitro_curve *c);
/**
 * Check a sampled curve: the samples at base + rel must hold last/step + (frames - last)
 * samples inside the cursor's window. Fills c->data, c->count. Fails with the info word's
 * offset on a bad layout.
 */
bool nan_curve_samples(nitro_cursor *cur, nitro_curve *c, uint32_t base, uint32_t rel,
                       unsigned frames);
/** Sample i of a curve (clamped to the available samples), field 0 or 1 of a pair. */
int32_t nan_sample(const uint8_t *d, const nitro_curve *c, uint32_t i, unsigned field);

/** Fractional-frame sample positions of a rotation curve (getRotDataEx_). */
void nan_rot_ex_position(const nitro_anim *a, const nitro_curve *c, fx32 F, uint32_t *i0,
                         uint32_t *i1, int32_t *mul, int32_t *frac, bool *single);

/** Read the dictionary of an animation at `at` (inside c's window). */
bool nan_dict(nitro_cursor *c, size_t at, unsigned min_entry, nitro_dict *d);

bool nitro_jnt_parse(nitro_cursor *c, nitro_anim *a, unsigned frames);
bool nitro_pat_parse(nitro_cursor *c, nitro_anim *a, unsigned frames);
bool nitro_srt_parse(nitro_cursor *c, nitro_anim *a, unsigned frames);
bool nitro_mat_parse(nitro_cursor *c, nitro_anim *a, unsigned frames);
bool nitro_vis_parse(nitro_cursor *c, nitro_anim *a, unsigned frames);

#endif
