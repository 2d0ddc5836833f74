/*
 * info.c - text and JSON descriptions of a parsed Nitro file (for `dsgx info`): models with
 * their node, material, mesh and render-command counts, textures (format, size), palettes and
 * animation sections. Pure formatting; no hardware behaviour.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nitro/nitro.h"

typedef struct sbuf {
    char *s;
    size_t len, cap;
    bool oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t ncap = (b->cap ? b->cap * 2 : 1024) + (size_t)n;
        char *p = realloc(b->s, ncap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->s = p;
        b->cap = ncap;
    }
}

/* Names are at most 16 bytes; escape anything outside printable ASCII for JSON. */
static void sb_json_str(sbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            sb_printf(b, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            sb_printf(b, "\\u%04x", ch);
        else
            sb_printf(b, "%c", ch);
    }
    sb_printf(b, "\"");
}

void nitro_json_write_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static const char *kind_name(enum nitro_kind k)
{
    static const char *const n[] = {"NSBMD", "NSBTX", "NSBCA", "NSBTP", "NSBTA", "NSBMA", "NSBVA"};
    return (unsigned)k < 7 ? n[k] : "?";
}

static void text_model(sbuf *b, const nitro_model *m)
{
    sb_printf(b,
              "model \"%s\": %u nodes, %u materials, %u meshes, %u envelopes, %u render "
              "commands (%u bytes), %u vertices, %u polygons (%u tris, %u quads)\n",
              m->name.s, m->num_nodes, m->num_materials, m->num_meshes, m->num_envelopes,
              m->num_cmds, m->sbc.size, m->info.num_vertices, m->info.num_polygons,
              m->info.num_triangles, m->info.num_quads);
    sb_printf(b,
              "  scaling rule %u, texture matrix mode %u, pos scale 0x%X, box (%d %d %d) "
              "size (%d %d %d)\n",
              m->info.scaling_rule, m->info.texmtx_mode, (unsigned)m->info.pos_scale,
              m->info.box[0], m->info.box[1], m->info.box[2], m->info.box[3], m->info.box[4],
              m->info.box[5]);
    for (unsigned i = 0; i < m->num_nodes; i++)
        sb_printf(b, "  node %u \"%s\" flags 0x%04X\n", i, m->nodes[i].name.s, m->nodes[i].flags);
    for (unsigned i = 0; i < m->num_materials; i++) {
        const nitro_material *x = &m->materials[i];
        sb_printf(b, "  material %u \"%s\" texture \"%s\" palette \"%s\" flags 0x%04X\n", i,
                  x->name.s, x->has_texture ? x->texture_name.s : "",
                  x->has_palette ? x->palette_name.s : "", x->flags);
    }
    for (unsigned i = 0; i < m->num_meshes; i++)
        sb_printf(b, "  mesh %u \"%s\" %u bytes of GX commands\n", i, m->meshes[i].name.s,
                  m->meshes[i].dl.size);
}

static void text_tex(sbuf *b, const nitro_tex0 *t)
{
    sb_printf(b, "textures: %u (texel data %u bytes, 4x4 data %u bytes), palettes: %u (%u bytes)\n",
              t->num_textures, t->tex_data.size, t->tex4x4_data.size, t->num_palettes,
              t->pltt_data.size);
    for (unsigned i = 0; i < t->num_textures; i++) {
        const nitro_texture *x = &t->textures[i];
        sb_printf(b, "  texture %u \"%s\" %s %ux%u, %u bytes\n", i, x->name.s,
                  nitro_tex_format_name(x->format), x->width, x->height, x->data.size);
    }
    for (unsigned i = 0; i < t->num_palettes; i++)
        sb_printf(b, "  palette %u \"%s\" at 0x%X\n", i, t->palettes[i].name.s,
                  t->palettes[i].data_offset);
}

static void describe_text(sbuf *b, const nitro_file *f)
{
    sb_printf(b, "%s (%s) version %u, %u bytes, %u sections\n", f->stamp, kind_name(f->kind),
              f->version, f->file_size, f->num_sections);
    for (unsigned i = 0; i < f->num_models; i++) text_model(b, &f->models[i]);
    if (f->tex0) text_tex(b, f->tex0);
    for (unsigned i = 0; i < f->num_anim_sets; i++) {
        const nitro_anim_set *a = &f->anim_sets[i];
        sb_printf(b, "%s: %u animations\n", f->sections[a->section].stamp, a->num_anims);
        for (unsigned k = 0; k < a->num_anims; k++)
            sb_printf(b, "  animation %u \"%s\" %s, %u frames\n", k, a->anims[k].name.s,
                      a->anim_stamps[k], a->anim_frames[k]);
    }
}

