/*
 * anim.c - T3DM skeletons and animations: the .sdata keyframe stream, Tiny3D's playback rule
 * and the bone matrices.
 *
 * Facts (HailToDodongo/tiny3d src/t3d/t3danim.c, tools/gltf_importer/src/writer.cpp): the
 * stream is a sequence of keyframes, each u16 time-to-next (1/60 s ticks; bit 15 set means the
 * NEXT keyframe carries two data words), u16 channel index, then one u16 (scalar) or two
 * (quaternion). The first keyframe always has two words. A scalar decodes as
 * value * quantScale + quantOffset. A quaternion packs the index of its largest component in
 * bits 15-14 of the first word and the other three (in index order after it, wrapping) as
 * 10-bit values mapped linearly from 0..1023 to -1/sqrt(2)..+1/sqrt(2); the largest is
 * sqrt(1 - the others' squares).
 * Playback (t3d_anim_update after a rewind): for each channel in order, while time >= the
 * channel's end time the next keyframe of the whole stream is read (it may belong to another
 * channel); reading one makes its channel's current value the previous "next" value (or the
 * new one for the channel's first keyframe), its start time the old end time and its end time
 * old end + ticks / 60 (start nudged back by 0.00001 s for 0 ticks). Value = lerp (scalars) or
 * nlerp on the shorter arc, normalised (quaternions), with t = (time - start) / (end - start).
 * Differences here: t is clamped to 0..1 (Tiny3D extrapolates once its stream has run out), a
 * zero-length span gives t = 1 instead of a division by zero, and SCALE_UNIFORM channels (which
 * Tiny3D's attach asserts on) set all three scale components.
 * Bone matrices (Tiny3D's skeleton update): local = T x R x S, model = parent x local, in double
 * (Tiny3D uses float), then rounded to 1.19.12 once, clamped to its range.
 */
#include <math.h>
#include <stdlib.h>

#include "t3dm/t3dm_internal.h"

t3dm_status t3dm_anim_load_sdata(t3dm_model *m, unsigned ai, const uint8_t *sdata, size_t size)
{
    t3dm_status st = {.ok = true};
    char label[48];
    snprintf(label, sizeof label, ".sdata of animation %u", ai);
    t3dm_cursor c = {sdata, 0, size, 0, label, &st, 0, 0};
    if (ai >= m->num_anims) {
        t3dm_fail(&c, 0, "no animation %u (%u in the model)", ai, m->num_anims);
        return st;
    }
    t3dm_anim *a = &m->anims[ai];
    free(a->keys);
    a->keys = NULL;
    a->num_keys = 0;
    unsigned nch = (unsigned)a->channels_quat + a->channels_scalar;
    for (unsigned i = 0; i < nch; i++) a->channels[i].keyframes = 0;
    /* Every keyframe takes at least 6 bytes: the count is bounded by the data. */
    if (a->keyframe_count > size / 6) {
        t3dm_fail(&c, size, "short .sdata: %u keyframes need at least %llu bytes, it has %zu",
                  a->keyframe_count, (unsigned long long)a->keyframe_count * 6u, size);
        return st;
    }
    a->keys = calloc(a->keyframe_count + 1u, sizeof *a->keys);
    if (!a->keys) {
        t3dm_fail(&c, 0, "out of memory");
        return st;
    }
    bool large = true; /* the first keyframe always has two data words */
    for (uint32_t k = 0; k < a->keyframe_count && st.ok; k++) {
        size_t at = c.pos;
        t3dm_keyframe *kf = &a->keys[k];
        uint16_t t = t3dm_u16(&c);
        kf->channel = t3dm_u16(&c);
        kf->data[0] = t3dm_u16(&c);
        kf->data[1] = large ? t3dm_u16(&c) : 0;
        if (!st.ok) {
            snprintf(st.reason, sizeof st.reason, "short .sdata: keyframe %u of %u is cut off", k,
                     a->keyframe_count);
            break;
        }
        kf->ticks = t & 0x7FFFu;
        if (kf->channel >= nch) {
            t3dm_fail(&c, at + 2, "keyframe %u names channel %u of %u", k, kf->channel, nch);
            break;
        }
        if (kf->channel < a->channels_quat && !large) {
            t3dm_fail(&c, at, "keyframe %u of rotation channel %u has one data word", k,
                      kf->channel);
            break;
        }
        a->channels[kf->channel].keyframes++;
        large = (t & 0x8000u) != 0;
    }
    if (st.ok && c.pos != size)
        t3dm_fail(&c, c.pos, "%zu bytes after the %u keyframes", size - c.pos, a->keyframe_count);
    if (!st.ok) {
        free(a->keys);
        a->keys = NULL;
        for (unsigned i = 0; i < nch; i++) a->channels[i].keyframes = 0;
        return st;
    }
    a->num_keys = a->keyframe_count;
    return st;
}

