/*
 * t3dm_info.c - `dsgx info MODEL.t3dm [--json]`: objects, parts, vertices, indices, triangles
 * (index lists, sequences and strips together), materials with their texture paths, the bone
 * hierarchy, animations with duration, channels and keyframe counts (read from the .sdata
 * files beside the model when present), the BVH and the AABB. Bad input: one line
 * "FILE: CHUNK at offset 0xNN: reason" on stderr, exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nitro/nitro.h"
#include "t3dm/t3dm.h"
#include "tools/t3dm_cli.h"

bool t3dm_cli_is_t3dm(const char *path)
{
    size_t n = strlen(path);
    if (n >= 5 && !strcmp(path + n - 5, ".t3dm")) return true;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char magic[3] = {0};
    bool yes = fread(magic, 1, 3, f) == 3 && !memcmp(magic, "T3M", 3);
    fclose(f);
    return yes;
}

uint8_t *t3dm_cli_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            if (cap > ((size_t)1 << 30)) break; /* far beyond a 24-bit offset file */
            uint8_t *q = realloc(buf, cap);
            if (!q) break;
            buf = q;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) {
            fclose(f);
            *size = n;
            return buf ? buf : calloc(1, 1);
        }
    }
    fclose(f);
    free(buf);
    return NULL;
}

static void dir_of(const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s", path);
    char *s = strrchr(out, '/');
    if (s)
        s[1] = 0;
    else
        out[0] = 0;
}

bool t3dm_cli_load_sdata(t3dm_model *m, const char *model_path, int only, bool need)
{
    char dir[2048], path[4096];
    dir_of(model_path, dir, sizeof dir);
    for (unsigned i = 0; i < m->num_anims; i++) {
        if (only >= 0 && (int)i != only) continue;
        const t3dm_anim *a = &m->anims[i];
        const char *rel = a->sdata_path ? a->sdata_path : "";
        if (!strncmp(rel, "rom:/", 5)) rel += 5;
        size_t size = 0;
        snprintf(path, sizeof path, "%s%s", dir, t3dm_sdata_basename(a));
        uint8_t *d = t3dm_cli_read(path, &size);
        if (!d) {
            snprintf(path, sizeof path, "%s%s", dir, rel);
            d = t3dm_cli_read(path, &size);
        }
        if (!d) {
            if (need)
                fprintf(stderr,
                        "dsgx: %s: animation %u \"%s\": missing .sdata %s (looked for %s%s "
                        "beside the model)\n",
                        model_path, i, a->name, a->sdata_path, dir, t3dm_sdata_basename(a));
            if (need) return false;
            continue;
        }
        t3dm_status st = t3dm_anim_load_sdata(m, i, d, size);
        free(d);
        if (!st.ok) {
            char msg[600];
            t3dm_status_format(&st, path, msg, sizeof msg);
            fprintf(stderr, "dsgx: %s\n", msg);
            if (need) return false;
        }
    }
    return true;
}

static const char *target_name(unsigned t)
{
    static const char *n[4] = {"translation", "scale", "scale (uniform)", "rotation"};
    return t < 4 ? n[t] : "?";
}

static void jstr(const char *s)
{
    if (s)
        nitro_json_write_string(stdout, s);
    else
        fputs("null", stdout);
}

