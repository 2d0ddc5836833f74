/*
 * cmd_golden.c - `dsgx golden check|update`: golden-image regression tests over scene
 * directories (manifest rules: tools/core/golden.h and golden/README.md).
 *
 * check renders every scene of every directory in parallel (one worker thread per core, each
 * scene on its own dsgx_system: the engines hold no global state), prints one line per scene in
 * manifest order, writes <out>/<scene>.frameNNN.{actual,diff}.png for each failing frame and
 * ends with "N passed, M failed". update re-baselines scenes and prints what changed.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/golden.h"

#define MAX_DIRS 16

typedef struct options {
    const char *dirs[MAX_DIRS];
    unsigned ndirs;
    const char **scenes;
    unsigned nscenes;
    const char *outdir;
    const char *note;
    bool melonds_gaps;
    unsigned jobs;
    unsigned threads; /**< threads per scene (dsgx_system_set_threads: pipelined from 2) */
} options;

/* ---- text accumulated by a worker, printed in order ---- */

typedef struct strbuf {
    char *s;
    size_t n, cap;
} strbuf;

static void sb_printf(strbuf *b, const char *fmt, ...)
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

/* ---- check ---- */

enum verdict { V_PASS, V_FAIL, V_XFAIL, V_XPASS };

typedef struct job {
    golden_manifest *m;
    size_t *rows; /* manifest rows of this scene */
    size_t nrows;
    enum verdict verdict;
    strbuf out;
    bool done;
} job;

typedef struct checker {
    const options *opt;
    job *jobs;
    size_t njobs, next, finished, printed;
    bool tty;
    pthread_mutex_t lock;
} checker;

static void write_failure_pngs(const options *opt, const char *scene, long frame,
                               const dsgx_frame *actual, const dsgx_frame *expected, strbuf *out)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s.frame%03ld.actual.png", opt->outdir, scene, frame);
    if (dsgx_frame_write_png(actual, path, err, sizeof err)) sb_printf(out, "      %s\n", err);
    if (!expected) return;
    dsgx_frame *diff = malloc(sizeof *diff);
    if (!diff) return;
    dsgx_frame_diff_image(actual, expected, diff);
    snprintf(path, sizeof path, "%s/%s.frame%03ld.diff.png", opt->outdir, scene, frame);
    if (dsgx_frame_write_png(diff, path, err, sizeof err)) sb_printf(out, "      %s\n", err);
    free(diff);
}