bool t3dm_pose_init(t3dm_pose *p, const t3dm_model *m)
{
    memset(p, 0, sizeof *p);
    unsigned n = m->num_bones + 1u;
    p->scale = calloc(n, sizeof *p->scale);
    p->rot = calloc(n, sizeof *p->rot);
    p->pos = calloc(n, sizeof *p->pos);
    p->matrix = calloc(n, sizeof *p->matrix);
    if (!p->scale || !p->rot || !p->pos || !p->matrix) {
        t3dm_pose_free(p);
        return false;
    }
    p->num_bones = m->num_bones;
    t3dm_pose_bind(p, m);
    return true;
}

void t3dm_pose_free(t3dm_pose *p)
{
    free(p->scale);
    free(p->rot);
    free(p->pos);
    free(p->matrix);
    memset(p, 0, sizeof *p);
}

void t3dm_pose_bind(t3dm_pose *p, const t3dm_model *m)
{
    for (unsigned i = 0; i < p->num_bones && i < m->num_bones; i++) {
        memcpy(p->scale[i], m->bones[i].scale, sizeof p->scale[i]);
        memcpy(p->rot[i], m->bones[i].rot, sizeof p->rot[i]);
        memcpy(p->pos[i], m->bones[i].pos, sizeof p->pos[i]);
    }
    t3dm_pose_update(p, m);
}

/* ---- playback ---- */

#define SQRT_2_INV 0.70710678118f

static float unit10(unsigned v)
{
    return (float)v / 1023.0f * (SQRT_2_INV + SQRT_2_INV) - SQRT_2_INV;
}

static void unpack_quat(uint16_t hi, uint16_t lo, float q[4])
{
    unsigned largest = hi >> 14;
    float a = unit10((hi >> 4) & 0x3FFu);
    float b = unit10((((unsigned)hi << 6) | (lo >> 10)) & 0x3FFu);
    float c = unit10(lo & 0x3FFu);
    q[(largest + 1) & 3] = a;
    q[(largest + 2) & 3] = b;
    q[(largest + 3) & 3] = c;
    float r = 1.0f - a * a - b * b - c * c;
    q[largest] = r > 0 ? sqrtf(r) : 0.0f;
}

typedef struct target {
    float start, end;
    float cur[4], next[4];
    bool seen;
} target;

static void nlerp(const float a[4], const float b[4], float t, float out[4])
{
    float blend = 1.0f - t;
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (dot < 0.0f) blend = -blend;
    float len = 0;
    for (int k = 0; k < 4; k++) {
        out[k] = blend * a[k] + t * b[k];
        len += out[k] * out[k];
    }
    if (len > 0) {
        float inv = 1.0f / sqrtf(len);
        for (int k = 0; k < 4; k++) out[k] *= inv;
    }
}

static void apply(t3dm_pose *p, const t3dm_channel *ch, const float v[4])
{
    unsigned b = ch->target;
    switch (ch->type) {
    case T3DM_TARGET_ROTATION: memcpy(p->rot[b], v, sizeof p->rot[b]); break;
    case T3DM_TARGET_TRANSLATION: p->pos[b][ch->attr] = v[0]; break;
    case T3DM_TARGET_SCALE: p->scale[b][ch->attr] = v[0]; break;
    default:
        for (int k = 0; k < 3; k++) p->scale[b][k] = v[0];
        break;
    }
}

