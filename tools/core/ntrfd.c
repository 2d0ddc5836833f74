/*
 * ntrfd.c - NTRFD frame dump reader and writer, and the PNG `ndSf` container (see ntrfd.h).
 *
 * Format notes. Field order and sizes: Jaklyy/ndsframereplay "format implementation.txt" and
 * source/main.h (CUR_FD_REV 0). What the fields hold: melonDS's frame-dump writer
 * (src/FrameDump.cpp, framedump branch): the viewport and colours in command-parameter form,
 * the fog offset as the raw register, the 32 fog density entries, the light vectors as
 * LIGHT_VECTOR parameters of the already transformed direction, final texture coordinates.
 * Banks are saved when enabled with MST 3: A and B test 0x83 (their MST field has 2 bits),
 * C..G test (cnt & 0x87) == 0x83 (FrameDump.cpp and ndsframereplay main.c agree).
 * Differences between the writer and the text, all accepted here: DISP_1DOT_DEPTH writes are
 * command 0xFF (text: 0x72); DISP3DCNT can carry status bit 13; the ndSf chunk CRC is zero.
 * Verified: the parser reads every dump in golden/ntrfd (melonDS framedump writer output).
 */
#include "gx/gx.h"
#include "tools/core/ntrfd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- bounds-checked little-endian cursor ---- */

typedef struct cursor {
    const uint8_t *p;
    size_t size, pos;
    dsgx_ntrfd_error *e;
    bool bad;
} cursor;

static bool need(cursor *c, size_t n, const char *what)
{
    if (c->bad) return false;
    if (n <= c->size - c->pos) return true;
    c->bad = true;
    c->e->offset = c->pos;
    snprintf(c->e->reason, sizeof c->e->reason, "truncated: %s needs %zu bytes, %zu left", what, n,
             c->size - c->pos);
    return false;
}

static uint8_t rd8(cursor *c, const char *what)
{
    if (!need(c, 1, what)) return 0;
    return c->p[c->pos++];
}

static uint16_t rd16(cursor *c, const char *what)
{
    if (!need(c, 2, what)) return 0;
    uint16_t v = (uint16_t)(c->p[c->pos] | c->p[c->pos + 1] << 8);
    c->pos += 2;
    return v;
}

static uint32_t rd32(cursor *c, const char *what)
{
    if (!need(c, 4, what)) return 0;
    const uint8_t *b = c->p + c->pos;
    c->pos += 4;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void rd32n(cursor *c, uint32_t *out, size_t n, const char *what)
{
    if (!need(c, n * 4, what)) return;
    for (size_t i = 0; i < n; i++) out[i] = rd32(c, what);
}

static int fail_at(dsgx_ntrfd_error *e, size_t off, const char *reason)
{
    e->offset = off;
    snprintf(e->reason, sizeof e->reason, "%s", reason);
    return -1;
}

/* ---- tables ---- */

uint32_t dsgx_ntrfd_bank_size(unsigned bank)
{
    static const uint32_t size[NTRFD_NBANKS] = {0x20000, 0x20000, 0x20000, 0x20000,
                                                0x10000, 0x4000,  0x4000};
    return bank < NTRFD_NBANKS ? size[bank] : 0;
}

bool dsgx_ntrfd_bank_saved(unsigned bank, uint8_t cnt)
{
    /* A/B: 2-bit MST, so bit 2 is ignored; C..G: 3-bit MST (FrameDump.cpp, main.c) */
    uint8_t mask = bank < 2 ? 0x83 : 0x87;
    return bank < NTRFD_NBANKS && (cnt & mask) == 0x83;
}

int dsgx_ntrfd_cmd_params(uint8_t cmd)
{
    /* the dump's 1-dot-depth register ids, then the geometry engine's command table (GBATEK
     * "DS 3D Geometry Commands" parameter counts) */
    if (cmd == NTRFD_CMD_1DOT_DEPTH_ALT || cmd == NTRFD_CMD_1DOT_DEPTH) return 1;
    return gx_opcode_name(cmd) ? (int)gx_opcode_params(cmd) : -1;
}

void dsgx_ntrfd_init_reset(dsgx_ntrfd *fd)
{
    /* The state melonDS's writer records for the first frame after reset (read from the
     * a_flat_triangle dump in golden/ntrfd): identity matrices, zero stacks, the reset
     * viewport 0xBF00BF00, light vectors and colours zero with their light index in bits 30-31. */
    memset(fd, 0, sizeof *fd);
    for (unsigned i = 0; i < 4; i++) {
        fd->proj_mtx[i * 5] = fd->pos_mtx[i * 5] = fd->vec_mtx[i * 5] = fd->tex_mtx[i * 5] = 0x1000;
        fd->light_vec[i] = fd->light_color[i] = (uint32_t)i << 30;
    }
    fd->viewport = 0xBF00BF00u;
}

void dsgx_ntrfd_free(dsgx_ntrfd *fd)
{
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) free(fd->vram[b]);
    free(fd->cmds);
    free(fd->params);
    memset(fd, 0, sizeof *fd);
}

