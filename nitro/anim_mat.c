/*
 * anim_mat.c - NSBMA material colour animations (MAT0) and NSBTA texture SRT animations (SRT0).
 *
 * MAT0 (pret/pokeplatinum lib/NitroSystem/src/g3d/anm/nsbma.c; NNSG3dResMatCAnm and
 * NNSG3dResDictMatCAnmData in pret's res_struct.h; pret/pokediamond NNS_G3D_nsbma.s):
 *   +0 "M\0AM", +4 u16 frames, +6 u16 options, +8 dictionary of materials, 20-byte entries:
 *   u32 diffuse, ambient, specular, emission, polygon alpha. Each word: bit 29 constant,
 *   bits 30-31 step, bits 16-28 last interpolated frame, bits 0-15 the constant (RGB555 or
 *   alpha) or the offset of the samples from the animation (u16 colours, u8 alphas).
 *   Result: DIF_AMB = diffuse | ambient << 16 | (model's bit 15), SPE_EMI = specular |
 *   emission << 16 | (model's bit 15), POLYGON_ATTR bits 16-20 = alpha (not masked: NNS
 *   ORs alpha << 16, as the assembly does).
 * SRT0 (pret/pokediamond NNS_G3D_nsbta.s; MarioKartToolbox (MIT)
 * TextureSrtAnimationDictionaryData.cs): +0 "M\0AT", +4 u16 frames, +6 u8 flag, +7 u8
 *   texture-matrix mode, +8 dictionary, 40-byte entries: (info, ex) for scaleS, scaleT,
 *   rotation, transS, transT. info: bit 29 constant (ex = value; rotation ex = sin | cos << 16),
 *   bit 28 16-bit samples, bits 30-31 step, bits 0-15 last interpolated frame; ex = offset of
 *   the samples from the animation. Result flags: translation (0,0) -> TRANS_ZERO, rotation
 *   (0, 1.0) -> ROT_ZERO, scale (1.0, 1.0) -> SCALE_ONE, always TEXMTX_SET, TEXIMAGE_PARAM
 *   texgen = texcoord.
 * Frames: the whole frame, not clamped by the runtime (it asserts); clamped here.
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/anim_internal.h"

static unsigned whole(const nitro_anim *a, unsigned f)
{
    return f < a->num_frames ? f : a->num_frames - 1u;
}

static bool read_tracks(nitro_cursor *c, nitro_anim *a, unsigned frames, bool srt)
{
    nitro_dict d;
    c->what = srt ? "SRT0 animation" : "MAT0 animation";
    if (srt) {
        if (!nitro_cur_seek(c, a->offset + 6u)) return false;
        a->flag = nitro_cur_u8(c);
        a->texmtx_mode = nitro_cur_u8(c);
    } else {
        if (!nitro_cur_seek(c, a->offset + 6u)) return false;
        a->flag = nitro_cur_u16(c);
    }
    if (!nitro_cur_ok(c) || !nan_dict(c, a->offset + 8u, srt ? 40 : 20, &d)) return false;
    a->num_tracks = d.count;
    a->mat = nitro_calloc(c, d.count ? d.count : 1, sizeof *a->mat);
    if (!a->mat) {
        nitro_dict_free(&d);
        return false;
    }
    c->what = srt ? "SRT0 track" : "MAT0 track";
    for (unsigned i = 0; i < d.count && nitro_cur_ok(c); i++) {
        nitro_mat_track *t = &a->mat[i];
        t->name = d.entries[i].name;
        uint32_t at = (uint32_t)(d.data + (size_t)d.entry_size * i);
        for (unsigned k = 0; k < 5 && nitro_cur_ok(c); k++) {
            nitro_curve *cv = &t->ch[k];
            c->pos = srt ? at + 8u * k : at + 4u * k;
            cv->info_at = (uint32_t)c->pos;
            cv->info = nitro_cur_u32(c);
            uint32_t ex = srt ? nitro_cur_u32(c) : 0;
            if (!nitro_cur_ok(c)) break;
            if (srt) {
                cv->type = k == 2 ? NITRO_CURVE_SRT_ROT : NITRO_CURVE_SRT_VEC;
                cv->constant = cv->info & 0x20000000u;
                cv->fx16 = k != 2 && (cv->info & 0x10000000u);
                cv->last = (uint16_t)(cv->info & 0xffffu);
                if (cv->constant)
                    cv->value = (int32_t)ex;
                else
                    nan_curve_samples(c, cv, a->offset, ex, frames);
            } else {
                cv->type = k == 4 ? NITRO_CURVE_MAT_ALPHA : NITRO_CURVE_MAT_RGB;
                cv->constant = cv->info & 0x20000000u;
                cv->last = (uint16_t)((cv->info >> 16) & 0x1fffu);
                if (cv->constant)
                    cv->value = (int32_t)(cv->info & 0xffffu);
                else
                    nan_curve_samples(c, cv, a->offset, cv->info & 0xffffu, frames);
            }
        }
    }
    nitro_dict_free(&d);
    return nitro_cur_ok(c);
}

bool nitro_mat_parse(nitro_cursor *c, nitro_anim *a, unsigned frames)
{
    return read_tracks(c, a, frames, false);
}

bool nitro_srt_parse(nitro_cursor *c, nitro_anim *a, unsigned frames)
{
    return read_tracks(c, a, frames, true);
}

void nitro_mat_eval(const nitro_anim *a, const uint8_t *d, unsigned ti, unsigned frame,
                    nitro_mat_result *r)
{
    const nitro_mat_track *t = &a->mat[ti];
    unsigned f = whole(a, frame);
    uint32_t dif = nitro_curve_color(d, &t->ch[0], f), amb = nitro_curve_color(d, &t->ch[1], f);
    r->dif_amb = (r->dif_amb & 0x8000u) | dif | amb << 16;
    uint32_t spe = nitro_curve_color(d, &t->ch[2], f), emi = nitro_curve_color(d, &t->ch[3], f);
    r->spe_emi = (r->spe_emi & 0x8000u) | spe | emi << 16;
    uint32_t alpha = nitro_curve_color(d, &t->ch[4], f);
    r->polygon_attr = (r->polygon_attr & ~0x001f0000u) | alpha << 16;
}

void nitro_srt_eval(const nitro_anim *a, const uint8_t *d, unsigned ti, unsigned frame,
                    nitro_mat_result *r)
{
    const nitro_mat_track *t = &a->mat[ti];
    unsigned f = whole(a, frame);
    fx32 ts = nitro_curve_value(d, &t->ch[3], f), tt = nitro_curve_value(d, &t->ch[4], f);
    if (ts == 0 && tt == 0) {
        r->flag |= NITRO_MATRES_TRANS_ZERO;
    } else {
        r->trans_s = ts;
        r->trans_t = tt;
        r->flag &= ~(uint32_t)NITRO_MATRES_TRANS_ZERO;
    }
    uint32_t sc = nitro_curve_sincos(d, &t->ch[2], f);
    if (sc == 0x10000000u) {
        r->flag |= NITRO_MATRES_ROT_ZERO;
    } else {
        r->rot_sin = (int16_t)(sc & 0xffffu);
        r->rot_cos = (int16_t)(sc >> 16);
        r->flag &= ~(uint32_t)NITRO_MATRES_ROT_ZERO;
    }
    fx32 ss = nitro_curve_value(d, &t->ch[0], f), st = nitro_curve_value(d, &t->ch[1], f);
    if (ss == FX32_ONE && st == FX32_ONE) {
        r->flag |= NITRO_MATRES_SCALE_ONE;
    } else {
        r->scale_s = ss;
        r->scale_t = st;
        r->flag &= ~(uint32_t)NITRO_MATRES_SCALE_ONE;
    }
    r->teximage = (r->teximage & ~0xc0000000u) | 0x40000000u; /* texgen: texcoord */
    r->flag |= NITRO_MATRES_TEXMTX_SET;
}
