/*
 * container.c - the NitroSystem G3D container level: file header, section directory, and
 * dispatch to the MDL0 / TEX0 parsers and the animation section dictionaries.
 *
 * Layout (GBATEK "BMD0 Header", "BCA0 Header"; apicula nsbmd docs "Containers"):
 *   +0 stamp "BMD0"/"BTX0"/"BCA0"/"BTP0"/"BTA0"/"BMA0"/"BVA0", +4 u16 byte order 0xFEFF,
 *   +6 u16 version, +8 u32 file size, +0xC u16 header size (0x10), +0xE u16 section count,
 *   +0x10 u32 section offsets (from the file start). Each section: stamp, u32 size, content.
 * Animation sections (JNT0/PAT0/SRT0/MAT0/VIS0) start with a dictionary of u32 offsets (from
 * the section) to the animations; each animation begins with a 4-byte tag and a u16 frame
 * count (GBATEK BCA0 "J.AC"; MarioKartToolbox G3dAnimationHeader). Their content is parsed
 * elsewhere (a later issue).
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/nitro_internal.h"

void nitro_status_format(const nitro_status *st, const char *file, char *buf, size_t buf_size)
{
    if (st->ok)
        snprintf(buf, buf_size, "%s: ok", file ? file : "(buffer)");
    else
        snprintf(buf, buf_size, "%s: %s at offset 0x%zX: %s", file ? file : "(buffer)",
                 st->structure, st->offset, st->reason);
}

static const struct {
    const char *stamp;
    enum nitro_kind kind;
} kinds[] = {
    {"BMD0", NITRO_KIND_BMD0}, {"BTX0", NITRO_KIND_BTX0}, {"BCA0", NITRO_KIND_BCA0},
    {"BTP0", NITRO_KIND_BTP0}, {"BTA0", NITRO_KIND_BTA0}, {"BMA0", NITRO_KIND_BMA0},
    {"BVA0", NITRO_KIND_BVA0},
};

static bool is_anim_stamp(const char *s)
{
    return !strcmp(s, "JNT0") || !strcmp(s, "PAT0") || !strcmp(s, "SRT0") || !strcmp(s, "MAT0") ||
           !strcmp(s, "VIS0");
}

static void printable_stamp(char out[5], const uint8_t in[4])
{
    for (int i = 0; i < 4; i++) out[i] = (in[i] >= 0x20 && in[i] < 0x7f) ? (char)in[i] : '.';
    out[4] = 0;
}

static bool parse_anim_set(nitro_cursor *file, const nitro_section *sec, unsigned index,
                           nitro_anim_set *set)
{
    nitro_cursor c = nitro_cur_sub(file, sec->offset, sec->size, "animation dict");
    nitro_dict d;
    set->section = index;
    if (!nitro_dict_read(&c, sec->offset + 8u, 4, &d)) return false;
    set->num_anims = d.count;
    set->anims = d.entries; /* ownership moves to the set */
    set->anim_offsets = nitro_calloc(&c, d.count, sizeof *set->anim_offsets);
    set->anim_stamps = nitro_calloc(&c, d.count, sizeof *set->anim_stamps);
    set->anim_frames = nitro_calloc(&c, d.count, sizeof *set->anim_frames);
    if (!nitro_cur_ok(&c)) return false;
    c.what = "animation header";
    for (unsigned i = 0; i < d.count; i++) {
        size_t at = nitro_cur_range(&c, d.data + (size_t)d.entry_size * i, sec->offset,
                                    d.entries[i].value, 8, "animation offset");
        if (!nitro_cur_ok(&c)) return false;
        uint8_t tag[4];
        c.pos = at;
        nitro_cur_bytes(&c, tag, 4);
        printable_stamp(set->anim_stamps[i], tag);
        set->anim_frames[i] = nitro_cur_u16(&c);
        set->anim_offsets[i] = (uint32_t)at;
    }
    return nitro_cur_ok(&c);
}

static bool parse_sections(nitro_cursor *c, nitro_file *f)
{
    for (unsigned i = 0; i < f->num_sections; i++) {
        nitro_section *s = &f->sections[i];
        if (!strcmp(s->stamp, "MDL0")) {
            if (f->kind != NITRO_KIND_BMD0)
                return nitro_cur_fail(c, s->offset, "MDL0 in a %s file", f->stamp);
            if (f->models) return nitro_cur_fail(c, s->offset, "second MDL0 section");
            nitro_cursor m = nitro_cur_sub(c, s->offset, s->size, "MDL0");
            if (!nitro_mdl0_parse(&m, f)) return false;
        } else if (!strcmp(s->stamp, "TEX0")) {
            if (f->kind != NITRO_KIND_BMD0 && f->kind != NITRO_KIND_BTX0)
                return nitro_cur_fail(c, s->offset, "TEX0 in a %s file", f->stamp);
            if (f->tex0) return nitro_cur_fail(c, s->offset, "second TEX0 section");
            f->tex0 = nitro_calloc(c, 1, sizeof *f->tex0);
            if (!f->tex0) return false;
            nitro_cursor t = nitro_cur_sub(c, s->offset, s->size, "TEX0");
            if (!nitro_tex0_parse(&t, f->tex0)) return false;
        } else if (is_anim_stamp(s->stamp)) {
            if (f->kind == NITRO_KIND_BMD0 || f->kind == NITRO_KIND_BTX0)
                return nitro_cur_fail(c, s->offset, "%s in a %s file", s->stamp, f->stamp);
            if (!parse_anim_set(c, s, i, &f->anim_sets[f->num_anim_sets])) {
                f->num_anim_sets++; /* so that its allocations are freed */
                return false;
            }
            f->num_anim_sets++;
        } else {
            c->what = "section";
            return nitro_cur_fail(c, s->offset, "unknown section \"%s\"", s->stamp);
        }
    }
    return true;
}