static void json_model(sbuf *b, const nitro_model *m)
{
    sb_printf(b, "{\"name\":");
    sb_json_str(b, m->name.s);
    sb_printf(b,
              ",\"vertices\":%u,\"polygons\":%u,\"triangles\":%u,\"quads\":%u,"
              "\"render_commands\":%u,\"render_command_bytes\":%u,\"envelopes\":%u,"
              "\"scaling_rule\":%u,\"texmtx_mode\":%u,\"nodes\":[",
              m->info.num_vertices, m->info.num_polygons, m->info.num_triangles, m->info.num_quads,
              m->num_cmds, m->sbc.size, m->num_envelopes, m->info.scaling_rule,
              m->info.texmtx_mode);
    for (unsigned i = 0; i < m->num_nodes; i++) {
        sb_printf(b, "%s{\"name\":", i ? "," : "");
        sb_json_str(b, m->nodes[i].name.s);
        sb_printf(b, ",\"flags\":%u}", m->nodes[i].flags);
    }
    sb_printf(b, "],\"materials\":[");
    for (unsigned i = 0; i < m->num_materials; i++) {
        const nitro_material *x = &m->materials[i];
        sb_printf(b, "%s{\"name\":", i ? "," : "");
        sb_json_str(b, x->name.s);
        sb_printf(b, ",\"texture\":");
        if (x->has_texture)
            sb_json_str(b, x->texture_name.s);
        else
            sb_printf(b, "null");
        sb_printf(b, ",\"palette\":");
        if (x->has_palette)
            sb_json_str(b, x->palette_name.s);
        else
            sb_printf(b, "null");
        sb_printf(b, ",\"flags\":%u}", x->flags);
    }
    sb_printf(b, "],\"meshes\":[");
    for (unsigned i = 0; i < m->num_meshes; i++) {
        sb_printf(b, "%s{\"name\":", i ? "," : "");
        sb_json_str(b, m->meshes[i].name.s);
        sb_printf(b, ",\"bytes\":%u}", m->meshes[i].dl.size);
    }
    sb_printf(b, "]}");
}

static void describe_json(sbuf *b, const nitro_file *f)
{
    sb_printf(b, "{\"stamp\":");
    sb_json_str(b, f->stamp);
    sb_printf(b, ",\"kind\":\"%s\",\"version\":%u,\"size\":%u,\"sections\":[", kind_name(f->kind),
              f->version, f->file_size);
    for (unsigned i = 0; i < f->num_sections; i++) {
        sb_printf(b, "%s{\"stamp\":", i ? "," : "");
        sb_json_str(b, f->sections[i].stamp);
        sb_printf(b, ",\"offset\":%u,\"size\":%u}", f->sections[i].offset, f->sections[i].size);
    }
    sb_printf(b, "],\"models\":[");
    for (unsigned i = 0; i < f->num_models; i++) {
        if (i) sb_printf(b, ",");
        json_model(b, &f->models[i]);
    }
    sb_printf(b, "],\"textures\":[");
    const nitro_tex0 *t = f->tex0;
    for (unsigned i = 0; t && i < t->num_textures; i++) {
        const nitro_texture *x = &t->textures[i];
        sb_printf(b, "%s{\"name\":", i ? "," : "");
        sb_json_str(b, x->name.s);
        sb_printf(b, ",\"format\":\"%s\",\"width\":%u,\"height\":%u,\"bytes\":%u}",
                  nitro_tex_format_name(x->format), x->width, x->height, x->data.size);
    }
    sb_printf(b, "],\"palettes\":[");
    for (unsigned i = 0; t && i < t->num_palettes; i++) {
        sb_printf(b, "%s{\"name\":", i ? "," : "");
        sb_json_str(b, t->palettes[i].name.s);
        sb_printf(b, ",\"offset\":%u,\"four_colour\":%s}", t->palettes[i].data_offset,
                  (t->palettes[i].flags & 1) ? "true" : "false");
    }
    sb_printf(b, "],\"animations\":[");
    unsigned k = 0;
    for (unsigned i = 0; i < f->num_anim_sets; i++) {
        const nitro_anim_set *a = &f->anim_sets[i];
        for (unsigned j = 0; j < a->num_anims; j++, k++) {
            sb_printf(b, "%s{\"section\":", k ? "," : "");
            sb_json_str(b, f->sections[a->section].stamp);
            sb_printf(b, ",\"name\":");
            sb_json_str(b, a->anims[j].name.s);
            sb_printf(b, ",\"tag\":");
            sb_json_str(b, a->anim_stamps[j]);
            sb_printf(b, ",\"frames\":%u}", a->anim_frames[j]);
        }
    }
    sb_printf(b, "]}\n");
}

char *nitro_describe(const nitro_file *f, bool json)
{
    sbuf b = {0};
    if (json)
        describe_json(&b, f);
    else
        describe_text(&b, f);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    if (!b.s) {
        b.s = malloc(1);
        if (b.s) b.s[0] = 0;
    }
    return b.s;
}
