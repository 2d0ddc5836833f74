/*
 * writer.c - the fixture writer (writer.h). Layout as Tiny3D's converter writes it
 * (tools/gltf_importer/src/writer.cpp): header, chunk table, objects (8-aligned), animations
 * (4-aligned), BVH (8), vertices (16), indices (4), materials (8 each), skeleton (8), string
 * table (4). Everything big-endian.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "t3dm/writer.h"

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} wbuf;

static void put(wbuf *b, const void *src, size_t n)
{
    if (b->oom || !n) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + n) cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    if (src)
        memcpy(b->p + b->n, src, n);
    else
        memset(b->p + b->n, 0, n);
    b->n += n;
}

static void u8(wbuf *b, uint8_t v)
{
    put(b, &v, 1);
}
static void u16(wbuf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    put(b, x, 2);
}
static void u32(wbuf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, x, 4);
}
static void f32(wbuf *b, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    u32(b, v);
}
static void align(wbuf *b, size_t a)
{
    while (b->n % a) u8(b, 0);
}
static void patch32(wbuf *b, size_t at, uint32_t v)
{
    if (b->oom || at + 4 > b->n) return;
    for (int k = 0; k < 4; k++) b->p[at + k] = (uint8_t)(v >> (24 - 8 * k));
}

/* insertString: reuse an identical string, else append (writer.cpp). */
static uint32_t str(wbuf *t, const char *s)
{
    size_t len = strlen(s) + 1;
    for (size_t i = 0; !t->oom && i + len <= t->n; i++)
        if (!memcmp(t->p + i, s, len)) return (uint32_t)i;
    uint32_t at = (uint32_t)t->n;
    put(t, s, len);
    return at;
}

uint16_t t3dm_pack_normal(float x, float y, float z)
{
    float l = sqrtf(x * x + y * y + z * z);
    if (l > 0) {
        x /= l;
        y /= l;
        z /= l;
    }
    int xi = (int)lroundf(x * 15.5f), yi = (int)lroundf(y * 31.5f), zi = (int)lroundf(z * 15.5f);
    xi = xi < -16 ? -16 : xi > 15 ? 15 : xi;
    yi = yi < -32 ? -32 : yi > 31 ? 31 : yi;
    zi = zi < -16 ? -16 : zi > 15 ? 15 : zi;
    return (uint16_t)((((unsigned)xi & 31u) << 11) | (((unsigned)yi & 63u) << 5) |
                      ((unsigned)zi & 31u));
}

void t3dm_pack_quat(const float q[4], uint16_t out[2])
{
    unsigned big = 0;
    for (unsigned k = 1; k < 4; k++)
        if (fabsf(q[k]) > fabsf(q[big])) big = k;
    float sign = q[big] < 0 ? -1.0f : 1.0f;
    unsigned v[3];
    for (unsigned i = 0; i < 3; i++) {
        float x = q[(big + 1 + i) & 3] * sign;
        long r = lroundf((x + 0.70710678118f) / (2 * 0.70710678118f) * 1023.0f);
        v[i] = (unsigned)(r < 0 ? 0 : r > 1023 ? 1023 : r);
    }
    out[0] = (uint16_t)((big << 14) | (v[0] << 4) | (v[1] >> 6));
    out[1] = (uint16_t)(((v[1] & 63u) << 10) | v[2]);
}

int t3dm_write_sdata(const t3dm_w_anim *a, uint8_t **out, size_t *size)
{
    wbuf b = {0};
    for (uint32_t k = 0; k < a->num_keys; k++) {
        const t3dm_keyframe *kf = &a->keys[k];
        bool next_large = k + 1 < a->num_keys && a->keys[k + 1].channel < a->channels_quat;
        u16(&b, (uint16_t)((kf->ticks & 0x7FFFu) | (next_large ? 0x8000u : 0)));
        u16(&b, kf->channel);
        u16(&b, kf->data[0]);
        /* rotation keyframes and the first keyframe carry two words */
        if (kf->channel < a->channels_quat || k == 0) u16(&b, kf->data[1]);
    }
    if (b.oom) {
        free(b.p);
        return -1;
    }
    *out = b.p;
    *size = b.n;
    return 0;
}

static void part_box(const t3dm_w_model *m, const t3dm_w_object *o, int16_t mn[3], int16_t mx[3])
{
    for (int k = 0; k < 3; k++) {
        mn[k] = 32767;
        mx[k] = -32768;
    }
    for (unsigned p = 0; p < o->num_parts; p++)
        for (uint32_t v = 0; v < o->parts[p].vert_count; v++) {
            uint32_t i = o->parts[p].vert_first + v;
            if (i >= m->num_vertices) continue;
            for (int k = 0; k < 3; k++) {
                if (m->vertices[i].pos[k] < mn[k]) mn[k] = m->vertices[i].pos[k];
                if (m->vertices[i].pos[k] > mx[k]) mx[k] = m->vertices[i].pos[k];
            }
        }
}

