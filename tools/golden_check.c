/*
 * golden_check.c - `dsgx golden check`: renders every scene of every manifest directory in
 * parallel (one worker thread per core, each scene on its own engines: they hold no global
 * state; render specs go one at a time through `dsgx render`, whose code keeps static
 * storage), prints one line per scene in manifest order, writes
 * <out>/<scene>.frameNNN.{actual,diff}.png for each failing frame, the report and JUnit files
 * when asked, and ends with "N passed, M failed". With --shard I/N only the scenes of shard I
 * (round robin over the sorted scene list) are checked.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli_util.h"
#include "tools/golden_cli.h"
#include "tools/golden_report.h"
#include "tools/progress.h"

typedef struct job {
    golden_manifest *m;
    const char *label; /* "" or "dir/" */
    size_t *rows;      /* manifest rows of this scene */
    size_t nrows;
    size_t index; /* position in the run: names the report's images */
    golden_scene_result res;
    char *display; /* label + scene name */
    strbuf out;
    bool done;
} job;

typedef struct checker {
    const golden_options *opt;
    job *jobs;
    size_t njobs, next, finished, printed;
    pthread_mutex_t lock;        /* jobs, printing, progress */
    pthread_mutex_t render_lock; /* render specs (render_to_frame is not reentrant) */
    progress prog;
    bool stdout_tty; /* the scene lines share the terminal with the progress line */
} checker;

static const char *const TAG[GOLDEN_NVERDICTS] = {"pass ", "FAIL ", "xfail", "XPASS"};

/* ---- images ---- */

static void write_png(const dsgx_frame *f, const char *path, strbuf *out)
{
    char err[512];
    if (dsgx_frame_write_png(f, path, err, sizeof err)) sb_printf(out, "      %s\n", err);
}

/* A name safe in a file name and a URL: letters, digits, '-', '_' and '.'; at most 48. */
static void safe_name(const char *s, char *out, size_t size)
{
    size_t o = 0;
    for (; *s && o + 1 < size && o < 48; s++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_' || (c == '.' && o > 0);
        out[o++] = ok ? c : '_';
    }
    out[o] = 0;
}

/* The failure's images: actual and diff in OUTDIR; expected, actual and diff in the report. */
static void write_failure_images(const golden_options *opt, const job *j, const char *scene,
                                 golden_frame_result *fr, const dsgx_frame *actual,
                                 const dsgx_frame *expected, strbuf *out)
{
    dsgx_frame *diff = expected ? malloc(sizeof *diff) : NULL;
    if (diff) dsgx_frame_diff_image(actual, expected, diff);
    char path[4096];
    if (fr->verdict != GOLDEN_XFAIL) {
        snprintf(path, sizeof path, "%s/%s%s.frame%03ld.actual.png", opt->outdir, j->label, scene,
                 fr->frame);
        write_png(actual, path, out);
        snprintf(path, sizeof path, "%s/%s%s.frame%03ld.diff.png", opt->outdir, j->label, scene,
                 fr->frame);
        if (diff) write_png(diff, path, out);
    }
    if (opt->report) {
        static const char *const kind[3] = {"expected", "actual", "diff"};
        const dsgx_frame *img[3] = {expected, actual, diff};
        char safe[64];
        safe_name(scene, safe, sizeof safe);
        for (int k = 0; k < 3; k++) {
            if (!img[k]) continue;
            snprintf(fr->img[k], sizeof fr->img[k], "img/%04zu-%s.frame%03ld.%s.png", j->index,
                     safe, fr->frame, kind[k]);
            snprintf(path, sizeof path, "%s/%s", opt->report, fr->img[k]);
            write_png(img[k], path, out);
        }
    }
    free(diff);
}

/* ---- checking one row ---- */

