/*
 * parse.c - the T3DM header, its chunk table and the dispatch to the chunk readers.
 *
 * Format notes (HailToDodongo/tiny3d, src/t3d/t3dmodel.h T3DModel and
 * tools/gltf_importer/src/writer.cpp): magic "T3M" + version byte, u32 chunk count, u16 total
 * vertex and index counts, u32 table indices of the vertex, index and first material chunk, u32
 * string table offset, a u32 the runtime uses for a block pointer (0 in files), s16[3] AABB min
 * and max, then the chunk table at 0x2C: one u32 per chunk, type in the top byte, absolute
 * offset in the low 24 bits. The converter writes the chunks in table order with rising offsets
 * (objects, animations, BVH, vertices, indices, materials, skeleton, custom chunks) and ends the
 * file with the string table. No chunk stores its size: a chunk runs to the next one (alignment
 * padding included) and the last to the string table.
 *
 * Older layouts: files whose version byte is not 4 are refused with "older T3DM layout" and
 * the byte found: Tiny3D's own loader asserts the same version (t3dmodel.c), and no public
 * description of the earlier layouts tells their fields apart reliably. Zeroed chunk table
 * entries at the end of the table, which earlier converters counted in the chunk count, are
 * skipped and counted in zero_entries.
 */
#include <stdlib.h>

#include "t3dm/t3dm_internal.h"

#define HEADER_SIZE 0x2Cu

void t3dm_status_format(const t3dm_status *st, const char *file, char *buf, size_t buf_size)
{
    if (st->ok)
        snprintf(buf, buf_size, "%s: ok", file);
    else
        snprintf(buf, buf_size, "%s: %s at offset 0x%zx: %s", file, st->chunk, st->offset,
                 st->reason);
}

const char *t3dm_chunk_kind(char type)
{
    switch (type) {
    case T3DM_CHUNK_VERTICES: return "vertices";
    case T3DM_CHUNK_INDICES: return "indices";
    case T3DM_CHUNK_MATERIAL: return "material";
    case T3DM_CHUNK_OBJECT: return "object";
    case T3DM_CHUNK_SKELETON: return "skeleton";
    case T3DM_CHUNK_ANIM: return "animation";
    case T3DM_CHUNK_BVH: return "BVH";
    default: return "custom";
    }
}

const char *t3dm_string(t3dm_model *m, t3dm_cursor *c, size_t at, uint32_t rel)
{
    size_t start = m->string_table;
    if (rel >= m->size - start) {
        t3dm_fail(c, at, "string offset 0x%x beyond the string table (0x%zx bytes)", rel,
                  m->size - start);
        return NULL;
    }
    const char *s = (const char *)m->data + start + rel;
    if (!memchr(s, 0, m->size - start - rel)) {
        t3dm_fail(c, at, "string at table offset 0x%x is not NUL-terminated", rel);
        return NULL;
    }
    return s;
}

void t3dm_vertex_get(const t3dm_model *m, uint32_t byte_offset, t3dm_vertex *out)
{
    /* Vertices are interleaved in pairs (T3DVertPacked): posA, normA, posB, normB, rgbaA,
     * rgbaB, stA, stB. byte_offset = index * 16. */
    uint32_t pair = byte_offset & ~31u, b = (byte_offset >> 4) & 1u;
    const uint8_t *p = m->data + m->vert_chunk + pair;
    for (int k = 0; k < 3; k++) out->pos[k] = (int16_t)t3dm_be16(p + b * 8 + k * 2);
    out->norm = t3dm_be16(p + b * 8 + 6);
    memcpy(out->rgba, p + 16 + b * 4, 4);
    out->st[0] = (int16_t)t3dm_be16(p + 24 + b * 4);
    out->st[1] = (int16_t)t3dm_be16(p + 26 + b * 4);
}

static bool read_table(t3dm_model *m, t3dm_cursor *c)
{
    size_t table_end = HEADER_SIZE + (size_t)m->chunk_count * 4;
    m->chunks = calloc(m->chunk_count ? m->chunk_count : 1, sizeof *m->chunks);
    if (!m->chunks) return t3dm_fail(c, HEADER_SIZE, "out of memory");
    c->pos = HEADER_SIZE;
    uint32_t prev = 0;
    for (uint32_t i = 0; i < m->chunk_count; i++) {
        size_t at = c->pos;
        uint32_t w = t3dm_u32(c);
        if (w == 0) {
            m->zero_entries++;
            continue;
        }
        if (m->zero_entries)
            return t3dm_fail(c, at, "chunk %u follows %u zeroed table entries", i, m->zero_entries);
        t3dm_chunk *ch = &m->chunks[m->num_chunks++];
        ch->type = (char)(w >> 24);
        ch->offset = w & 0xFFFFFFu;
        if (ch->offset < table_end || ch->offset > m->string_table)
            return t3dm_fail(c, at, "chunk %u '%c' offset 0x%x outside 0x%zx..0x%x", i, ch->type,
                             ch->offset, table_end, m->string_table);
        if (i && ch->offset <= prev)
            return t3dm_fail(c, at, "chunk %u '%c' offset 0x%x out of order (previous 0x%x)", i,
                             ch->type, ch->offset, prev);
        prev = ch->offset;
    }
    for (uint32_t i = 0; i < m->num_chunks; i++) {
        uint32_t end = i + 1 < m->num_chunks ? m->chunks[i + 1].offset : m->string_table;
        m->chunks[i].size = end - m->chunks[i].offset;
    }
    return c->st->ok;
}

