/*
 * chunks.c - the T3DM chunk readers: materials, objects with their parts, the skeleton,
 * animation headers and the mesh BVH.
 *
 * Layouts (HailToDodongo/tiny3d src/t3d/t3dmodel.h, tools/gltf_importer/src/writer.cpp,
 * optimizer/meshBVH.cpp):
 * - material (0x8C bytes): u64 combiner, u64 other-mode value, u64 other-mode mask, u32 blend
 *   mode, u32 draw flags, u8 unused, u8 fog mode, u8 colour flags, u8 vertex effect, RGBA prim,
 *   env, blend colours, u32 name, then two 0x2C-byte textures: u32 reference, u32 path, u32
 *   hash, u32 runtime pointer, u16 width, u16 height, and per axis f32 low, f32 high, s8 mask,
 *   s8 shift, u8 mirror, u8 clamp.
 * - object: u32 name, u16 part count, u16 triangle count, u32 material index (relative to the
 *   header's first material chunk), u32 block, u8 visible + 3 bytes, s16[3] AABB min, s16[3]
 *   AABB max (0x20 bytes), then 0x18-byte parts: u32 vertex offset (in the vertex chunk), u16
 *   vertex count, u16 cache destination, u32 index offset (in the index chunk), u16 triangle
 *   index count, u16 matrix (bone) index, u8[4] strip index counts, u8 sequence base, u8
 *   sequence count, 2 bytes padding. Strips follow the u8 triangle indices, each 8-byte
 *   aligned, as s16 indices with bit 15 marking a restart (t3d.h t3d_indexbuffer_convert).
 * - skeleton: u16 bone count, u16 reserved, 0x30-byte bones: u32 name, u16 parent (0xFFFF
 *   root), u16 depth, f32 scale[3], f32 rotation[4] (x y z w), f32 translation[3].
 * - animation: u32 name, f32 duration, u32 keyframe count, u16 quaternion channels, u16 scalar
 *   channels, u32 .sdata path, then 12-byte channel mappings: u16 target, u8 type, u8
 *   attribute, f32 quantisation scale, f32 offset.
 * - BVH: u16 node count, u16 data count, 14-byte nodes (s16[3] min, s16[3] max, u16 value),
 *   u16 data (object indices).
 */
#include <stdlib.h>

#include "t3dm/t3dm_internal.h"

#define FLOAT_LIMIT 1.0e7f

static bool read_axis(t3dm_cursor *c, t3dm_axis *a)
{
    size_t at = c->pos;
    a->low = t3dm_f32(c);
    a->high = t3dm_f32(c);
    a->mask = (int8_t)t3dm_u8(c);
    a->shift = (int8_t)t3dm_u8(c);
    a->mirror = t3dm_u8(c);
    a->clamp = t3dm_u8(c);
    if (c->st->ok && (!t3dm_float_ok(a->low, 4096.0f) || !t3dm_float_ok(a->high, 4096.0f)))
        return t3dm_fail(c, at, "texture tile low/high not finite or beyond +-4096");
    if (c->st->ok && (a->shift < -15 || a->shift > 15))
        return t3dm_fail(c, at + 9, "texture tile shift %d outside -15..15", a->shift);
    return c->st->ok;
}

