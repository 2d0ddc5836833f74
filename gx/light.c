/*
 * light.c - vertex colour and lighting: COLOR (20h), NORMAL (21h), DIF_AMB (30h), SPE_EMI (31h),
 * LIGHT_VECTOR (32h), LIGHT_COLOR (33h), SHININESS (34h).
 *
 * Hardware notes (GBATEK "DS 3D Polygon Light Parameters" for the model; the bit-level
 * arithmetic is melonDS GPU3D.cpp CalculateLighting / command 0x32, which credits hardware
 * research by azusa, and which our frames must match):
 * - LIGHT_VECTOR: the 1.0.9 vector goes through the vector matrix; each component is
 *   (sum >> 12), negated, then wrapped to a signed 11-bit value. A specular reciprocal is kept
 *   per light: 2^18 / (512 - sext11(z_sum >> 12)) (0 when the divisor is 0).
 * - NORMAL: the normal goes through the vector matrix, each component kept as the signed 11-bit
 *   field at bits 12..22 of the 32-bit sum. The colour accumulator starts at emission << 14.
 *   For each light enabled in the POLYGON_ATTR latched at BEGIN_VTXS:
 *     dot = sum over axes of (L * N) >> 9
 *     if dot > 0: diffuse += (diffuse * light * sext11(dot)) & 0xFFFFF;
 *                 s = sext11(dot + Nz); s = ((s * s) >> 10) & 0x3FF;
 *                 shine = ((s * recip) >> 8) - 512, 0 if negative, else sext14 then clamped
 *                 to 0..0x1FF
 *     else shine = 0
 *     with the shininess table enabled (SPE_EMI bit 15): shine = table[shine >> 2] << 1
 *     acc += (specular * shine + (ambient << 9)) * light
 *   Each channel is then acc >> 14, saturated at 31. With no light enabled the colour is the
 *   emission colour (reference README: verified in melonDS's output).
 * - DIF_AMB bit 15 copies the diffuse colour into the vertex colour (GBATEK).
 * Guess (inherited): the hardware's exact lighting pipeline beyond what melonDS models.
 */
#include <string.h>

#include "gx/gx_internal.h"

static void unpack_rgb(uint32_t v, uint8_t out[3])
{
    out[0] = (uint8_t)rgb15_r((rgb15)v);
    out[1] = (uint8_t)rgb15_g((rgb15)v);
    out[2] = (uint8_t)rgb15_b((rgb15)v);
}

/* The three 10-bit signed fields of a NORMAL / LIGHT_VECTOR / VEC_TEST word. */
static void unpack_nrm10(uint32_t v, int16_t out[3])
{
    for (int k = 0; k < 3; k++) out[k] = (int16_t)dsgx_sext(v >> (10 * k), 10);
}

/* v * M (3x3 part of the vector matrix), component k, in 32-bit wrapping arithmetic: the low
 * 32 bits of the 64-bit sum, computed directly modulo 2^32 (unsigned 32-bit products and sums
 * give the same bits). */
static int32_t vec_dot(const int16_t v[3], const int32_t *m, int k)
{
    return (int32_t)((uint32_t)v[0] * (uint32_t)m[k] + (uint32_t)v[1] * (uint32_t)m[4 + k] +
                     (uint32_t)v[2] * (uint32_t)m[8 + k]);
}

/* Bits 12..22 of a 32-bit value as a signed 11-bit number. */
static int32_t bits12_sext11(int32_t v)
{
    return dsgx_sext((uint32_t)v >> 12, 11);
}

/* The material x light colour products NORMAL reads (exact integers: at most 31 * 31 * 512). */
void gx_light_products(gx_geom_state *g)
{
    for (int l = 0; l < 4; l++) {
        for (int k = 0; k < 3; k++) {
            int32_t lc = g->light_color[l][k];
            g->light_dif[l][k] = g->mat_diffuse[k] * lc;
            g->light_spe[l][k] = g->mat_specular[k] * lc;
            g->light_amb[l][k] = (g->mat_ambient[k] << 9) * lc;
        }
    }
}

void gx_cmd_color(gx_engine *gx, const uint32_t *params)
{
    unpack_rgb(params[0], gx->geom.vtx_color);
}

void gx_cmd_dif_amb(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    unpack_rgb(params[0], g->mat_diffuse);
    unpack_rgb(params[0] >> 16, g->mat_ambient);
    if (params[0] & 0x8000u) /* bit 15: set vertex colour */
        unpack_rgb(params[0], g->vtx_color);
    gx_light_products(g);
}

void gx_cmd_spe_emi(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    unpack_rgb(params[0], g->mat_specular);
    unpack_rgb(params[0] >> 16, g->mat_emission);
    g->shininess_enable = (params[0] & 0x8000u) != 0;
    gx_light_products(g);
}

