/*
 * mtx_internal.h - the matrix unit of the geometry engine (private to gx/).
 *
 * Layout (binding for every gx/ unit): a matrix is int32_t m[16], row-major, m[row * 4 + col],
 * entries 1.19.12, DS row-vector convention v' = v * M (translation in row 3: m[12..14]).
 * Hardware notes: see matrix.c.
 */
#ifndef DSGX_MTX_INTERNAL_H
#define DSGX_MTX_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx.h"

#define GX_MTX_STACK_DEPTH                                                                         \
    32 /* position/vector stack entries (GBATEK: 31 + the 32nd, see matrix.c) */

/** MTX_MODE values (GBATEK "DS 3D Matrix Load/Multiply"). */
enum { GX_MTX_MODE_PROJ = 0, GX_MTX_MODE_POS = 1, GX_MTX_MODE_POSVEC = 2, GX_MTX_MODE_TEX = 3 };

typedef struct gx_mtx_state {
    int32_t proj[16], pos[16], vec[16], tex[16];
    int32_t clip[16]; /* pos x proj, valid when !clip_dirty; read through gx_mtx_clip() */
    bool clip_dirty;

    int32_t proj_stack[16];
    int32_t tex_stack[16];
    int32_t pos_stack[GX_MTX_STACK_DEPTH][16];
    int32_t vec_stack[GX_MTX_STACK_DEPTH][16];
    uint32_t proj_sp; /* 0..1 (1 bit) */
    uint32_t tex_sp;  /* 0..1 (1 bit) */
    uint32_t pos_sp;  /* 0..63 (6-bit pointer shared by the position and vector stacks) */
    bool overflow;    /* GXSTAT bit 15, sticky until acknowledged */
    uint32_t mode;    /* MTX_MODE 0..3 */
} gx_mtx_state;

/** Power-on state: identity matrices, empty stacks, mode 0. */
void gx_mtx_reset(gx_engine *gx);

/** Recompute the clip matrix (position x projection). */
const int32_t *gx_mtx_clip_update(gx_mtx_state *s);

/** The clip matrix (position x projection), recomputed when a matrix changed. */
static inline const int32_t *gx_mtx_clip_of(gx_mtx_state *s)
{
    return s->clip_dirty ? gx_mtx_clip_update(s) : s->clip;
}
const int32_t *gx_mtx_clip(gx_engine *gx);

/** 4x4 x 4x4 product with the matrix unit's rounding (out may alias neither input). */
void gx_mtx_mul44(int32_t out[16], const int32_t a[16], const int32_t b[16]);

/* Command handlers (opcodes 10h-1Ch). */
void gx_cmd_mtx_mode(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_push(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_pop(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_store(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_restore(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_identity(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_load_4x4(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_load_4x3(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_mult_4x4(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_mult_4x3(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_mult_3x3(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_scale(gx_engine *gx, const uint32_t *params);
void gx_cmd_mtx_trans(gx_engine *gx, const uint32_t *params);

#endif
