/*
 * golden.c - golden manifests (reading, editing, writing) and scene rendering (see golden.h).
 *
 * No hardware here: this is the test-harness side. A scene's hash is the frame hash of
 * specs/frame.md (XXH3-64 of the canonical little-endian pixel bytes), which depends on no
 * compiler, host byte order or floating point, so one manifest holds for every build.
 */
#define _POSIX_C_SOURCE 200809L
#include "tools/core/golden.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/core/input.h"
#include "tools/core/system.h"

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

void golden_manifest_free(golden_manifest *m)
{
    if (m->cells)
        for (size_t i = 0; i < (m->nrows + 1) * m->ncols; i++) free(m->cells[i]);
    free(m->cells);
    free(m->dir);
    memset(m, 0, sizeof *m);
}

static int find_col(const golden_manifest *m, const char *name)
{
    for (size_t c = 0; c < m->ncols; c++)
        if (!strcmp(m->cells[c], name)) return (int)c;
    return -1;
}

static void index_columns(golden_manifest *m)
{
    m->c_name = find_col(m, "name");
    if (m->c_name < 0) m->c_name = find_col(m, "trace");
    if (m->c_name < 0) m->c_name = find_col(m, "scene");
    m->c_file = find_col(m, "file");
    m->c_frame = find_col(m, "frame");
    m->c_xxh3 = find_col(m, "xxh3");
    if (m->c_xxh3 < 0) m->c_xxh3 = find_col(m, "expected_xxh3");
    m->c_dsgx_xxh3 = find_col(m, "dsgx_xxh3");
    m->c_dsgx_note = find_col(m, "dsgx_note");
    m->c_rdlines = find_col(m, "rdlines_count");
    m->c_underflow = find_col(m, "underflow_bit");
    m->c_xfail = find_col(m, "xfail");
}

/* Split the text into lines and cells. Rows shorter than the header get empty cells. */
static int parse_rows(golden_manifest *m, const char *path, const char *text, size_t len, char *err,
                      size_t errlen)
{
    size_t pos = 0, line = 0, cap = 0, rows = 0;
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n') end++;
        size_t stop = end;
        if (stop > pos && text[stop - 1] == '\r') stop--;
        line++;
        const char *s = text + pos;
        size_t n = stop - pos;
        pos = end + 1;
        if (n == 0) continue;
        size_t fields = 1;
        for (size_t i = 0; i < n; i++) fields += s[i] == '\t';
        if (!m->ncols) m->ncols = fields;
        if (fields > m->ncols) {
            snprintf(err, errlen, "%s:%zu: %zu fields, the header has %zu", path, line, fields,
                     m->ncols);
            return -1;
        }
        size_t row = rows;
        if ((row + 1) * m->ncols > cap) {
            size_t nc = cap ? cap * 2 : 64 * m->ncols;
            while (nc < (row + 1) * m->ncols) nc *= 2;
            char **q = realloc(m->cells, nc * sizeof *q);
            if (!q) goto oom;
            memset(q + cap, 0, (nc - cap) * sizeof *q); /* golden_manifest_free() frees NULLs */
            m->cells = q;
            cap = nc;
        }
        size_t b = 0, f = 0;
        for (size_t i = 0; i <= n; i++) {
            if (i < n && s[i] != '\t') continue;
            m->cells[row * m->ncols + f++] = dup_range(s + b, i - b);
            b = i + 1;
        }
        while (f < m->ncols) m->cells[row * m->ncols + f++] = dup_range("", 0);
        for (size_t k = 0; k < m->ncols; k++)
            if (!m->cells[row * m->ncols + k]) goto oom;
        rows++;
        m->nrows = rows - 1;
    }
    return 0;
oom:
    /* let golden_manifest_free() see every row with cells, the partial one included */
    m->nrows = (rows + 1) * m->ncols <= cap ? rows : rows - 1;
    snprintf(err, errlen, "%s: out of memory", path);
    return -1;
}

int golden_manifest_parse(golden_manifest *m, const char *name, const char *text, size_t n,
                          char *err, size_t errlen)
{
    if (parse_rows(m, name, text, n, err, errlen)) return -1;
    if (!m->ncols) {
        snprintf(err, errlen, "%s: empty manifest (a header row is required)", name);
        return -1;
    }
    index_columns(m);
    if ((m->c_name < 0 && m->c_file < 0) || m->c_frame < 0 || m->c_xxh3 < 0) {
        snprintf(err, errlen,
                 "%s:1: header needs a scene column (name/trace/scene/file), frame and xxh3", name);
        return -1;
    }
    return 0;
}

