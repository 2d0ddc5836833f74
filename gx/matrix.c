/*
 * matrix.c - the geometry engine's matrix unit: MTX_MODE, the four current matrices, their
 * stacks and the clip matrix.
 *
 * Hardware notes.
 * - Modes (GBATEK "DS 3D Matrix Load/Multiply"): 0 projection, 1 position, 2 position and
 *   vector, 3 texture. Loads, multiplies, IDENTITY and TRANS in mode 2 apply to the position
 *   and the vector matrix; SCALE only ever applies to the position matrix (GBATEK: the vector
 *   matrix must stay orthonormal; melonDS GPU3D.cpp: MTX_SCALE never touches VecMatrix).
 * - Stacks (GBATEK "DS 3D Matrix Stack"): projection 1 entry with a 1-bit pointer, texture 1
 *   entry with a 1-bit pointer, position and vector 32 entries sharing one 6-bit pointer.
 *   PUSH/POP/STORE/RESTORE in modes 1 and 2 always move both the position and the vector
 *   matrix (melonDS GPU3D.cpp notes; GBATEK). Overflow rules as melonDS models them:
 *   PUSH with pointer > 30, POP leaving the pointer > 30 (after a signed 6-bit offset and a
 *   6-bit wrap), STORE/RESTORE of index 31 set the sticky GXSTAT error bit 15. The entry index
 *   is the pointer's low 5 bits, so index 31 is a real 32nd entry (reference mtx_stack.trace).
 *   Projection/texture PUSH with pointer 1 and POP with pointer 0 also set the error bit.
 * - Arithmetic (melonDS GPU3D.cpp MatrixMult4x4 & co.): every product is new = P x M, where P
 *   is the parameter matrix and M the current one; each entry sums four 64-bit products and
 *   then shifts right by 12 (floor), keeping the low 32 bits. MULT_4x3, MULT_3x3, SCALE and
 *   TRANS are the same 4x4 product with P padded by the identity's missing rows/columns; the
 *   padding terms are multiples of 4096 or zero, so the result is bit-identical to melonDS's
 *   separate routines (TRANS: m[12+c] += floor(sum/4096) == floor((sum + 4096 m[12+c])/4096)).
 * - Clip matrix = position x projection, recomputed lazily (melonDS UpdateClipMatrix).
 * Verified: the mtx_* reference traces. Guess: none beyond melonDS's own.
 */
#include "gx/gx_internal.h"

#include <string.h>

static const int32_t identity[16] = {
    FX32_ONE, 0, 0, 0, 0, FX32_ONE, 0, 0, 0, 0, FX32_ONE, 0, 0, 0, 0, FX32_ONE,
};

void gx_mtx_mul44(int32_t out[16], const int32_t a[16], const int32_t b[16])
{
    for (unsigned r = 0; r < 4; r++) {
        for (unsigned c = 0; c < 4; c++) {
            /* sum in unsigned 64-bit: wraps like the hardware's adder, no signed overflow */
            uint64_t acc = 0;
            for (unsigned k = 0; k < 4; k++)
                acc += (uint64_t)dsgx_mul64(a[r * 4 + k], b[k * 4 + c]);
            out[r * 4 + c] = dsgx_wrap32(dsgx_asr64((int64_t)acc, 12));
        }
    }
}

/* m = p x m */
static void mult(int32_t m[16], const int32_t p[16])
{
    int32_t tmp[16];
    gx_mtx_mul44(tmp, p, m);
    memcpy(m, tmp, sizeof(tmp));
}

void gx_mtx_reset(gx_engine *gx)
{
    gx_mtx_state *s = &gx->mtx;
    memset(s, 0, sizeof(*s));
    memcpy(s->proj, identity, sizeof(identity));
    memcpy(s->pos, identity, sizeof(identity));
    memcpy(s->vec, identity, sizeof(identity));
    memcpy(s->tex, identity, sizeof(identity));
    s->clip_dirty = true;
}

