/*
 * render_spec.c - render spec parser (see render_spec.h; syntax in golden/README.md).
 *
 * One table gives each key its `dsgx render` option, its argument count and kind and whether
 * it may repeat; the parser checks a line against it and appends the option. Adding an option
 * to `dsgx render` means one row here. Numbers are checked here (render's own parsing is
 * lenient); everything else (does the file open, is the light well formed) is left to render,
 * which reports it with its usual messages.
 */
#define _POSIX_C_SOURCE 200809L
#include "tools/core/render_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/core/line_error.h"
#include "tools/core/trace.h"

enum arg_kind {
    A_FLAG,  /* no argument */
    A_PATH,  /* a file name, joined to the spec's directory */
    A_NUM,   /* a decimal number */
    A_POS,   /* a number > 0 */
    A_HEX15, /* a 15-bit colour in hex */
    A_A5,    /* 0..31 */
    A_WORD,  /* passed as it is */
};

typedef struct spec_key {
    const char *key, *option; /* option NULL: the positional argument */
    unsigned nargs;
    enum arg_kind kind;
    unsigned max; /* how many lines may carry the key */
} spec_key;

static const spec_key KEYS[] = {
    {"file", NULL, 1, A_PATH, 1},           {"model", "--model", 1, A_WORD, 1},
    {"tex", "--tex", 1, A_PATH, 6},         {"anim", "--anim", 1, A_PATH, 8},
    {"eye", "--eye", 3, A_NUM, 1},          {"at", "--at", 3, A_NUM, 1},
    {"orbit", "--orbit", 3, A_NUM, 1},      {"fov", "--fov", 1, A_POS, 1},
    {"near", "--near", 1, A_POS, 1},        {"far", "--far", 1, A_POS, 1},
    {"clear", "--clear", 1, A_HEX15, 1},    {"clear-alpha", "--clear-alpha", 1, A_A5, 1},
    {"light", "--light", 1, A_WORD, 4},     {"edge", "--edge", 0, A_FLAG, 1},
    {"fog", "--fog", 0, A_FLAG, 1},         {"aa", "--aa", 0, A_FLAG, 1},
    {"tex-dir", "--tex-dir", 1, A_PATH, 8},
};
#define NKEYS (sizeof KEYS / sizeof KEYS[0])

/* Options of `dsgx render` a spec cannot carry, and why. */
static const struct {
    const char *key, *why;
} REFUSED[] = {
    {"frame", "the manifest's frame column gives the frame"},
    {"frames", "the manifest's frame column gives the frames"},
    {"scale", "golden frames are compared at 256x192"},
    {"all", "a spec draws one model"},
    {"trace", "a spec draws, it does not record"},
    {"sheet", "a spec draws one frame"},
    {"o", "golden writes the frames itself"},
};

typedef struct tok {
    const char *s;
    size_t n;
} tok;

static bool tok_is(tok t, const char *s)
{
    return t.n == strlen(s) && !memcmp(t.s, s, t.n);
}

static bool tok_ends(tok t, const char *s)
{
    size_t n = strlen(s);
    return t.n >= n && !memcmp(t.s + t.n - n, s, n);
}

/* Replace argument i by t as it is (not joined to the spec's directory). */
static int set_word(render_spec *s, int i, tok t)
{
    char *c = malloc(t.n + 1);
    if (!c) return -1;
    memcpy(c, t.s, t.n);
    c[t.n] = 0;
    free(s->argv[i]);
    s->argv[i] = c;
    return 0;
}

static int push(render_spec *s, size_t *cap, const char *a, size_t n, const char *dir)
{
    if ((size_t)s->argc + 2 > *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        char **q = realloc(s->argv, nc * sizeof *q);
        if (!q) return -1;
        s->argv = q;
        *cap = nc;
    }
    size_t dl = dir && *dir && n && a[0] != '/' ? strlen(dir) + 1 : 0;
    char *c = malloc(dl + n + 1);
    if (!c) return -1;
    if (dl) {
        memcpy(c, dir, dl - 1);
        c[dl - 1] = '/';
    }
    memcpy(c + dl, a, n);
    c[dl + n] = 0;
    s->argv[s->argc++] = c;
    s->argv[s->argc] = NULL;
    return 0;
}