/** Evaluate one manifest row against the rendered frames; appends detail lines. */
static enum verdict check_row(const options *opt, const golden_manifest *m, size_t r,
                              const golden_frame *frames, long nframes, strbuf *out)
{
    const char *scene = golden_scene_name(m, r);
    const char *want = golden_expected_hash(m, r, opt->melonds_gaps);
    const char *xfail = golden_cell(m, r, m->c_xfail);
    long f = golden_row_frame(m, r);
    bool file_row = *golden_cell(m, r, m->c_file) != 0;
    long idx = file_row && nframes == 1 ? 0 : f; /* a dump renders its one frame */
    if (f < 0) {
        sb_printf(out, "    frame '%s': not a frame number\n", golden_cell(m, r, m->c_frame));
        return V_FAIL;
    }
    if (idx >= nframes) {
        sb_printf(out, "    frame %03ld: the scene emitted %ld frame(s)\n", f, nframes);
        return V_FAIL;
    }
    if (!*want) {
        sb_printf(out, "    frame %03ld: no expected hash (dsgx golden update)\n", f);
        return V_FAIL;
    }
    const golden_frame *g = &frames[idx];
    char why[256] = "";
    bool match = !strcmp(g->hash, want);
    if (!match) snprintf(why, sizeof why, "expected %s, got %s", want, g->hash);
    const char *rd = golden_cell(m, r, m->c_rdlines), *uf = golden_cell(m, r, m->c_underflow);
    if (*rd && strtoul(rd, NULL, 10) != g->rdlines) {
        size_t k = strlen(why);
        snprintf(why + k, sizeof why - k, "%srdlines %u, expected %s", k ? "; " : "", g->rdlines,
                 rd);
        match = false;
    }
    if (*uf && (strtoul(uf, NULL, 10) != 0) != g->underflow) {
        size_t k = strlen(why);
        snprintf(why + k, sizeof why - k, "%sunderflow %u, expected %s", k ? "; " : "",
                 g->underflow ? 1u : 0u, uf);
        match = false;
    }
    if (*xfail) {
        if (match) {
            sb_printf(out,
                      "    frame %03ld: XPASS: matches but is marked xfail (%s): remove "
                      "the mark\n",
                      f, xfail);
            return V_XPASS;
        }
        sb_printf(out, "    frame %03ld: xfail (%s): %s\n", f, xfail, why);
        return V_XFAIL;
    }
    if (match) return V_PASS;
    /* what differs, against the expected PNG when there is one */
    char png[4096], err[512];
    snprintf(png, sizeof png, "%s/%s.frame%03ld.png", m->dir, scene, f);
    dsgx_frame *expected = malloc(sizeof *expected);
    bool have = expected && !dsgx_frame_read_png(expected, png, err, sizeof err);
    if (have) {
        dsgx_frame_diff d;
        dsgx_frame_compare(&g->frame, expected, &d);
        sb_printf(out, "    frame %03ld: %s; %u pixels differ in (%d,%d)-(%d,%d)\n", f, why,
                  d.differing, d.x0, d.y0, d.x1, d.y1);
    } else {
        sb_printf(out, "    frame %03ld: %s (no expected PNG)\n", f, why);
    }
    write_failure_pngs(opt, scene, f, &g->frame, have ? expected : NULL, out);
    free(expected);
    return V_FAIL;
}

static void run_job(const options *opt, job *j)
{
    const golden_manifest *m = j->m;
    const char *scene = golden_scene_name(m, j->rows[0]);
    char path[4096], err[512];
    golden_scene_path(m, j->rows[0], path, sizeof path);
    golden_frame *frames = NULL;
    long n = golden_render(path, opt->melonds_gaps, opt->threads, &frames, err, sizeof err);
    strbuf detail = {0};
    unsigned fails = 0, xfails = 0, xpasses = 0;
    if (n < 0) {
        sb_printf(&detail, "    %s\n", err);
        fails++;
    } else {
        for (size_t k = 0; k < j->nrows; k++) {
            enum verdict v = check_row(opt, m, j->rows[k], frames, n, &detail);
            fails += v == V_FAIL;
            xfails += v == V_XFAIL;
            xpasses += v == V_XPASS;
        }
    }
    free(frames);
    j->verdict = xpasses ? V_XPASS : fails ? V_FAIL : xfails ? V_XFAIL : V_PASS;
    static const char *const tag[] = {"pass ", "FAIL ", "xfail", "XPASS"};
    sb_printf(&j->out, "%s %s (%zu frame%s)\n", tag[j->verdict], scene, j->nrows,
              j->nrows == 1 ? "" : "s");
    if (detail.s && j->verdict != V_PASS) sb_printf(&j->out, "%s", detail.s);
    free(detail.s);
}

static void progress(checker *c)
{
    size_t total = c->njobs, done = c->finished;
    if (c->tty) {
        unsigned w = 40, fill = total ? (unsigned)(done * w / total) : w;
        char bar[41];
        for (unsigned i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
        bar[w] = 0;
        fprintf(stderr, "\r[%s] %zu/%zu", bar, done, total);
        if (done == total) fprintf(stderr, "\r\033[K");
    } else if (total && (done * 10 / total != (done - 1) * 10 / total || done == total)) {
        fprintf(stderr, "golden: %zu/%zu scenes rendered\n", done, total);
    }
    fflush(stderr);
}

static void *worker(void *arg)
{
    checker *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        size_t i = c->next < c->njobs ? c->next++ : c->njobs;
        pthread_mutex_unlock(&c->lock);
        if (i >= c->njobs) return NULL;
        run_job(c->opt, &c->jobs[i]);
        pthread_mutex_lock(&c->lock);
        c->jobs[i].done = true;
        c->finished++;
        if (c->tty) fprintf(stderr, "\r\033[K");
        while (c->printed < c->njobs && c->jobs[c->printed].done) {
            job *p = &c->jobs[c->printed++];
            if (p->out.s) fputs(p->out.s, stdout);
        }
        fflush(stdout);
        progress(c);
        pthread_mutex_unlock(&c->lock);
    }
}