const int32_t *gx_mtx_clip_update(gx_mtx_state *s)
{
    gx_mtx_mul44(s->clip, s->pos, s->proj);
    s->clip_dirty = false;
    return s->clip;
}

const int32_t *gx_mtx_clip(gx_engine *gx)
{
    return gx_mtx_clip_of(&gx->mtx);
}

/* Apply a parameter matrix to the matrices the current mode selects.
 * vec_too: whether mode 2 also updates the vector matrix (false for SCALE). */
static void apply(gx_engine *gx, const int32_t p[16], bool load, bool vec_too)
{
    gx_mtx_state *s = &gx->mtx;
    int32_t *targets[2] = {NULL, NULL};
    switch (s->mode) {
    case GX_MTX_MODE_PROJ: targets[0] = s->proj; break;
    case GX_MTX_MODE_TEX: targets[0] = s->tex; break;
    case GX_MTX_MODE_POS: targets[0] = s->pos; break;
    default:
        targets[0] = s->pos;
        if (vec_too) targets[1] = s->vec;
        break;
    }
    for (unsigned i = 0; i < 2 && targets[i]; i++) {
        if (load)
            memcpy(targets[i], p, 16 * sizeof(int32_t));
        else
            mult(targets[i], p);
    }
    if (s->mode != GX_MTX_MODE_TEX) s->clip_dirty = true;
}

void gx_cmd_mtx_mode(gx_engine *gx, const uint32_t *params)
{
    gx->mtx.mode = params[0] & 3u;
}

void gx_cmd_mtx_push(gx_engine *gx, const uint32_t *params)
{
    (void)params;
    gx_mtx_state *s = &gx->mtx;
    switch (s->mode) {
    case GX_MTX_MODE_PROJ:
        if (s->proj_sp > 0) s->overflow = true;
        memcpy(s->proj_stack, s->proj, sizeof(s->proj));
        s->proj_sp = (s->proj_sp + 1) & 1u;
        break;
    case GX_MTX_MODE_TEX:
        if (s->tex_sp > 0) s->overflow = true;
        memcpy(s->tex_stack, s->tex, sizeof(s->tex));
        s->tex_sp = (s->tex_sp + 1) & 1u;
        break;
    default:
        if (s->pos_sp > 30) s->overflow = true;
        memcpy(s->pos_stack[s->pos_sp & 31u], s->pos, sizeof(s->pos));
        memcpy(s->vec_stack[s->pos_sp & 31u], s->vec, sizeof(s->vec));
        s->pos_sp = (s->pos_sp + 1) & 63u;
        break;
    }
}

void gx_cmd_mtx_pop(gx_engine *gx, const uint32_t *params)
{
    gx_mtx_state *s = &gx->mtx;
    switch (s->mode) {
    case GX_MTX_MODE_PROJ:
        if (s->proj_sp == 0) s->overflow = true;
        s->proj_sp = (s->proj_sp - 1) & 1u;
        memcpy(s->proj, s->proj_stack, sizeof(s->proj));
        s->clip_dirty = true;
        break;
    case GX_MTX_MODE_TEX:
        if (s->tex_sp == 0) s->overflow = true;
        s->tex_sp = (s->tex_sp - 1) & 1u;
        memcpy(s->tex, s->tex_stack, sizeof(s->tex));
        break;
    default: {
        /* GBATEK: parameter bits 0-5, signed: the number of entries to pop */
        int32_t offset = dsgx_sext(params[0], 6);
        s->pos_sp = (s->pos_sp - (uint32_t)offset) & 63u;
        if (s->pos_sp > 30) s->overflow = true;
        memcpy(s->pos, s->pos_stack[s->pos_sp & 31u], sizeof(s->pos));
        memcpy(s->vec, s->vec_stack[s->pos_sp & 31u], sizeof(s->vec));
        s->clip_dirty = true;
        break;
    }
    }
}

