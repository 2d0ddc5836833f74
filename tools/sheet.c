/*
 * sheet.c - `dsgx render --all` (contact sheets, --shard), --scale and --light, and the pieces
 * `dsgx render` shares with it: the measured auto-fit camera and the texture report (see
 * sheet.h).
 *
 * Each model is drawn exactly as `dsgx render` draws it with its default camera (the auto-fit
 * of tools/core/autofit.h from a raised three-quarter view, fovy --fov, or --orbit): a fresh
 * geometry and rendering engine per model, the texture sets of its lookup plan
 * (tools/core/texfind.h) uploaded with the default frame VRAM managers (nitro/texupload.c),
 * NNS_G3dGlbInit defaults with the --light overrides. Floating point is used only for the
 * camera set-up, converted once to 1.19.12.
 */
#include "tools/sheet.h"
#include "tools/core/golden.h"
#include "tools/core/nitro_open.h"
#include "tools/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/nitro.h"
#include "nitro/sheet.h"
#include "raster/raster.h"

#define MAX_CELLS 64

/* Camera set-up maths for the CLI only: float here, converted once to 1.19.12 before anything
 * reaches the engine (the CLI does not link libm: tools/core/autofit.c has small series). */
fx32 render_fx(double v)
{
    return (fx32)(v * 4096.0 + (v < 0 ? -0.5 : 0.5));
}

double render_sqrt(double x)
{
    return dsgx_fit_sqrt(x);
}

double render_sin(double x)
{
    return dsgx_fit_sin(x);
}

double render_cos(double x)
{
    return dsgx_fit_cos(x);
}

bool render_parse_light(const char *arg, render_light lights[4])
{
    unsigned i;
    double x, y, z;
    unsigned rgb;
    char tail;
    if (sscanf(arg, "%u:%lf,%lf,%lf:%6x%c", &i, &x, &y, &z, &rgb, &tail) != 5 || i > 3)
        return false;
    if (x < -1 || x > 1 || y < -1 || y > 1 || z < -1 || z > 1) return false;
    lights[i].set = true;
    lights[i].dir[0] = render_fx(x);
    lights[i].dir[1] = render_fx(y);
    lights[i].dir[2] = render_fx(z);
    lights[i].color =
        (uint16_t)(((rgb >> 19) & 31u) | (((rgb >> 11) & 31u) << 5) | (((rgb >> 3) & 31u) << 10));
    return true;
}

void render_apply_lights(nitro_glb *g, const render_light lights[4])
{
    for (unsigned i = 0; i < 4; i++) {
        if (!lights[i].set) continue;
        nitro_glb_light_vector(g, i, lights[i].dir[0], lights[i].dir[1], lights[i].dir[2]);
        nitro_glb_light_color(g, i, lights[i].color);
    }
}

int render_write_scaled(const dsgx_frame *f, unsigned scale, const char *path, char *err,
                        size_t err_size)
{
    if (scale <= 1) return dsgx_frame_write_png(f, path, err, err_size);
    nitro_sheet s;
    if (!nitro_sheet_init(&s, 1, scale, false)) {
        snprintf(err, err_size, "%s: out of memory", path);
        return -1;
    }
    nitro_sheet_put(&s, 0, f, NULL, false);
    int rc = nitro_sheet_write_png(&s, path, err, err_size);
    nitro_sheet_free(&s);
    return rc;
}

/* ---- camera ---- */

