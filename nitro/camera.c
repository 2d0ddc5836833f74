/*
 * camera.c - the G3D global state (NNS_G3dGlb): defaults, the FlushP command block, camera and
 * projection matrices, and the small vector helpers the runtime uses.
 *
 * Facts: pret/pokeplatinum lib/NitroSystem/asm/g3d/glbstate.s NNS_G3dGlbInit (the packed
 * command words 0x17101610, 0x32323232, 0x60293130, 0x33333333, 0x002A1B19 and every default
 * value: light vectors 0x2D8B62D8, 0x40000200, 0x800001FF, 0xC0080000; colours 0x7FFF,
 * 0x4000001F, 0x800003E0, 0xC0007C00; DIF_AMB = SPE_EMI = 0x4210C210; POLYGON_ATTR 0x001F008F;
 * VIEWPORT 0xBFFF0000) and NNS_G3dGlbFlushP (one GeBufferOP_N of that block, 62 parameters).
 * Camera/projection set-up follows the NitroSDK G3_LookAt / G3_Perspective conventions
 * (row-vector DS matrices). Guesses: the rounding of VEC_Mag / VEC_Normalize / MTX_Inverse43
 * (we round as documented at each function); they only matter for billboards and projection
 * maps. No floating point here.
 */
#include <string.h>

#include "nitro/runtime_internal.h"

static void ident43(fx32 m[12])
{
    memset(m, 0, 12 * sizeof *m);
    m[0] = m[4] = m[8] = FX32_ONE;
}

void nitro_glb_init(nitro_glb *g)
{
    memset(g, 0, sizeof *g);
    for (unsigned i = 0; i < 4; i++) g->proj[i * 5] = FX32_ONE;
    ident43(g->camera);
    g->light_vec[0] = 0x2D8B62D8u;
    g->light_vec[1] = 0x40000200u;
    g->light_vec[2] = 0x800001FFu;
    g->light_vec[3] = 0xC0080000u;
    g->light_col[0] = 0x00007FFFu;
    g->light_col[1] = 0x4000001Fu;
    g->light_col[2] = 0x800003E0u;
    g->light_col[3] = 0xC0007C00u;
    g->dif_amb = g->spe_emi = 0x4210C210u;
    g->polygon_attr = 0x001F008Fu;
    g->viewport = 0xBFFF0000u;
    g->base_rot[0] = g->base_rot[4] = g->base_rot[8] = FX32_ONE;
    g->base_scale[0] = g->base_scale[1] = g->base_scale[2] = FX32_ONE;
}

void nitro_glb_flush(nitro_glb *g, const nitro_gx_sink *sink)
{
    uint32_t p[62];
    unsigned n = 0;
    p[n++] = 0; /* MTX_MODE projection */
    for (unsigned i = 0; i < 16; i++) p[n++] = (uint32_t)g->proj[i];
    p[n++] = 2; /* MTX_MODE position-vector */
    for (unsigned i = 0; i < 12; i++) p[n++] = (uint32_t)g->camera[i];
    p[n++] = 0x32323232u;
    for (unsigned i = 0; i < 4; i++) p[n++] = g->light_vec[i];
    p[n++] = 0x60293130u;
    p[n++] = g->dif_amb;
    p[n++] = g->spe_emi;
    p[n++] = g->polygon_attr;
    p[n++] = g->viewport;
    p[n++] = 0x33333333u;
    for (unsigned i = 0; i < 4; i++) p[n++] = g->light_col[i];
    p[n++] = 0x002A1B19u;
    for (unsigned i = 0; i < 9; i++) p[n++] = (uint32_t)g->base_rot[i];
    for (unsigned i = 0; i < 3; i++) p[n++] = (uint32_t)g->base_trans[i];
    for (unsigned i = 0; i < 3; i++) p[n++] = (uint32_t)g->base_scale[i];
    p[n++] = g->teximage;
    nrt_fifo(sink, 0x17101610u, p, n);
    g->flag &= ~3u; /* FlushP: camera in the position matrix */
}

void nitro_glb_light_vector(nitro_glb *g, unsigned light, fx32 x, fx32 y, fx32 z)
{
    light &= 3u;
    g->light_vec[light] = ((uint32_t)(x >> 3) & 0x3ffu) | (((uint32_t)(y >> 3) & 0x3ffu) << 10) |
                          (((uint32_t)(z >> 3) & 0x3ffu) << 20) | (light << 30);
}

void nitro_glb_light_color(nitro_glb *g, unsigned light, uint16_t color)
{
    light &= 3u;
    g->light_col[light] = (color & 0x7fffu) | (light << 30);
}

void nitro_glb_set_camera(nitro_glb *g, const fx32 cam[12])
{
    memcpy(g->camera, cam, sizeof g->camera);
    g->inv_camera_valid = false;
}

/* ---- vector helpers ---- */

fx32 nitro_fx_div(fx32 numer, fx32 denom)
{
    int64_t q;
    if (denom == 0)
        q = numer >= 0 ? -1 : 1;
    else if (denom == -1 && numer == INT32_MIN)
        q = INT64_MIN; /* the one overflowing quotient: the divider returns it wrapped */
    else
        q = dsgx_shl64(numer, 32) / denom;
    return dsgx_wrap32(dsgx_asr64((int64_t)((uint64_t)q + 0x80000u), 20));
}

