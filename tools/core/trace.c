/*
 * trace.c - the GX trace reader and writer (specs/trace.md).
 */
#include "tools/core/trace.h"
#include "tools/core/line_error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

int dsgx_trace_add(dsgx_trace *t, uint8_t op, uint32_t addr, uint32_t value)
{
    if (grow((void **)&t->items, &t->cap, t->n + 1, sizeof *t->items)) return -1;
    dsgx_trace_item *it = &t->items[t->n++];
    memset(it, 0, sizeof *it);
    it->op = op;
    it->addr = addr;
    it->value = value;
    if (op == TRACE_FRAME) t->nframes++;
    return 0;
}

int dsgx_trace_add_data(dsgx_trace *t, uint32_t addr, const uint8_t *bytes, size_t len)
{
    if (len % 4 || len > 0x40000000u) return -1;
    if (grow((void **)&t->data, &t->data_cap, t->data_len + len, 1)) return -1;
    memcpy(t->data + t->data_len, bytes, len);
    if (dsgx_trace_add(t, TRACE_DATA, addr, 0)) return -1;
    t->items[t->n - 1].data_off = (uint32_t)t->data_len;
    t->items[t->n - 1].data_len = (uint32_t)len;
    t->data_len += len;
    return 0;
}

void dsgx_trace_free(dsgx_trace *t)
{
    free(t->items);
    free(t->data);
    memset(t, 0, sizeof *t);
}

