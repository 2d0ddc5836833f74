/*
 * anim_writer.c - writes animation containers (see anim_writer.h) in the layouts anim_*.c
 * read: file header, one section, a name dictionary of animation offsets, the animations.
 * Animation tags "J\0AC", "M\0PT", "M\0AT", "M\0AM", "V\0AV" as in the runtime's init table
 * (pret/pokediamond NNS_G3D_anm.s NNS_G3dAnmObjInitFuncArray).
 */
#include <string.h>

#include "nitro/anim_writer.h"

typedef struct patch {
    size_t at;
    const nitro_wcurve *c;
    uint8_t type;
} patch;

static uint32_t step_bits(unsigned step)
{
    return step == 2 ? 0x40000000u : step == 4 ? 0x80000000u : 0;
}

static void name16(nitro_buf *b, const char *s)
{
    char n[16] = {0};
    size_t len = s ? strlen(s) : 0;
    memcpy(n, s ? s : "", len < 16 ? len : 16);
    nitro_buf_bytes(b, n, 16);
}

/* NNSG3dResDict with a zeroed tree; entry data from `data` (entry_size bytes each). */
static void dict(nitro_buf *b, unsigned n, unsigned entry_size, const uint8_t *data,
                 const char *const *names)
{
    unsigned ofs_entry = 8 + 4 * (n + 1);
    unsigned size = ofs_entry + 4 + entry_size * n + 16 * n;
    nitro_buf_u8(b, 0);
    nitro_buf_u8(b, (uint8_t)n);
    nitro_buf_u16(b, (uint16_t)size);
    nitro_buf_u16(b, 8);
    nitro_buf_u16(b, (uint16_t)ofs_entry);
    for (unsigned i = 0; i < 4 * (n + 1); i++) nitro_buf_u8(b, 0);
    nitro_buf_u16(b, (uint16_t)entry_size);
    nitro_buf_u16(b, (uint16_t)(4 + entry_size * n));
    nitro_buf_bytes(b, data, (size_t)entry_size * n);
    for (unsigned i = 0; i < n; i++) name16(b, names[i]);
}

static void samples(nitro_buf *b, const nitro_wcurve *c, uint8_t type)
{
    for (unsigned i = 0; i < c->count; i++) {
        int32_t v = c->samples[i], w = c->samples2 ? c->samples2[i] : 0;
        switch (type) {
        case NITRO_CURVE_JNT_SCALE:
        case NITRO_CURVE_SRT_ROT:
            if (c->fx16 || type == NITRO_CURVE_SRT_ROT) {
                nitro_buf_u16(b, (uint16_t)v);
                nitro_buf_u16(b, (uint16_t)w);
            } else {
                nitro_buf_u32(b, (uint32_t)v);
                nitro_buf_u32(b, (uint32_t)w);
            }
            break;
        case NITRO_CURVE_JNT_ROT:
        case NITRO_CURVE_MAT_RGB: nitro_buf_u16(b, (uint16_t)v); break;
        case NITRO_CURVE_MAT_ALPHA: nitro_buf_u8(b, (uint8_t)v); break;
        default:
            if (c->fx16)
                nitro_buf_u16(b, (uint16_t)v);
            else
                nitro_buf_u32(b, (uint32_t)v);
        }
    }
    nitro_buf_align(b, 4);
}

static void jnt_curve(nitro_buf *b, const nitro_wcurve *c, uint8_t type, patch *p, unsigned *np)
{
    if (c->constant) {
        nitro_buf_u32(b, (uint32_t)c->value);
        if (type == NITRO_CURVE_JNT_SCALE) nitro_buf_u32(b, (uint32_t)c->value2);
        return;
    }
    uint32_t info = step_bits(c->step) | ((uint32_t)(c->last & 0x1fffu) << 16) |
                    (c->fx16 && type != NITRO_CURVE_JNT_ROT ? 0x20000000u : 0);
    nitro_buf_u32(b, info);
    p[*np] = (patch){b->size, c, type};
    (*np)++;
    nitro_buf_u32(b, 0);
}