bool t3dm_read_material(t3dm_model *m, t3dm_cursor *c, t3dm_material *o)
{
    o->combiner = t3dm_u64(c);
    o->other_value = t3dm_u64(c);
    o->other_mask = t3dm_u64(c);
    o->blend_mode = t3dm_u32(c);
    o->draw_flags = t3dm_u32(c);
    t3dm_u8(c);
    o->fog_mode = t3dm_u8(c);
    o->color_flags = t3dm_u8(c);
    o->vertex_fx = t3dm_u8(c);
    for (int k = 0; k < 4; k++) o->prim[k] = t3dm_u8(c);
    for (int k = 0; k < 4; k++) o->env[k] = t3dm_u8(c);
    for (int k = 0; k < 4; k++) o->blend[k] = t3dm_u8(c);
    size_t at = c->pos;
    uint32_t name = t3dm_u32(c);
    if (c->st->ok) o->name = t3dm_string(m, c, at, name);
    for (int t = 0; t < 2 && c->st->ok; t++) {
        t3dm_texture *tx = &o->tex[t];
        tx->reference = t3dm_u32(c);
        at = c->pos;
        uint32_t path = t3dm_u32(c);
        tx->hash = t3dm_u32(c);
        t3dm_u32(c); /* runtime sprite pointer */
        tx->width = t3dm_u16(c);
        tx->height = t3dm_u16(c);
        /* Offset 0 is the table's leading "S" placeholder: no file (writer.cpp). */
        if (c->st->ok && path) tx->path = t3dm_string(m, c, at, path);
        if (c->st->ok && tx->path &&
            (tx->width == 0 || tx->height == 0 || tx->width > 1024 || tx->height > 1024))
            t3dm_fail(c, at + 12, "texture %d size %ux%u outside 1..1024", t, tx->width,
                      tx->height);
        read_axis(c, &tx->s);
        read_axis(c, &tx->t);
    }
    return c->st->ok;
}

/* Triangles of a strip of n s16 indices at p (already inside the buffer); checks the indices
 * and the restarts. @return triangles, or -1 after recording a failure. */
static long strip_triangles(t3dm_cursor *c, size_t p, unsigned n)
{
    if (n < 3) return t3dm_fail(c, p, "strip of %u indices (at least 3)", n), -1;
    /* The rule (a strip with no restart after its first index, every index inside the cache:
     * n - 2 triangles) in a pass with no branch per index, two indices a word: adding
     * 0x8000 - T3DM_VERTEX_CACHE to an index's low 15 bits sets its bit 15 iff the index is
     * beyond the cache, and cannot carry into the other half. Anything else takes the
     * checking pass below, which names the first faulty index. */
    const uint8_t *q = c->data + p;
    const uint32_t beyond = (0x8000u - T3DM_VERTEX_CACHE) * 0x10001u;
    uint32_t bad = (t3dm_be16(q) & 0x7FFFu) + (beyond & 0xFFFFu); /* the first: no restart */
    unsigned j = 1;
    for (; j + 1 < n; j += 2) {
        uint32_t w = t3dm_be32(q + 2 * j);
        bad |= ((w & 0x7FFF7FFFu) + beyond) | w;
    }
    if (j < n) {
        uint32_t v = t3dm_be16(q + 2 * j);
        bad |= ((v & 0x7FFFu) + (beyond & 0xFFFFu)) | v;
    }
    if (!(bad & 0x80008000u)) return (long)n - 2;
    /* one pass: seg counts the indices of the current segment; a restart (bit 15 on an index
     * after the first) needs two more indices and may not fall on a segment's 2nd or 3rd */
    long tris = 0;
    unsigned seg = 0;
    for (unsigned i = 0; i < n; i++) {
        uint16_t v = t3dm_be16(c->data + p + 2 * i);
        if ((v & 0x7FFFu) >= T3DM_VERTEX_CACHE)
            return t3dm_fail(c, p + 2 * i, "strip index %u beyond the vertex cache (%u)",
                             v & 0x7FFFu, T3DM_VERTEX_CACHE),
                   -1;
        if ((v & 0x8000u) && i > 0) {
            if (seg < 3)
                return t3dm_fail(c, p + 2 * i, "strip restart inside a first triangle"), -1;
            if (i + 2 >= n)
                return t3dm_fail(c, p + 2 * i, "strip restart at index %u of %u without two more",
                                 i, n),
                       -1;
            seg = 0;
        }
        if (++seg >= 3) tris++;
    }
    return tris;
}

