/*
 * anim_jnt.c - NSBCA joint animations (JNT0): layout, rotation tables, per-frame evaluation.
 *
 * Layout (pret/pokediamond arm9/asm/NNS_G3D_nsbca.s getJntSRTAnmResult_, NNSi_G3dAnmObjInitNsBca;
 * GBATEK "BCA0"; MarioKartToolbox (MIT) G3dJointAnimation*.cs):
 *   +0 "J\0CA", +4 u16 frames, +6 u16 tracks, +8 u32 options (bit 0 fractional frames, bit 1
 *   end-to-start), +0xC u32 offset of the pivot table (6 bytes: u16 info, s16 A, s16 B), +0x10
 *   u32 offset of the basis table (10 bytes), +0x14 u16 track offsets (from the animation).
 *   Track: u32 tag (flags, bits 24-31 the track's data index); then for translation X/Y/Z
 *   (unless IDENTITY_T/BASE_T) 4 bytes constant fx32 or 8 bytes (info, offset); rotation
 *   (unless IDENTITY_R/BASE_R) 4 bytes constant index or 8 bytes; scale X/Y/Z (unless
 *   IDENTITY_S/BASE_S) 8 bytes each: constant (scale, inverse scale) or (info, offset).
 *   info: bits 30-31 step, bit 29 16-bit samples, bits 16-28 last interpolated frame.
 * Binding: NNSi_G3dAnmObjInitNsBca gives model node i the data index in the high byte of
 *   track i's tag (node index, not name: JNT0 tracks carry no names).
 * Evaluation: getRotDataByIdx_ (pivot: +-1 at the pivot entry, A, B, +-B, +-A in pivotUtil_
 *   order; basis: five s16 whose top 13 bits are _00 _01 _02 _10 _11 and whose low 3 bits
 *   concatenate (word 4 first, bit 0 only) to the 13-bit _12; third row = row0 x row1);
 *   getRotData_ sums two (or 3:1) matrices row by row and renormalises rows 0 and 1 with
 *   VEC_Normalize, rebuilding row 2 by cross product when a basis matrix took part;
 *   getRotDataEx_ blends rows with the fraction. Frame clamp from NNSi_G3dAnmCalcNsBca.
 * Guess: VEC_Normalize's rounding is H7's (camera.c), not read from FX_vec.s.
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/anim_internal.h"
#include "nitro/runtime_internal.h"

static bool read_curve(nitro_cursor *c, nitro_anim *a, nitro_curve *cv, uint8_t type, bool constant,
                       unsigned frames)
{
    memset(cv, 0, sizeof *cv);
    cv->type = type;
    cv->constant = constant;
    cv->info_at = (uint32_t)c->pos;
    if (constant) {
        cv->value = nitro_cur_s32(c);
        if (type == NITRO_CURVE_JNT_SCALE) cv->value2 = nitro_cur_s32(c);
        return nitro_cur_ok(c);
    }
    cv->info = nitro_cur_u32(c);
    uint32_t rel = nitro_cur_u32(c);
    if (!nitro_cur_ok(c)) return false;
    cv->fx16 = type != NITRO_CURVE_JNT_ROT && (cv->info & 0x20000000u);
    cv->last = (uint16_t)((cv->info >> 16) & 0x1fffu);
    return nan_curve_samples(c, cv, a->offset, rel, frames);
}

static bool check_rot_index(nitro_cursor *c, const nitro_anim *a, uint32_t at, uint32_t idx)
{
    bool pivot = idx & 0x8000u;
    uint32_t i = idx & 0x7fffu, n = pivot ? a->num_rot3 : a->num_rot5;
    if (i < n) return true;
    return nitro_cur_fail(c, at, "rotation index %u beyond the %s table (%u entries)", i,
                          pivot ? "pivot" : "basis", n);
}

bool nitro_jnt_parse(nitro_cursor *c, nitro_anim *a, unsigned frames)
{
    c->what = "JNT0 animation";
    if (!nitro_cur_seek(c, a->offset + 6u)) return false;
    a->num_tracks = nitro_cur_u16(c);
    a->flag = nitro_cur_u32(c);
    size_t r3_at = c->pos;
    uint32_t r3 = nitro_cur_u32(c);
    size_t r5_at = c->pos;
    uint32_t r5 = nitro_cur_u32(c);
    if (!nitro_cur_ok(c)) return false;
    a->rot3 = (uint32_t)nitro_cur_range(c, r3_at, a->offset, r3, 0, "pivot table");
    a->rot5 = (uint32_t)nitro_cur_range(c, r5_at, a->offset, r5, 0, "basis table");
    if (!nitro_cur_ok(c)) return false;
    a->num_rot3 = (uint32_t)((c->hi - a->rot3) / 6);
    a->num_rot5 = (uint32_t)((c->hi - a->rot5) / 10);
    if (!nitro_cur_need(c, 2ull * a->num_tracks)) return false;
    a->jnt = nitro_calloc(c, a->num_tracks, sizeof *a->jnt);
    if (!a->jnt) return false;
    for (unsigned i = 0; i < a->num_tracks; i++) {
        nitro_jnt_track *t = &a->jnt[i];
        c->what = "JNT0 track";
        c->pos = a->offset + 0x14u + 2u * i;
        size_t ofs_at = c->pos;
        uint32_t rel = nitro_cur_u16(c);
        size_t at = nitro_cur_range(c, ofs_at, a->offset, rel, 4, "track");
        if (!nitro_cur_ok(c)) return false;
        c->pos = at;
        t->offset = (uint32_t)at;
        t->tag = nitro_cur_u32(c);
        uint32_t g = t->tag;
        if (g & NITRO_JNT_IDENTITY) continue;
        if (!(g & (NITRO_JNT_IDENTITY_T | NITRO_JNT_BASE_T)))
            for (unsigned k = 0; k < 3; k++)
                if (!read_curve(c, a, &t->trans[k], NITRO_CURVE_JNT_TRANS,
                                g & (NITRO_JNT_CONST_TX << k), frames))
                    return false;
        if (!(g & (NITRO_JNT_IDENTITY_R | NITRO_JNT_BASE_R))) {
            if (!read_curve(c, a, &t->rot, NITRO_CURVE_JNT_ROT, g & NITRO_JNT_CONST_R, frames))
                return false;
            if (t->rot.constant) {
                if (!check_rot_index(c, a, t->rot.info_at, (uint32_t)t->rot.value & 0xffffu))
                    return false;
            } else {
                for (uint32_t s = 0; s < t->rot.count; s++)
                    if (!check_rot_index(c, a, t->rot.data + 2 * s,
                                         (uint32_t)nan_sample(c->data, &t->rot, s, 0)))
                        return false;
            }
        }
        if (!(g & (NITRO_JNT_IDENTITY_S | NITRO_JNT_BASE_S)))
            for (unsigned k = 0; k < 3; k++)
                if (!read_curve(c, a, &t->scale[k], NITRO_CURVE_JNT_SCALE,
                                g & (NITRO_JNT_CONST_SX << k), frames))
                    return false;
    }
    return nitro_cur_ok(c);
}

/* ---- rotations ---- */