/* Table index `idx` (from the header at `at`) must be a chunk of `type`. */
static bool check_index(t3dm_model *m, t3dm_cursor *c, size_t at, uint32_t idx, char type)
{
    if (idx >= m->num_chunks || m->chunks[idx].type != type)
        return t3dm_fail(c, at, "%s chunk index %u is not a '%c' chunk (%u chunks)",
                         t3dm_chunk_kind(type), idx, type, m->num_chunks);
    return true;
}

static bool count_types(t3dm_model *m, t3dm_cursor *c)
{
    uint32_t nv = 0, ni = 0, nb = 0, ns = 0;
    for (uint32_t i = 0; i < m->num_chunks; i++) {
        switch (m->chunks[i].type) {
        case T3DM_CHUNK_VERTICES: nv++; break;
        case T3DM_CHUNK_INDICES: ni++; break;
        case T3DM_CHUNK_MATERIAL: m->num_materials++; break;
        case T3DM_CHUNK_OBJECT: m->num_objects++; break;
        case T3DM_CHUNK_ANIM: m->num_anims++; break;
        case T3DM_CHUNK_BVH: nb++; break;
        case T3DM_CHUNK_SKELETON: ns++; break;
        default: break;
        }
    }
    if (nv != 1 || ni != 1)
        return t3dm_fail(c, HEADER_SIZE, "%u vertex and %u index chunks (one of each expected)", nv,
                         ni);
    if (nb > 1 || ns > 1)
        return t3dm_fail(c, HEADER_SIZE, "%u BVH and %u skeleton chunks (at most one each)", nb,
                         ns);
    /* Objects refer to material k as chunk idx_materials + k (t3dmodel.c loader). */
    for (uint32_t k = 0; k < m->num_materials; k++)
        if (!check_index(m, c, 0x14, m->idx_materials + k, T3DM_CHUNK_MATERIAL)) return false;
    m->objects = calloc(m->num_objects + 1u, sizeof *m->objects);
    m->materials = calloc(m->num_materials + 1u, sizeof *m->materials);
    m->anims = calloc(m->num_anims + 1u, sizeof *m->anims);
    if (!m->objects || !m->materials || !m->anims)
        return t3dm_fail(c, HEADER_SIZE, "out of memory");
    return true;
}

/* Read every chunk: materials and the skeleton first (objects refer to both). */
static bool read_chunks(t3dm_model *m, t3dm_status *st)
{
    uint32_t nm = 0, no = 0, na = 0, index_end = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < m->num_chunks && st->ok; i++) {
            const t3dm_chunk *ch = &m->chunks[i];
            /* the chunk's label ("chunk 3 'O' (object)") is formatted only on a failure */
            t3dm_cursor c = {m->data, ch->offset, ch->offset + ch->size, ch->offset, NULL, st,
                             i,       ch->type};
            bool first = ch->type == T3DM_CHUNK_MATERIAL || ch->type == T3DM_CHUNK_SKELETON;
            if (first != (pass == 0)) continue;
            switch (ch->type) {
            case T3DM_CHUNK_MATERIAL:
                m->materials[nm].offset = ch->offset;
                t3dm_read_material(m, &c, &m->materials[nm++]);
                break;
            case T3DM_CHUNK_SKELETON: t3dm_read_skeleton(m, &c); break;
            case T3DM_CHUNK_OBJECT:
                m->objects[no].offset = ch->offset;
                if (t3dm_read_object(m, &c, &m->objects[no], &index_end))
                    m->triangles += m->objects[no].triangles;
                no++;
                break;
            case T3DM_CHUNK_ANIM:
                m->anims[na].offset = ch->offset;
                t3dm_read_anim(m, &c, &m->anims[na++]);
                break;
            case T3DM_CHUNK_BVH: t3dm_read_bvh(m, &c); break;
            default: break; /* vertices and indices are read when drawing; custom: skipped */
            }
        }
    }
    return st->ok;
}