int golden_manifest_load(golden_manifest *m, const char *dir, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->dir = dup_range(dir, strlen(dir));
    char path[4096];
    snprintf(path, sizeof path, "%s/REFERENCE-README.md", dir);
    m->reference = file_exists(path);
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    uint8_t *buf;
    size_t n;
    if (!m->dir || dsgx_read_file(path, &buf, &n, err, errlen)) goto bad;
    int r = golden_manifest_parse(m, path, (const char *)buf, n, err, errlen);
    free(buf);
    if (r) goto bad;
    return 0;
bad:
    golden_manifest_free(m);
    return -1;
}

int golden_manifest_save(const golden_manifest *m, char *err, size_t errlen)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/manifest.tsv", m->dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot create", tmp);
        return -1;
    }
    for (size_t r = 0; r <= m->nrows; r++)
        for (size_t c = 0; c < m->ncols; c++)
            fprintf(f, "%s%c", m->cells[r * m->ncols + c], c + 1 < m->ncols ? '\t' : '\n');
    bool ok = !ferror(f);
    ok = !fclose(f) && ok;
    if (!ok || rename(tmp, path)) {
        snprintf(err, errlen, "%s: write error", path);
        remove(tmp);
        return -1;
    }
    return 0;
}

const char *golden_cell(const golden_manifest *m, size_t r, int c)
{
    if (c < 0 || (size_t)c >= m->ncols || r >= m->nrows) return "";
    return m->cells[(r + 1) * m->ncols + (size_t)c];
}

int golden_set_cell(golden_manifest *m, size_t r, int c, const char *v)
{
    if (c < 0 || (size_t)c >= m->ncols || r >= m->nrows) return -1;
    char *d = dup_range(v, strlen(v));
    if (!d) return -1;
    char **cell = &m->cells[(r + 1) * m->ncols + (size_t)c];
    free(*cell);
    *cell = d;
    return 0;
}

int golden_column(golden_manifest *m, const char *name)
{
    int c = find_col(m, name);
    if (c >= 0) return c;
    size_t nc = m->ncols + 1;
    char **q = calloc((m->nrows + 1) * nc, sizeof *q);
    if (!q) return -1;
    for (size_t r = 0; r <= m->nrows; r++) {
        memcpy(q + r * nc, m->cells + r * m->ncols, m->ncols * sizeof *q);
        q[r * nc + m->ncols] = dup_range(r ? "" : name, r ? 0 : strlen(name));
        if (!q[r * nc + m->ncols]) {
            for (size_t k = 0; k < r; k++) free(q[k * nc + m->ncols]);
            free(q);
            return -1;
        }
    }
    free(m->cells);
    m->cells = q;
    m->ncols = nc;
    index_columns(m);
    return (int)(nc - 1);
}

long golden_add_row(golden_manifest *m)
{
    char **q = realloc(m->cells, (m->nrows + 2) * m->ncols * sizeof *q);
    if (!q) return -1;
    m->cells = q;
    for (size_t c = 0; c < m->ncols; c++) {
        q[(m->nrows + 1) * m->ncols + c] = dup_range("", 0);
        if (!q[(m->nrows + 1) * m->ncols + c]) {
            for (size_t k = 0; k < c; k++) free(q[(m->nrows + 1) * m->ncols + k]);
            return -1;
        }
    }
    return (long)m->nrows++;
}

const char *golden_scene_name(const golden_manifest *m, size_t r)
{
    const char *f = golden_cell(m, r, m->c_file);
    return *f ? f : golden_cell(m, r, m->c_name);
}

void golden_scene_path(const golden_manifest *m, size_t r, char *out, size_t outlen)
{
    const char *f = golden_cell(m, r, m->c_file);
    if (*f) {
        snprintf(out, outlen, "%s/%s", m->dir, f);
        return;
    }
    const char *name = golden_cell(m, r, m->c_name);
    snprintf(out, outlen, "%s/%s.render", m->dir, name);
    if (file_exists(out)) return;
    snprintf(out, outlen, "%s/%s.ntrfd", m->dir, name);
    if (file_exists(out)) return;
    snprintf(out, outlen, "%s/%s.trace", m->dir, name);
}

const char *golden_expected_hash(const golden_manifest *m, size_t r, bool melonds_gaps)
{
    const char *d = golden_cell(m, r, m->c_dsgx_xxh3);
    if (!melonds_gaps && *d) return d;
    return golden_cell(m, r, m->c_xxh3);
}

long golden_row_frame(const golden_manifest *m, size_t r)
{
    const char *s = golden_cell(m, r, m->c_frame);
    if (!*s) return -1;
    long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 100000) return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

/* ---- finding manifests, shards ---- */

