/*
 * anim_writer.h - builds NSBCA/NSBTP/NSBTA/NSBMA/NSBVA files for test fixtures and fuzz seeds.
 * Layouts as parsed in anim_*.c. Dictionaries get a zeroed Patricia tree (our parser never
 * follows it; the real runtime's name lookup would need a real one).
 */
#ifndef DSGX_NITRO_ANIM_WRITER_H
#define DSGX_NITRO_ANIM_WRITER_H

#include "nitro/anim.h"
#include "nitro/writer.h"

/** A curve to write. Sampled: count samples (sample2 = JNT inverse scale / SRT cos). The
 *  info word gets step, last, 16-bit flag as given. */
typedef struct nitro_wcurve {
    bool constant;
    int32_t value, value2; /**< constant (JNT rotation: table index incl. bit 15) */
    unsigned step;         /**< 1, 2, 4 */
    unsigned last;         /**< last interpolated frame */
    bool fx16;
    const int32_t *samples, *samples2;
    unsigned count;
} nitro_wcurve;

typedef struct nitro_wjnt_track {
    uint32_t tag; /**< NITRO_JNT_* flags | data index << 24 */
    nitro_wcurve trans[3], rot, scale[3];
} nitro_wjnt_track;

/** One animation of any kind (fields used by its kind only). */
typedef struct nitro_wanim {
    const char *name;
    uint16_t frames;
    uint32_t flag;
    uint8_t texmtx_mode;
    /* JNT0 */
    const nitro_wjnt_track *jnt;
    unsigned num_jnt;
    const uint16_t *pivots; /**< 3 u16 per entry (info, A, B) */
    unsigned num_pivots;
    const uint16_t *basis; /**< 5 u16 per entry */
    unsigned num_basis;
    /* MAT0 / SRT0: per material 5 channels */
    const char *const *mat_names;
    const nitro_wcurve (*mat_ch)[5];
    unsigned num_mat;
    /* PAT0 */
    const char *const *tex_names;
    unsigned num_tex_names;
    const char *const *pltt_names;
    unsigned num_pltt_names;
    const unsigned *pat_num_keys;    /**< per material */
    const uint16_t *const *pat_keys; /**< per material: (frame, tex | pltt << 8) pairs */
    int16_t pat_ratio;
    /* VIS0 */
    uint16_t vis_nodes;
    const uint32_t *vis_words;
} nitro_wanim;

/** Write a container of `kind` with the given animations. */
bool nitro_write_anim(enum nitro_anim_kind kind, const nitro_wanim *anims, unsigned n,
                      nitro_buf *out);

#endif
