/*
 * cmd_golden.c - `dsgx golden check|update [DIR...]`: golden-image regression tests over every
 * manifest below the directories given (manifest rules: tools/core/golden.h and
 * golden/README.md). This file: the options, the manifest directories and the drawing of one
 * scene of any kind; check is in golden_check.c, update in golden_update.c.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/render_spec.h"
#include "tools/golden_cli.h"
#include "tools/render_frame.h"

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[1024];
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    size_t len = (size_t)k < sizeof tmp ? (size_t)k : sizeof tmp - 1;
    if (b->n + len + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 256;
        while (nc < b->n + len + 1) nc *= 2;
        char *q = realloc(b->s, nc);
        if (!q) return;
        b->s = q;
        b->cap = nc;
    }
    memcpy(b->s + b->n, tmp, len + 1);
    b->n += len;
}

bool golden_scene_selected(const golden_options *opt, const char *scene)
{
    if (!opt->nscenes) return true;
    for (unsigned i = 0; i < opt->nscenes; i++)
        if (!strcmp(opt->scenes[i], scene)) return true;
    return false;
}

/* ---- drawing a scene ---- */

void scene_frames_free(scene_frames *sf)
{
    free(sf->f);
    free(sf->num);
    sf->f = NULL;
    sf->num = NULL;
    sf->n = 0;
}

static int draw_spec(pthread_mutex_t *lock, const char *path, const long *want, size_t nwant,
                     scene_frames *out, char *err, size_t errlen)
{
    render_spec spec = {0};
    if (render_spec_load(&spec, path, err, errlen)) {
        render_spec_free(&spec);
        return -1;
    }
    out->f = calloc(nwant ? nwant : 1, sizeof *out->f);
    out->num = calloc(nwant ? nwant : 1, sizeof *out->num);
    int rc = out->f && out->num ? 0 : -1;
    if (rc) snprintf(err, errlen, "%s: out of memory", path);
    for (size_t i = 0; i < nwant && !rc; i++) {
        bool seen = false; /* several rows may name one frame */
        for (long k = 0; k < out->n && !seen; k++) seen = out->num[k] == want[i];
        if (seen || want[i] < 0) continue;
        int argc;
        char **argv = render_spec_argv(&spec, want[i], &argc);
        if (!argv) {
            snprintf(err, errlen, "%s: out of memory", path);
            rc = -1;
            break;
        }
        golden_frame *g = &out->f[out->n];
        if (lock) pthread_mutex_lock(lock);
        int st = render_to_frame(argc, argv, &g->frame);
        if (lock) pthread_mutex_unlock(lock);
        render_spec_argv_free(argv);
        if (st) {
            snprintf(err, errlen,
                     "%s: `dsgx render` failed on frame %ld (exit status %d, its message is on "
                     "stderr)",
                     path, want[i], st);
            rc = -1;
            break;
        }
        dsgx_frame_hash_hex(&g->frame, g->hash);
        g->rdlines = 0;
        g->underflow = false;
        out->num[out->n++] = want[i];
    }
    render_spec_free(&spec);
    if (rc) scene_frames_free(out);
    return rc;
}