/* Check one argument against its kind; @return NULL or the reason. */
static const char *check_arg(enum arg_kind kind, tok t)
{
    char buf[64];
    if (t.n >= sizeof buf) return "too long";
    memcpy(buf, t.s, t.n);
    buf[t.n] = 0;
    char *end;
    if (kind == A_NUM || kind == A_POS) {
        double v = strtod(buf, &end);
        if (end == buf || *end) return "not a number";
        if (!(v > -1e6 && v < 1e6)) return "out of range (|v| < 1000000)";
        if (kind == A_POS && !(v > 0)) return "must be greater than 0";
    } else if (kind == A_HEX15 || kind == A_A5) {
        unsigned long v = strtoul(buf, &end, kind == A_HEX15 ? 16 : 10);
        if (end == buf || *end || buf[0] == '-' || buf[0] == '+') return "not a number";
        if (v > (kind == A_HEX15 ? 0x7FFFul : 31ul))
            return kind == A_HEX15 ? "not a 15-bit colour (0..7FFF)" : "not in 0..31";
    }
    return NULL;
}

int render_spec_parse(render_spec *s, const char *name, const char *dir, const char *text,
                      size_t len, char *err, size_t errlen)
{
    size_t cap = 0, pos = 0;
    unsigned line = 0, keys = 0, used[NKEYS] = {0}, nanim = 0;
    bool have_version = false, t3dm = false;
    /* a T3DM's `anim` names an animation inside the model (its .sdata lies beside it), not a
     * file: those values are passed as they are once the model is known */
    tok anim_tok[8];
    int anim_arg[8];
    if (len > RENDER_SPEC_MAX_BYTES)
        return dsgx_line_error(err, errlen, name, 1, "%zu bytes: a spec is at most %u", len,
                               RENDER_SPEC_MAX_BYTES);
    if (push(s, &cap, "render", 6, NULL)) goto oom;
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n') end++;
        size_t stop = pos;
        while (stop < end && text[stop] != '#') stop++;
        line++;
        tok tk[5];
        unsigned ntok = 0;
        bool too_many = false;
        for (size_t i = pos; i < stop;) {
            while (i < stop && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) i++;
            if (i >= stop) break;
            size_t b = i;
            while (i < stop && text[i] != ' ' && text[i] != '\t' && text[i] != '\r') i++;
            if (ntok < 5)
                tk[ntok++] = (tok){text + b, i - b};
            else
                too_many = true;
        }
        pos = end + 1;
        if (ntok == 0) continue;
        for (unsigned k = 0; k < ntok; k++)
            if (memchr(tk[k].s, 0, tk[k].n))
                return dsgx_line_error(err, errlen, name, line, "NUL byte in the text");
        if (!have_version) {
            if (!tok_is(tk[0], "dsgx-render") || ntok != 2 || !tok_is(tk[1], "1"))
                return dsgx_line_error(err, errlen, name, line,
                                       "missing version line 'dsgx-render 1'");
            have_version = true;
            continue;
        }
        if (++keys > RENDER_SPEC_MAX_KEYS)
            return dsgx_line_error(err, errlen, name, line, "more than %u keys",
                                   RENDER_SPEC_MAX_KEYS);
        if (tok_is(tk[0], "frame-is")) {
            if (ntok != 2 || !(tok_is(tk[1], "anim") || tok_is(tk[1], "model")))
                return dsgx_line_error(err, errlen, name, line,
                                       "'frame-is' takes 'anim' or 'model'");
            s->frame_is = tok_is(tk[1], "model") ? RENDER_SPEC_FRAME_MODEL : RENDER_SPEC_FRAME_ANIM;
            continue;
        }
        for (size_t r = 0; r < sizeof REFUSED / sizeof REFUSED[0]; r++)
            if (tok_is(tk[0], REFUSED[r].key))
                return dsgx_line_error(err, errlen, name, line, "'%s' is not a spec key: %s",
                                       REFUSED[r].key, REFUSED[r].why);
        const spec_key *k = NULL;
        for (size_t i = 0; i < NKEYS && !k; i++)
            if (tok_is(tk[0], KEYS[i].key)) k = &KEYS[i];
        if (!k)
            return dsgx_line_error(err, errlen, name, line, "unknown key '%.*s'",
                                   (int)(tk[0].n > 40 ? 40 : tk[0].n), tk[0].s);
        if (ntok != k->nargs + 1 || too_many)
            return dsgx_line_error(err, errlen, name, line, "'%s' takes %u value%s", k->key,
                                   k->nargs, k->nargs == 1 ? "" : "s");
        if (++used[k - KEYS] > k->max)
            return dsgx_line_error(err, errlen, name, line, "'%s' given more than %u time%s",
                                   k->key, k->max, k->max == 1 ? "" : "s");
        for (unsigned a = 1; a < ntok; a++) {
            const char *why = check_arg(k->kind, tk[a]);
            if (why)
                return dsgx_line_error(err, errlen, name, line, "'%s' value '%.*s': %s", k->key,
                                       (int)(tk[a].n > 40 ? 40 : tk[a].n), tk[a].s, why);
        }
        if (k->option && push(s, &cap, k->option, strlen(k->option), NULL)) goto oom;
        if (!strcmp(k->key, "file")) t3dm = tok_ends(tk[1], ".t3dm");
        if (!strcmp(k->key, "anim")) {
            anim_tok[nanim] = tk[1];
            anim_arg[nanim++] = s->argc;
        }
        for (unsigned a = 1; a < ntok; a++)
            if (push(s, &cap, tk[a].s, tk[a].n, k->kind == A_PATH ? dir : NULL)) goto oom;
    }
    if (!have_version)
        return dsgx_line_error(err, errlen, name, line ? line : 1,
                               "missing version line 'dsgx-render 1'");
    if (!used[0])
        return dsgx_line_error(err, errlen, name, line, "no 'file' (the model file to draw)");
    if (s->frame_is == RENDER_SPEC_FRAME_MODEL && used[1])
        return dsgx_line_error(err, errlen, name, line,
                               "'model' and 'frame-is model' exclude each other");
    for (unsigned i = 0; t3dm && i < nanim; i++)
        if (set_word(s, anim_arg[i], anim_tok[i])) goto oom;
    return 0;
