/*
 * anim_curve.c - animation curves shared by the five kinds: sample layout checks, the
 * runtime's per-frame sample lookup (step 1, 2, 4; last interpolated frame) and its blends,
 * plus the top-level parse that dispatches each animation section to its kind.
 *
 * Hardware notes: no hardware here; this is the NitroSystem runtime's software. Facts:
 * - Sample lookup and integer blends: pret/pokediamond arm9/asm/NNS_G3D_nsbca.s
 *   (getTransData_, getScaleData_, getTransDataEx_, getScaleDataEx_), NNS_G3D_nsbta.s
 *   (GetTexSRTAnmVectorVal_, GetTexSRTAnmSinCosVal_), NNS_G3D_nsbma.s (GetMatColAnmValue_,
 *   GetMatColAnmuAlphaValue_). Step 2 odd frames take the mean of the two neighbours; step 4
 *   frames 1 and 3 of a group weight the nearer sample 3:1 and frame 2 takes the mean; frames
 *   after the last interpolated one are stored one per frame. The rounding of each blend
 *   differs by routine and is reproduced here (e.g. 32-bit JNT translations halve each sample
 *   before adding, JNT scales add then halve, 32-bit quarter blends are done in 64 bits).
 * - Sample count last/step + (frames - last): MarioKartToolbox (MIT)
 *   G3dJointAnimationTranslation.cs / G3dTextureSrtAnimation.cs.
 * Guess: an index past the stored samples (the runtime would read beyond them) is clamped to
 * the last sample; the parser rejects layouts where that could happen for in-range frames.
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/anim_internal.h"

unsigned nan_stride(const nitro_curve *c)
{
    switch (c->type) {
    case NITRO_CURVE_JNT_TRANS:
    case NITRO_CURVE_SRT_VEC: return c->fx16 ? 2u : 4u;
    case NITRO_CURVE_JNT_SCALE: return c->fx16 ? 4u : 8u;
    case NITRO_CURVE_SRT_ROT: return 4;
    case NITRO_CURVE_MAT_ALPHA: return 1;
    default: return 2; /* JNT_ROT, MAT_RGB */
    }
}

bool nan_curve_samples(nitro_cursor *cur, nitro_curve *c, uint32_t base, uint32_t rel,
                       unsigned frames)
{
    c->step = (uint8_t)nan_step(c->info);
    if (c->step == 1) c->last = 0; /* unused by the runtime for step 1 */
    if (c->last > frames)
        return nitro_cur_fail(cur, c->info_at, "last interpolated frame %u beyond %u frames",
                              c->last, frames);
    uint64_t need = c->last / c->step + (uint64_t)(frames - c->last);
    if (need == 0) need = 1;
    size_t at = nitro_cur_range(cur, c->info_at, base, rel, need * nan_stride(c), "samples");
    if (!nitro_cur_ok(cur)) return false;
    c->data = (uint32_t)at;
    c->count = (uint32_t)need;
    return true;
}

int32_t nan_sample(const uint8_t *d, const nitro_curve *c, uint32_t i, unsigned field)
{
    if (i >= c->count) i = c->count ? c->count - 1 : 0;
    uint32_t at = c->data + i * nan_stride(c);
    switch (c->type) {
    case NITRO_CURVE_JNT_TRANS:
    case NITRO_CURVE_SRT_VEC: return c->fx16 ? nan_s16(d, at) : (int32_t)nan_u32(d, at);
    case NITRO_CURVE_JNT_SCALE:
        return c->fx16 ? nan_s16(d, at + 2 * field) : (int32_t)nan_u32(d, at + 4 * field);
    case NITRO_CURVE_SRT_ROT: return nan_s16(d, at + 2 * field);
    case NITRO_CURVE_MAT_ALPHA: return d[at];
    default: return nan_u16(d, at);
    }
}

/* ---- integer-frame blends, one per runtime routine ---- */