/* The frame of row r among the scene's frames, or NULL with the reason in why. */
static const golden_frame *row_frame(const golden_manifest *m, size_t r, const scene_frames *sf,
                                     long f, char *why, size_t whylen)
{
    bool file_row = *golden_cell(m, r, m->c_file) != 0;
    if (file_row && sf->n == 1) return &sf->f[0]; /* a dump renders its one frame */
    for (long i = 0; i < sf->n; i++)
        if (sf->num[i] == f) return &sf->f[i];
    snprintf(why, whylen, "the scene emitted %ld frame(s)", sf->n);
    return NULL;
}

static enum golden_verdict compare(const golden_manifest *m, size_t r, const golden_frame *g,
                                   golden_frame_result *fr)
{
    char *why = fr->why;
    size_t wl = sizeof fr->why;
    bool match = !strcmp(g->hash, fr->expected);
    if (!match) snprintf(why, wl, "expected %s, got %s", fr->expected, g->hash);
    const char *rd = golden_cell(m, r, m->c_rdlines), *uf = golden_cell(m, r, m->c_underflow);
    if (*rd && strtoul(rd, NULL, 10) != g->rdlines) {
        size_t k = strlen(why);
        snprintf(why + k, wl - k, "%srdlines %u, expected %s", k ? "; " : "", g->rdlines, rd);
        match = false;
    }
    if (*uf && (strtoul(uf, NULL, 10) != 0) != g->underflow) {
        size_t k = strlen(why);
        snprintf(why + k, wl - k, "%sunderflow %u, expected %s", k ? "; " : "",
                 g->underflow ? 1u : 0u, uf);
        match = false;
    }
    if (*fr->xfail) return match ? GOLDEN_XPASS : GOLDEN_XFAIL;
    return match ? GOLDEN_PASS : GOLDEN_FAIL;
}

/* Evaluate one manifest row against the scene's frames; fills fr, appends detail lines. */
static void check_row(const golden_options *opt, const job *j, size_t r, const scene_frames *sf,
                      const char *render_err, golden_frame_result *fr, strbuf *out)
{
    const golden_manifest *m = j->m;
    const char *scene = golden_scene_name(m, r);
    fr->frame = golden_row_frame(m, r);
    snprintf(fr->expected, sizeof fr->expected, "%s",
             golden_expected_hash(m, r, opt->melonds_gaps));
    snprintf(fr->xfail, sizeof fr->xfail, "%s", golden_cell(m, r, m->c_xfail));
    fr->verdict = GOLDEN_FAIL;
    const golden_frame *g = NULL;
    if (fr->frame < 0) {
        snprintf(fr->why, sizeof fr->why, "frame '%s': not a frame number",
                 golden_cell(m, r, m->c_frame));
    } else if (render_err) {
        snprintf(fr->why, sizeof fr->why, "%s", render_err);
    } else if ((g = row_frame(m, r, sf, fr->frame, fr->why, sizeof fr->why))) {
        snprintf(fr->actual, sizeof fr->actual, "%s", g->hash);
        if (*fr->expected)
            fr->verdict = compare(m, r, g, fr);
        else
            snprintf(fr->why, sizeof fr->why, "no expected hash (dsgx golden update)");
    }
    if (fr->verdict == GOLDEN_PASS) return;
    long f = fr->frame < 0 ? 0 : fr->frame;
    if (fr->verdict == GOLDEN_XPASS) {
        sb_printf(out,
                  "    frame %03ld: XPASS: matches but is marked xfail (%s): remove the mark\n", f,
                  fr->xfail);
        snprintf(fr->why, sizeof fr->why, "matches the expected hash");
        return;
    }
    if (!g) {
        if (!render_err) sb_printf(out, "    frame %03ld: %s\n", f, fr->why);
        return; /* (a scene that did not render is reported once, by run_job) */
    }
    /* what differs, against the expected PNG when there is one */
    char png[4096], err[512];
    snprintf(png, sizeof png, "%s/%s.frame%03ld.png", m->dir, scene, f);
    dsgx_frame *expected = malloc(sizeof *expected);
    bool have = expected && !dsgx_frame_read_png(expected, png, err, sizeof err);
    if (have) {
        dsgx_frame_diff d;
        dsgx_frame_compare(&g->frame, expected, &d);
        fr->compared = true;
        fr->differing = d.differing;
        fr->x0 = d.x0;
        fr->y0 = d.y0;
        fr->x1 = d.x1;
        fr->y1 = d.y1;
    }
    char px[96] = " (no expected PNG)";
    if (have && fr->differing)
        snprintf(px, sizeof px, "; %u pixels differ in (%d,%d)-(%d,%d)", fr->differing, fr->x0,
                 fr->y0, fr->x1, fr->y1);
    else if (have)
        snprintf(px, sizeof px, "; no pixel differs from the expected PNG");
    if (fr->verdict == GOLDEN_XFAIL)
        sb_printf(out, "    frame %03ld: xfail (%s): %s\n", f, fr->xfail, fr->why);
    else
        sb_printf(out, "    frame %03ld: %s%s\n", f, fr->why, px);
    write_failure_images(opt, j, scene, fr, &g->frame, have ? expected : NULL, out);
    free(expected);
}