static void write_material(wbuf *f, wbuf *strs, const t3dm_w_material *mt)
{
    u32(f, (uint32_t)(mt->combiner >> 32));
    u32(f, (uint32_t)mt->combiner);
    put(f, NULL, 16); /* other-mode value and mask */
    u32(f, mt->blend_mode);
    u32(f, mt->draw_flags);
    u8(f, 0);
    u8(f, mt->fog_mode);
    u8(f, 1); /* set prim colour */
    u8(f, mt->vertex_fx);
    put(f, mt->prim, 4);
    put(f, NULL, 8); /* env, blend colours */
    u32(f, str(strs, mt->name ? mt->name : "material"));
    for (int t = 0; t < 2; t++) {
        const t3dm_w_texture *tx = &mt->tex[t];
        u32(f, 0);
        u32(f, tx->path ? str(strs, tx->path) : 0);
        u32(f, tx->path ? (uint32_t)strlen(tx->path) * 2654435761u : 0);
        u32(f, 0);
        u16(f, tx->width);
        u16(f, tx->height);
        for (int ax = 0; ax < 2; ax++) {
            uint16_t sz = ax ? tx->height : tx->width;
            f32(f, 0);
            f32(f, sz ? (float)(sz - 1) : 0);
            u8(f, 0);
            u8(f, 0);
            u8(f, ax ? tx->mirror_t : tx->mirror_s);
            u8(f, ax ? tx->clamp_t : tx->clamp_s);
        }
    }
}

static void write_bones(wbuf *f, wbuf *strs, const t3dm_w_model *m)
{
    u16(f, (uint16_t)m->num_bones);
    u16(f, 0);
    uint16_t depth[256] = {0};
    for (unsigned i = 0; i < m->num_bones; i++) {
        const t3dm_w_bone *b = &m->bones[i];
        uint16_t d = b->parent != 0xFFFF && b->parent < i && b->parent < 256
                         ? (uint16_t)(depth[b->parent] + 1u)
                         : 0;
        if (i < 256) depth[i] = d;
        u32(f, str(strs, b->name ? b->name : "bone"));
        u16(f, b->parent);
        u16(f, d);
        for (int k = 0; k < 3; k++) f32(f, b->scale[k]);
        for (int k = 0; k < 4; k++) f32(f, b->rot[k]);
        for (int k = 0; k < 3; k++) f32(f, b->pos[k]);
    }
}