static int32_t half(const nitro_curve *c, int32_t a, int32_t b)
{
    if (c->type == NITRO_CURVE_JNT_TRANS && !c->fx16) return (a >> 1) + (b >> 1);
    return dsgx_wrap32((int64_t)a + b) >> 1; /* 32-bit add, arithmetic shift */
}

static int32_t quarter(const nitro_curve *c, int32_t main, int32_t sub)
{
    int64_t s = (int64_t)main * 3 + sub;
    bool wide = (c->type == NITRO_CURVE_JNT_TRANS || c->type == NITRO_CURVE_JNT_SCALE) &&
                !c->fx16; /* umull/adc in 64 bits, low word of >> 2 */
    if (wide) return dsgx_wrap32(s >> 2);
    return dsgx_wrap32(s) >> 2; /* mla in 32 bits */
}

/* The runtime's lookup for whole frame f: either one sample or a blend of two. */
static int32_t lookup(const uint8_t *d, const nitro_curve *c, unsigned f, unsigned field)
{
    if (c->step == 1) return nan_sample(d, c, f, field);
    if (c->step == 2) {
        if (!(f & 1)) return nan_sample(d, c, f >> 1, field);
        if (f > c->last) return nan_sample(d, c, (c->last >> 1) + 1u, field);
        return half(c, nan_sample(d, c, f >> 1, field), nan_sample(d, c, (f >> 1) + 1, field));
    }
    if (!(f & 3)) return nan_sample(d, c, f >> 2, field);
    if (f > c->last) return nan_sample(d, c, (c->last >> 2) + (f & 3), field);
    if (!(f & 1))
        return half(c, nan_sample(d, c, f >> 2, field), nan_sample(d, c, (f >> 2) + 1, field));
    uint32_t lo = f >> 2, hi = lo + 1;
    return (f & 2) ? quarter(c, nan_sample(d, c, hi, field), nan_sample(d, c, lo, field))
                   : quarter(c, nan_sample(d, c, lo, field), nan_sample(d, c, hi, field));
}

fx32 nitro_curve_value(const uint8_t *data, const nitro_curve *c, unsigned frame)
{
    if (c->constant) return c->value;
    return lookup(data, c, frame, 0);
}

void nitro_curve_scale(const uint8_t *data, const nitro_curve *c, unsigned frame, fx32 out[2])
{
    if (c->constant) {
        out[0] = c->value;
        out[1] = c->value2;
        return;
    }
    out[0] = lookup(data, c, frame, 0);
    out[1] = lookup(data, c, frame, 1);
}

/* MAT0 colours: R and B (mask 0x7C1F) and G (0x3E0) blended separately, bit 15 dropped. */
static uint16_t rgb_half(uint32_t a, uint32_t b)
{
    return (uint16_t)((((a & 0x7c1fu) + (b & 0x7c1fu)) >> 1 & 0x7c1fu) |
                      (((a & 0x3e0u) + (b & 0x3e0u)) >> 1 & 0x3e0u));
}

static uint16_t rgb_quarter(uint32_t m, uint32_t s)
{
    return (uint16_t)((((m & 0x7c1fu) * 3 + (s & 0x7c1fu)) >> 2 & 0x7c1fu) |
                      (((m & 0x3e0u) * 3 + (s & 0x3e0u)) >> 2 & 0x3e0u));
}