static void run_job(checker *c, job *j)
{
    const golden_options *opt = c->opt;
    const golden_manifest *m = j->m;
    double t0 = progress_monotonic(NULL);
    char path[4096], err[512];
    golden_scene_path(m, j->rows[0], path, sizeof path);
    long *want = malloc(j->nrows * sizeof *want);
    j->res.frames = calloc(j->nrows, sizeof *j->res.frames);
    scene_frames sf = {0};
    const char *render_err = NULL;
    if (!want || !j->res.frames) {
        free(want);
        free(j->res.frames);
        j->res.frames = NULL;
        sb_printf(&j->out, "FAIL  %s: out of memory\n", j->display);
        j->res.verdict = GOLDEN_FAIL;
        return;
    }
    for (size_t k = 0; k < j->nrows; k++) want[k] = golden_row_frame(m, j->rows[k]);
    if (golden_draw_scene(opt, &c->render_lock, path, want, j->nrows, &sf, err, sizeof err))
        render_err = err;
    free(want);
    strbuf detail = {0};
    if (render_err) sb_printf(&detail, "    %s\n", render_err);
    unsigned n[GOLDEN_NVERDICTS] = {0};
    j->res.nframes = j->nrows;
    for (size_t k = 0; k < j->nrows; k++) {
        check_row(opt, j, j->rows[k], &sf, render_err, &j->res.frames[k], &detail);
        n[j->res.frames[k].verdict]++;
    }
    scene_frames_free(&sf);
    j->res.verdict = n[GOLDEN_XPASS]   ? GOLDEN_XPASS
                     : n[GOLDEN_FAIL]  ? GOLDEN_FAIL
                     : n[GOLDEN_XFAIL] ? GOLDEN_XFAIL
                                       : GOLDEN_PASS;
    sb_printf(&j->out, "%s %s (%zu frame%s)\n", TAG[j->res.verdict], j->display, j->nrows,
              j->nrows == 1 ? "" : "s");
    if (detail.s && j->res.verdict != GOLDEN_PASS) sb_printf(&j->out, "%s", detail.s);
    free(detail.s);
    j->res.seconds = progress_monotonic(NULL) - t0;
}

static void *worker(void *arg)
{
    checker *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        size_t i = c->next < c->njobs ? c->next++ : c->njobs;
        pthread_mutex_unlock(&c->lock);
        if (i >= c->njobs) return NULL;
        run_job(c, &c->jobs[i]);
        pthread_mutex_lock(&c->lock);
        c->jobs[i].done = true;
        c->finished++;
        if (c->stdout_tty) progress_clear(&c->prog);
        while (c->printed < c->njobs && c->jobs[c->printed].done) {
            job *p = &c->jobs[c->printed++];
            if (p->out.s) fputs(p->out.s, stdout);
        }
        fflush(stdout);
        progress_update(&c->prog, c->finished);
        pthread_mutex_unlock(&c->lock);
    }
}

/* ---- the scene list ---- */