static void print_text(const char *path, const t3dm_model *m)
{
    printf("%s: T3DM version %u, %u objects, %u triangles, %u vertices, %u indices, %u "
           "materials, %u bones, %u animations\n",
           path, m->version, m->num_objects, m->triangles, m->total_vertices, m->total_indices,
           m->num_materials, m->num_bones, m->num_anims);
    printf("aabb %d,%d,%d .. %d,%d,%d\nchunks %u:", m->aabb_min[0], m->aabb_min[1], m->aabb_min[2],
           m->aabb_max[0], m->aabb_max[1], m->aabb_max[2], m->num_chunks);
    for (unsigned i = 0; i < m->num_chunks; i++) printf(" %c", m->chunks[i].type);
    if (m->zero_entries) printf(" (+%u zeroed entries, older converter)", m->zero_entries);
    putchar('\n');
    for (unsigned i = 0; i < m->num_objects; i++) {
        const t3dm_object *o = &m->objects[i];
        printf("object %u \"%s\": material %u, %u parts, %u triangles, aabb %d,%d,%d .. "
               "%d,%d,%d\n",
               i, o->name ? o->name : "", o->material, o->num_parts, o->triangles, o->aabb_min[0],
               o->aabb_min[1], o->aabb_min[2], o->aabb_max[0], o->aabb_max[1], o->aabb_max[2]);
        for (unsigned p = 0; p < o->num_parts; p++) {
            const t3dm_part *pt = &o->parts[p];
            printf("  part %u: vertices %u+%u -> slot %u, matrix ", p, pt->vert_offset / 16u,
                   pt->vert_count, pt->vert_dest);
            if (pt->matrix == 0xFFFF)
                printf("none");
            else
                printf("bone %u", pt->matrix);
            printf(", %u list triangles, %u strip triangles (%u+%u+%u+%u indices), %u "
                   "sequence\n",
                   pt->num_indices / 3u, pt->strip_triangles, pt->strip_count[0],
                   pt->strip_count[1], pt->strip_count[2], pt->strip_count[3], pt->seq_count);
        }
    }
    for (unsigned i = 0; i < m->num_materials; i++) {
        const t3dm_material *mt = &m->materials[i];
        printf("material %u \"%s\": draw flags 0x%x, fog %u, blend 0x%x, vertex fx %u\n", i,
               mt->name ? mt->name : "", mt->draw_flags, mt->fog_mode, mt->blend_mode,
               mt->vertex_fx);
        for (int t = 0; t < 2; t++) {
            const t3dm_texture *tx = &mt->tex[t];
            if (!tx->path && !tx->reference) continue;
            printf("  texture %c: %s %ux%u, s %s%s, t %s%s\n", 'A' + t,
                   tx->path ? tx->path : "(dynamic)", tx->width, tx->height,
                   tx->s.clamp ? "clamp" : "repeat", tx->s.mirror ? " mirror" : "",
                   tx->t.clamp ? "clamp" : "repeat", tx->t.mirror ? " mirror" : "");
        }
    }
    for (unsigned i = 0; i < m->num_bones; i++) {
        const t3dm_bone *b = &m->bones[i];
        printf("%*sbone %u \"%s\"", 2 * b->depth, "", i, b->name ? b->name : "");
        if (b->parent != 0xFFFF) printf(" parent %u", b->parent);
        printf(" pos %.3f,%.3f,%.3f\n", (double)b->pos[0], (double)b->pos[1], (double)b->pos[2]);
    }
    for (unsigned i = 0; i < m->num_anims; i++) {
        const t3dm_anim *a = &m->anims[i];
        unsigned nch = (unsigned)a->channels_quat + a->channels_scalar;
        printf("animation %u \"%s\": %.3f s, %u keyframes, %u rotation + %u scalar channels, "
               "%s%s\n",
               i, a->name, (double)a->duration, a->keyframe_count, a->channels_quat,
               a->channels_scalar, a->sdata_path, a->keys ? "" : " (not found)");
        for (unsigned c = 0; c < nch; c++) {
            printf("  channel %u: bone %u %s", c, a->channels[c].target,
                   target_name(a->channels[c].type));
            if (a->channels[c].type != T3DM_TARGET_ROTATION)
                printf(" %c", "xyz"[a->channels[c].attr % 3]);
            if (a->keys) printf(", %u keyframes", a->channels[c].keyframes);
            putchar('\n');
        }
    }
    if (m->has_bvh) printf("bvh: %u nodes, %u data\n", m->bvh.node_count, m->bvh.data_count);
}

