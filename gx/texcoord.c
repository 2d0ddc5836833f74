/*
 * texcoord.c - TEXCOORD (22h) and texture-coordinate generation (TEXIMAGE_PARAM bits 30-31).
 *
 * Hardware notes (GBATEK "DS 3D Texture Coordinates"; arithmetic as in melonDS GPU3D.cpp, whose
 * frames we must match):
 * - Mode 0: the TEXCOORD values (1.11.4) are used as they are.
 * - Mode 1 (texcoord source), at TEXCOORD time: s' = (s*m0 + t*m4 + m8 + m12) >> 12,
 *   t' = (s*m1 + t*m5 + m9 + m13) >> 12; the sum is formed in 32-bit wrapping arithmetic and the
 *   result kept to 16 bits.
 * - Mode 2 (normal source), at NORMAL time: s' = s + ((nx*m0 + ny*m4 + nz*m8) >> 21),
 *   t' = t + ((nx*m1 + ny*m5 + nz*m9) >> 21), 64-bit sum, kept to 16 bits (see light.c).
 * - Mode 3 (vertex source), at each vertex: s' = ((vx*m0 + vy*m4 + vz*m8) >> 24) + s, likewise
 *   t' with m1, m5, m9; 64-bit sum, kept to 16 bits. The raw TEXCOORD values are used, not the
 *   mode-1 result.
 * The mode is read from TEXIMAGE_PARAM when the command runs, not when the polygon is stored.
 */
#include "gx/gx_internal.h"

static int16_t trunc16(int64_t v)
{
    return (int16_t)(uint16_t)(uint64_t)v;
}

void gx_cmd_texcoord(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    const int32_t *m = gx->mtx.tex;

    g->tex_raw[0] = (int16_t)(uint16_t)(params[0] & 0xFFFFu);
    g->tex_raw[1] = (int16_t)(uint16_t)(params[0] >> 16);

    if (teximage_texgen(g->teximage) == 1) {
        for (int k = 0; k < 2; k++) {
            int64_t sum = dsgx_mul64(g->tex_raw[0], m[k]) + dsgx_mul64(g->tex_raw[1], m[4 + k]) +
                          (int64_t)m[8 + k] + (int64_t)m[12 + k];
            g->tex_cur[k] = trunc16(dsgx_asr32(dsgx_wrap32(sum), 12));
        }
    } else {
        g->tex_cur[0] = g->tex_raw[0];
        g->tex_cur[1] = g->tex_raw[1];
    }
}

void gx_texgen_normal(gx_engine *gx, const int16_t n[3])
{
    gx_geom_state *g = &gx->geom;
    const int32_t *m = gx->mtx.tex;

    if (teximage_texgen(g->teximage) != 2) return;
    for (int k = 0; k < 2; k++) {
        int64_t sum =
            dsgx_mul64(n[0], m[k]) + dsgx_mul64(n[1], m[4 + k]) + dsgx_mul64(n[2], m[8 + k]);
        g->tex_cur[k] = trunc16((int64_t)g->tex_raw[k] + dsgx_asr64(sum, 21));
    }
}

void gx_texgen_vertex(gx_engine *gx, const int16_t pos[3], int16_t out[2])
{
    gx_geom_state *g = &gx->geom;
    const int32_t *m = gx->mtx.tex;

    if (teximage_texgen(g->teximage) != 3) {
        out[0] = g->tex_cur[0];
        out[1] = g->tex_cur[1];
        return;
    }
    for (int k = 0; k < 2; k++) {
        int64_t sum =
            dsgx_mul64(pos[0], m[k]) + dsgx_mul64(pos[1], m[4 + k]) + dsgx_mul64(pos[2], m[8 + k]);
        out[k] = trunc16(dsgx_asr64(sum, 24) + g->tex_raw[k]);
    }
}