void t3dm_pose_animate(t3dm_pose *p, const t3dm_model *m, unsigned ai, float seconds)
{
    if (ai >= m->num_anims || p->num_bones != m->num_bones) return;
    const t3dm_anim *a = &m->anims[ai];
    unsigned nch = (unsigned)a->channels_quat + a->channels_scalar;
    if (!a->keys || !nch) return;
    float time = seconds;
    if (a->duration > 0 && time >= a->duration) time = fmodf(time, a->duration);
    if (!(time >= 0)) time = 0;
    target *tg = calloc(nch, sizeof *tg);
    if (!tg) return;
    uint32_t next = 0;
    for (unsigned ci = 0; ci < nch; ci++) {
        target *t = &tg[ci];
        while (time >= t->end && next < a->num_keys) {
            const t3dm_keyframe *kf = &a->keys[next++];
            target *k = &tg[kf->channel];
            const t3dm_channel *ch = &a->channels[kf->channel];
            k->start = k->end;
            k->end += (float)kf->ticks * (1.0f / T3DM_TICKS_PER_SECOND);
            if (kf->ticks == 0) k->start -= 0.00001f;
            memcpy(k->cur, k->next, sizeof k->cur);
            if (ch->type == T3DM_TARGET_ROTATION)
                unpack_quat(kf->data[0], kf->data[1], k->next);
            else
                k->next[0] = (float)kf->data[0] * ch->quant_scale + ch->quant_offset;
            if (!k->seen) memcpy(k->cur, k->next, sizeof k->cur);
            k->seen = true;
        }
        if (!t->seen) continue; /* no keyframe for this channel: the bone keeps its value */
        float span = t->end - t->start;
        float f = span > 0 ? (time - t->start) / span : 1.0f;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        float v[4];
        if (ci < a->channels_quat)
            nlerp(t->cur, t->next, f, v);
        else
            v[0] = t->cur[0] + (t->next[0] - t->cur[0]) * f;
        apply(p, &a->channels[ci], v);
    }
    free(tg);
    t3dm_pose_update(p, m);
}

/* ---- matrices ---- */

static fx32 to_fx(double v)
{
    double s = v * 4096.0;
    if (s != s) return 0; /* inf x 0 in a degenerate chain */
    if (s >= 2147483647.0) return INT32_MAX;
    if (s <= -2147483648.0) return INT32_MIN;
    return (fx32)floor(s + 0.5);
}

/* Row-vector 4x4 (rows = images of x, y, z, then the translation) in double. */
static void local_matrix(const float s[3], const float q[4], const float t[3], double out[16])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    /* rotation matrix R (column-vector form), rows of the DS matrix are its columns */
    double r[3][3] = {
        {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
        {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
        {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)},
    };
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++) out[row * 4 + col] = r[col][row] * s[row];
        out[row * 4 + 3] = 0;
    }
    for (int col = 0; col < 3; col++) out[12 + col] = t[col];
    out[15] = 1;
}

static void mul44(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 4 + j];
            r[i * 4 + j] = s;
        }
    memcpy(out, r, sizeof r);
}

void t3dm_pose_update(t3dm_pose *p, const t3dm_model *m)
{
    unsigned n = p->num_bones < m->num_bones ? p->num_bones : m->num_bones;
    double(*world)[16] = calloc(n + 1u, sizeof *world);
    if (!world) return;
    for (unsigned i = 0; i < n; i++) {
        local_matrix(p->scale[i], p->rot[i], p->pos[i], world[i]);
        uint16_t par = m->bones[i].parent;
        /* row-vector order: model = local x parent (parents come first, checked) */
        if (par != 0xFFFF && par < i) mul44(world[i], world[par], world[i]);
        for (int r = 0; r < 4; r++)
            for (int col = 0; col < 3; col++)
                p->matrix[i][r * 3 + col] = to_fx(world[i][r * 4 + col]);
    }
    free(world);
}