bool render_measure(gx_engine *reuse, const nitro_model *m, const uint8_t *mdata,
                    nitro_anim_player *player, long frame, dsgx_fit_points *pts)
{
    /* a reused engine is reset before and its hooks taken off after: gx_create costs ~2.4 M
     * instructions (its RAMs and VRAM zeroed), more than a typical model's screenshot */
    gx_engine *gx = reuse ? reuse : gx_create();
    if (reuse) gx_reset(reuse);
    nitro_glb *glb = malloc(sizeof *glb);
    nitro_runtime *rt = malloc(sizeof *rt);
    nitro_mat_bind *binds = calloc(NITRO_MAX_MATERIALS, sizeof *binds);
    bool ok = gx && glb && rt && binds;
    if (ok) {
        gx_hooks h = {0};
        h.user = pts;
        h.vertex = dsgx_fit_vertex_hook;
        gx_set_hooks(gx, &h);
        nitro_gx_sink sink = nitro_gx_engine_sink(gx);
        sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
        nitro_glb_init(glb); /* identity camera and projection: clip space = world space */
        nitro_glb_flush(glb, &sink);
        nitro_runtime_init(rt, m, mdata, glb, &sink, binds);
        if (player) {
            nitro_anim_player_set_frame(player, dsgx_shl32((int32_t)frame, 12));
            nitro_anim_hooks ah = nitro_anim_player_hooks(player);
            nitro_runtime_set_hooks(rt, &ah);
        }
        nitro_runtime_draw(rt);
    }
    free(binds);
    free(rt);
    free(glb);
    if (reuse)
        gx_set_hooks(reuse, NULL);
    else if (gx)
        gx_destroy(gx);
    return ok;
}

/* A distance in 1.19.12 that the projection can use: positive and in range. */
static fx32 depth_fx(double v)
{
    if (v < 2.0 / 4096) v = 2.0 / 4096;
    if (v > 500000) v = 500000;
    return render_fx(v);
}

void render_set_camera(nitro_glb *g, const render_camera *c, const dsgx_fit_points *pts)
{
    const double pi = 3.14159265358979;
    double half = c->fov * pi / 360.0, aspect = 256.0 / 192.0;
    double tan_half = render_sin(half) / render_cos(half);
    dsgx_fit_view v;
    if (c->have_eye) {
        memcpy(v.eye, c->eye, sizeof v.eye);
        memcpy(v.at, c->at, sizeof v.at);
        dsgx_fit_depth(pts, &v);
    } else {
        double yaw = c->have_orbit ? c->orbit[0] : RENDER_DEFAULT_YAW;
        double pitch = c->have_orbit ? c->orbit[1] : RENDER_DEFAULT_PITCH, dir[3];
        if (pitch > 89) pitch = 89; /* the look-at needs a direction that is not vertical */
        if (pitch < -89) pitch = -89;
        dsgx_fit_direction(yaw, pitch, dir);
        dsgx_fit_camera(pts, dir, tan_half, aspect, RENDER_FIT_FILL, &v);
        if (c->have_orbit && c->orbit[2] > 0) {
            /* a given distance from the centre of the points' box */
            for (int k = 0; k < 3; k++) {
                v.at[k] = pts->n ? (pts->lo[k] + pts->hi[k]) / 2 : 0;
                v.eye[k] = v.at[k] + c->orbit[2] * dir[k];
            }
            dsgx_fit_depth(pts, &v);
        }
    }
    if (c->near > 0) v.near = c->near; /* --near / --far: the clip planes given, e.g. a test's */
    if (c->far > 0) v.far = c->far;
    fx32 feye[3], fat[3], fup[3] = {0, FX32_ONE, 0}, cam[12];
    for (int k = 0; k < 3; k++) {
        feye[k] = render_fx(v.eye[k]);
        fat[k] = render_fx(v.at[k]);
    }
    nitro_camera_lookat(feye, fup, fat, cam);
    nitro_glb_set_camera(g, cam);
    nitro_camera_perspective(render_fx(render_sin(half)), render_fx(render_cos(half)),
                             render_fx(aspect), depth_fx(v.near), depth_fx(v.far), g->proj);
}

void render_report_textures(FILE *f, const char *prefix, const dsgx_texplan *p,
                            const dsgx_texlib *lib, bool every)
{
    char line[2600];
    for (unsigned i = 0; i < p->nneed; i++) {
        int set = p->need[i].set;
        if (!every && set >= 0 && p->origin[set] == DSGX_TEX_MODEL) continue;
        dsgx_texplan_format(p, lib, i, line, sizeof line);
        fprintf(f, "%s%s\n", prefix, line);
    }
    if (p->no_room)
        fprintf(f, "%s%u more texture file(s) left out: at most %u texture sets\n", prefix,
                p->no_room, NITRO_MAX_TEX_SETS);
}