static uint64_t isqrt64(uint64_t v)
{
    uint64_t r = 0, bit = (uint64_t)1 << 62;
    while (bit > v) bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

/* VEC_Mag: sqrt of the 24-bit-fraction sum of squares, computed at one more bit and rounded. */
fx32 nrt_vec_mag(const fx32 v[3])
{
    uint64_t s =
        (uint64_t)(dsgx_mul64(v[0], v[0]) + dsgx_mul64(v[1], v[1]) + dsgx_mul64(v[2], v[2]));
    return (fx32)((isqrt64(s << 2) + 1) >> 1);
}

/* VEC_Normalize: v / |v|, truncated toward zero. */
void nrt_vec_normalize(const fx32 v[3], fx32 out[3])
{
    fx32 m = nrt_vec_mag(v);
    for (unsigned i = 0; i < 3; i++) out[i] = m ? (fx32)(dsgx_shl64(v[i], 12) / m) : 0;
}

void nrt_concat44(const fx32 a[16], const fx32 b[16], fx32 out[16])
{
    fx32 t[16];
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 4; c++) {
            int64_t s = 0;
            for (unsigned k = 0; k < 4; k++) s += dsgx_mul64(a[r * 4 + k], b[k * 4 + c]);
            t[r * 4 + c] = dsgx_wrap32(s >> 12);
        }
    memcpy(out, t, sizeof t);
}

static void cross(const fx32 a[3], const fx32 b[3], fx32 o[3])
{
    o[0] = dsgx_wrap32((dsgx_mul64(a[1], b[2]) - dsgx_mul64(a[2], b[1])) >> 12);
    o[1] = dsgx_wrap32((dsgx_mul64(a[2], b[0]) - dsgx_mul64(a[0], b[2])) >> 12);
    o[2] = dsgx_wrap32((dsgx_mul64(a[0], b[1]) - dsgx_mul64(a[1], b[0])) >> 12);
}

static fx32 dot(const fx32 a[3], const fx32 b[3])
{
    return dsgx_wrap32((dsgx_mul64(a[0], b[0]) + dsgx_mul64(a[1], b[1]) + dsgx_mul64(a[2], b[2])) >>
                       12);
}

void nitro_camera_lookat(const fx32 eye[3], const fx32 up[3], const fx32 at[3], fx32 out[12])
{
    fx32 z[3] = {eye[0] - at[0], eye[1] - at[1], eye[2] - at[2]}, x[3], y[3], t[3];
    nrt_vec_normalize(z, z);
    cross(up, z, t);
    nrt_vec_normalize(t, x);
    cross(z, x, y);
    for (unsigned i = 0; i < 3; i++) {
        out[i * 3 + 0] = x[i];
        out[i * 3 + 1] = y[i];
        out[i * 3 + 2] = z[i];
    }
    out[9] = -dot(eye, x);
    out[10] = -dot(eye, y);
    out[11] = -dot(eye, z);
}

void nitro_camera_perspective(fx32 fovy_sin, fx32 fovy_cos, fx32 aspect, fx32 n, fx32 f,
                              fx32 out[16])
{
    memset(out, 0, 16 * sizeof *out);
    fx32 cot = fovy_sin ? (fx32)(dsgx_shl64(fovy_cos, 12) / fovy_sin) : FX32_ONE;
    out[0] = aspect ? (fx32)(dsgx_shl64(cot, 12) / aspect) : cot;
    out[5] = cot;
    int64_t d = (int64_t)n - f; /* near - far, negative */
    if (d == 0) d = -1;
    out[10] = (fx32)(dsgx_shl64((int64_t)f + n, 12) / d);
    out[11] = -FX32_ONE;
    out[14] = (fx32)((dsgx_mul64(f, n) * 2) / d);
}

bool nitro_mtx43_inverse(const fx32 m[12], fx32 out[12])
{
    /* rows: a = m[0..2], b = m[3..5], c = m[6..8], t = m[9..11] (row-vector 4x3) */
    int64_t c00 = dsgx_mul64(m[4], m[8]) - dsgx_mul64(m[5], m[7]);
    int64_t c01 = dsgx_mul64(m[2], m[7]) - dsgx_mul64(m[1], m[8]);
    int64_t c02 = dsgx_mul64(m[1], m[5]) - dsgx_mul64(m[2], m[4]);
    int64_t c10 = dsgx_mul64(m[5], m[6]) - dsgx_mul64(m[3], m[8]);
    int64_t c11 = dsgx_mul64(m[0], m[8]) - dsgx_mul64(m[2], m[6]);
    int64_t c12 = dsgx_mul64(m[2], m[3]) - dsgx_mul64(m[0], m[5]);
    int64_t c20 = dsgx_mul64(m[3], m[7]) - dsgx_mul64(m[4], m[6]);
    int64_t c21 = dsgx_mul64(m[1], m[6]) - dsgx_mul64(m[0], m[7]);
    int64_t c22 = dsgx_mul64(m[0], m[4]) - dsgx_mul64(m[1], m[3]);
    int64_t det = (m[0] * (c00 >> 12) + m[1] * (c10 >> 12) + m[2] * (c20 >> 12)) >> 12;
    if (det == 0) return false;
    int64_t cof[9] = {c00, c01, c02, c10, c11, c12, c20, c21, c22};
    fx32 r[12];
    for (unsigned i = 0; i < 9; i++) r[i] = dsgx_wrap32((cof[i] / det));
    for (unsigned c = 0; c < 3; c++)
        r[9 + c] = -dsgx_wrap32(
            (dsgx_mul64(m[9], r[c]) + dsgx_mul64(m[10], r[3 + c]) + dsgx_mul64(m[11], r[6 + c])) >>
            12);
    memcpy(out, r, sizeof r);
    return true;
}