static void print_json(const t3dm_model *m)
{
    printf("{\"format\":\"T3DM\",\"version\":%u,\"vertices\":%u,\"indices\":%u,\"triangles\":%u",
           m->version, m->total_vertices, m->total_indices, m->triangles);
    printf(",\"aabb\":[%d,%d,%d,%d,%d,%d]", m->aabb_min[0], m->aabb_min[1], m->aabb_min[2],
           m->aabb_max[0], m->aabb_max[1], m->aabb_max[2]);
    printf(",\"objects\":[");
    for (unsigned i = 0; i < m->num_objects; i++) {
        const t3dm_object *o = &m->objects[i];
        printf("%s{\"name\":", i ? "," : "");
        jstr(o->name);
        printf(",\"material\":%u,\"triangles\":%u,\"parts\":[", o->material, o->triangles);
        for (unsigned p = 0; p < o->num_parts; p++) {
            const t3dm_part *pt = &o->parts[p];
            printf("%s{\"vertex_first\":%u,\"vertex_count\":%u,\"cache_slot\":%u,\"matrix\":",
                   p ? "," : "", pt->vert_offset / 16u, pt->vert_count, pt->vert_dest);
            if (pt->matrix == 0xFFFF)
                printf("null");
            else
                printf("%u", pt->matrix);
            printf(",\"list_triangles\":%u,\"strip_triangles\":%u,\"strip_indices\":[%u,%u,%u,"
                   "%u],\"sequence_triangles\":%u}",
                   pt->num_indices / 3u, pt->strip_triangles, pt->strip_count[0],
                   pt->strip_count[1], pt->strip_count[2], pt->strip_count[3], pt->seq_count);
        }
        printf("]}");
    }
    printf("],\"materials\":[");
    for (unsigned i = 0; i < m->num_materials; i++) {
        const t3dm_material *mt = &m->materials[i];
        printf("%s{\"name\":", i ? "," : "");
        jstr(mt->name);
        printf(",\"draw_flags\":%u,\"fog_mode\":%u,\"blend_mode\":%u,\"textures\":[",
               mt->draw_flags, mt->fog_mode, mt->blend_mode);
        for (int t = 0; t < 2; t++) {
            const t3dm_texture *tx = &mt->tex[t];
            printf("%s{\"path\":", t ? "," : "");
            jstr(tx->path);
            printf(",\"width\":%u,\"height\":%u,\"clamp\":[%u,%u],\"mirror\":[%u,%u]}", tx->width,
                   tx->height, tx->s.clamp, tx->t.clamp, tx->s.mirror, tx->t.mirror);
        }
        printf("]}");
    }
    printf("],\"bones\":[");
    for (unsigned i = 0; i < m->num_bones; i++) {
        const t3dm_bone *b = &m->bones[i];
        printf("%s{\"name\":", i ? "," : "");
        jstr(b->name);
        printf(",\"parent\":");
        if (b->parent == 0xFFFF)
            printf("null");
        else
            printf("%u", b->parent);
        printf(",\"depth\":%u}", b->depth);
    }
    printf("],\"animations\":[");
    for (unsigned i = 0; i < m->num_anims; i++) {
        const t3dm_anim *a = &m->anims[i];
        printf("%s{\"name\":", i ? "," : "");
        jstr(a->name);
        printf(",\"duration\":%.6g,\"keyframes\":%u,\"sdata\":", (double)a->duration,
               a->keyframe_count);
        jstr(a->sdata_path);
        printf(",\"sdata_found\":%s,\"channels\":[", a->keys ? "true" : "false");
        unsigned nch = (unsigned)a->channels_quat + a->channels_scalar;
        for (unsigned c = 0; c < nch; c++) {
            const t3dm_channel *ch = &a->channels[c];
            printf("%s{\"bone\":%u,\"target\":\"%s\",\"attribute\":%u,\"keyframes\":", c ? "," : "",
                   ch->target, target_name(ch->type), ch->attr);
            if (a->keys)
                printf("%u}", ch->keyframes);
            else
                printf("null}");
        }
        printf("]}");
    }
    printf("]");
    if (m->has_bvh)
        printf(",\"bvh\":{\"nodes\":%u,\"data\":%u}", m->bvh.node_count, m->bvh.data_count);
    printf("}\n");
}

int t3dm_cli_info(const char *path, bool json)
{
    size_t size;
    uint8_t *data = t3dm_cli_read(path, &size);
    if (!data) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    t3dm_model m;
    t3dm_status st = t3dm_parse(data, size, &m);
    if (!st.ok) {
        char msg[600];
        t3dm_status_format(&st, path, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
        free(data);
        return 1;
    }
    t3dm_cli_load_sdata(&m, path, -1, false);
    if (json)
        print_json(&m);
    else
        print_text(path, &m);
    t3dm_free(&m);
    free(data);
    return 0;
}