bool render_parse_shard(const char *arg, unsigned *index, unsigned *count)
{
    /* one rule for both shard options (golden check and render --all) */
    return golden_parse_shard(arg, index, count) == 0;
}

/* ---- rendering one model ---- */

/* One model into @p out on engines reused from model to model: gx_reset and raster_power_on
 * put them back in the state gx_create / raster_create give (the same frame as fresh engines:
 * the untimed first frame after power-on; checked by cli.nitro and cli.bench). */
static void render_one(const sheet_opts *o, gx_engine *gx, raster_engine *ra, const nitro_model *m,
                       const uint8_t *mdata, const dsgx_texplan *plan, dsgx_frame *out)
{
    raster_power_on(ra);
    nitro_texvram *vram = malloc(sizeof *vram);
    nitro_mat_bind *binds = malloc(NITRO_MAX_MATERIALS * sizeof *binds);
    nitro_glb *glb = malloc(sizeof *glb);
    nitro_runtime *rt = malloc(sizeof *rt);
    dsgx_fit_points pts;
    dsgx_fit_points_init(&pts);
    memset(out, 0, sizeof *out);
    if (!vram || !binds || !glb || !rt || !render_measure(gx, m, mdata, NULL, 0, &pts)) goto done;
    gx_reset(gx); /* (after the measuring draw on the same engine) */
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
    sink.write(sink.user, REG_DISPCNT, 0x00010108, 4);
    nitro_texvram_init(vram);
    for (unsigned i = 0; i < plan->nsets; i++)
        nitro_texvram_upload(vram, plan->tex[i], plan->data[i], &sink);
    nitro_bind_textures(vram, m, binds);
    uint32_t d3 = 1u | 8u | (o->aa ? 16u : 0) | (o->edge ? 32u : 0) | (o->fog ? 128u : 0);
    sink.write(sink.user, REG_DISP3DCNT, d3, 4);
    sink.write(sink.user, REG_CLEAR_COLOR, o->clear_rgb | (o->clear_alpha << 16), 4);
    sink.write(sink.user, REG_CLEAR_DEPTH, 0x7FFF, 4);
    nitro_glb_init(glb);
    render_apply_lights(glb, o->lights);
    render_set_camera(glb, &o->cam, &pts);
    nitro_glb_flush(glb, &sink);
    nitro_runtime_init(rt, m, mdata, glb, &sink, binds);
    nitro_runtime_draw(rt);
    sink.write(sink.user, 0x04000540, 0, 4); /* SWAP_BUFFERS */
    gx_vblank(gx);
    raster_render(ra, gx_render_frame(gx), out, NULL);
done:
    dsgx_fit_points_free(&pts);
    free(rt);
    free(glb);
    free(binds);
    free(vram);
}