int t3dm_write(const t3dm_w_model *m, uint8_t **out, size_t *size)
{
    wbuf f = {0}, strs = {0}, idx = {0};
    uint32_t count = 2 + m->num_materials + m->num_objects + (m->num_bones ? 1u : 0u) +
                     m->num_anims + (m->bvh ? 1u : 0u);
    uint32_t chunk = 0, total_idx = 0;
    int16_t mn[3] = {32767, 32767, 32767}, mx[3] = {-32768, -32768, -32768};
    put(&strs, "S", 1);
    put(&f, "T3M", 3);
    u8(&f, T3DM_VERSION);
    u32(&f, count);
    put(&f, NULL, 4 + 12 + 4 + 4 + 12); /* counts, type indices, strings, block, AABB */
    size_t table = f.n;
    put(&f, NULL, (size_t)count * 4);
#define ADD(type) (patch32(&f, table + 4u * chunk++, ((uint32_t)(type) << 24) | (uint32_t)f.n))

    align(&f, 8);
    for (unsigned o = 0; o < m->num_objects; o++) {
        const t3dm_w_object *ob = &m->objects[o];
        int16_t bmn[3], bmx[3];
        part_box(m, ob, bmn, bmx);
        for (int k = 0; k < 3; k++) {
            if (bmn[k] < mn[k]) mn[k] = bmn[k];
            if (bmx[k] > mx[k]) mx[k] = bmx[k];
        }
        ADD('O');
        u32(&f, str(&strs, ob->name ? ob->name : "object"));
        u16(&f, (uint16_t)ob->num_parts);
        u16(&f, ob->tri_count);
        u32(&f, ob->material);
        put(&f, NULL, 8);
        for (int k = 0; k < 3; k++) u16(&f, (uint16_t)bmn[k]);
        for (int k = 0; k < 3; k++) u16(&f, (uint16_t)bmx[k]);
        for (unsigned p = 0; p < ob->num_parts; p++) {
            const t3dm_w_part *pt = &ob->parts[p];
            u32(&f, pt->vert_first * 16u);
            u16(&f, pt->vert_count);
            u16(&f, pt->vert_dest);
            u32(&f, (uint32_t)idx.n);
            u16(&f, pt->num_tris);
            u16(&f, pt->matrix);
            for (int k = 0; k < 4; k++) u8(&f, pt->strip_count[k]);
            u8(&f, pt->seq_base);
            u8(&f, pt->seq_count);
            u16(&f, 0);
            put(&idx, pt->tris, pt->num_tris);
            for (int k = 0; k < 4 && pt->strip_count[k]; k++) {
                align(&idx, 8);
                for (unsigned i = 0; i < pt->strip_count[k]; i++)
                    u16(&idx, (uint16_t)pt->strips[k][i]);
            }
            total_idx += pt->num_tris;
        }
    }
    for (unsigned a = 0; a < m->num_anims; a++) {
        const t3dm_w_anim *an = &m->anims[a];
        align(&f, 4);
        ADD('A');
        u32(&f, str(&strs, an->name ? an->name : "anim"));
        f32(&f, an->duration);
        u32(&f, an->num_keys);
        u16(&f, an->channels_quat);
        u16(&f, an->channels_scalar);
        u32(&f, str(&strs, an->sdata_path ? an->sdata_path : "rom:/model.0.sdata"));
        for (unsigned c = 0; c < (unsigned)an->channels_quat + an->channels_scalar; c++) {
            u16(&f, an->channels[c].target);
            u8(&f, an->channels[c].type);
            u8(&f, an->channels[c].attr);
            f32(&f, an->channels[c].quant_scale);
            f32(&f, an->channels[c].quant_offset);
        }
    }
    if (m->bvh) {
        align(&f, 8);
        ADD('B');
        u16(&f, 1);
        u16(&f, (uint16_t)m->num_objects);
        for (int k = 0; k < 3; k++) u16(&f, (uint16_t)mn[k]);
        for (int k = 0; k < 3; k++) u16(&f, (uint16_t)mx[k]);
        u16(&f, (uint16_t)(m->num_objects & 15u)); /* one leaf: data 0.. count */
        for (unsigned o = 0; o < m->num_objects; o++) u16(&f, (uint16_t)o);
    }
    align(&f, 16);
    patch32(&f, 12, chunk);
    ADD('V');
    for (uint32_t v = 0; v + 1 < m->num_vertices + 1u && v < m->num_vertices; v += 2) {
        const t3dm_vertex *a = &m->vertices[v];
        const t3dm_vertex *b = v + 1 < m->num_vertices ? &m->vertices[v + 1] : a;
        for (int k = 0; k < 3; k++) u16(&f, (uint16_t)a->pos[k]);
        u16(&f, a->norm);
        for (int k = 0; k < 3; k++) u16(&f, (uint16_t)b->pos[k]);
        u16(&f, b->norm);
        put(&f, a->rgba, 4);
        put(&f, b->rgba, 4);
        u16(&f, (uint16_t)a->st[0]);
        u16(&f, (uint16_t)a->st[1]);
        u16(&f, (uint16_t)b->st[0]);
        u16(&f, (uint16_t)b->st[1]);
    }
    align(&f, 4);
    patch32(&f, 16, chunk);
    ADD('I');
    put(&f, idx.p, idx.n);
    patch32(&f, 20, chunk);
    for (unsigned i = 0; i < m->num_materials; i++) {
        align(&f, 8);
        ADD('M');
        write_material(&f, &strs, &m->materials[i]);
    }
    if (m->num_bones) {
        align(&f, 8);
        ADD('S');
        write_bones(&f, &strs, m);
    }
#undef ADD
    align(&f, 4);
    patch32(&f, 24, (uint32_t)f.n);
    put(&f, strs.p, strs.n);
    if (!f.oom) {
        uint32_t nv = (m->num_vertices + 1u) & ~1u;
        f.p[8] = (uint8_t)(nv >> 8);
        f.p[9] = (uint8_t)nv;
        f.p[10] = (uint8_t)(total_idx >> 8);
        f.p[11] = (uint8_t)total_idx;
        for (int k = 0; k < 3; k++) {
            f.p[32 + 2 * k] = (uint8_t)((uint16_t)mn[k] >> 8);
            f.p[33 + 2 * k] = (uint8_t)mn[k];
            f.p[38 + 2 * k] = (uint8_t)((uint16_t)mx[k] >> 8);
            f.p[39 + 2 * k] = (uint8_t)mx[k];
        }
    }
    bool oom = f.oom || strs.oom || idx.oom || f.n > 0xFFFFFFu;
    free(strs.p);
    free(idx.p);
    if (oom) {
        free(f.p);
        return -1;
    }
    *out = f.p;
    *size = f.n;
    return 0;
}