static bool scene_selected(const options *opt, const char *scene)
{
    if (!opt->nscenes) return true;
    for (unsigned i = 0; i < opt->nscenes; i++)
        if (!strcmp(opt->scenes[i], scene)) return true;
    return false;
}

/* Group the rows of a manifest by scene (in first-appearance order) into jobs. */
static int add_jobs(const options *opt, golden_manifest *m, job **jobs, size_t *njobs)
{
    for (size_t r = 0; r < m->nrows; r++) {
        const char *scene = golden_scene_name(m, r);
        if (!scene_selected(opt, scene)) continue;
        job *j = NULL;
        for (size_t k = 0; k < *njobs; k++)
            if ((*jobs)[k].m == m && !strcmp(golden_scene_name(m, (*jobs)[k].rows[0]), scene))
                j = &(*jobs)[k];
        if (!j) {
            job *q = realloc(*jobs, (*njobs + 1) * sizeof *q);
            if (!q) return -1;
            *jobs = q;
            j = &q[(*njobs)++];
            memset(j, 0, sizeof *j);
            j->m = m;
        }
        size_t *rows = realloc(j->rows, (j->nrows + 1) * sizeof *rows);
        if (!rows) return -1;
        j->rows = rows;
        j->rows[j->nrows++] = r;
    }
    return 0;
}

static int golden_check(const options *opt)
{
    golden_manifest ms[MAX_DIRS];
    checker c = {.opt = opt, .tty = isatty(2)};
    int status = 0;
    unsigned loaded = 0;
    for (unsigned d = 0; d < opt->ndirs; d++, loaded++) {
        char err[512];
        if (golden_manifest_load(&ms[d], opt->dirs[d], err, sizeof err)) {
            fprintf(stderr, "dsgx golden: %s\n", err);
            status = 1;
            goto done;
        }
        if (add_jobs(opt, &ms[d], &c.jobs, &c.njobs)) {
            fprintf(stderr, "dsgx golden: out of memory\n");
            status = 1;
            loaded++;
            goto done;
        }
    }
    if (cli_mkdirs(opt->outdir)) {
        fprintf(stderr, "dsgx golden: cannot create %s\n", opt->outdir);
        status = 1;
        goto done;
    }
    pthread_mutex_init(&c.lock, NULL);
    unsigned nt = opt->jobs < c.njobs ? opt->jobs : (unsigned)c.njobs;
    pthread_t th[256];
    unsigned started = 0;
    for (unsigned i = 0; i < nt && i < 256; i++)
        if (!pthread_create(&th[i], NULL, worker, &c)) started++;
    if (!started) worker(&c);
    for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
    pthread_mutex_destroy(&c.lock);
    unsigned n[4] = {0};
    for (size_t i = 0; i < c.njobs; i++) n[c.jobs[i].verdict]++;
    if (n[V_XFAIL] || n[V_XPASS])
        printf("%u xfail (known deviations), %u XPASS (marked xfail but matching: counted as "
               "failed)\n",
               n[V_XFAIL], n[V_XPASS]);
    printf("%u passed, %u failed\n", n[V_PASS], n[V_FAIL] + n[V_XPASS]);
    if (n[V_FAIL] + n[V_XPASS]) {
        printf("actual and diff images of failing frames: %s/\n", opt->outdir);
        status = 1;
    }
    if (!c.njobs) {
        fprintf(stderr, "dsgx golden: no scene selected\n");
        status = 1;
    }
done:
    for (size_t i = 0; i < c.njobs; i++) {
        free(c.jobs[i].rows);
        free(c.jobs[i].out.s);
    }
    free(c.jobs);
    for (unsigned d = 0; d < loaded && d < opt->ndirs; d++) golden_manifest_free(&ms[d]);
    return status;
}