nitro_status nitro_parse(const uint8_t *data, size_t size, nitro_file *out)
{
    nitro_status st = {.ok = true};
    memset(out, 0, sizeof *out);
    out->data = data;
    out->size = size;
    nitro_cursor c = nitro_cur_make(data, size, &st, "file header");
    uint8_t stamp[4];
    nitro_cur_bytes(&c, stamp, 4);
    if (!nitro_cur_ok(&c)) return st;
    printable_stamp(out->stamp, stamp);
    bool known = false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!memcmp(stamp, kinds[i].stamp, 4)) {
            out->kind = kinds[i].kind;
            known = true;
        }
    if (!known) {
        nitro_cur_fail(&c, 0, "unknown stamp \"%s\"", out->stamp);
        return st;
    }
    out->bom = nitro_cur_u16(&c);
    out->version = nitro_cur_u16(&c);
    size_t fs_at = c.pos;
    out->file_size = nitro_cur_u32(&c);
    size_t hs_at = c.pos;
    out->header_size = nitro_cur_u16(&c);
    unsigned n = nitro_cur_u16(&c);
    if (!nitro_cur_ok(&c)) return st;
    if (out->bom != 0xFEFF) {
        nitro_cur_fail(&c, 4, "byte order mark 0x%04X, expected 0xFEFF", out->bom);
        return st;
    }
    if (out->file_size > size || out->file_size < 16u) {
        nitro_cur_fail(&c, fs_at, "file size 0x%X but the buffer holds 0x%zX bytes", out->file_size,
                       size);
        return st;
    }
    if (out->header_size != 16) {
        nitro_cur_fail(&c, hs_at, "header size %u, expected 16", out->header_size);
        return st;
    }
    c.hi = out->file_size;
    if (!nitro_cur_need(&c, 4ull * n)) return st;
    out->sections = nitro_calloc(&c, n, sizeof *out->sections);
    out->anim_sets = nitro_calloc(&c, n, sizeof *out->anim_sets);
    if (!nitro_cur_ok(&c)) goto done;
    out->num_sections = n;
    c.what = "section directory";
    for (unsigned i = 0; i < n; i++) {
        size_t at = c.pos;
        uint32_t ofs = nitro_cur_u32(&c);
        nitro_cursor s = nitro_cur_sub(&c, ofs, 8, "section directory");
        if (!nitro_cur_ok(&c)) {
            st.offset = at;
            goto done;
        }
        uint8_t sstamp[4];
        nitro_cur_bytes(&s, sstamp, 4);
        printable_stamp(out->sections[i].stamp, sstamp);
        size_t size_at = s.pos;
        uint32_t ssize = nitro_cur_u32(&s);
        out->sections[i].offset = ofs;
        out->sections[i].size = ssize;
        c.what = "section header";
        nitro_cur_range(&c, size_at, ofs, 0, ssize, "section end");
        if (ssize < 8) nitro_cur_fail(&c, size_at, "section size %u < 8", ssize);
        c.what = "section directory";
        if (!nitro_cur_ok(&c)) goto done;
    }
    parse_sections(&c, out);
done:
    if (!st.ok) nitro_file_free(out);
    return st;
}

void nitro_file_free(nitro_file *f)
{
    if (!f) return;
    for (unsigned i = 0; i < f->num_models; i++) nitro_model_free(&f->models[i]);
    free(f->models);
    if (f->tex0) nitro_tex0_free(f->tex0);
    free(f->tex0);
    for (unsigned i = 0; i < f->num_anim_sets; i++) {
        nitro_anim_set *a = &f->anim_sets[i];
        free(a->anims);
        free(a->anim_offsets);
        free(a->anim_stamps);
        free(a->anim_frames);
    }
    free(f->anim_sets);
    free(f->sections);
    const uint8_t *data = f->data;
    size_t size = f->size;
    memset(f, 0, sizeof *f);
    f->data = data;
    f->size = size;
}

int nitro_find_model(const nitro_file *f, const char *name)
{
    for (unsigned i = 0; i < f->num_models; i++)
        if (!strncmp(f->models[i].name.s, name, 16)) return (int)i;
    return -1;
}

int nitro_find_texture(const nitro_tex0 *tex, const char *name)
{
    for (unsigned i = 0; tex && i < tex->num_textures; i++)
        if (!strncmp(tex->textures[i].name.s, name, 16)) return (int)i;
    return -1;
}

int nitro_find_palette(const nitro_tex0 *tex, const char *name)
{
    for (unsigned i = 0; tex && i < tex->num_palettes; i++)
        if (!strncmp(tex->palettes[i].name.s, name, 16)) return (int)i;
    return -1;
}
