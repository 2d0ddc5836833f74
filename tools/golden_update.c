/*
 * golden_update.c - `dsgx golden update`: re-baselines the scenes of each manifest directory
 * (every frame a trace or dump emits, the rows' frames of a render spec) and prints `old -> new`
 * per frame with the number of changed pixels. Our directories get rows for new .trace and
 * .render files and their PNGs rewritten; a reference directory (REFERENCE-README.md) keeps its
 * xxh3 and PNGs and records dsgx_xxh3 + dsgx_note (--note) where we deliberately differ.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/golden_cli.h"
#include "tools/progress.h"

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
static int add_new_scenes(const golden_options *opt, golden_manifest *m)
{
    DIR *d = opendir(m->dir);
    if (!d) return 0;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), ext = 0;
        if (len > 6 && !strcmp(e->d_name + len - 6, ".trace")) ext = 6;
        if (len > 7 && !strcmp(e->d_name + len - 7, ".render")) ext = 7;
        if (!ext) continue;
        char *name = malloc(len - ext + 1);
        char **q = realloc(names, (n + 1) * sizeof *q);
        if (!name || !q) {
            free(name);
            if (q) names = q;
            break;
        }
        names = q;
        memcpy(name, e->d_name, len - ext);
        name[len - ext] = 0;
        names[n++] = name;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    int r = 0;
    for (size_t i = 0; i < n; i++) {
        if (!r && golden_scene_selected(opt, names[i]) && !has_row(m, names[i])) {
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
static int update_scene(const golden_options *opt, golden_manifest *m, const char *scene,
                        bool *need_note)
{
    size_t r0 = 0;
    while (r0 < m->nrows && strcmp(golden_scene_name(m, r0), scene)) r0++;
    char path[4096], err[512];
    golden_scene_path(m, r0, path, sizeof path);
    /* the frames to draw: a spec's rows' frames (a trace or dump emits all of its own) */
    long *want = malloc((m->nrows + 1) * sizeof *want);
    size_t nwant = 0;
    if (!want) {
        printf("%s: out of memory\n", scene);
        return -1;
    }
    for (size_t r = 0; r < m->nrows; r++)
        if (!strcmp(golden_scene_name(m, r), scene)) want[nwant++] = golden_row_frame(m, r);
    golden_options plain = *opt;
    plain.melonds_gaps = false;
    scene_frames sf;
    int st = golden_draw_scene(&plain, NULL, path, want, nwant, &sf, err, sizeof err);
    free(want);
    if (st) {
        printf("%s: %s\n", scene, err);
        return -1;
    }
    golden_frame *frames = sf.f;
    long n = sf.n;
    bool file_row = *golden_cell(m, r0, m->c_file) != 0;
    for (long i = 0; i < n; i++) {
        long f = sf.num[i];
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
        const golden_frame *g = &frames[i];
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
            scene_frames_free(&sf);
            return -1;
        }
    }
    bool spec = golden_is_render_spec(path);
    for (size_t r = 0; r < m->nrows; r++)
        if (!strcmp(golden_scene_name(m, r), scene) && golden_row_frame(m, r) >= n && !file_row &&
            !spec)
            printf("%s frame %s: the scene emits %ld frame(s) only (row kept)\n", scene,
                   golden_cell(m, r, m->c_frame), n);
    scene_frames_free(&sf);
    return 0;
oom:
    scene_frames_free(&sf);
    printf("%s: out of memory\n", scene);
    return -1;
}

/* One directory to update: its manifest (new scenes added) and the scenes chosen. */
typedef struct update_dir {
    golden_manifest m;
    bool loaded;
    char **scenes; /* distinct selected scene names, in manifest order (copies: rows move) */
    size_t nscenes;
} update_dir;

static void update_dir_free(update_dir *u)
{
    for (size_t i = 0; i < u->nscenes; i++) free(u->scenes[i]);
    free(u->scenes);
    if (u->loaded) golden_manifest_free(&u->m);
}

/* Load (or, for a new directory of ours, start) the manifest, add rows for new scenes and list
 * the scenes to update. @return 0 or -1 (reported). */
static int prepare_dir(const golden_options *opt, const char *dir, update_dir *u)
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
    if (golden_manifest_load(&u->m, dir, err, sizeof err)) {
        fprintf(stderr, "dsgx golden: %s\n", err);
        return -1;
    }
    u->loaded = true;
    golden_manifest *m = &u->m;
    if (!m->reference && m->c_name >= 0 && add_new_scenes(opt, m)) goto oom;
    u->scenes = malloc((m->nrows ? m->nrows : 1) * sizeof *u->scenes);
    if (!u->scenes) goto oom;
    for (size_t r = 0; r < m->nrows; r++) {
        const char *scene = golden_scene_name(m, r);
        if (!golden_scene_selected(opt, scene)) continue;
        bool seen = false;
        for (size_t k = 0; k < r && !seen; k++) seen = !strcmp(golden_scene_name(m, k), scene);
        if (seen) continue;
        if (!(u->scenes[u->nscenes] = strdup(scene))) goto oom;
        u->nscenes++;
    }
    return 0;
oom:
    fprintf(stderr, "dsgx golden: %s: out of memory\n", dir);
    return -1;
}

/* Re-baseline the listed scenes and save the manifest. @return 0 or 1. */
static int run_dir(const golden_options *opt, const char *dir, update_dir *u, progress *prog,
                   size_t *done)
{
    int status = 0;
    bool need_note = false, tty = isatty(fileno(stdout)) != 0;
    for (size_t i = 0; i < u->nscenes && !status; i++) {
        if (tty) progress_clear(prog); /* the scene's lines share the terminal */
        if (update_scene(opt, &u->m, u->scenes[i], &need_note)) status = 1;
        fflush(stdout);
        progress_update(prog, ++*done);
    }
    progress_clear(prog);
    char err[512];
    if (need_note) {
        fprintf(stderr,
                "dsgx golden: %s is a reference directory: its xxh3 is never rewritten; "
                "record our deviation with --note \"why\" (writes dsgx_xxh3, dsgx_note)\n",
                dir);
        status = 1;
    }
    if (!status && golden_manifest_save(&u->m, err, sizeof err)) {
        fprintf(stderr, "dsgx golden: %s\n", err);
        status = 1;
    }
    return status;
}

int golden_update(const golden_options *opt)
{
    update_dir *u = calloc(opt->ndirs ? opt->ndirs : 1, sizeof *u);
    if (!u) return 1;
    int status = 0;
    size_t total = 0, done = 0;
    for (size_t d = 0; d < opt->ndirs; d++) {
        if (prepare_dir(opt, opt->dirs[d], &u[d]))
            status = 1; /* that directory is skipped, the others are updated */
        else
            total += u[d].nscenes;
    }
    progress prog;
    progress_init_stderr(&prog, "golden update", "scenes", total);
    for (size_t d = 0; d < opt->ndirs; d++)
        if (u[d].loaded && u[d].scenes) status |= run_dir(opt, opt->dirs[d], &u[d], &prog, &done);
    progress_finish(&prog);
    for (size_t d = 0; d < opt->ndirs; d++) update_dir_free(&u[d]);
    free(u);
    return status;
}