uint16_t nitro_curve_color(const uint8_t *d, const nitro_curve *c, unsigned f)
{
    if (c->constant) return (uint16_t)c->value;
    bool rgb = c->type == NITRO_CURVE_MAT_RGB;
#define S(i) ((uint32_t)nan_sample(d, c, (i), 0))
    if (c->step == 1) return (uint16_t)S(f);
    if (c->step == 2) {
        if (!(f & 1)) return (uint16_t)S(f >> 1);
        if (f > c->last) return (uint16_t)S((c->last >> 1) + 1u);
        return rgb ? rgb_half(S(f >> 1), S((f >> 1) + 1))
                   : (uint16_t)((S(f >> 1) + S((f >> 1) + 1)) >> 1);
    }
    if (!(f & 3)) return (uint16_t)S(f >> 2);
    if (f > c->last) return (uint16_t)S((c->last >> 2) + (f & 3));
    if (!(f & 1))
        return rgb ? rgb_half(S(f >> 2), S((f >> 2) + 1))
                   : (uint16_t)((S(f >> 2) + S((f >> 2) + 1)) >> 1);
    uint32_t lo = f >> 2, hi = lo + 1, m = (f & 2) ? hi : lo, s = (f & 2) ? lo : hi;
    return rgb ? rgb_quarter(S(m), S(s)) : (uint16_t)((S(m) * 3 + S(s)) >> 2);
#undef S
}

uint32_t nitro_curve_sincos(const uint8_t *d, const nitro_curve *c, unsigned f)
{
    if (c->constant) return (uint32_t)c->value;
    int32_t s = lookup(d, c, f, 0), k = lookup(d, c, f, 1);
    return ((uint32_t)s & 0xffffu) | ((uint32_t)k << 16);
}

/* ---- fractional frames (joint animations with the interpolation option) ---- */

/* getTransDataEx_ / getScaleDataEx_: sample indices, weight and fraction for fx32 frame F. */
typedef struct ex_pos {
    uint32_t i0, i1;
    int32_t mul, frac;
    unsigned shift;
    bool single;
} ex_pos;

static ex_pos ex_position(const nitro_anim *a, const nitro_curve *c, fx32 F)
{
    ex_pos p = {0, 0, 1, F & 0xfff, 0, false};
    uint32_t w = (uint32_t)F >> 12;
    if (w + 1u == a->num_frames) {
        p.i0 = c->step == 1 ? w : c->step == 2 ? (w >> 1) + (w & 1) : (w >> 2) + (w & 3);
        p.i1 = 0; /* end-to-start: blend towards the first sample */
        p.single = !(a->flag & NITRO_JNT_OPT_END_TO_START);
        return p;
    }
    if (c->step == 2 && w < c->last) {
        p.i0 = w >> 1;
        p.mul = 2;
        p.frac = F & 0x1fff;
        p.shift = 1;
    } else if (c->step == 4 && w < c->last) {
        p.i0 = w >> 2;
        p.mul = 4;
        p.frac = F & 0x3fff;
        p.shift = 2;
    } else if (c->step == 2) {
        p.i0 = c->last >> 1;
    } else if (c->step == 4) {
        p.i0 = (w & 3) + (w >> 2);
    } else {
        p.i0 = w;
    }
    p.i1 = p.i0 + 1;
    return p;
}

static int32_t ex_blend(const ex_pos *p, int32_t v0, int32_t v1)
{
    /* 32-bit mul/add as the ARM code; the shift only for the step 2/4 forms. */
    uint32_t d = (uint32_t)v1 - (uint32_t)v0;
    int32_t t = dsgx_asr32((int32_t)(d * (uint32_t)p->frac), 12);
    return dsgx_asr32((int32_t)((uint32_t)v0 * (uint32_t)p->mul + (uint32_t)t), p->shift);
}

void nitro_curve_value_ex(const nitro_anim *a, const uint8_t *d, const nitro_curve *c, fx32 F,
                          fx32 out[2])
{
    unsigned n = c->type == NITRO_CURVE_JNT_SCALE ? 2 : 1;
    if (c->constant) {
        out[0] = c->value;
        if (n == 2) out[1] = c->value2;
        return;
    }
    ex_pos p = ex_position(a, c, F);
    for (unsigned k = 0; k < n; k++) {
        int32_t v0 = nan_sample(d, c, p.i0, k);
        out[k] = p.single ? v0 : ex_blend(&p, v0, nan_sample(d, c, p.i1, k));
    }
}