static void cross_row2(fx32 m[9])
{
    m[6] = dsgx_wrap32((dsgx_mul64(m[1], m[5]) - dsgx_mul64(m[2], m[4])) >> 12);
    m[7] = dsgx_wrap32((dsgx_mul64(m[2], m[3]) - dsgx_mul64(m[0], m[5])) >> 12);
    m[8] = dsgx_wrap32((dsgx_mul64(m[0], m[4]) - dsgx_mul64(m[1], m[3])) >> 12);
}

bool nitro_jnt_rot_by_index(const nitro_anim *a, const uint8_t *d, uint32_t idx, fx32 m[9])
{
    uint32_t i = idx & 0x7fffu;
    if (idx & 0x8000u) {
        if (i >= a->num_rot3) {
            nitro_pivot_to_mtx33(9, false, false, false, 0, 0, m);
            return false;
        }
        uint32_t at = a->rot3 + 6u * i;
        uint16_t info = nan_u16(d, at);
        nitro_pivot_to_mtx33(info & 0xfu, info & 0x10u, info & 0x20u, info & 0x40u,
                             (int16_t)nan_u16(d, at + 2), (int16_t)nan_u16(d, at + 4), m);
        return false;
    }
    if (i >= a->num_rot5) {
        nitro_pivot_to_mtx33(9, false, false, false, 0, 0, m);
        return false;
    }
    uint32_t at = a->rot5 + 10u * i;
    int32_t w[5];
    for (unsigned k = 0; k < 5; k++) w[k] = nan_s16(d, at + 2 * k);
    m[0] = w[0] >> 3;
    m[1] = w[1] >> 3;
    m[2] = w[2] >> 3;
    m[3] = w[3] >> 3;
    m[4] = w[4] >> 3;
    uint32_t lo = ((uint32_t)w[4] & 7u) << 12 | ((uint32_t)w[0] & 7u) << 9 |
                  ((uint32_t)w[1] & 7u) << 6 | ((uint32_t)w[2] & 7u) << 3 | ((uint32_t)w[3] & 7u);
    m[5] = dsgx_sext(lo & 0x1fffu, 13);
    m[6] = m[7] = m[8] = 0; /* not written by the runtime: rebuilt by cross product */
    return true;
}