/* ---- update ---- */

static bool has_row(const golden_manifest *m, const char *scene)
{
    for (size_t r = 0; r < m->nrows; r++)
        if (!strcmp(golden_scene_name(m, r), scene)) return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Our directories: scenes with a .trace but no row yet become new rows (one per frame). */
static int add_new_scenes(const options *opt, golden_manifest *m)
{
    DIR *d = opendir(m->dir);
    if (!d) return 0;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".trace")) continue;
        char *name = malloc(len - 5);
        char **q = realloc(names, (n + 1) * sizeof *q);
        if (!name || !q) {
            free(name);
            if (q) names = q;
            break;
        }
        names = q;
        memcpy(name, e->d_name, len - 6);
        name[len - 6] = 0;
        names[n++] = name;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    int r = 0;
    for (size_t i = 0; i < n; i++) {
        if (!r && scene_selected(opt, names[i]) && !has_row(m, names[i])) {
            long row = golden_add_row(m);
            if (row < 0 || golden_set_cell(m, (size_t)row, m->c_name, names[i]) ||
                golden_set_cell(m, (size_t)row, m->c_frame, "000"))
                r = -1;
        }
        free(names[i]);
    }
    free(names);
    return r;
}

static unsigned png_diff(const char *png, const dsgx_frame *f)
{
    dsgx_frame *old = malloc(sizeof *old);
    char err[512];
    unsigned n = ~0u;
    if (old && !dsgx_frame_read_png(old, png, err, sizeof err)) {
        dsgx_frame_diff d;
        dsgx_frame_compare(f, old, &d);
        n = d.differing;
    }
    free(old);
    return n;
}