void gx_cmd_mtx_store(gx_engine *gx, const uint32_t *params)
{
    gx_mtx_state *s = &gx->mtx;
    switch (s->mode) {
    case GX_MTX_MODE_PROJ: memcpy(s->proj_stack, s->proj, sizeof(s->proj)); break;
    case GX_MTX_MODE_TEX: memcpy(s->tex_stack, s->tex, sizeof(s->tex)); break;
    default: {
        uint32_t idx = params[0] & 31u;
        if (idx > 30) s->overflow = true;
        memcpy(s->pos_stack[idx], s->pos, sizeof(s->pos));
        memcpy(s->vec_stack[idx], s->vec, sizeof(s->vec));
        break;
    }
    }
}

void gx_cmd_mtx_restore(gx_engine *gx, const uint32_t *params)
{
    gx_mtx_state *s = &gx->mtx;
    switch (s->mode) {
    case GX_MTX_MODE_PROJ:
        memcpy(s->proj, s->proj_stack, sizeof(s->proj));
        s->clip_dirty = true;
        break;
    case GX_MTX_MODE_TEX: memcpy(s->tex, s->tex_stack, sizeof(s->tex)); break;
    default: {
        uint32_t idx = params[0] & 31u;
        if (idx > 30) s->overflow = true;
        memcpy(s->pos, s->pos_stack[idx], sizeof(s->pos));
        memcpy(s->vec, s->vec_stack[idx], sizeof(s->vec));
        s->clip_dirty = true;
        break;
    }
    }
}

void gx_cmd_mtx_identity(gx_engine *gx, const uint32_t *params)
{
    (void)params;
    apply(gx, identity, true, true);
}

void gx_cmd_mtx_load_4x4(gx_engine *gx, const uint32_t *params)
{
    int32_t p[16];
    for (unsigned i = 0; i < 16; i++) p[i] = (int32_t)params[i];
    apply(gx, p, true, true);
}

/* GBATEK: the 4x3 forms give rows of three; column 3 is (0, 0, 0, 1.0). */
static void widen_4x3(int32_t p[16], const uint32_t *params)
{
    for (unsigned r = 0; r < 4; r++) {
        for (unsigned c = 0; c < 3; c++) p[r * 4 + c] = (int32_t)params[r * 3 + c];
        p[r * 4 + 3] = r == 3 ? FX32_ONE : 0;
    }
}

void gx_cmd_mtx_load_4x3(gx_engine *gx, const uint32_t *params)
{
    int32_t p[16];
    widen_4x3(p, params);
    apply(gx, p, true, true);
}

void gx_cmd_mtx_mult_4x4(gx_engine *gx, const uint32_t *params)
{
    int32_t p[16];
    for (unsigned i = 0; i < 16; i++) p[i] = (int32_t)params[i];
    apply(gx, p, false, true);
}

void gx_cmd_mtx_mult_4x3(gx_engine *gx, const uint32_t *params)
{
    int32_t p[16];
    widen_4x3(p, params);
    apply(gx, p, false, true);
}

void gx_cmd_mtx_mult_3x3(gx_engine *gx, const uint32_t *params)
{
    int32_t p[16];
    memcpy(p, identity, sizeof(p));
    for (unsigned r = 0; r < 3; r++)
        for (unsigned c = 0; c < 3; c++) p[r * 4 + c] = (int32_t)params[r * 3 + c];
    apply(gx, p, false, true);
}

void gx_cmd_mtx_scale(gx_engine *gx, const uint32_t *params)
{
    int32_t p[16];
    memcpy(p, identity, sizeof(p));
    for (unsigned i = 0; i < 3; i++) p[i * 5] = (int32_t)params[i];
    apply(gx, p, false, false);
}

void gx_cmd_mtx_trans(gx_engine *gx, const uint32_t *params)
{
    int32_t p[16];
    memcpy(p, identity, sizeof(p));
    for (unsigned i = 0; i < 3; i++) p[12 + i] = (int32_t)params[i];
    apply(gx, p, false, true);
}