int golden_draw_scene(const golden_options *opt, pthread_mutex_t *render_lock, const char *path,
                      const long *want, size_t nwant, scene_frames *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (golden_is_render_spec(path))
        return draw_spec(render_lock, path, want, nwant, out, err, errlen);
    long n = golden_render(path, opt->melonds_gaps, opt->threads, &out->f, err, errlen);
    if (n < 0) return -1;
    out->num = malloc((size_t)(n ? n : 1) * sizeof *out->num);
    if (!out->num) {
        scene_frames_free(out);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (long i = 0; i < n; i++) out->num[i] = i;
    out->n = n;
    return 0;
}

/* ---- the manifest directories ---- */

/* Label of a directory found below the argument `arg`: its path relative to arg ("ref/"), or
 * arg's last component when it is arg itself. Points into dir or arg. */
static const char *label_of(const char *dir, const char *arg)
{
    size_t n = strlen(arg);
    while (n > 1 && arg[n - 1] == '/') n--;
    if (!strncmp(dir, arg, n) && dir[n] == '/') return dir + n + 1;
    const char *slash = strrchr(dir, '/');
    return slash && slash[1] ? slash + 1 : dir;
}

/* Every manifest directory below the arguments, without repeats. For update, an argument
 * without any (a new directory of ours) is kept: update starts its manifest. */
static int find_dirs(golden_options *opt, const char **args, unsigned nargs, bool update)
{
    char **arg_of = NULL; /* the argument each directory was found under */
    for (unsigned a = 0; a < nargs; a++) {
        char err[512];
        size_t before = opt->ndirs;
        long n = golden_find_manifests(args[a], &opt->dirs, &opt->ndirs, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "dsgx golden: %s\n", err);
            free(arg_of);
            return -1;
        }
        if (n == 0 && update) {
            char **q = realloc(opt->dirs, (opt->ndirs + 1) * sizeof *q);
            if (!q || !(q[opt->ndirs] = strdup(args[a]))) {
                if (q) opt->dirs = q;
                free(arg_of);
                return -1;
            }
            opt->dirs = q;
            opt->ndirs++;
        } else if (n == 0) {
            fprintf(stderr, "dsgx golden: no manifest.tsv in %s or below it\n", args[a]);
            free(arg_of);
            return -1;
        }
        char **q = realloc(arg_of, opt->ndirs * sizeof *q);
        if (!q) {
            free(arg_of);
            return -1;
        }
        arg_of = q;
        for (size_t i = before; i < opt->ndirs; i++) arg_of[i] = (char *)args[a];
    }
    /* drop repeats (a directory given twice, or inside another one given) */
    size_t w = 0;
    for (size_t i = 0; i < opt->ndirs; i++) {
        char *ri = realpath(opt->dirs[i], NULL);
        bool dup = false;
        for (size_t k = 0; k < w && !dup && ri; k++) {
            char *rk = realpath(opt->dirs[k], NULL);
            dup = rk && !strcmp(ri, rk);
            free(rk);
        }
        free(ri);
        if (dup) {
            free(opt->dirs[i]);
            continue;
        }
        arg_of[w] = arg_of[i];
        opt->dirs[w++] = opt->dirs[i];
    }
    opt->ndirs = w;
    opt->label = calloc(opt->ndirs ? opt->ndirs : 1, sizeof *opt->label);
    if (!opt->label) {
        free(arg_of);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < opt->ndirs; i++) {
        const char *l = opt->ndirs > 1 ? label_of(opt->dirs[i], arg_of[i]) : "";
        size_t n = strlen(l);
        char *d = malloc(n + 2);
        if (d) snprintf(d, n + 2, "%s%s", l, n ? "/" : "");
        opt->label[i] = d;
        if (!d) rc = -1;
    }
    free(arg_of);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dsgx golden check [DIR...] [SCENE...] [--melonds-gaps] [-o OUTDIR] [-j N]\n"
            "                         [--threads N] [--shard I/N] [--report DIR] [--junit FILE]\n"
            "       dsgx golden update [DIR...] [SCENE...] [--note TEXT]\n"
            "  DIR             every manifest.tsv in DIR and below it, in sorted order\n"
            "                  (default: golden/scenes); `dsgx golden check golden` checks all\n"
            "  SCENE           only these scenes (default: all)\n"
            "  --melonds-gaps  render with melonDS's edge-gap rule (and without the edge-marking\n"
            "                  overlapping-edge rule melonDS lacks) and compare the reference\n"
            "                  column xxh3 only (ignores dsgx_xxh3)\n"
            "  -o OUTDIR       where actual/diff PNGs of failures go (default: golden-out;\n"
            "                  with several directories, one subdirectory each)\n"
            "  -j N            worker threads (default: all cores)\n"
            "  --threads N     also render each scene's frames on N threads (default 1),\n"
            "                  pipelined from 2 (a frame drawn while the next one's geometry\n"
            "                  runs): the frames must not change (traces and dumps)\n"
            "  --shard I/N     check only shard I of N (1 <= I <= N): the sorted scene list\n"
            "                  dealt round robin; the N shards cover every scene once\n"
            "  --report DIR    write DIR/index.html: counts, timing, and expected, actual and\n"
            "                  diff images of every failing frame (static, no script)\n"
            "  --junit FILE    write JUnit XML, one test case per frame\n"
            "  --note TEXT     update of a reference directory: why dsgx differs (dsgx_note)\n"
            "A scene is a trace (NAME.trace), a frame dump (NAME.ntrfd) or a render spec\n"
            "(NAME.render: a model drawn by `dsgx render`, golden/README.md).\n"
            "check prints one line per scene and ends with 'N passed, M failed'; it exits 1 on\n"
            "any failure (an xfail scene that matches is a failure). On a terminal a progress\n"
            "line shows scenes done, rate and time left. update rewrites our manifests and\n"
            "expected PNGs; in a reference directory (REFERENCE-README.md) it records\n"
            "dsgx_xxh3 + dsgx_note and never touches xxh3 or the reference PNGs.\n");
}