/* Re-baseline one scene: rows for every frame it emits (added in our directories). */
static int update_scene(const options *opt, golden_manifest *m, const char *scene, bool *need_note)
{
    size_t r0 = 0;
    while (r0 < m->nrows && strcmp(golden_scene_name(m, r0), scene)) r0++;
    char path[4096], err[512];
    golden_scene_path(m, r0, path, sizeof path);
    golden_frame *frames = NULL;
    long n = golden_render(path, false, opt->threads, &frames, err, sizeof err);
    if (n < 0) {
        printf("%s: %s\n", scene, err);
        return -1;
    }
    bool file_row = *golden_cell(m, r0, m->c_file) != 0;
    for (long f = 0; f < n; f++) {
        long row = -1;
        for (size_t r = 0; r < m->nrows; r++)
            if (!strcmp(golden_scene_name(m, r), scene) &&
                (golden_row_frame(m, r) == f || (file_row && n == 1)))
                row = (long)r;
        if (row < 0 && m->reference) continue; /* never add rows to a reference */
        if (row < 0) {
            char fr[24];
            snprintf(fr, sizeof fr, "%03ld", f);
            row = golden_add_row(m);
            if (row < 0 || golden_set_cell(m, (size_t)row, m->c_name, scene) ||
                golden_set_cell(m, (size_t)row, m->c_frame, fr))
                goto oom;
        }
        size_t r = (size_t)row;
        const golden_frame *g = &frames[f];
        char old[17];
        snprintf(old, sizeof old, "%s", golden_expected_hash(m, r, false));
        long fn = golden_row_frame(m, r);
        char png[4096];
        snprintf(png, sizeof png, "%s/%s.frame%03ld.png", m->dir, scene, fn);
        unsigned px = png_diff(png, &g->frame);
        char pxs[48];
        if (px == ~0u)
            snprintf(pxs, sizeof pxs, "no expected PNG to compare");
        else
            snprintf(pxs, sizeof pxs, "%u pixels", px);
        if (m->reference) {
            bool same = !strcmp(g->hash, golden_cell(m, r, m->c_xxh3));
            if (same && *golden_cell(m, r, m->c_dsgx_xxh3)) {
                if (golden_set_cell(m, r, m->c_dsgx_xxh3, "") ||
                    golden_set_cell(m, r, m->c_dsgx_note, ""))
                    goto oom;
                printf("%s frame %03ld: %s -> %s (matches the reference again)\n", scene, fn, old,
                       g->hash);
            } else if (!same && strcmp(old, g->hash)) {
                if (!opt->note) {
                    printf("%s frame %03ld: %s -> %s differs from the reference (%s): "
                           "needs --note\n",
                           scene, fn, golden_cell(m, r, m->c_xxh3), g->hash, pxs);
                    *need_note = true;
                    continue;
                }
                int cd = golden_column(m, "dsgx_xxh3"), cn = golden_column(m, "dsgx_note");
                if (cd < 0 || cn < 0 || golden_set_cell(m, r, cd, g->hash) ||
                    golden_set_cell(m, r, cn, opt->note))
                    goto oom;
                printf("%s frame %03ld: dsgx_xxh3 %s -> %s (%s differ from the "
                       "reference)\n",
                       scene, fn, *old ? old : "-", g->hash, pxs);
            } else {
                printf("%s frame %03ld: unchanged %s\n", scene, fn, g->hash);
            }
            continue;
        }
        char num[16];
        if (golden_set_cell(m, r, m->c_xxh3, g->hash)) goto oom;
        snprintf(num, sizeof num, "%u", g->rdlines);
        if (m->c_rdlines >= 0 && golden_set_cell(m, r, m->c_rdlines, num)) goto oom;
        if (m->c_underflow >= 0 && golden_set_cell(m, r, m->c_underflow, g->underflow ? "1" : "0"))
            goto oom;
        if (!strcmp(old, g->hash)) {
            printf("%s frame %03ld: unchanged %s\n", scene, fn, g->hash);
        } else if (px == ~0u) {
            printf("%s frame %03ld: %s -> %s (new)\n", scene, fn, *old ? old : "-", g->hash);
        } else {
            printf("%s frame %03ld: %s -> %s (%s differ)\n", scene, fn, *old ? old : "-", g->hash,
                   px == ~0u ? "new frame: no pixels" : pxs);
        }
        if (dsgx_frame_write_png(&g->frame, png, err, sizeof err)) {
            printf("%s\n", err);
            free(frames);
            return -1;
        }
    }
    for (size_t r = 0; r < m->nrows; r++)
        if (!strcmp(golden_scene_name(m, r), scene) && golden_row_frame(m, r) >= n && !file_row)
            printf("%s frame %s: the scene emits %ld frame(s) only (row kept)\n", scene,
                   golden_cell(m, r, m->c_frame), n);
    free(frames);
    return 0;
oom:
    free(frames);
    printf("%s: out of memory\n", scene);
    return -1;
}

static int update_dir(const options *opt, const char *dir)
{
    char err[512], path[4096];
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    snprintf(err, sizeof err, "%s/REFERENCE-README.md", dir);
    FILE *probe = fopen(path, "r");
    if (probe) {
        fclose(probe);
    } else if (!(probe = fopen(err, "r"))) {
        FILE *f = fopen(path, "w"); /* a new directory of ours: start its manifest */
        if (f) {
            fputs("name\tframe\txxh3\tfeatures\tdescription\n", f);
            fclose(f);
        }
    } else {
        fclose(probe);
    }
    golden_manifest m;
    if (golden_manifest_load(&m, dir, err, sizeof err)) {
        fprintf(stderr, "dsgx golden: %s\n", err);
        return 1;
    }
    int status = 0;
    bool need_note = false;
    if (!m.reference && m.c_name >= 0 && add_new_scenes(opt, &m)) status = 1;
    /* every distinct selected scene, in manifest order */
    for (size_t r = 0; r < m.nrows && !status; r++) {
        const char *scene = golden_scene_name(&m, r);
        if (!scene_selected(opt, scene)) continue;
        bool seen = false;
        for (size_t k = 0; k < r && !seen; k++) seen = !strcmp(golden_scene_name(&m, k), scene);
        if (seen) continue;
        char *name = strdup(scene); /* the rows may be reallocated */
        if (!name || update_scene(opt, &m, name, &need_note)) status = 1;
        free(name);
    }
    if (need_note) {
        fprintf(stderr,
                "dsgx golden: %s is a reference directory: its xxh3 is never rewritten; "
                "record our deviation with --note \"why\" (writes dsgx_xxh3, dsgx_note)\n",
                dir);
        status = 1;
    }
    if (!status && golden_manifest_save(&m, err, sizeof err)) {
        fprintf(stderr, "dsgx golden: %s\n", err);
        status = 1;
    }
    golden_manifest_free(&m);
    return status;
}