static bool read_part(t3dm_model *m, t3dm_cursor *c, t3dm_part *p, uint32_t *index_end,
                      uint32_t *tris)
{
    size_t at = c->pos;
    p->vert_offset = t3dm_u32(c);
    p->vert_count = t3dm_u16(c);
    p->vert_dest = t3dm_u16(c);
    p->index_offset = t3dm_u32(c);
    p->num_indices = t3dm_u16(c);
    p->matrix = t3dm_u16(c);
    for (int k = 0; k < 4; k++) p->strip_count[k] = t3dm_u8(c);
    p->seq_base = t3dm_u8(c);
    p->seq_count = t3dm_u8(c);
    t3dm_skip(c, 2);
    if (!c->st->ok) return false;
    /* The runtime loads vertices in pairs from a pair boundary (t3d_vert_load). */
    uint64_t load = ((uint64_t)p->vert_count + 1u) & ~1ull;
    if (p->vert_offset & 31u)
        return t3dm_fail(c, at, "vertex offset 0x%x not on a vertex pair (32 bytes)",
                         p->vert_offset);
    if (p->vert_offset + load * 16u > (uint64_t)m->total_vertices * 16u)
        return t3dm_fail(c, at + 4, "vertices 0x%x + %u beyond the %u vertices", p->vert_offset,
                         p->vert_count, m->total_vertices);
    if ((uint32_t)p->vert_dest + p->vert_count > T3DM_CACHE_SLOTS)
        return t3dm_fail(c, at + 6, "load of %u vertices at cache slot %u beyond %u slots",
                         p->vert_count, p->vert_dest, T3DM_CACHE_SLOTS);
    if (p->num_indices % 3)
        return t3dm_fail(c, at + 12, "%u triangle indices (not a multiple of 3)", p->num_indices);
    if (p->matrix != 0xFFFF && p->matrix >= m->num_bones)
        return t3dm_fail(c, at + 14, "matrix index %u but %u bones", p->matrix, m->num_bones);
    if ((unsigned)p->seq_base + 3u * p->seq_count > T3DM_VERTEX_CACHE)
        return t3dm_fail(c, at + 20, "sequence %u + 3 x %u beyond the vertex cache", p->seq_base,
                         p->seq_count);
    /* Index data of consecutive parts follows in order and must not overlap. */
    if (p->index_offset < *index_end)
        return t3dm_fail(c, at + 8, "index range 0x%x overlaps the previous part's (to 0x%x)",
                         p->index_offset, *index_end);
    uint64_t end = (uint64_t)p->index_offset + p->num_indices;
    if (end > m->index_size)
        return t3dm_fail(c, at + 8, "indices 0x%x + %u beyond the 0x%x-byte index chunk",
                         p->index_offset, p->num_indices, m->index_size);
    const uint8_t *ix = m->data + m->index_chunk + p->index_offset;
    for (unsigned i = 0; i < p->num_indices; i++)
        if (ix[i] >= T3DM_VERTEX_CACHE)
            return t3dm_fail(c, m->index_chunk + p->index_offset + i,
                             "triangle index %u beyond the vertex cache (%u)", ix[i],
                             T3DM_VERTEX_CACHE);
    *tris += p->num_indices / 3u + p->seq_count;
    /* Strips: each 8-byte aligned (absolute, as the runtime aligns its pointer). */
    uint64_t pos = m->index_chunk + end;
    for (int k = 0; k < 4; k++) {
        unsigned n = p->strip_count[k];
        if (!n) {
            for (int j = k + 1; j < 4; j++)
                if (p->strip_count[j])
                    return t3dm_fail(c, at + 16 + j, "strip %d follows an empty strip", j);
            break;
        }
        pos = (pos + 7u) & ~7ull;
        if (pos + 2u * n > (uint64_t)m->index_chunk + m->index_size)
            return t3dm_fail(c, at + 16 + k,
                             "strip %d (%u indices at 0x%llx) beyond the index "
                             "chunk",
                             k, n, (unsigned long long)pos);
        p->strip_offset[k] = (uint32_t)pos;
        long t = strip_triangles(c, (size_t)pos, n);
        if (t < 0) return false;
        p->strip_triangles += (uint32_t)t;
        pos += 2u * n;
    }
    *tris += p->strip_triangles;
    *index_end = (uint32_t)(pos - m->index_chunk);
    return true;
}