int render_model_pngs(const char *path, const sheet_opts *o, const char *out_dir, unsigned repeat,
                      unsigned *count)
{
    *count = 0;
    dsgx_nitro_input in;
    char err[600];
    if (dsgx_nitro_open(path, &in, err, sizeof err) || in.archive) {
        fprintf(stderr, "dsgx bench: %s\n", in.archive ? "--models needs NSBMD files" : err);
        dsgx_nitro_input_free(&in);
        return 1;
    }
    nitro_file f;
    bool parsed = nitro_parse(in.data, in.size, &f).ok;
    if (!parsed || f.kind != NITRO_KIND_BMD0) {
        fprintf(stderr, "dsgx bench: %s: not a model file\n", path);
        if (parsed) nitro_file_free(&f);
        dsgx_nitro_input_free(&in);
        return 1;
    }
    dsgx_texlib lib; /* the model's own textures only */
    dsgx_texlib_init(&lib);
    gx_engine *gx = gx_create();
    raster_engine *ra = raster_create();
    dsgx_frame *frame = malloc(sizeof *frame);
    dsgx_texplan *plan = malloc(sizeof *plan);
    int rc = !gx || !ra || !frame || !plan;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (unsigned r = 0; !rc && r < repeat; r++) {
        for (unsigned i = 0; !rc && i < f.num_models; i++) {
            dsgx_texplan_init(plan);
            dsgx_texplan_need_model(plan, &f.models[i]);
            dsgx_texplan_resolve(plan, &lib, f.tex0, in.data, "the model's file");
            render_one(o, gx, ra, &f.models[i], in.data, plan, frame);
            char png[1024];
            if (out_dir)
                snprintf(png, sizeof png, "%s/%.200s.%u.png", out_dir, base, i);
            else
                snprintf(png, sizeof png, "/dev/null");
            if (dsgx_frame_write_png(frame, png, err, sizeof err)) {
                fprintf(stderr, "dsgx bench: %s\n", err);
                rc = 1;
            }
            (*count)++;
        }
    }
    free(plan);
    free(frame);
    if (ra) raster_destroy(ra);
    if (gx) gx_destroy(gx);
    dsgx_texlib_free(&lib);
    nitro_file_free(&f);
    dsgx_nitro_input_free(&in);
    return rc;
}

/* ---- the sheet ---- */

/* One input file: the single file, or a member of the archive (LZ77 unpacked), parsed. */
typedef struct entry {
    char label[320];
    uint8_t *buf;
    size_t size;
    nitro_file file;
    bool parsed;
} entry;

static void entry_free(entry *e)
{
    if (e->parsed) nitro_file_free(&e->file);
    free(e->buf);
    memset(e, 0, sizeof *e);
}

/* Entry i (archive member i, or the single file when in.archive is false); @return the
 * number of models in it (0 when not a model file). */
static unsigned entry_open(const dsgx_nitro_input *in, const char *path, unsigned i, entry *e)
{
    char err[600];
    memset(e, 0, sizeof *e);
    if (in->archive) {
        const nitro_narc_file *nf = &in->narc.files[i];
        e->buf = malloc(nf->size ? nf->size : 1);
        if (!e->buf) return 0;
        memcpy(e->buf, in->data + nf->offset, nf->size);
        e->size = nf->size;
        if (nf->name)
            snprintf(e->label, sizeof e->label, "%.300s", nf->name);
        else
            snprintf(e->label, sizeof e->label, "%u", i);
        if (dsgx_nitro_unpack(e->label, &e->buf, &e->size, err, sizeof err)) return 0;
    } else {
        e->buf = malloc(in->size ? in->size : 1);
        if (!e->buf) return 0;
        memcpy(e->buf, in->data, in->size);
        e->size = in->size;
        const char *base = strrchr(path, '/');
        snprintf(e->label, sizeof e->label, "%.300s", base ? base + 1 : path);
    }
    e->parsed = nitro_parse(e->buf, e->size, &e->file).ok;
    return e->parsed && e->file.kind == NITRO_KIND_BMD0 ? e->file.num_models : 0;
}

