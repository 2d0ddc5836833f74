/*
 * narc.c - NARC archives (NitroARC): file allocation table (BTAF), file name table (BTNF) and
 * file image (GMIF).
 *
 * Layout (GBATEK "DS Cartridge NitroROM and NitroARC File Systems"): header "NARC", u16 byte
 * order 0xFFFE, u16 version, u32 file size, u16 header size (0x10), u16 block count (3); then
 * the blocks in order, each "XXXX" + u32 size (including its 8-byte header).
 *   BTAF: u16 file count, u16 reserved, count x (u32 start, u32 end) relative to GMIF data.
 *   BTNF: directory table of 8-byte entries (u32 subtable offset, u16 first file id, u16
 *   parent id or, for the root, the directory count), then subtables of entries: u8 len|type
 *   (0 end, 1-0x7F file name length, 0x81-0xFF directory name length | 0x80 followed by the
 *   name and a u16 directory id 0xF000 | index). An archive without names has only the root
 *   entry and an empty subtable.
 * Cycles in the directory tree are refused (each directory is visited once); path length and
 * depth are bounded.
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/nitro_internal.h"

#define NARC_MAX_PATH 512u

typedef struct narc_walk {
    nitro_cursor *c;
    size_t fnt; /* absolute start of BTNF data */
    size_t fnt_end;
    unsigned num_dirs;
    uint8_t *visited;
    nitro_narc *n;
} narc_walk;

static bool set_name(narc_walk *w, unsigned id, const char *path, size_t at)
{
    if (id >= w->n->num_files)
        return nitro_cur_fail(w->c, at, "file id %u >= %u files", id, w->n->num_files);
    if (w->n->files[id].name) return nitro_cur_fail(w->c, at, "file id %u named twice", id);
    w->n->files[id].name = malloc(strlen(path) + 1);
    if (!w->n->files[id].name) return nitro_cur_fail(w->c, at, "out of memory");
    strcpy(w->n->files[id].name, path);
    return true;
}

static bool walk_dir(narc_walk *w, unsigned dir, const char *prefix, unsigned depth)
{
    nitro_cursor *c = w->c;
    if (dir >= w->num_dirs)
        return nitro_cur_fail(c, c->pos, "directory %u >= %u", dir, w->num_dirs);
    if (w->visited[dir]) return nitro_cur_fail(c, c->pos, "directory %u reached twice", dir);
    w->visited[dir] = 1;
    c->pos = w->fnt + 8u * dir;
    size_t ent = c->pos;
    uint32_t sub = nitro_cur_u32(c);
    unsigned file_id = nitro_cur_u16(c);
    size_t p = nitro_cur_range(c, ent, w->fnt, sub, 1, "subtable offset");
    char path[NARC_MAX_PATH];
    while (nitro_cur_ok(c)) {
        c->pos = p;
        size_t at = c->pos;
        unsigned tl = nitro_cur_u8(c);
        if (!nitro_cur_ok(c) || tl == 0) break;
        unsigned len = tl & 0x7Fu;
        char name[128];
        nitro_cur_bytes(c, name, len);
        name[len] = 0;
        if (!nitro_cur_ok(c)) break;
        if (strlen(prefix) + len + 2 > sizeof path) return nitro_cur_fail(c, at, "path too long");
        size_t pl = strlen(prefix);
        memcpy(path, prefix, pl);
        if (pl) path[pl++] = '/';
        memcpy(path + pl, name, len + 1u);
        if (tl & 0x80u) {
            unsigned id = nitro_cur_u16(c);
            p = c->pos;
            if (!nitro_cur_ok(c)) break;
            if ((id & 0xF000u) != 0xF000u)
                return nitro_cur_fail(c, p - 2, "directory id 0x%04X", id);
            if (depth > 64) return nitro_cur_fail(c, at, "directories nested too deep");
            if (!walk_dir(w, id & 0xFFFu, path, depth + 1)) return false;
        } else {
            p = c->pos;
            if (!set_name(w, file_id++, path, at)) return false;
        }
    }
    return nitro_cur_ok(c);
}