bool t3dm_read_object(t3dm_model *m, t3dm_cursor *c, t3dm_object *o, uint32_t *index_end)
{
    size_t at = c->pos;
    uint32_t name = t3dm_u32(c);
    o->num_parts = t3dm_u16(c);
    o->tri_count = t3dm_u16(c);
    size_t mat_at = c->pos;
    o->material = t3dm_u32(c);
    t3dm_skip(c, 8);
    for (int k = 0; k < 3; k++) o->aabb_min[k] = t3dm_s16(c);
    for (int k = 0; k < 3; k++) o->aabb_max[k] = t3dm_s16(c);
    if (!c->st->ok) return false;
    o->name = name ? t3dm_string(m, c, at, name) : NULL;
    if (o->material >= m->num_materials)
        return t3dm_fail(c, mat_at, "material %u but %u materials", o->material, m->num_materials);
    if ((uint64_t)o->num_parts * 0x18u > c->hi - c->pos)
        return t3dm_fail(c, at + 4, "%u parts need 0x%x bytes, 0x%zx left", o->num_parts,
                         o->num_parts * 0x18u, c->hi - c->pos);
    o->parts = calloc(o->num_parts + 1u, sizeof *o->parts);
    if (!o->parts) return t3dm_fail(c, at, "out of memory");
    for (unsigned i = 0; i < o->num_parts && c->st->ok; i++)
        read_part(m, c, &o->parts[i], index_end, &o->triangles);
    return c->st->ok;
}

bool t3dm_read_skeleton(t3dm_model *m, t3dm_cursor *c)
{
    size_t at = c->pos;
    uint16_t n = t3dm_u16(c);
    t3dm_skip(c, 2);
    if (!c->st->ok) return false;
    if ((uint64_t)n * 0x30u > c->hi - c->pos)
        return t3dm_fail(c, at, "%u bones need 0x%x bytes, 0x%zx left", n, n * 0x30u,
                         c->hi - c->pos);
    m->bones = calloc(n + 1u, sizeof *m->bones);
    if (!m->bones) return t3dm_fail(c, at, "out of memory");
    m->num_bones = n;
    for (unsigned i = 0; i < n && c->st->ok; i++) {
        t3dm_bone *b = &m->bones[i];
        size_t bat = c->pos;
        uint32_t name = t3dm_u32(c);
        b->parent = t3dm_u16(c);
        b->depth = t3dm_u16(c);
        for (int k = 0; k < 3; k++) b->scale[k] = t3dm_f32(c);
        for (int k = 0; k < 4; k++) b->rot[k] = t3dm_f32(c);
        for (int k = 0; k < 3; k++) b->pos[k] = t3dm_f32(c);
        if (!c->st->ok) break;
        b->name = t3dm_string(m, c, bat, name);
        /* Bones are written depth-first, so a parent always comes first (writer.cpp). */
        if (b->parent != 0xFFFF && b->parent >= i)
            return t3dm_fail(c, bat + 4,
                             "bone %u has parent %u (a parent must come first: "
                             "cycle or forward reference)",
                             i, b->parent);
        unsigned want = b->parent == 0xFFFF ? 0u : m->bones[b->parent].depth + 1u;
        if (b->depth != want)
            return t3dm_fail(c, bat + 6, "bone %u depth %u, its parent's depth gives %u", i,
                             b->depth, want);
        for (int k = 0; k < 10; k++) {
            float v = k < 3 ? b->scale[k] : k < 7 ? b->rot[k - 3] : b->pos[k - 7];
            if (!t3dm_float_ok(v, k >= 3 && k < 7 ? 2.0f : FLOAT_LIMIT))
                return t3dm_fail(c, bat + 8 + 4 * (size_t)k,
                                 "bone %u value not finite or out of range", i);
        }
    }
    return c->st->ok;
}

