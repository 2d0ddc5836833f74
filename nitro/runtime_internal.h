/*
 * runtime_internal.h - helpers shared by runtime.c, material.c, camera.c and texupload.c.
 */
#ifndef DSGX_NITRO_RUNTIME_INTERNAL_H
#define DSGX_NITRO_RUNTIME_INTERNAL_H

#include "nitro/runtime.h"

/* GX opcodes (GBATEK "DS 3D Geometry Commands"). */
enum {
    NRT_OP_MTX_MODE = 0x10,
    NRT_OP_MTX_PUSH = 0x11,
    NRT_OP_MTX_POP = 0x12,
    NRT_OP_MTX_STORE = 0x13,
    NRT_OP_MTX_RESTORE = 0x14,
    NRT_OP_MTX_IDENTITY = 0x15,
    NRT_OP_MTX_LOAD_4x4 = 0x16,
    NRT_OP_MTX_LOAD_4x3 = 0x17,
    NRT_OP_MTX_MULT_4x4 = 0x18,
    NRT_OP_MTX_MULT_4x3 = 0x19,
    NRT_OP_MTX_MULT_3x3 = 0x1a,
    NRT_OP_MTX_SCALE = 0x1b,
    NRT_OP_MTX_TRANS = 0x1c,
    NRT_OP_TEXCOORD = 0x22,
    NRT_OP_TEXIMAGE_PARAM = 0x2a,
};

/** A command port address (04000400 + opcode * 4). */
#define NRT_PORT(op) (0x04000400u + (uint32_t)(op)*4u)
#define NRT_GXFIFO   0x04000400u

/** GX_PACK_OP: four opcodes in one GXFIFO command word. */
static inline uint32_t nrt_pack(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    return (uint32_t)a | ((uint32_t)b << 8) | ((uint32_t)c << 16) | ((uint32_t)d << 24);
}

static inline void nrt_w32(const nitro_gx_sink *s, uint32_t addr, uint32_t v)
{
    s->write(s->user, addr, v, 4);
}

/** NNS_G3dGeBufferOP_N: a command word then its parameters, to the GXFIFO. */
void nrt_fifo(const nitro_gx_sink *s, uint32_t opword, const uint32_t *params, unsigned n);
/** Same with signed 1.19.12 parameters. */
void nrt_fifo_fx(const nitro_gx_sink *s, uint32_t opword, const fx32 *params, unsigned n);
/** Write n words to one command port (G3_LoadMtx43 and friends). */
void nrt_port_fx(const nitro_gx_sink *s, uint8_t op, const fx32 *params, unsigned n);
/** NNS_G3dGeSendDL: a display list's words to the GXFIFO. */
void nrt_send_dl(const nitro_gx_sink *s, const uint8_t *dl, uint32_t size);
/** G3X_GetClipMtx / G3X_GetVectorMtx: poll GXSTAT busy (bounded), then read the result. */
void nrt_read_clip(const nitro_gx_sink *s, fx32 out[16]);
void nrt_read_vec(const nitro_gx_sink *s, fx32 out[9]);
/** NNS_G3dGetCurrentMtx: current position (4x3) and/or vector (3x3) matrix. */
void nrt_get_current_mtx(const nitro_gx_sink *s, fx32 *pos12, fx32 *nrm9);

/** VEC_Mag / VEC_Normalize of a 1.19.12 vector. */
fx32 nrt_vec_mag(const fx32 v[3]);
void nrt_vec_normalize(const fx32 v[3], fx32 out[3]);
/** MTX_Concat44: out = a x b (row-vector order), 1.19.12, products truncated. */
void nrt_concat44(const fx32 a[16], const fx32 b[16], fx32 out[16]);

/* material.c */
/** NNSi_G3dFuncSbc_MAT_InternalDefault: compute and send a material. opt = opcode & 0xe0. */
void nrt_material(nitro_runtime *rt, unsigned opt, unsigned idx);
/** The joint SRT of a NODEDESC: get scale by the model's scaling rule and send it. */
void nrt_joint_srt(nitro_runtime *rt, const nitro_sbc_cmd *c);
/** Send a material's texture matrix in the model's texture matrix mode. */
void nrt_send_tex_srt(nitro_runtime *rt, const nitro_mat_result *r);

static inline bool nrt_bit(const uint32_t *v, unsigned i)
{
    return (v[i >> 5] >> (i & 31)) & 1u;
}
static inline void nrt_bit_set(uint32_t *v, unsigned i)
{
    v[i >> 5] |= 1u << (i & 31);
}
static inline void nrt_bit_clr(uint32_t *v, unsigned i)
{
    v[i >> 5] &= ~(1u << (i & 31));
}

/** (a * b) >> 12 in 64 bits, truncated to 32 (the runtime's fx32 multiply). */
static inline fx32 nrt_mul(fx32 a, fx32 b)
{
    return fx32_mul(a, b);
}

#endif