void gx_cmd_light_vector(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    unsigned l = params[0] >> 30;
    int16_t dir[3];

    unpack_nrm10(params[0], dir);
    for (int k = 0; k < 3; k++) {
        int32_t t = dsgx_asr32(vec_dot(dir, gx->mtx.vec, k), 12);
        g->light_dir[l][k] = (int16_t)dsgx_sext((uint32_t)(-t), 11);
    }
    int32_t den = 512 - bits12_sext11(vec_dot(dir, gx->mtx.vec, 2));
    g->spec_recip[l] = den == 0 ? 0 : (1 << 18) / den;
}

void gx_cmd_light_color(gx_engine *gx, const uint32_t *params)
{
    unpack_rgb(params[0], gx->geom.light_color[params[0] >> 30]);
    gx_light_products(&gx->geom);
}

void gx_cmd_shininess(gx_engine *gx, const uint32_t *params)
{
    for (int i = 0; i < 128; i++) gx->geom.shininess[i] = (uint8_t)(params[i / 4] >> (8 * (i % 4)));
}

/* Specular level 0..0x1FF for one light, before the shininess table. */
static int32_t specular_level(int32_t dot, int32_t nz, int32_t recip)
{
    int32_t s = dsgx_sext((uint32_t)(dot + nz), 11);
    s = (s * s >> 10) & 0x3FF;
    int32_t shine = dsgx_asr32(s * recip, 8) - 512;
    if (shine < 0) return 0;
    shine = dsgx_sext((uint32_t)shine, 14);
    if (shine < 0) return 0;
    return shine > 0x1FF ? 0x1FF : shine;
}

void gx_light_inputs_of(const gx_engine *gx, gx_light_inputs *in)
{
    const gx_geom_state *g = &gx->geom;
    uint32_t lights = polyattr_lights(g->cur_polygon_attr);
    memset(in, 0, sizeof(*in));
    in->lights = lights;
    memcpy(in->emission, g->mat_emission, sizeof(in->emission));
    if (lights == 0) return; /* the emission alone */
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) in->vec[r * 3 + k] = gx->mtx.vec[r * 4 + k];
    for (; lights; lights &= lights - 1) {
        int l = __builtin_ctz(lights);
        memcpy(in->dif[l], g->light_dif[l], sizeof(in->dif[l]));
        memcpy(in->spe[l], g->light_spe[l], sizeof(in->spe[l]));
        memcpy(in->amb[l], g->light_amb[l], sizeof(in->amb[l]));
        memcpy(in->dir[l], g->light_dir[l], sizeof(in->dir[l]));
        in->recip[l] = g->spec_recip[l];
    }
    in->shininess_enable = g->shininess_enable;
    if (g->shininess_enable) memcpy(in->shininess, g->shininess, sizeof(in->shininess));
}

uint32_t gx_light_normal(gx_engine *gx, uint32_t param)
{
    gx_geom_state *g = &gx->geom;
    int16_t n[3];
    int32_t nt[3];
    uint32_t acc[3];

    unpack_nrm10(param, n);
    for (int k = 0; k < 3; k++) g->normal[k] = n[k];
    if (teximage_texgen(g->teximage) == 2) gx_texgen_normal(gx, n);

    for (int k = 0; k < 3; k++) acc[k] = (uint32_t)g->mat_emission[k] << 14;
    uint32_t lights = polyattr_lights(g->cur_polygon_attr);
    if (lights) {
        for (int k = 0; k < 3; k++) nt[k] = bits12_sext11(vec_dot(n, gx->mtx.vec, k));
    }
    /* Per enabled light (the reference formula is in the header comment; the products of
     * material and light colours come from gx_light_products: the same integers, regrouped,
     * and the accumulator wraps modulo 2^32 in either order):
     *   acc += ((diffuse * light) * sext11(dot)) & 0xFFFFF    when dot > 0
     *   acc += (specular * light) * shine + (ambient << 9) * light */
    for (; lights; lights &= lights - 1) {
        int l = __builtin_ctz(lights);
        const int16_t *ld = g->light_dir[l];
        int32_t dot = dsgx_asr32(ld[0] * nt[0], 9) + dsgx_asr32(ld[1] * nt[1], 9) +
                      dsgx_asr32(ld[2] * nt[2], 9);
        int32_t shine = 0;
        if (dot > 0) {
            int32_t diff = dsgx_sext((uint32_t)dot, 11);
            for (int k = 0; k < 3; k++) acc[k] += (uint32_t)(g->light_dif[l][k] * diff) & 0xFFFFFu;
            shine = specular_level(dot, nt[2], g->spec_recip[l]);
        }
        if (g->shininess_enable) shine = g->shininess[shine >> 2] * 2;
        for (int k = 0; k < 3; k++)
            acc[k] += (uint32_t)(g->light_spe[l][k] * shine + g->light_amb[l][k]);
    }

    uint32_t color = 0;
    for (int k = 0; k < 3; k++) color |= ((acc[k] >> 14) > 31 ? 31 : (acc[k] >> 14)) << (8 * k);
    return color;
}

void gx_cmd_normal(gx_engine *gx, const uint32_t *params)
{
    gx_unpack_color(gx_light_normal(gx, params[0]), gx->geom.vtx_color);
}