static void options_free(golden_options *opt)
{
    for (size_t i = 0; i < opt->ndirs; i++) free(opt->dirs[i]);
    free(opt->dirs);
    for (size_t i = 0; opt->label && i < opt->ndirs; i++) free(opt->label[i]);
    free(opt->label);
    free(opt->scenes);
}

int cmd_golden(int argc, char **argv)
{
    golden_options opt = {.outdir = "golden-out", .threads = 1};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    opt.jobs = cores > 0 ? (unsigned)cores : 1;
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    bool update = !strcmp(argv[1], "update");
    if (!update && strcmp(argv[1], "check")) {
        fprintf(stderr, "dsgx golden: unknown subcommand '%s' (check or update)\n", argv[1]);
        return 2;
    }
    opt.scenes = calloc((size_t)argc, sizeof *opt.scenes);
    const char **args = calloc((size_t)argc, sizeof *args);
    unsigned nargs = 0;
    int rc = 2;
    if (!opt.scenes || !args) goto out;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--melonds-gaps")) {
            opt.melonds_gaps = true;
        } else if (!strcmp(a, "-o") && more) {
            opt.outdir = argv[++i];
        } else if (!strcmp(a, "--note") && more) {
            opt.note = argv[++i];
        } else if (!strcmp(a, "--report") && more && !update) {
            opt.report = argv[++i];
        } else if (!strcmp(a, "--junit") && more && !update) {
            opt.junit = argv[++i];
        } else if (!strcmp(a, "--shard") && more && !update) {
            if (golden_parse_shard(argv[++i], &opt.shard, &opt.nshards)) {
                fprintf(stderr, "dsgx golden: bad --shard '%s' (want I/N, 1 <= I <= N)\n", argv[i]);
                goto out;
            }
        } else if (!strcmp(a, "--threads") && more) {
            if (cli_parse_threads("golden", argv[++i], &opt.threads)) goto out;
        } else if (!strcmp(a, "-j") && more) {
            long j = strtol(argv[++i], NULL, 10);
            opt.jobs = j > 0 && j <= 256 ? (unsigned)j : opt.jobs;
        } else if (!strcmp(a, "--help")) {
            usage(stdout);
            rc = 0;
            goto out;
        } else if (a[0] == '-') {
            fprintf(stderr, "dsgx golden: unknown option %s%s\n", a,
                    update ? " (update takes DIR, SCENE and --note)" : "");
            goto out;
        } else {
            DIR *d = opendir(a);
            if (d) {
                closedir(d);
                args[nargs++] = a;
            } else {
                opt.scenes[opt.nscenes++] = a;
            }
        }
    }
    if (!nargs) args[nargs++] = "golden/scenes";
    rc = 1;
    if (find_dirs(&opt, args, nargs, update)) goto out;
    if (opt.jobs > 256) opt.jobs = 256;
    rc = update ? golden_update(&opt) : golden_check(&opt);
out:
    free(args);
    options_free(&opt);
    return rc;
}