/* Group the rows of a manifest by scene (in first-appearance order) into jobs. */
static int add_jobs(const golden_options *opt, golden_manifest *m, const char *label, job **jobs,
                    size_t *njobs)
{
    size_t first = *njobs;
    for (size_t r = 0; r < m->nrows; r++) {
        const char *scene = golden_scene_name(m, r);
        if (!golden_scene_selected(opt, scene)) continue;
        job *j = NULL;
        for (size_t k = first; k < *njobs && !j; k++)
            if (!strcmp(golden_scene_name(m, (*jobs)[k].rows[0]), scene)) j = &(*jobs)[k];
        if (!j) {
            job *q = realloc(*jobs, (*njobs + 1) * sizeof *q);
            if (!q) return -1;
            *jobs = q;
            j = &q[(*njobs)++];
            memset(j, 0, sizeof *j);
            j->m = m;
            j->label = label;
            j->res.dir = m->dir;
            j->res.name = scene;
            size_t len = strlen(label) + strlen(scene) + 1;
            if (!(j->display = malloc(len))) return -1;
            snprintf(j->display, len, "%s%s", label, scene);
        }
        size_t *rows = realloc(j->rows, (j->nrows + 1) * sizeof *rows);
        if (!rows) return -1;
        j->rows = rows;
        j->rows[j->nrows++] = r;
    }
    return 0;
}

static void free_job(job *j)
{
    free(j->rows);
    free(j->out.s);
    free(j->display);
    free(j->res.frames);
}

typedef struct sort_key {
    const job *j;
    size_t pos;
} sort_key;

static int cmp_key(const void *a, const void *b)
{
    const job *x = ((const sort_key *)a)->j, *y = ((const sort_key *)b)->j;
    int d = strcmp(x->m->dir, y->m->dir);
    return d ? d : strcmp(x->res.name, y->res.name);
}

/* Keep the jobs of shard opt->shard: the sorted (directory, scene) list dealt round robin. */
static int keep_shard(const golden_options *opt, job *jobs, size_t *njobs)
{
    sort_key *keys = malloc((*njobs ? *njobs : 1) * sizeof *keys);
    bool *keep = calloc(*njobs ? *njobs : 1, sizeof *keep);
    if (!keys || !keep) {
        free(keys);
        free(keep);
        return -1;
    }
    for (size_t i = 0; i < *njobs; i++) keys[i] = (sort_key){&jobs[i], i};
    qsort(keys, *njobs, sizeof *keys, cmp_key);
    for (size_t k = 0; k < *njobs; k++)
        keep[keys[k].pos] = golden_shard_of(k, opt->nshards) == opt->shard;
    size_t w = 0;
    for (size_t i = 0; i < *njobs; i++) {
        if (keep[i])
            jobs[w++] = jobs[i];
        else
            free_job(&jobs[i]);
    }
    *njobs = w;
    free(keys);
    free(keep);
    return 0;
}

/* ---- the run ---- */

static int write_reports(const golden_options *opt, const checker *c, golden_totals *t)
{
    golden_scene_result *res = malloc((c->njobs ? c->njobs : 1) * sizeof *res);
    if (!res) return -1;
    for (size_t i = 0; i < c->njobs; i++) res[i] = c->jobs[i].res;
    int st = 0;
    char err[512];
    if (opt->report && golden_write_html(opt->report, res, c->njobs, t, err, sizeof err)) {
        fprintf(stderr, "dsgx golden: %s\n", err);
        st = -1;
    } else if (opt->report) {
        printf("report: %s/index.html\n", opt->report);
    }
    if (opt->junit && golden_write_junit(opt->junit, res, c->njobs, t, err, sizeof err)) {
        fprintf(stderr, "dsgx golden: %s\n", err);
        st = -1;
    } else if (opt->junit) {
        printf("JUnit XML: %s\n", opt->junit);
    }
    free(res);
    return st;
}