t3dm_status t3dm_parse(const uint8_t *data, size_t size, t3dm_model *out)
{
    t3dm_status st = {.ok = true};
    memset(out, 0, sizeof *out);
    t3dm_model *m = out;
    m->data = data;
    m->size = size;
    t3dm_cursor c = {data, 0, size, 0, "header", &st, 0, 0};
    if (size < 4 || memcmp(data, "T3M", 3)) {
        t3dm_fail(&c, 0, "not a T3DM file (magic \"T3M\" expected)");
        return st;
    }
    m->version = data[3];
    if (m->version != T3DM_VERSION) {
        t3dm_fail(&c, 3,
                  "%s T3DM layout: version byte %u, this reader reads version %u (as "
                  "Tiny3D's own loader, which refuses any other version)",
                  m->version < T3DM_VERSION ? "older" : "newer", m->version, T3DM_VERSION);
        return st;
    }
    c.pos = 4;
    m->chunk_count = t3dm_u32(&c);
    m->total_vertices = t3dm_u16(&c);
    m->total_indices = t3dm_u16(&c);
    m->idx_vertices = t3dm_u32(&c);
    m->idx_indices = t3dm_u32(&c);
    m->idx_materials = t3dm_u32(&c);
    m->string_table = t3dm_u32(&c);
    t3dm_u32(&c); /* runtime block pointer */
    for (int k = 0; k < 3; k++) m->aabb_min[k] = t3dm_s16(&c);
    for (int k = 0; k < 3; k++) m->aabb_max[k] = t3dm_s16(&c);
    if (!st.ok) return st;
    if (m->chunk_count > (size - HEADER_SIZE) / 4) {
        t3dm_fail(&c, 4, "chunk count %u needs a %u-byte table, the file has %zu bytes",
                  m->chunk_count, m->chunk_count * 4u, size);
        return st;
    }
    if (m->string_table < HEADER_SIZE + (size_t)m->chunk_count * 4 || m->string_table > size) {
        t3dm_fail(&c, 0x18, "string table offset 0x%x outside 0x%zx..0x%zx", m->string_table,
                  HEADER_SIZE + (size_t)m->chunk_count * 4, size);
        return st;
    }
    if (!read_table(m, &c) || !check_index(m, &c, 0x0C, m->idx_vertices, T3DM_CHUNK_VERTICES) ||
        !check_index(m, &c, 0x10, m->idx_indices, T3DM_CHUNK_INDICES) || !count_types(m, &c))
        goto fail;
    const t3dm_chunk *v = &m->chunks[m->idx_vertices], *ix = &m->chunks[m->idx_indices];
    m->vert_chunk = v->offset;
    m->vert_size = v->size;
    m->index_chunk = ix->offset;
    m->index_size = ix->size;
    if ((uint64_t)m->total_vertices * 16u > v->size) {
        t3dm_fail(&c, 8, "%u vertices need 0x%x bytes, the vertex chunk has 0x%x",
                  m->total_vertices, m->total_vertices * 16u, v->size);
        goto fail;
    }
    if (m->total_indices > ix->size) {
        t3dm_fail(&c, 10, "%u indices do not fit the 0x%x-byte index chunk", m->total_indices,
                  ix->size);
        goto fail;
    }
    if (read_chunks(m, &st)) return st;
fail:
    t3dm_free(m);
    memset(out, 0, sizeof *out);
    return st;
}

void t3dm_free(t3dm_model *m)
{
    if (!m) return;
    for (uint32_t i = 0; m->objects && i < m->num_objects; i++) free(m->objects[i].parts);
    for (uint32_t i = 0; m->anims && i < m->num_anims; i++) {
        free(m->anims[i].channels);
        free(m->anims[i].keys);
    }
    free(m->objects);
    free(m->materials);
    free(m->anims);
    free(m->bones);
    free(m->bvh.nodes);
    free(m->bvh.data);
    free(m->chunks);
    memset(m, 0, sizeof *m);
}

int t3dm_find_anim(const t3dm_model *m, const char *sel)
{
    if (!sel || !*sel) return -1;
    char *end;
    long v = strtol(sel, &end, 10);
    if (*end == 0) return v >= 0 && v < (long)m->num_anims ? (int)v : -1;
    for (uint32_t i = 0; i < m->num_anims; i++)
        if (m->anims[i].name && !strcmp(m->anims[i].name, sel)) return (int)i;
    return -1;
}

const char *t3dm_sdata_basename(const t3dm_anim *a)
{
    if (!a->sdata_path) return "";
    const char *s = strrchr(a->sdata_path, '/');
    return s ? s + 1 : a->sdata_path;
}