oom:
    return dsgx_line_error(err, errlen, name, line, "out of memory");
}

int render_spec_load(render_spec *s, const char *path, char *err, size_t errlen)
{
    uint8_t *buf;
    size_t n;
    if (dsgx_read_file(path, &buf, &n, err, errlen)) return -1;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        dir[0] = 0;
    int r = render_spec_parse(s, path, dir, (const char *)buf, n, err, errlen);
    free(buf);
    return r;
}

void render_spec_free(render_spec *s)
{
    for (int i = 0; i < s->argc; i++) free(s->argv[i]);
    free(s->argv);
    memset(s, 0, sizeof *s);
}

char **render_spec_argv(const render_spec *s, long frame, int *argc)
{
    char **v = calloc((size_t)s->argc + 3, sizeof *v);
    if (!v) return NULL;
    int n = 0;
    for (int i = 0; i < s->argc; i++)
        if (!(v[n++] = strdup(s->argv[i]))) goto oom;
    if (!(v[n++] = strdup(s->frame_is == RENDER_SPEC_FRAME_MODEL ? "--model" : "--frame")))
        goto oom;
    char num[24];
    snprintf(num, sizeof num, "%ld", frame);
    if (!(v[n++] = strdup(num))) goto oom;
    *argc = n;
    return v;
oom:
    render_spec_argv_free(v);
    return NULL;
}

void render_spec_argv_free(char **argv)
{
    if (!argv) return;
    for (char **p = argv; *p; p++) free(*p);
    free(argv);
}