/* ---- reader ---- */

static void read_state(cursor *c, dsgx_ntrfd *fd)
{
    fd->disp3dcnt = rd16(c, "DISP3DCNT");
    for (unsigned i = 0; i < 8; i++) fd->edge_color[i] = rd16(c, "edge colours");
    fd->alpha_ref = rd8(c, "alpha test reference");
    fd->clear_color = rd32(c, "clear colour");
    fd->clear_depth = rd32(c, "clear depth");
    fd->fog_color = rd32(c, "fog colour");
    fd->fog_offset = rd16(c, "fog offset");
    for (unsigned i = 0; i < 32; i++) fd->fog_table[i] = rd8(c, "fog table");
    for (unsigned i = 0; i < 32; i++) fd->toon_table[i] = rd16(c, "toon table");

    fd->zdot_depth = rd16(c, "1-dot depth");
    fd->poly_attr = rd32(c, "polygon attributes");
    fd->poly_attr_unset = rd32(c, "polygon attributes");
    fd->vtx_color = rd32(c, "vertex colour");
    fd->viewport = rd32(c, "viewport");
    rd32n(c, fd->proj_stack, 16, "projection stack");
    for (unsigned j = 0; j < 32; j++) rd32n(c, fd->pos_stack[j], 16, "position stack");
    for (unsigned j = 0; j < 32; j++) rd32n(c, fd->vec_stack[j], 16, "vector stack");
    rd32n(c, fd->tex_stack, 16, "texture stack");
    rd32n(c, fd->proj_mtx, 16, "projection matrix");
    rd32n(c, fd->pos_mtx, 16, "position matrix");
    rd32n(c, fd->vec_mtx, 16, "vector matrix");
    rd32n(c, fd->tex_mtx, 16, "texture matrix");
    fd->mtx_mode = rd32(c, "matrix mode");
    fd->polygon = rd32(c, "polygon type");
    fd->vtx_xy = rd32(c, "vertex xy");
    fd->vtx_z = rd16(c, "vertex z");
    fd->texcoord = rd32(c, "texture coordinates");
    fd->teximage_param = rd32(c, "texture parameters");
    fd->pltt_base = rd32(c, "texture palette");
    fd->dif_amb = rd32(c, "diffuse/ambient");
    fd->spe_emi = rd32(c, "specular/emission");
    rd32n(c, fd->shininess, 32, "shininess table");
    rd32n(c, fd->light_vec, 4, "light vectors");
    rd32n(c, fd->light_color, 4, "light colours");
    fd->swap_param = rd32(c, "swap buffers parameter");
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) fd->vramcnt[b] = rd8(c, "VRAMCNT");
}