static bool read_names(nitro_cursor *c, nitro_narc *n, size_t fnt, size_t fnt_end)
{
    c->what = "NARC BTNF";
    c->pos = fnt + 6;
    unsigned num_dirs = nitro_cur_u16(c);
    if (!nitro_cur_ok(c)) return false;
    if (num_dirs == 0 || num_dirs > 4096)
        return nitro_cur_fail(c, fnt + 6, "directory count %u", num_dirs);
    nitro_cur_range(c, fnt + 6, fnt, 0, 8ull * num_dirs, "directory table");
    /* No names: only the root with an empty subtable. */
    c->pos = fnt;
    uint32_t root_sub = nitro_cur_u32(c);
    size_t first = nitro_cur_range(c, fnt, fnt, root_sub, 1, "root subtable");
    if (!nitro_cur_ok(c)) return false;
    if (num_dirs == 1 && c->data[first] == 0) return true;
    narc_walk w = {c, fnt, fnt_end, num_dirs, nitro_calloc(c, num_dirs, 1), n};
    if (!w.visited) return false;
    bool ok = walk_dir(&w, 0, "", 0);
    free(w.visited);
    n->has_names = ok;
    return ok;
}

nitro_status nitro_narc_parse(const uint8_t *data, size_t size, nitro_narc *out)
{
    nitro_status st = {.ok = true};
    memset(out, 0, sizeof *out);
    nitro_cursor c = nitro_cur_make(data, size, &st, "NARC header");
    uint8_t magic[4];
    nitro_cur_bytes(&c, magic, 4);
    unsigned bom = nitro_cur_u16(&c);
    (void)nitro_cur_u16(&c); /* version */
    (void)nitro_cur_u32(&c); /* file size (not trusted: the buffer bounds everything) */
    unsigned hsize = nitro_cur_u16(&c);
    (void)nitro_cur_u16(&c); /* block count */
    if (!nitro_cur_ok(&c)) return st;
    if (memcmp(magic, "NARC", 4)) {
        nitro_cur_fail(&c, 0, "not a NARC archive");
        return st;
    }
    if (bom != 0xFFFE) {
        nitro_cur_fail(&c, 4, "byte order mark 0x%04X, expected 0xFFFE", bom);
        return st;
    }
    size_t blk[3], blk_size[3];
    static const char *const stamps[3] = {"BTAF", "BTNF", "GMIF"};
    size_t at = hsize;
    for (int i = 0; i < 3; i++) {
        c.what = stamps[i];
        if (!nitro_cur_seek(&c, at)) return st;
        uint8_t s[4];
        nitro_cur_bytes(&c, s, 4);
        uint32_t bs = nitro_cur_u32(&c);
        if (!nitro_cur_ok(&c)) return st;
        if (memcmp(s, stamps[i], 4)) {
            nitro_cur_fail(&c, at, "expected block %s", stamps[i]);
            return st;
        }
        nitro_cur_range(&c, at + 4, at, 0, bs, "block end");
        if (nitro_cur_ok(&c) && bs < 8) nitro_cur_fail(&c, at + 4, "block size %u < 8", bs);
        if (!nitro_cur_ok(&c)) return st;
        blk[i] = at;
        blk_size[i] = bs;
        at += bs;
    }
    c.what = "NARC BTAF";
    c.pos = blk[0] + 8;
    unsigned count = nitro_cur_u16(&c);
    (void)nitro_cur_u16(&c);
    nitro_cursor fat = nitro_cur_sub(&c, blk[0], blk_size[0], "NARC BTAF");
    fat.pos = blk[0] + 12;
    if (!nitro_cur_need(&fat, 8ull * count)) return st;
    out->files = nitro_calloc(&c, count, sizeof *out->files);
    if (!out->files) return st;
    out->num_files = count;
    size_t img = blk[2] + 8, img_len = blk_size[2] - 8;
    for (unsigned i = 0; i < count; i++) {
        size_t e = fat.pos;
        uint32_t start = nitro_cur_u32(&fat), end = nitro_cur_u32(&fat);
        if (end < start || end > img_len) {
            nitro_cur_fail(&fat, e, "file %u range 0x%X..0x%X outside the 0x%zX-byte image", i,
                           start, end, img_len);
            break;
        }
        out->files[i].offset = (uint32_t)(img + start);
        out->files[i].size = end - start;
    }
    if (st.ok) {
        nitro_cursor fnt = nitro_cur_sub(&c, blk[1] + 8, blk_size[1] - 8, "NARC BTNF");
        read_names(&fnt, out, blk[1] + 8, blk[1] + blk_size[1]);
    }
    if (!st.ok) nitro_narc_free(out);
    return st;
}

void nitro_narc_free(nitro_narc *n)
{
    for (unsigned i = 0; n->files && i < n->num_files; i++) free(n->files[i].name);
    free(n->files);
    memset(n, 0, sizeof *n);
}

int nitro_narc_find(const nitro_narc *n, const char *name)
{
    for (unsigned i = 0; i < n->num_files; i++) {
        const char *p = n->files[i].name;
        if (!p) continue;
        const char *base = strrchr(p, '/');
        if (!strcmp(p, name) || (base && !strcmp(base + 1, name))) return (int)i;
    }
    return -1;
}
