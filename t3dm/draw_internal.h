/*
 * draw_internal.h - what the reference walk (draw.c) and the compiled draw list (drawlist.c)
 * share: the GX opcodes they send, the vertex conversions (5.6.5 normals to 1.0.9, Tiny3D
 * 10.5 texel coordinates to 1.11.4) and the material words (TEXIMAGE_PARAM, POLYGON_ATTR). Both
 * paths must agree word for word; keeping the conversions in one place leaves the cache replay,
 * matrix selection and packing as what the differential test (test/unit/test_t3dm_drawlist.c)
 * compares.
 */
#ifndef DSGX_T3DM_DRAW_INTERNAL_H
#define DSGX_T3DM_DRAW_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/fixed.h"
#include "t3dm/draw.h"
#include "t3dm/t3dm.h"

enum {
    T3OP_MTX_MODE = 0x10,
    T3OP_MTX_STORE = 0x13,
    T3OP_MTX_RESTORE = 0x14,
    T3OP_MTX_MULT_4x3 = 0x19,
    T3OP_MTX_SCALE = 0x1b,
    T3OP_COLOR = 0x20,
    T3OP_NORMAL = 0x21,
    T3OP_TEXCOORD = 0x22,
    T3OP_VTX_16 = 0x23,
    T3OP_POLYGON_ATTR = 0x29,
    T3OP_TEXIMAGE_PARAM = 0x2a,
    T3OP_PLTT_BASE = 0x2b,
    T3OP_DIF_AMB = 0x30,
    T3OP_SPE_EMI = 0x31,
    T3OP_BEGIN_VTXS = 0x40,
};

enum { T3PRIM_TRIANGLES = 0, T3PRIM_STRIP = 2, T3DM_MTX_SLOTS = 31 };

/** A texture axis as TEXCOORD sees it: the tile's low edge and Tiny3D's shift. */
typedef struct t3dm_axis_map {
    int32_t low16; /**< tile low in 1/16 texels */
    int shift;
} t3dm_axis_map;

/* 5.6.5 component to 1.0.9: v / (2^(bits-1) - 0.5) * 512, rounded, clamped. */
static inline uint32_t t3dm_nrm_comp(int32_t v, int32_t denom2)
{
    int32_t r = (v * 1024 + (v >= 0 ? denom2 / 2 : -(denom2 / 2))) / denom2;
    return (uint32_t)dsgx_clamp(r, -512, 511) & 0x3FFu;
}

/* One texture coordinate: 10.5 texels -> 1.11.4, less the tile's low edge, shifted. */
static inline int32_t t3dm_texc(const t3dm_axis_map *a, int16_t st)
{
    int32_t t = dsgx_asr32(st, 1) - a->low16;
    if (!a->shift) return t < -32768 ? -32768 : t > 32767 ? 32767 : t;
    if (a->shift > 0)
        t = dsgx_asr32(t, (unsigned)a->shift);
    else if (a->shift < 0)
        t = dsgx_clamp(t, -32768, 32767) * (1 << -a->shift);
    return dsgx_clamp(t, -32768, 32767);
}

/* TEXIMAGE_PARAM of a bound texture: the bind's word with repeat/flip per axis from the
 * material's clamp and mirror, and each axis's TEXCOORD mapping into @p ax. */
static inline uint32_t t3dm_material_teximage(const t3dm_material *mt, const t3dm_texbind *tb,
                                              t3dm_axis_map ax[2])
{
    const t3dm_texture *tx = &mt->tex[0];
    const t3dm_axis *axes[2] = {&tx->s, &tx->t};
    uint32_t ti = tb->teximage;
    for (int k = 0; k < 2; k++) {
        bool rep = !axes[k]->clamp, flip = rep && axes[k]->mirror;
        if (rep) ti |= 1u << (16 + k);
        if (flip) ti |= 1u << (18 + k);
        float l = axes[k]->low * 16.0f;
        ax[k].low16 = (int32_t)(l >= 0 ? l + 0.5f : l - 0.5f);
        ax[k].shift = axes[k]->shift;
    }
    return ti;
}

/* POLYGON_ATTR for a part: lights, culling, fog, and for a translucent material the alpha of
 * @p amin, the smallest vertex alpha (0..255) among the slots the part draws. */
static inline uint32_t t3dm_part_attr(const t3dm_material *mt, bool lit, unsigned light_mask,
                                      unsigned amin)
{
    unsigned alpha = 31;
    if (mt->blend_mode) {
        alpha = amin >> 3;
        if (alpha == 0) alpha = 1; /* 0 would draw wireframe */
    }
    uint32_t attr = (uint32_t)alpha << 16;
    if (lit) attr |= light_mask ? light_mask & 15u : 1u;
    if (!(mt->draw_flags & T3DM_FLAG_CULL_FRONT)) attr |= 1u << 7; /* front shown */
    if (!(mt->draw_flags & T3DM_FLAG_CULL_BACK)) attr |= 1u << 6;  /* back shown */
    if (mt->fog_mode == T3DM_FOG_ACTIVE) attr |= 1u << 15;
    return attr;
}

#endif