static bool is_dir(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int find_below(const char *dir, unsigned depth, char ***dirs, size_t *ndirs, char *err,
                      size_t errlen)
{
    char path[4096];
    int k = snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    if (k < 0 || (size_t)k >= sizeof path) {
        snprintf(err, errlen, "%s: path too long", dir);
        return -1;
    }
    if (file_exists(path)) {
        char **q = realloc(*dirs, (*ndirs + 1) * sizeof *q);
        char *d = dup_range(dir, strlen(dir));
        if (!q || !d) {
            free(d);
            if (q) *dirs = q;
            snprintf(err, errlen, "%s: out of memory", dir);
            return -1;
        }
        *dirs = q;
        q[(*ndirs)++] = d;
    }
    if (depth >= GOLDEN_MAX_DEPTH) return 0;
    DIR *dh = opendir(dir);
    if (!dh) return 0;
    char **subs = NULL;
    size_t n = 0;
    int r = 0;
    struct dirent *e;
    while ((e = readdir(dh)) && !r) {
        if (e->d_name[0] == '.') continue;
        k = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (k < 0 || (size_t)k >= sizeof path || !is_dir(path)) continue;
        char **q = realloc(subs, (n + 1) * sizeof *q);
        char *d = dup_range(path, (size_t)k);
        if (!q || !d) {
            free(d);
            if (q) subs = q;
            snprintf(err, errlen, "%s: out of memory", dir);
            r = -1;
            break;
        }
        subs = q;
        subs[n++] = d;
    }
    closedir(dh);
    if (n) qsort(subs, n, sizeof *subs, cmp_names);
    for (size_t i = 0; i < n; i++) {
        if (!r) r = find_below(subs[i], depth + 1, dirs, ndirs, err, errlen);
        free(subs[i]);
    }
    free(subs);
    return r;
}

long golden_find_manifests(const char *root, char ***dirs, size_t *ndirs, char *err, size_t errlen)
{
    size_t before = *ndirs;
    size_t len = strlen(root);
    while (len > 1 && root[len - 1] == '/') len--; /* "golden/" lists as "golden/ref" */
    char *r = dup_range(root, len);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", root);
        return -1;
    }
    int st = find_below(r, 0, dirs, ndirs, err, errlen);
    free(r);
    return st ? -1 : (long)(*ndirs - before);
}

int golden_parse_shard(const char *s, unsigned *index, unsigned *count)
{
    unsigned long v[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const char *b = s;
        while (*s >= '0' && *s <= '9' && s - b < 6) v[k] = v[k] * 10 + (unsigned long)(*s++ - '0');
        if (s == b || *s != (k ? '\0' : '/')) return -1;
        if (!k) s++;
    }
    if (v[0] < 1 || v[0] > v[1] || v[1] > 10000) return -1;
    *index = (unsigned)v[0];
    *count = (unsigned)v[1];
    return 0;
}

unsigned golden_shard_of(size_t sorted_pos, unsigned count)
{
    return count ? (unsigned)(sorted_pos % count) + 1 : 1;
}

bool golden_is_render_spec(const char *path)
{
    size_t n = strlen(path);
    return n > 7 && !strcmp(path + n - 7, ".render");
}

/* ---- rendering ---- */

typedef struct render_ctx {
    golden_frame *frames;
    size_t n, cap;
    bool oom;
} render_ctx;

static void on_frame(void *user, unsigned index, dsgx_system *s)
{
    (void)index;
    render_ctx *c = user;
    if (c->oom) return;
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 4;
        golden_frame *q = realloc(c->frames, nc * sizeof *q);
        if (!q) {
            c->oom = true;
            return;
        }
        c->frames = q;
        c->cap = nc;
    }
    golden_frame *g = &c->frames[c->n++];
    g->frame = s->frame;
    dsgx_frame_hash_hex(&s->frame, g->hash);
    g->rdlines = s->result.rdlines;
    g->underflow = s->result.underflow;
}

long golden_render(const char *path, bool melonds_gaps, unsigned threads, golden_frame **out,
                   char *err, size_t errlen)
{
    dsgx_trace t = {0};
    *out = NULL;
    if (dsgx_input_load(path, &t, err, errlen)) {
        dsgx_trace_free(&t);
        return -1;
    }
    dsgx_system *s = dsgx_system_create();
    if (!s) {
        dsgx_trace_free(&t);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    raster_set_melonds_gaps(s->raster, melonds_gaps);
    dsgx_system_set_threads(s, threads);
    render_ctx c = {0};
    dsgx_system_replay(s, &t, on_frame, &c);
    dsgx_system_destroy(s);
    dsgx_trace_free(&t);
    if (c.oom) {
        free(c.frames);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    *out = c.frames;
    return (long)c.n;
}