static void write_jnt(nitro_buf *b, const nitro_wanim *a)
{
    size_t base = b->size;
    nitro_buf_bytes(b, "J\0AC", 4);
    nitro_buf_u16(b, a->frames);
    nitro_buf_u16(b, (uint16_t)a->num_jnt);
    nitro_buf_u32(b, a->flag);
    size_t rot_at = b->size;
    nitro_buf_u32(b, 0);
    nitro_buf_u32(b, 0);
    size_t ofs_at = b->size;
    for (unsigned i = 0; i < a->num_jnt; i++) nitro_buf_u16(b, 0);
    nitro_buf_align(b, 4);
    patch p[7 * 64];
    unsigned np = 0;
    for (unsigned i = 0; i < a->num_jnt && i < 64; i++) {
        const nitro_wjnt_track *t = &a->jnt[i];
        nitro_buf_put16(b, ofs_at + 2 * i, (uint16_t)(b->size - base));
        nitro_buf_u32(b, t->tag);
        if (t->tag & NITRO_JNT_IDENTITY) continue;
        if (!(t->tag & (NITRO_JNT_IDENTITY_T | NITRO_JNT_BASE_T)))
            for (int k = 0; k < 3; k++) jnt_curve(b, &t->trans[k], NITRO_CURVE_JNT_TRANS, p, &np);
        if (!(t->tag & (NITRO_JNT_IDENTITY_R | NITRO_JNT_BASE_R)))
            jnt_curve(b, &t->rot, NITRO_CURVE_JNT_ROT, p, &np);
        if (!(t->tag & (NITRO_JNT_IDENTITY_S | NITRO_JNT_BASE_S)))
            for (int k = 0; k < 3; k++) {
                const nitro_wcurve *c = &t->scale[k];
                if (c->constant) {
                    nitro_buf_u32(b, (uint32_t)c->value);
                    nitro_buf_u32(b, (uint32_t)c->value2);
                } else {
                    jnt_curve(b, c, NITRO_CURVE_JNT_SCALE, p, &np);
                }
            }
    }
    for (unsigned i = 0; i < np; i++) {
        nitro_buf_put32(b, p[i].at, (uint32_t)(b->size - base));
        samples(b, p[i].c, p[i].type);
    }
    nitro_buf_put32(b, rot_at, (uint32_t)(b->size - base));
    for (unsigned i = 0; i < 3 * a->num_pivots; i++) nitro_buf_u16(b, a->pivots[i]);
    nitro_buf_align(b, 4);
    nitro_buf_put32(b, rot_at + 4, (uint32_t)(b->size - base));
    for (unsigned i = 0; i < 5 * a->num_basis; i++) nitro_buf_u16(b, a->basis[i]);
    nitro_buf_align(b, 4);
}

static void write_matsrt(nitro_buf *b, const nitro_wanim *a, bool srt)
{
    size_t base = b->size;
    nitro_buf_bytes(b, srt ? "M\0AT" : "M\0AM", 4);
    nitro_buf_u16(b, a->frames);
    if (srt) {
        nitro_buf_u8(b, (uint8_t)a->flag);
        nitro_buf_u8(b, a->texmtx_mode);
    } else {
        nitro_buf_u16(b, (uint16_t)a->flag);
    }
    unsigned es = srt ? 40 : 20, n = a->num_mat > 32 ? 32 : a->num_mat;
    uint8_t ent[32 * 40];
    memset(ent, 0, sizeof ent);
    size_t dict_at = b->size;
    dict(b, n, es, ent, a->mat_names);
    size_t data_at = dict_at + 8 + 4 * (n + 1) + 4;
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 5; k++) {
            const nitro_wcurve *c = &a->mat_ch[i][k];
            uint8_t type = srt ? (k == 2 ? NITRO_CURVE_SRT_ROT : NITRO_CURVE_SRT_VEC)
                               : (k == 4 ? NITRO_CURVE_MAT_ALPHA : NITRO_CURVE_MAT_RGB);
            size_t at = data_at + (size_t)es * i + (srt ? 8 * k : 4 * k);
            uint32_t rel = (uint32_t)(b->size - base);
            if (srt) {
                uint32_t info = c->constant ? 0x20000000u
                                            : step_bits(c->step) | (c->last & 0xffffu) |
                                                  (c->fx16 ? 0x10000000u : 0);
                nitro_buf_put32(b, at, info);
                nitro_buf_put32(b, at + 4, c->constant ? (uint32_t)c->value : rel);
            } else {
                uint32_t info =
                    c->constant ? 0x20000000u | ((uint32_t)c->value & 0xffffu)
                                : step_bits(c->step) | (c->last & 0x1fffu) << 16 | (rel & 0xffffu);
                nitro_buf_put32(b, at, info);
            }
            if (!c->constant) samples(b, c, type);
        }
}