static bool fetch(const nitro_anim *a, const uint8_t *d, const nitro_curve *c, uint32_t i,
                  fx32 m[9])
{
    return nitro_jnt_rot_by_index(a, d, (uint32_t)nan_sample(d, c, i, 0), m);
}

static void single(const nitro_anim *a, const uint8_t *d, const nitro_curve *c, uint32_t i,
                   fx32 m[9])
{
    if (fetch(a, d, c, i, m)) cross_row2(m);
}

/* m = wa * A + wb * B (rows 0 and 1, and row 2 unless a basis matrix took part), rows
 * normalised: getRotData_'s 1:1 (wa = wb = 1) and 3:1 (wa = 3, wb = 1) blends. */
static void blend(const nitro_anim *a, const uint8_t *d, const nitro_curve *c, uint32_t ia,
                  uint32_t ib, int32_t wa, fx32 m[9])
{
    fx32 b[9];
    bool cr = fetch(a, d, c, ia, m);
    cr |= fetch(a, d, c, ib, b);
    for (unsigned k = 0; k < 9; k++) m[k] = (fx32)((uint32_t)m[k] * (uint32_t)wa + (uint32_t)b[k]);
    nrt_vec_normalize(&m[0], &m[0]);
    nrt_vec_normalize(&m[3], &m[3]);
    if (cr)
        cross_row2(m);
    else
        nrt_vec_normalize(&m[6], &m[6]);
}

static void rot_frame(const nitro_anim *a, const uint8_t *d, const nitro_curve *c, unsigned f,
                      fx32 m[9])
{
    if (c->step == 1) return single(a, d, c, f, m);
    if (c->step == 2) {
        if (!(f & 1)) return single(a, d, c, f >> 1, m);
        if (f > c->last) return single(a, d, c, (c->last >> 1) + 1u, m);
        return blend(a, d, c, f >> 1, (f >> 1) + 1, 1, m);
    }
    if (!(f & 3)) return single(a, d, c, f >> 2, m);
    if (f > c->last) return single(a, d, c, (f & 3) + (c->last >> 2), m);
    if (!(f & 1)) return blend(a, d, c, f >> 2, (f >> 2) + 1, 1, m);
    uint32_t lo = f >> 2, hi = lo + 1;
    if (f & 2)
        blend(a, d, c, hi, lo, 3, m);
    else
        blend(a, d, c, lo, hi, 3, m);
}

static void rot_frac(const nitro_anim *a, const uint8_t *d, const nitro_curve *c, fx32 F, fx32 m[9])
{
    uint32_t i0, i1;
    int32_t mul, frac;
    bool one;
    nan_rot_ex_position(a, c, F, &i0, &i1, &mul, &frac, &one);
    if (one) return single(a, d, c, i0, m);
    fx32 b[9];
    bool cr = fetch(a, d, c, i0, m);
    cr |= fetch(a, d, c, i1, b);
    for (unsigned k = 0; k < 9; k++) {
        uint32_t t = ((uint32_t)b[k] - (uint32_t)m[k]) * (uint32_t)frac;
        m[k] = (fx32)((uint32_t)m[k] * (uint32_t)mul + (uint32_t)dsgx_asr32((int32_t)t, 12));
    }
    nrt_vec_normalize(&m[0], &m[0]);
    nrt_vec_normalize(&m[3], &m[3]);
    if (cr)
        cross_row2(m);
    else
        nrt_vec_normalize(&m[6], &m[6]);
}