int render_sheet(const char *path, const sheet_opts *o, const char *out)
{
    dsgx_nitro_input in;
    char err[600];
    if (dsgx_nitro_open(path, &in, err, sizeof err)) {
        fprintf(stderr, "dsgx render: %s\n", err);
        return 1;
    }
    int rc = 0;
    /* the texture sources: --tex files, then (when needed) the archive's and folder's NSBTX */
    dsgx_texlib lib;
    dsgx_texlib_init(&lib);
    for (unsigned i = 0; i < o->ntex; i++)
        if (dsgx_texlib_add_option(&lib, o->tex_paths[i], err, sizeof err)) {
            fprintf(stderr, "dsgx render: %s\n", err);
            rc = 1;
        }
    bool around = false; /* the archive's and folder's NSBTX files, read when first needed */
    /* the model list: member index, then model index; this shard's share of it */
    unsigned nent = in.archive ? in.narc.num_files : 1, total = 0, mine = 0;
    for (unsigned i = 0; i < nent; i++) {
        entry e;
        unsigned nm = entry_open(&in, path, i, &e);
        for (unsigned k = 0; k < nm; k++, total++)
            if (total % o->shards == o->shard - 1) mine++;
        entry_free(&e);
    }
    unsigned every = (mine + MAX_CELLS - 1) / MAX_CELLS,
             ncells = every ? (mine + every - 1) / every : 0;
    nitro_sheet sh;
    if (total == 0) {
        fprintf(stderr, "dsgx render: no model in %s\n", path);
        rc = 1;
    } else if (mine == 0) {
        fprintf(stderr, "dsgx render: shard %u of %u is empty (%u model(s))\n", o->shard, o->shards,
                total);
        rc = 1;
    } else if (!nitro_sheet_init(&sh, ncells, o->scale ? o->scale : 1, true)) {
        fprintf(stderr, "dsgx render: out of memory\n");
        rc = 1;
        ncells = 0;
    }
    if (ncells && every > 1)
        fprintf(stderr, "dsgx render: the sheet shows every %u%s model of %u (at most %u)\n", every,
                every == 2   ? "nd"
                : every == 3 ? "rd"
                             : "th",
                mine, MAX_CELLS);
    dsgx_texplan *plan = malloc(sizeof *plan);
    dsgx_frame *frame = malloc(sizeof *frame);
    gx_engine *gx = gx_create(); /* one engine pair for every model (render_one) */
    raster_engine *ra = raster_create();
    if (!plan || !frame || !gx || !ra) ncells = 0;
    progress pr;
    progress_init_stderr(&pr, "render", "models", mine);
    unsigned pos = 0, done = 0;
    for (unsigned i = 0; i < nent && ncells; i++) {
        entry e;
        unsigned nm = entry_open(&in, path, i, &e);
        for (unsigned m = 0; m < nm; m++, pos++) {
            if (pos % o->shards != o->shard - 1) continue;
            const nitro_model *md = &e.file.models[m];
            char label[360], prefix[400], hex[17];
            snprintf(label, sizeof label, "%.300s/%.16s", e.label, md->name.s);
            snprintf(prefix, sizeof prefix, "dsgx render: %s: ", label);
            dsgx_texplan_init(plan);
            dsgx_texplan_need_model(plan, md);
            if (dsgx_texplan_resolve(plan, &lib, e.file.tex0, e.buf, "the model's file") &&
                !around) {
                around = true;
                progress_clear(&pr);
                dsgx_texlib_add_around(&lib, path);
                if (lib.skipped)
                    fprintf(stderr,
                            "dsgx render: %u texture file(s) could not be used (first: %s)\n",
                            lib.skipped, lib.first_skip);
                dsgx_texplan_resolve(plan, &lib, e.file.tex0, e.buf, "the model's file");
            }
            progress_clear(&pr);
            render_report_textures(stderr, prefix, plan, &lib, false);
            render_one(o, gx, ra, md, e.buf, plan, frame);
            if (done % every == 0) nitro_sheet_put(&sh, done / every, frame, label, true);
            dsgx_frame_hash_hex(frame, hex);
            printf("%s %s\n", hex, label);
            fflush(stdout);
            progress_update(&pr, ++done);
        }
        entry_free(&e);
    }
    progress_finish(&pr);
    if (ra) raster_destroy(ra);
    if (gx) gx_destroy(gx);
    if (ncells) {
        if (nitro_sheet_write_png(&sh, out, err, sizeof err)) {
            fprintf(stderr, "dsgx render: %s\n", err);
            rc = 1;
        } else {
            printf("%s %ux%u, %u model(s)", out, sh.width, sh.height, done);
            if (o->shards > 1) printf(" (shard %u of %u, %u in all)", o->shard, o->shards, total);
            printf("\n");
        }
        nitro_sheet_free(&sh);
    }
    free(frame);
    free(plan);
    dsgx_texlib_free(&lib);
    dsgx_nitro_input_free(&in);
    return rc;
}