bool t3dm_read_anim(t3dm_model *m, t3dm_cursor *c, t3dm_anim *a)
{
    size_t at = c->pos;
    uint32_t name = t3dm_u32(c);
    a->duration = t3dm_f32(c);
    a->keyframe_count = t3dm_u32(c);
    a->channels_quat = t3dm_u16(c);
    a->channels_scalar = t3dm_u16(c);
    size_t path_at = c->pos;
    uint32_t path = t3dm_u32(c);
    if (!c->st->ok) return false;
    a->name = t3dm_string(m, c, at, name);
    a->sdata_path = t3dm_string(m, c, path_at, path);
    if (!c->st->ok) return false;
    if (!t3dm_float_ok(a->duration, 86400.0f) || a->duration < 0)
        return t3dm_fail(c, at + 4, "duration not in 0..86400 s");
    unsigned n = (unsigned)a->channels_quat + a->channels_scalar;
    if ((uint64_t)n * 12u > c->hi - c->pos)
        return t3dm_fail(c, at + 12, "%u channels need 0x%x bytes, 0x%zx left", n, n * 12u,
                         c->hi - c->pos);
    if (n && !m->num_bones)
        return t3dm_fail(c, at + 12, "%u channels but the model has no skeleton", n);
    a->channels = calloc(n + 1u, sizeof *a->channels);
    if (!a->channels) return t3dm_fail(c, at, "out of memory");
    for (unsigned i = 0; i < n; i++) {
        t3dm_channel *ch = &a->channels[i];
        size_t cat = c->pos;
        ch->target = t3dm_u16(c);
        ch->type = t3dm_u8(c);
        ch->attr = t3dm_u8(c);
        ch->quant_scale = t3dm_f32(c);
        ch->quant_offset = t3dm_f32(c);
        if (!c->st->ok) return false;
        if (ch->target >= m->num_bones)
            return t3dm_fail(c, cat, "channel %u targets bone %u of %u", i, ch->target,
                             m->num_bones);
        bool rot = ch->type == T3DM_TARGET_ROTATION;
        if (ch->type > T3DM_TARGET_ROTATION || rot != (i < a->channels_quat))
            return t3dm_fail(c, cat + 2,
                             "channel %u type %u (the %u rotation channels come "
                             "first)",
                             i, ch->type, a->channels_quat);
        if (ch->attr > 2 || (rot && ch->attr))
            return t3dm_fail(c, cat + 3, "channel %u attribute %u", i, ch->attr);
        if (!t3dm_float_ok(ch->quant_scale, FLOAT_LIMIT) ||
            !t3dm_float_ok(ch->quant_offset, FLOAT_LIMIT))
            return t3dm_fail(c, cat + 4, "channel %u quantisation not finite", i);
    }
    return true;
}

bool t3dm_read_bvh(t3dm_model *m, t3dm_cursor *c)
{
    t3dm_bvh *b = &m->bvh;
    size_t at = c->pos;
    b->offset = (uint32_t)at;
    b->node_count = t3dm_u16(c);
    b->data_count = t3dm_u16(c);
    if (!c->st->ok) return false;
    if ((uint64_t)b->node_count * 14u + (uint64_t)b->data_count * 2u > c->hi - c->pos)
        return t3dm_fail(c, at, "%u nodes and %u data need 0x%x bytes, 0x%zx left", b->node_count,
                         b->data_count, b->node_count * 14u + b->data_count * 2u, c->hi - c->pos);
    b->nodes = calloc(b->node_count + 1u, sizeof *b->nodes);
    b->data = calloc(b->data_count + 1u, sizeof *b->data);
    if (!b->nodes || !b->data) return t3dm_fail(c, at, "out of memory");
    for (unsigned i = 0; i < b->node_count; i++) {
        t3dm_bvh_node *n = &b->nodes[i];
        for (int k = 0; k < 3; k++) n->aabb_min[k] = t3dm_s16(c);
        for (int k = 0; k < 3; k++) n->aabb_max[k] = t3dm_s16(c);
        size_t vat = c->pos;
        n->value = t3dm_u16(c);
        unsigned cnt = n->value & 15u, idx = n->value >> 4;
        /* Leaf: idx = first data entry. Inner: children at i + idx and i + idx + 1, always
         * later nodes (meshBVH.cpp), so a walk terminates. */
        if (cnt ? idx + cnt > b->data_count : (idx == 0 || i + idx + 1u >= b->node_count))
            return t3dm_fail(c, vat, "BVH node %u value 0x%04x out of range (%u nodes, %u data)", i,
                             n->value, b->node_count, b->data_count);
    }
    for (unsigned i = 0; i < b->data_count; i++) {
        size_t dat = c->pos;
        b->data[i] = t3dm_u16(c);
        if (b->data[i] >= m->num_objects)
            return t3dm_fail(c, dat, "BVH data %u names object %u of %u", i, b->data[i],
                             m->num_objects);
    }
    m->has_bvh = c->st->ok;
    return c->st->ok;
}