static bool fractional(const nitro_anim *a, fx32 F)
{
    return (F & 0xfff) && (a->flag & NITRO_JNT_OPT_INTERP);
}

void nitro_jnt_rot(const nitro_anim *a, const uint8_t *d, const nitro_curve *c, fx32 F, fx32 m[9])
{
    if (c->constant) {
        if (nitro_jnt_rot_by_index(a, d, (uint32_t)c->value, m)) cross_row2(m);
        return;
    }
    if (fractional(a, F))
        rot_frac(a, d, c, F, m);
    else
        rot_frame(a, d, c, (unsigned)(F >> 12), m);
}

static void scalar(const nitro_anim *a, const uint8_t *d, const nitro_curve *c, fx32 F, fx32 out[2])
{
    if (!c->constant && fractional(a, F)) {
        nitro_curve_value_ex(a, d, c, F, out);
    } else if (c->type == NITRO_CURVE_JNT_SCALE) {
        nitro_curve_scale(d, c, (unsigned)(F >> 12), out);
    } else {
        out[0] = nitro_curve_value(d, c, (unsigned)(F >> 12));
    }
}

void nitro_jnt_eval(const nitro_anim *a, const uint8_t *d, unsigned ti, const nitro_node *n, fx32 F,
                    nitro_jnt_result *r)
{
    memset(r, 0, sizeof *r);
    /* NNSi_G3dAnmCalcNsBca: clamp to [0, frames - 1/4096]. */
    int64_t end = (int64_t)a->num_frames << 12;
    if (F >= end) F = (fx32)(end - 1);
    if (F < 0) F = 0;
    const nitro_jnt_track *t = &a->jnt[ti];
    uint32_t g = t->tag;
    if (g & NITRO_JNT_IDENTITY) {
        r->flag = NITRO_JNT_RES_SCALE_ONE | NITRO_JNT_RES_ROT_ZERO | NITRO_JNT_RES_TRANS_ZERO;
        return;
    }
    fx32 v[2];
    if (!(g & (NITRO_JNT_IDENTITY_T | NITRO_JNT_BASE_T))) {
        for (unsigned k = 0; k < 3; k++) {
            scalar(a, d, &t->trans[k], F, v);
            r->trans[k] = v[0];
        }
    } else if ((g & NITRO_JNT_IDENTITY_T) || (n->flags & NITRO_NODE_TRANS_ZERO)) {
        r->flag |= NITRO_JNT_RES_TRANS_ZERO;
    } else {
        memcpy(r->trans, n->translation, sizeof r->trans); /* getMdlTrans_ */
    }
    if (!(g & (NITRO_JNT_IDENTITY_R | NITRO_JNT_BASE_R))) {
        nitro_jnt_rot(a, d, &t->rot, F, r->rot);
    } else if ((g & NITRO_JNT_IDENTITY_R) || (n->flags & NITRO_NODE_ROT_ZERO)) {
        r->flag |= NITRO_JNT_RES_ROT_ZERO;
    } else {
        memcpy(r->rot, n->rotation, sizeof r->rot); /* getMdlRot_ */
    }
    if (!(g & (NITRO_JNT_IDENTITY_S | NITRO_JNT_BASE_S))) {
        for (unsigned k = 0; k < 3; k++) {
            scalar(a, d, &t->scale[k], F, v);
            r->scale[k] = v[0];
            r->inv_scale[k] = v[1];
        }
    } else if ((g & NITRO_JNT_IDENTITY_S) || (n->flags & NITRO_NODE_SCALE_ONE)) {
        r->flag |= NITRO_JNT_RES_SCALE_ONE;
    } else {
        memcpy(r->scale, n->scale, sizeof r->scale); /* getMdlScale_ */
        memcpy(r->inv_scale, n->inv_scale, sizeof r->inv_scale);
    }
}