/* Rotation rows use the same positions (getRotDataEx_) without the final shift. */
void nan_rot_ex_position(const nitro_anim *a, const nitro_curve *c, fx32 F, uint32_t *i0,
                         uint32_t *i1, int32_t *mul, int32_t *frac, bool *single)
{
    ex_pos p = ex_position(a, c, F);
    *i0 = p.i0;
    *i1 = p.i1;
    *mul = p.mul;
    *frac = p.frac;
    *single = p.single;
}

/* ---- parse dispatch ---- */

bool nan_dict(nitro_cursor *c, size_t at, unsigned min_entry, nitro_dict *d)
{
    return nitro_dict_read(c, at, min_entry, d);
}

const char *nitro_anim_kind_name(enum nitro_anim_kind k)
{
    static const char *n[] = {"joint (NSBCA)", "texture pattern (NSBTP)", "texture SRT (NSBTA)",
                              "material colour (NSBMA)", "visibility (NSBVA)"};
    return (unsigned)k < 5 ? n[k] : "?";
}

static bool kind_of(const char *stamp, enum nitro_anim_kind *k)
{
    static const char *s[] = {"JNT0", "PAT0", "SRT0", "MAT0", "VIS0"};
    for (unsigned i = 0; i < 5; i++)
        if (!strcmp(stamp, s[i])) {
            *k = (enum nitro_anim_kind)i;
            return true;
        }
    return false;
}

nitro_status nitro_anims_parse(const nitro_file *f, nitro_anims *out)
{
    nitro_status st = {.ok = true};
    memset(out, 0, sizeof *out);
    out->data = f->data;
    out->size = f->size;
    unsigned total = 0;
    for (unsigned s = 0; s < f->num_anim_sets; s++) total += f->anim_sets[s].num_anims;
    nitro_cursor file = nitro_cur_make(f->data, f->size, &st, "animation");
    out->anims = nitro_calloc(&file, total, sizeof *out->anims);
    if (!out->anims) return st;
    for (unsigned s = 0; s < f->num_anim_sets; s++) {
        const nitro_anim_set *set = &f->anim_sets[s];
        const nitro_section *sec = &f->sections[set->section];
        enum nitro_anim_kind kind;
        if (!kind_of(sec->stamp, &kind)) continue;
        nitro_cursor c = nitro_cur_sub(&file, sec->offset, sec->size, sec->stamp);
        for (unsigned i = 0; i < set->num_anims && nitro_cur_ok(&c); i++) {
            nitro_anim *a = &out->anims[out->num++];
            a->kind = kind;
            a->name = set->anims[i].name;
            a->offset = set->anim_offsets[i];
            a->num_frames = set->anim_frames[i];
            c.what = sec->stamp;
            if (a->num_frames == 0) {
                nitro_cur_fail(&c, a->offset + 4u, "animation \"%s\" has 0 frames", a->name.s);
                break;
            }
            static bool (*const parse[5])(nitro_cursor *, nitro_anim *, unsigned) = {
                nitro_jnt_parse, nitro_pat_parse, nitro_srt_parse, nitro_mat_parse,
                nitro_vis_parse};
            parse[kind](&c, a, a->num_frames);
        }
        if (!nitro_cur_ok(&c)) break;
    }
    if (!st.ok) nitro_anims_free(out);
    return st;
}

void nitro_anims_free(nitro_anims *a)
{
    for (unsigned i = 0; a->anims && i < a->num; i++) {
        nitro_anim *x = &a->anims[i];
        free(x->jnt);
        free(x->mat);
        free(x->pat);
        free(x->tex_names);
        free(x->pltt_names);
    }
    free(a->anims);
    const uint8_t *d = a->data;
    size_t n = a->size;
    memset(a, 0, sizeof *a);
    a->data = d;
    a->size = n;
}