static int make_dirs(const golden_options *opt)
{
    char path[4096];
    for (size_t d = 0; d < opt->ndirs; d++) {
        snprintf(path, sizeof path, "%s/%s", opt->outdir, opt->label[d]);
        if (cli_mkdirs(path)) {
            fprintf(stderr, "dsgx golden: cannot create %s\n", path);
            return -1;
        }
    }
    snprintf(path, sizeof path, "%s/img", opt->report ? opt->report : "");
    if (opt->report && cli_mkdirs(path)) {
        fprintf(stderr, "dsgx golden: cannot create %s\n", path);
        return -1;
    }
    return 0;
}

int golden_check(const golden_options *opt)
{
    golden_manifest *ms = calloc(opt->ndirs ? opt->ndirs : 1, sizeof *ms);
    checker c = {.opt = opt, .stdout_tty = isatty(fileno(stdout)) != 0};
    int status = 0;
    size_t loaded = 0, total = 0;
    double t0 = progress_monotonic(NULL);
    if (!ms) return 1;
    for (; loaded < opt->ndirs; loaded++) {
        char err[512];
        if (golden_manifest_load(&ms[loaded], opt->dirs[loaded], err, sizeof err)) {
            fprintf(stderr, "dsgx golden: %s\n", err);
            status = 1;
            goto done;
        }
        if (add_jobs(opt, &ms[loaded], opt->label[loaded], &c.jobs, &c.njobs)) {
            loaded++;
            goto oom;
        }
    }
    total = c.njobs;
    if (opt->nshards && keep_shard(opt, c.jobs, &c.njobs)) goto oom;
    for (size_t i = 0; i < c.njobs; i++) c.jobs[i].index = i;
    if (make_dirs(opt)) {
        status = 1;
        goto done;
    }
    pthread_mutex_init(&c.lock, NULL);
    pthread_mutex_init(&c.render_lock, NULL);
    progress_init_stderr(&c.prog, "golden", "scenes", c.njobs);
    unsigned nt = opt->jobs < c.njobs ? opt->jobs : (unsigned)c.njobs;
    pthread_t th[256];
    unsigned started = 0;
    for (unsigned i = 0; i < nt && i < 256; i++)
        if (!pthread_create(&th[i], NULL, worker, &c)) started++;
    if (!started) worker(&c);
    for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
    progress_finish(&c.prog);
    pthread_mutex_destroy(&c.render_lock);
    pthread_mutex_destroy(&c.lock);
    golden_totals t = {.jobs = started ? started : 1, .shard = opt->shard, .nshards = opt->nshards};
    for (size_t i = 0; i < c.njobs; i++) {
        t.scenes[c.jobs[i].res.verdict]++;
        for (size_t k = 0; k < c.jobs[i].res.nframes; k++)
            t.frames[c.jobs[i].res.frames[k].verdict]++;
    }
    t.seconds = progress_monotonic(NULL) - t0;
    const unsigned *n = t.scenes;
    if (n[GOLDEN_XFAIL] || n[GOLDEN_XPASS])
        printf("%u xfail (known deviations), %u XPASS (marked xfail but matching: counted as "
               "failed)\n",
               n[GOLDEN_XFAIL], n[GOLDEN_XPASS]);
    if (opt->nshards)
        printf("shard %u/%u: %zu of %zu scenes\n", opt->shard, opt->nshards, c.njobs, total);
    if (write_reports(opt, &c, &t)) status = 1;
    printf("%u passed, %u failed\n", n[GOLDEN_PASS], n[GOLDEN_FAIL] + n[GOLDEN_XPASS]);
    if (n[GOLDEN_FAIL] + n[GOLDEN_XPASS]) {
        printf("actual and diff images of failing frames: %s/\n", opt->outdir);
        status = 1;
    }
    if (!c.njobs && !(opt->nshards && total)) {
        fprintf(stderr, "dsgx golden: no scene selected\n");
        status = 1;
    }
    goto done;
oom:
    fprintf(stderr, "dsgx golden: out of memory\n");
    status = 1;
done:
    for (size_t i = 0; i < c.njobs; i++) free_job(&c.jobs[i]);
    free(c.jobs);
    for (size_t d = 0; d < loaded; d++) golden_manifest_free(&ms[d]);
    free(ms);
    return status;
}