static int read_stream(cursor *c, dsgx_ntrfd *fd)
{
    size_t at = c->pos;
    fd->ncmds = rd32(c, "command count");
    fd->nparams = rd32(c, "parameter count");
    if (c->bad) return -1;
    /* bounded by the bytes actually present (overflow-safe: compare against what is left) */
    size_t left = c->size - c->pos;
    if (fd->ncmds > left) return fail_at(c->e, at, "command count exceeds the file");
    if (fd->nparams > (left - fd->ncmds) / 4) {
        char msg[96];
        snprintf(msg, sizeof msg, "%u commands and %u parameters exceed the file", fd->ncmds,
                 fd->nparams);
        return fail_at(c->e, at, msg);
    }
    fd->cmds = malloc(fd->ncmds ? fd->ncmds : 1);
    fd->params = malloc(fd->nparams ? (size_t)fd->nparams * 4 : 4);
    if (!fd->cmds || !fd->params) return fail_at(c->e, at, "out of memory");
    uint64_t want = 0;
    for (uint32_t i = 0; i < fd->ncmds; i++) {
        size_t off = c->pos;
        uint8_t cmd = rd8(c, "command");
        int np = dsgx_ntrfd_cmd_params(cmd);
        if (np < 0) {
            char msg[64];
            snprintf(msg, sizeof msg, "unknown command id 0x%02X", cmd);
            return fail_at(c->e, off, msg);
        }
        fd->cmds[i] = cmd;
        want += (uint64_t)np;
    }
    if (want != fd->nparams) {
        char msg[96];
        snprintf(msg, sizeof msg, "commands take %llu parameters, the header says %u",
                 (unsigned long long)want, fd->nparams);
        return fail_at(c->e, at + 4, msg);
    }
    rd32n(c, fd->params, fd->nparams, "parameters");
    if (c->bad) return -1;
    if (c->pos != c->size) {
        char msg[64];
        snprintf(msg, sizeof msg, "%zu unexpected bytes after the parameters", c->size - c->pos);
        return fail_at(c->e, c->pos, msg);
    }
    return 0;
}

int dsgx_ntrfd_parse(dsgx_ntrfd *fd, const uint8_t *data, size_t size, dsgx_ntrfd_error *e)
{
    memset(fd, 0, sizeof *fd);
    cursor c = {data, size, 0, e, false};
    if (size < 5 || memcmp(data, "NTRFD", 5)) return fail_at(e, 0, "not an NTRFD dump (magic)");
    c.pos = 5;
    fd->version = rd16(&c, "version");
    fd->compression = rd8(&c, "compression type");
    if (c.bad) return -1;
    if (fd->version != NTRFD_VERSION) {
        char msg[96];
        snprintf(msg, sizeof msg, "format version %u is not supported (only version 0)",
                 fd->version);
        return fail_at(e, 5, msg);
    }
    if (fd->compression != 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "compression type %u is not supported (only 0)", fd->compression);
        return fail_at(e, 7, msg);
    }
    read_state(&c, fd);
    if (c.bad) return -1;
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) {
        if (!dsgx_ntrfd_bank_saved(b, fd->vramcnt[b])) continue;
        uint32_t n = dsgx_ntrfd_bank_size(b);
        char what[32];
        snprintf(what, sizeof what, "VRAM bank %c", 'A' + b);
        if (!need(&c, n, what)) goto bad;
        fd->vram[b] = malloc(n);
        if (!fd->vram[b]) {
            fail_at(e, c.pos, "out of memory");
            goto bad;
        }
        memcpy(fd->vram[b], data + c.pos, n);
        c.pos += n;
    }
    if (read_stream(&c, fd)) goto bad;
    return 0;
bad:
    dsgx_ntrfd_free(fd);
    return -1;
}

/* ---- PNG container ---- */

static uint32_t be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

