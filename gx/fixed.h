/*
 * fixed.h - the DS number formats and the arithmetic helpers every unit uses.
 *
 * Hardware notes: formats from GBATEK "DS 3D Matrix/Vertex/Texture formats". The geometry engine
 * keeps matrix entries as 1.19.12 (32-bit two's complement), vertices as 1.3.12 (16-bit), VTX_10
 * as 1.3.6, normals and light vectors as 1.0.9 (10-bit), texture coordinates as 1.11.4 (16-bit),
 * VTX_DIFF as 1.0.9 with 3 more fraction bits (i.e. added to 1.3.12 as-is), colours as BGR555.
 *
 * Rules (STYLE.md 3): never shift a negative value left in signed arithmetic, never rely on
 * signed overflow. Left shifts go through the unsigned helpers below; products that can exceed
 * 32 bits go through dsgx_mul64(). Right shifts of negative values are arithmetic on every
 * compiler we support (GCC and Clang document it) and are wrapped in dsgx_asr*() to say so.
 */
#ifndef DSGX_FIXED_H
#define DSGX_FIXED_H

#include <stdint.h>

typedef int32_t fx32;   /* 1.19.12 matrix entry / 32-bit intermediate */
typedef int16_t vtx16;  /* 1.3.12 vertex coordinate */
typedef int16_t vtx10;  /* 1.3.6 VTX_10 coordinate, sign-extended */
typedef int16_t nrm10;  /* 1.0.9 normal / light vector component, sign-extended */
typedef int16_t tex16;  /* 1.11.4 texture coordinate */
typedef uint16_t rgb15; /* BGR555 colour */

#define FX32_ONE 0x1000

/** Sign-extend the low @p bits bits of @p v. */
static inline int32_t dsgx_sext(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    v &= (bits >= 32) ? 0xFFFFFFFFu : ((1u << bits) - 1u);
    return (int32_t)((v ^ m) - m);
}

/** Wrap a 64-bit value to 32-bit two's complement (what a 32-bit hardware register keeps). */
static inline int32_t dsgx_wrap32(int64_t v)
{
    return (int32_t)(uint32_t)(uint64_t)v;
}

/** Left shift without signed-shift undefined behaviour (wraps like the hardware). */
static inline int32_t dsgx_shl32(int32_t v, unsigned s)
{
    return (int32_t)((uint32_t)v << s);
}
static inline int64_t dsgx_shl64(int64_t v, unsigned s)
{
    return (int64_t)((uint64_t)v << s);
}

/** Arithmetic right shift (floor division by 2^s). */
static inline int32_t dsgx_asr32(int32_t v, unsigned s)
{
    return v >> s;
}
static inline int64_t dsgx_asr64(int64_t v, unsigned s)
{
    return v >> s;
}

/** Full 64-bit product of two 32-bit values. */
static inline int64_t dsgx_mul64(int32_t a, int32_t b)
{
    return (int64_t)a * (int64_t)b;
}

/** 1.19.12 x 1.19.12 -> 1.19.12, truncating (floor) as the matrix unit does, wrapped to 32 bits. */
static inline fx32 fx32_mul(fx32 a, fx32 b)
{
    return dsgx_wrap32(dsgx_asr64(dsgx_mul64(a, b), 12));
}

static inline int32_t dsgx_clamp(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* BGR555 field accessors. */
static inline unsigned rgb15_r(rgb15 c)
{
    return c & 0x1Fu;
}
static inline unsigned rgb15_g(rgb15 c)
{
    return (c >> 5) & 0x1Fu;
}
static inline unsigned rgb15_b(rgb15 c)
{
    return (c >> 10) & 0x1Fu;
}
static inline rgb15 rgb15_make(unsigned r, unsigned g, unsigned b)
{
    return (rgb15)((r & 0x1Fu) | ((g & 0x1Fu) << 5) | ((b & 0x1Fu) << 10));
}

#endif