static void write_pat(nitro_buf *b, const nitro_wanim *a)
{
    size_t base = b->size;
    nitro_buf_bytes(b, "M\0PT", 4);
    nitro_buf_u16(b, a->frames);
    nitro_buf_u8(b, (uint8_t)a->num_tex_names);
    nitro_buf_u8(b, (uint8_t)a->num_pltt_names);
    size_t names_at = b->size;
    nitro_buf_u16(b, 0);
    nitro_buf_u16(b, 0);
    unsigned n = a->num_mat > 32 ? 32 : a->num_mat;
    uint8_t ent[32 * 8];
    memset(ent, 0, sizeof ent);
    size_t dict_at = b->size;
    dict(b, n, 8, ent, a->mat_names);
    size_t data_at = dict_at + 8 + 4 * (n + 1) + 4;
    for (unsigned i = 0; i < n; i++) {
        size_t at = data_at + 8u * i;
        nitro_buf_put16(b, at, (uint16_t)a->pat_num_keys[i]);
        nitro_buf_put16(b, at + 2, 0);
        nitro_buf_put16(b, at + 4, (uint16_t)a->pat_ratio);
        nitro_buf_put16(b, at + 6, (uint16_t)(b->size - base));
        for (unsigned k = 0; k < a->pat_num_keys[i]; k++) {
            nitro_buf_u16(b, a->pat_keys[i][2 * k]);
            nitro_buf_u16(b, a->pat_keys[i][2 * k + 1]);
        }
    }
    nitro_buf_put16(b, names_at, (uint16_t)(b->size - base));
    for (unsigned i = 0; i < a->num_tex_names; i++) name16(b, a->tex_names[i]);
    nitro_buf_put16(b, names_at + 2, (uint16_t)(b->size - base));
    for (unsigned i = 0; i < a->num_pltt_names; i++) name16(b, a->pltt_names[i]);
}

static void write_vis(nitro_buf *b, const nitro_wanim *a)
{
    nitro_buf_bytes(b, "V\0AV", 4);
    nitro_buf_u16(b, a->frames);
    nitro_buf_u16(b, a->vis_nodes);
    uint32_t words = ((uint32_t)a->frames * a->vis_nodes + 31) / 32;
    nitro_buf_u16(b, (uint16_t)(12 + 4 * words));
    nitro_buf_u16(b, 0);
    for (uint32_t i = 0; i < words; i++) nitro_buf_u32(b, a->vis_words[i]);
}

bool nitro_write_anim(enum nitro_anim_kind kind, const nitro_wanim *anims, unsigned n,
                      nitro_buf *out)
{
    static const char *file[] = {"BCA0", "BTP0", "BTA0", "BMA0", "BVA0"};
    static const char *sec[] = {"JNT0", "PAT0", "SRT0", "MAT0", "VIS0"};
    if ((unsigned)kind > 4 || n > 64) return false;
    nitro_buf_bytes(out, file[kind], 4);
    nitro_buf_u16(out, 0xfeff);
    nitro_buf_u16(out, 1);
    nitro_buf_u32(out, 0);
    nitro_buf_u16(out, 16);
    nitro_buf_u16(out, 1);
    nitro_buf_u32(out, 0x14);
    size_t s = out->size;
    nitro_buf_bytes(out, sec[kind], 4);
    nitro_buf_u32(out, 0);
    uint8_t ent[64 * 4] = {0};
    const char *names[64] = {0};
    for (unsigned i = 0; i < n; i++) names[i] = anims[i].name;
    size_t dict_at = out->size;
    dict(out, n, 4, ent, names);
    size_t data_at = dict_at + 8 + 4 * (n + 1) + 4;
    nitro_buf_align(out, 4);
    for (unsigned i = 0; i < n; i++) {
        nitro_buf_put32(out, data_at + 4 * i, (uint32_t)(out->size - s));
        switch (kind) {
        case NITRO_ANIM_JNT: write_jnt(out, &anims[i]); break;
        case NITRO_ANIM_PAT: write_pat(out, &anims[i]); break;
        case NITRO_ANIM_SRT: write_matsrt(out, &anims[i], true); break;
        case NITRO_ANIM_MAT: write_matsrt(out, &anims[i], false); break;
        default: write_vis(out, &anims[i]); break;
        }
        nitro_buf_align(out, 4);
    }
    nitro_buf_put32(out, s + 4, (uint32_t)(out->size - s));
    nitro_buf_put32(out, 8, (uint32_t)out->size);
    return !out->oom;
}