int dsgx_ntrfd_png_chunk(const uint8_t *data, size_t size, size_t *off, size_t *len,
                         dsgx_ntrfd_error *e)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (size < 8 || memcmp(data, sig, 8)) return fail_at(e, 0, "not a PNG file");
    size_t pos = 8;
    while (pos < size) {
        if (size - pos < 12) return fail_at(e, pos, "truncated PNG chunk");
        uint32_t n = be32(data + pos);
        if (n > 0x7FFFFFFFu) return fail_at(e, pos, "PNG chunk length out of range");
        if ((size_t)n > size - pos - 12) return fail_at(e, pos, "PNG chunk runs past the end");
        if (!memcmp(data + pos + 4, "ndSf", 4)) {
            *off = pos + 8;
            *len = n;
            return 0;
        }
        if (!memcmp(data + pos + 4, "IEND", 4)) break;
        pos += 12 + (size_t)n;
    }
    return fail_at(e, pos, "PNG has no ndSf chunk (no frame dump inside)");
}

int dsgx_ntrfd_load_buffer(dsgx_ntrfd *fd, const char *name, const uint8_t *data, size_t size,
                           char *err, size_t errlen)
{
    dsgx_ntrfd_error e = {0};
    size_t base = 0, len = size;
    int r = 0;
    if (size >= 4 && !memcmp(data, "\x89PNG", 4))
        r = dsgx_ntrfd_png_chunk(data, size, &base, &len, &e);
    if (!r) {
        r = dsgx_ntrfd_parse(fd, data + base, len, &e);
        e.offset += base; /* offsets are reported in the file */
    }
    if (r) snprintf(err, errlen, "%s: offset 0x%zX: %s", name, e.offset, e.reason);
    return r;
}

int dsgx_ntrfd_load(dsgx_ntrfd *fd, const char *path, char *err, size_t errlen)
{
    uint8_t *buf;
    size_t n;
    memset(fd, 0, sizeof *fd);
    if (dsgx_read_file(path, &buf, &n, err, errlen)) return -1;
    int r = dsgx_ntrfd_load_buffer(fd, path, buf, n, err, errlen);
    free(buf);
    return r;
}

/* ---- writer ---- */

typedef struct outbuf {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} outbuf;

static void put(outbuf *o, const void *src, size_t n)
{
    if (o->oom) return;
    if (o->n + n > o->cap) {
        size_t nc = o->cap ? o->cap : 8192;
        while (nc < o->n + n) nc *= 2;
        uint8_t *q = realloc(o->p, nc);
        if (!q) {
            o->oom = true;
            return;
        }
        o->p = q;
        o->cap = nc;
    }
    memcpy(o->p + o->n, src, n);
    o->n += n;
}

static void put8(outbuf *o, uint8_t v)
{
    put(o, &v, 1);
}
static void put16(outbuf *o, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(o, b, 2);
}
static void put32(outbuf *o, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(o, b, 4);
}
static void put32n(outbuf *o, const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) put32(o, v[i]);
}