static int golden_update(const options *opt)
{
    int status = 0;
    for (unsigned d = 0; d < opt->ndirs; d++) status |= update_dir(opt, opt->dirs[d]);
    return status;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: dsgx golden check [DIR...] [--melonds-gaps] [-o OUTDIR] [-j N]\n"
               "                         [--threads N] [SCENE...]\n"
               "       dsgx golden update [DIR...] [SCENE...] [--note TEXT]\n"
               "  DIR             scene directory with manifest.tsv (default: golden/scenes)\n"
               "  SCENE           only these scenes (default: all)\n"
               "  --melonds-gaps  render with melonDS's edge-gap rule and compare the reference\n"
               "                  column xxh3 only (ignores dsgx_xxh3)\n"
               "  -o OUTDIR       where actual/diff PNGs of failures go (default: golden-out)\n"
               "  -j N            worker threads (default: all cores)\n"
               "  --threads N     also render each scene's frames on N threads (default 1),\n"
               "                  pipelined from 2 (a frame drawn while the next one's geometry\n"
               "                  runs): the frames must not change\n"
               "  --note TEXT     update of a reference directory: why dsgx differs (dsgx_note)\n"
               "check prints one line per scene and ends with 'N passed, M failed'; it exits 1 on\n"
               "any failure (an xfail scene that matches is a failure). update rewrites our\n"
               "manifests and expected PNGs; in a reference directory (REFERENCE-README.md) it\n"
               "records dsgx_xxh3 + dsgx_note and never touches xxh3 or the reference PNGs.\n");
}

int cmd_golden(int argc, char **argv)
{
    options opt = {.outdir = "golden-out", .threads = 1};
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
    if (!opt.scenes) return 1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--melonds-gaps"))
            opt.melonds_gaps = true;
        else if (!strcmp(a, "-o") && i + 1 < argc)
            opt.outdir = argv[++i];
        else if (!strcmp(a, "--note") && i + 1 < argc)
            opt.note = argv[++i];
        else if (!strcmp(a, "--threads") && i + 1 < argc) {
            if (cli_parse_threads("golden", argv[++i], &opt.threads)) {
                free(opt.scenes);
                return 2;
            }
        } else if (!strcmp(a, "-j") && i + 1 < argc) {
            long j = strtol(argv[++i], NULL, 10);
            opt.jobs = j > 0 && j <= 256 ? (unsigned)j : opt.jobs;
        } else if (!strcmp(a, "--help")) {
            usage(stdout);
            free(opt.scenes);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "dsgx golden: unknown option %s\n", a);
            free(opt.scenes);
            return 2;
        } else {
            DIR *d = opendir(a);
            if (d) {
                closedir(d);
                if (opt.ndirs < MAX_DIRS) opt.dirs[opt.ndirs++] = a;
            } else {
                opt.scenes[opt.nscenes++] = a;
            }
        }
    }
    if (!opt.ndirs) opt.dirs[opt.ndirs++] = "golden/scenes";
    if (opt.jobs > 256) opt.jobs = 256;
    int r = update ? golden_update(&opt) : golden_check(&opt);
    free(opt.scenes);
    return r;
}