static int hexval(int c)
{
    /* digit value + 1, 0 for a character that is not a hex digit (one load per digit) */
    static const uint8_t val1[256] = {
        ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
        ['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
        ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
        ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
    };
    return (int)val1[c & 0xFF] - 1;
}

/* Parse a hexadecimal token of at most 8 digits into *v. */
static bool parse_hex32(const char *s, size_t n, uint32_t *v)
{
    if (n == 0) return false;
    while (n > 1 && *s == '0') s++, n--; /* leading zeros do not count towards the width */
    if (n > 8) return false;
    uint32_t x = 0;
    for (size_t i = 0; i < n; i++) {
        int h = hexval((unsigned char)s[i]);
        if (h < 0) return false;
        x = (x << 4) | (uint32_t)h;
    }
    *v = x;
    return true;
}

typedef struct tok {
    const char *s;
    size_t n;
} tok;

int dsgx_line_error(char *err, size_t errlen, const char *name, unsigned line, const char *fmt, ...)
{
    if (err && errlen) {
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(err, errlen, "%s:%u: %s", name, line, msg);
    }
    return -1;
}

/* Token separators: space, tab, CR (one table load per character of a 500 KB trace). */
static bool is_blank(char c)
{
    static const bool blank[256] = {[' '] = true, ['\t'] = true, ['\r'] = true};
    return blank[(unsigned char)c];
}

static bool tok_is(tok t, const char *s)
{
    return t.n == strlen(s) && !memcmp(t.s, s, t.n);
}

int dsgx_trace_parse(dsgx_trace *t, const char *name, const char *text, size_t len, char *err,
                     size_t errlen)
{
    unsigned line = 0;
    bool have_version = false;
    size_t pos = 0;
    while (pos < len) {
        /* (memchr: the line end and the comment are found a vector at a time) */
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        const char *hash = memchr(text + pos, '#', end - pos); /* comment */
        size_t stop = hash ? (size_t)(hash - text) : end;
        line++;
        tok tk[4];
        unsigned ntok = 0;
        size_t i = pos;
        bool too_many = false;
        while (i < stop) {
            while (i < stop && is_blank(text[i])) i++;
            if (i >= stop) break;
            size_t b = i;
            while (i < stop && !is_blank(text[i])) i++;
            if (ntok < 4)
                tk[ntok++] = (tok){text + b, i - b};
            else
                too_many = true;
        }
        pos = end + 1;
        if (ntok == 0) continue;
        if (!have_version) {
            if (!tok_is(tk[0], "dsgx-trace"))
                return dsgx_line_error(err, errlen, name, line,
                                       "missing version line 'dsgx-trace 1'");
            if (ntok != 2 || too_many || !tok_is(tk[1], "1"))
                return dsgx_line_error(err, errlen, name, line, "unknown trace version '%.*s'",
                                       ntok >= 2 ? (int)tk[1].n : 0, ntok >= 2 ? tk[1].s : "");
            have_version = true;
            continue;
        }
        if (tok_is(tk[0], "frame")) {
            if (ntok != 1 || too_many)
                return dsgx_line_error(err, errlen, name, line, "'frame' takes no arguments");
            if (dsgx_trace_add(t, TRACE_FRAME, 0, 0)) goto oom;
            t->items[t->n - 1].line = line;
            continue;
        }
        int width = tok_is(tk[0], "w32")   ? 32
                    : tok_is(tk[0], "w16") ? 16
                    : tok_is(tk[0], "w8")  ? 8
                                           : 0;
        bool is_data = tok_is(tk[0], "data");
        if (!width && !is_data)
            return dsgx_line_error(err, errlen, name, line, "unknown directive '%.*s'",
                                   (int)tk[0].n, tk[0].s);
        if (ntok != 3 || too_many)
            return dsgx_line_error(err, errlen, name, line, "'%.*s' takes an address and a value",
                                   (int)tk[0].n, tk[0].s);
        uint32_t addr;
        if (!parse_hex32(tk[1].s, tk[1].n, &addr))
            return dsgx_line_error(err, errlen, name, line, "malformed address '%.*s'",
                                   (int)tk[1].n, tk[1].s);
        unsigned align = is_data ? 4 : (unsigned)width / 8;
        if (addr % align)
            return dsgx_line_error(err, errlen, name, line, "address %08X is not %u-aligned", addr,
                                   align);
        if (is_data) {
            size_t nd = tk[2].n;
            if (nd % 2)
                return dsgx_line_error(err, errlen, name, line, "odd number of hex digits in data");
            if ((nd / 2) % 4)
                return dsgx_line_error(err, errlen, name, line,
                                       "data byte count %zu is not a multiple of 4", nd / 2);
            if (nd == 0) return dsgx_line_error(err, errlen, name, line, "empty data");
            if (grow((void **)&t->data, &t->data_cap, t->data_len + nd / 2, 1)) goto oom;
            for (size_t k = 0; k < nd / 2; k++) {
                int hi = hexval((unsigned char)tk[2].s[2 * k]);
                int lo = hexval((unsigned char)tk[2].s[2 * k + 1]);
                if (hi < 0 || lo < 0)
                    return dsgx_line_error(err, errlen, name, line, "malformed hex byte in data");
                t->data[t->data_len + k] = (uint8_t)(hi << 4 | lo);
            }
            if (dsgx_trace_add(t, TRACE_DATA, addr, 0)) goto oom;
            dsgx_trace_item *it = &t->items[t->n - 1];
            it->line = line;
            it->data_off = (uint32_t)t->data_len;
            it->data_len = (uint32_t)(nd / 2);
            t->data_len += nd / 2;
            continue;
        }
        uint32_t val;
        if (!parse_hex32(tk[2].s, tk[2].n, &val))
            return dsgx_line_error(err, errlen, name, line, "malformed value '%.*s'", (int)tk[2].n,
                                   tk[2].s);
        if (width < 32 && (val >> width))
            return dsgx_line_error(err, errlen, name, line, "value %X too wide for a %d-bit write",
                                   val, width);
        if (dsgx_trace_add(t,
                           (uint8_t)(width == 32   ? TRACE_W32
                                     : width == 16 ? TRACE_W16
                                                   : TRACE_W8),
                           addr, val))
            goto oom;
        t->items[t->n - 1].line = line;
    }
    if (!have_version)
        return dsgx_line_error(err, errlen, name, line ? line : 1,
                               "missing version line 'dsgx-trace 1'");
    return 0;
oom:
    return dsgx_line_error(err, errlen, name, line, "out of memory");
}

int dsgx_read_file(const char *path, uint8_t **data, size_t *size, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        uint8_t *nb = cap > ((size_t)1 << 30) ? NULL : realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool ioerr = ferror(f);
    fclose(f);
    if (!buf || ioerr) {
        free(buf);
        snprintf(err, errlen, "%s: %s", path, ioerr ? "read error" : "file too large");
        return -1;
    }
    buf[n] = 0;
    *data = buf;
    *size = n;
    return 0;
}

int dsgx_trace_load(dsgx_trace *t, const char *path, char *err, size_t errlen)
{
    uint8_t *buf;
    size_t n;
    if (dsgx_read_file(path, &buf, &n, err, errlen)) return -1;
    int r = dsgx_trace_parse(t, path, (const char *)buf, n, err, errlen);
    free(buf);
    return r;
}

int dsgx_trace_write(const dsgx_trace *t, FILE *out)
{
    fprintf(out, "dsgx-trace 1\n");
    for (size_t i = 0; i < t->n; i++) {
        const dsgx_trace_item *it = &t->items[i];
        switch (it->op) {
        case TRACE_W32: fprintf(out, "w32 %08X %08X\n", it->addr, it->value); break;
        case TRACE_W16: fprintf(out, "w16 %08X %04X\n", it->addr, it->value); break;
        case TRACE_W8: fprintf(out, "w8  %08X %02X\n", it->addr, it->value); break;
        case TRACE_FRAME: fprintf(out, "frame\n"); break;
        case TRACE_VBLANK:
            fprintf(out, "# set-up frame: a VBlank to apply the dump's saved SWAP_BUFFERS "
                         "parameter (ndsframereplay shows it too); the dump's frame is the next\n"
                         "frame\n");
            break;
        case TRACE_DATA:
            for (uint32_t k = 0; k < it->data_len; k += 64) {
                uint32_t m = it->data_len - k < 64 ? it->data_len - k : 64;
                fprintf(out, "data %08X ", it->addr + k);
                for (uint32_t j = 0; j < m; j++)
                    fprintf(out, "%02X", t->data[it->data_off + k + j]);
                fputc('\n', out);
            }
            break;
        }
    }
    return ferror(out) ? -1 : 0;
}