int dsgx_ntrfd_serialize(const dsgx_ntrfd *fd, uint8_t **out, size_t *len)
{
    outbuf o = {0};
    put(&o, "NTRFD", 5);
    put16(&o, NTRFD_VERSION);
    put8(&o, 0);
    put16(&o, fd->disp3dcnt);
    for (unsigned i = 0; i < 8; i++) put16(&o, fd->edge_color[i]);
    put8(&o, fd->alpha_ref);
    put32(&o, fd->clear_color);
    put32(&o, fd->clear_depth);
    put32(&o, fd->fog_color);
    put16(&o, fd->fog_offset);
    put(&o, fd->fog_table, 32);
    for (unsigned i = 0; i < 32; i++) put16(&o, fd->toon_table[i]);
    put16(&o, fd->zdot_depth);
    put32(&o, fd->poly_attr);
    put32(&o, fd->poly_attr_unset);
    put32(&o, fd->vtx_color);
    put32(&o, fd->viewport);
    put32n(&o, fd->proj_stack, 16);
    for (unsigned j = 0; j < 32; j++) put32n(&o, fd->pos_stack[j], 16);
    for (unsigned j = 0; j < 32; j++) put32n(&o, fd->vec_stack[j], 16);
    put32n(&o, fd->tex_stack, 16);
    put32n(&o, fd->proj_mtx, 16);
    put32n(&o, fd->pos_mtx, 16);
    put32n(&o, fd->vec_mtx, 16);
    put32n(&o, fd->tex_mtx, 16);
    put32(&o, fd->mtx_mode);
    put32(&o, fd->polygon);
    put32(&o, fd->vtx_xy);
    put16(&o, fd->vtx_z);
    put32(&o, fd->texcoord);
    put32(&o, fd->teximage_param);
    put32(&o, fd->pltt_base);
    put32(&o, fd->dif_amb);
    put32(&o, fd->spe_emi);
    put32n(&o, fd->shininess, 32);
    put32n(&o, fd->light_vec, 4);
    put32n(&o, fd->light_color, 4);
    put32(&o, fd->swap_param);
    put(&o, fd->vramcnt, NTRFD_NBANKS);
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) {
        if (!dsgx_ntrfd_bank_saved(b, fd->vramcnt[b])) continue;
        uint32_t n = dsgx_ntrfd_bank_size(b);
        if (fd->vram[b])
            put(&o, fd->vram[b], n);
        else
            for (uint32_t k = 0; k < n; k += 4) put32(&o, 0);
    }
    put32(&o, fd->ncmds);
    put32(&o, fd->nparams);
    put(&o, fd->cmds, fd->ncmds);
    put32n(&o, fd->params, fd->nparams);
    if (o.oom) {
        free(o.p);
        return -1;
    }
    *out = o.p;
    *len = o.n;
    return 0;
}

static int write_bytes(const char *path, const uint8_t *b, size_t n, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot create", path);
        return -1;
    }
    bool ok = fwrite(b, 1, n, f) == n;
    ok = !fclose(f) && ok;
    if (!ok) snprintf(err, errlen, "%s: write error", path);
    return ok ? 0 : -1;
}

int dsgx_ntrfd_write(const dsgx_ntrfd *fd, const char *path, char *err, size_t errlen)
{
    uint8_t *b;
    size_t n;
    if (dsgx_ntrfd_serialize(fd, &b, &n)) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int r = write_bytes(path, b, n, err, errlen);
    free(b);
    return r;
}

static uint32_t crc32_png(const uint8_t *b, size_t n, uint32_t crc)
{
    /* PNG specification, annex D: CRC-32, polynomial 0xEDB88320, bitwise form */
    for (size_t i = 0; i < n; i++) {
        crc ^= b[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc;
}

int dsgx_ntrfd_write_png(const dsgx_ntrfd *fd, const dsgx_frame *frame, const char *path, char *err,
                         size_t errlen)
{
    /* write the image, read it back, and insert the ndSf chunk after IHDR (offset 33) */
    if (dsgx_frame_write_png(frame, path, err, errlen)) return -1;
    uint8_t *png, *dump;
    size_t npng, ndump;
    if (dsgx_read_file(path, &png, &npng, err, errlen)) return -1;
    if (npng < 33 || memcmp(png + 12, "IHDR", 4) || dsgx_ntrfd_serialize(fd, &dump, &ndump) ||
        ndump > 0x7FFFFFFFu) {
        free(png);
        snprintf(err, errlen, "%s: cannot embed the dump", path);
        return -1;
    }
    outbuf o = {0};
    put(&o, png, 33);
    uint8_t head[8] = {(uint8_t)(ndump >> 24),
                       (uint8_t)(ndump >> 16),
                       (uint8_t)(ndump >> 8),
                       (uint8_t)ndump,
                       'n',
                       'd',
                       'S',
                       'f'};
    put(&o, head, 8);
    put(&o, dump, ndump);
    uint32_t crc = ~crc32_png(dump, ndump, crc32_png(head + 4, 4, 0xFFFFFFFFu));
    uint8_t tail[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8),
                       (uint8_t)crc};
    put(&o, tail, 4);
    put(&o, png + 33, npng - 33);
    free(png);
    free(dump);
    if (o.oom) {
        free(o.p);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int r = write_bytes(path, o.p, o.n, err, errlen);
    free(o.p);
    return r;
}
