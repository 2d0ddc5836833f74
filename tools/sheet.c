/*
 * sheet.c - `dsgx render --all` (contact sheets), --scale and --light (see sheet.h).
 *
 * Each model is drawn exactly as `dsgx render` draws it with its default camera (front view
 * framing the bounding box, fovy --fov): a fresh geometry and rendering engine per model, the
 * --tex files then the file's own TEX0 uploaded with the default frame VRAM managers
 * (nitro/texupload.c), NNS_G3dGlbInit defaults with the --light overrides. Floating point is
 * used only for the camera set-up, converted once to 1.19.12.
 */
#include "tools/sheet.h"
#include "tools/core/nitro_open.h"

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
 * reaches the engine (the CLI does not link libm, hence these small series). */
fx32 render_fx(double v)
{
    return (fx32)(v * 4096.0 + (v < 0 ? -0.5 : 0.5));
}

double render_sqrt(double x)
{
    if (x <= 0) return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 60; i++) r = 0.5 * (r + x / r);
    return r;
}

double render_sin(double x)
{
    const double pi = 3.14159265358979;
    while (x > pi) x -= 2 * pi;
    while (x < -pi) x += 2 * pi;
    double term = x, sum = x;
    for (int n = 1; n < 12; n++) {
        term *= -x * x / ((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}

double render_cos(double x)
{
    return render_sin(x + 3.14159265358979 / 2);
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

/* ---- rendering one model ---- */

typedef struct texset {
    unsigned n;
    const nitro_tex0 *tex[NITRO_MAX_TEX_SETS];
    const uint8_t *data[NITRO_MAX_TEX_SETS];
} texset;

/* One model into @p out on engines reused from model to model: gx_reset and raster_power_on
 * put them back in the state gx_create / raster_create give (the same frame as fresh engines:
 * the untimed first frame after power-on; checked by cli.nitro and bench/README.md). */
static void render_one(const sheet_opts *o, gx_engine *gx, raster_engine *ra, const nitro_model *m,
                       const uint8_t *mdata, const texset *ts, dsgx_frame *out)
{
    gx_reset(gx);
    raster_power_on(ra);
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
    sink.write(sink.user, REG_DISPCNT, 0x00010108, 4);
    static nitro_texvram vram;
    nitro_texvram_init(&vram);
    for (unsigned i = 0; i < ts->n; i++)
        nitro_texvram_upload(&vram, ts->tex[i], ts->data[i], &sink);
    static nitro_mat_bind binds[NITRO_MAX_MATERIALS];
    nitro_bind_textures(&vram, m, binds);
    uint32_t d3 = 1u | 8u | (o->aa ? 16u : 0) | (o->edge ? 32u : 0) | (o->fog ? 128u : 0);
    sink.write(sink.user, REG_DISP3DCNT, d3, 4);
    sink.write(sink.user, REG_CLEAR_COLOR, o->clear_rgb | (o->clear_alpha << 16), 4);
    sink.write(sink.user, REG_CLEAR_DEPTH, 0x7FFF, 4);
    /* front camera framing the box, as `dsgx render` does by default */
    double ps = m->info.pos_scale / 4096.0, lo[3], hi[3], c[3], r2 = 0;
    for (int k = 0; k < 3; k++) {
        lo[k] = m->info.box[k] / 4096.0 * ps;
        hi[k] = lo[k] + m->info.box[3 + k] / 4096.0 * ps;
        c[k] = (lo[k] + hi[k]) / 2;
        r2 += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
    double r = 0.5 * render_sqrt(r2);
    if (r < 1e-3) r = 1;
    double half = o->fov * 3.14159265358979 / 360.0, dist = r / render_sin(half) * 1.1;
    double nearv = dist - r * 1.5 > dist * 0.01 ? dist - r * 1.5 : dist * 0.01;
    fx32 eye[3] = {render_fx(c[0]), render_fx(c[1]), render_fx(c[2] + dist)};
    fx32 at[3] = {render_fx(c[0]), render_fx(c[1]), render_fx(c[2])}, up[3] = {0, FX32_ONE, 0},
         cam[12];
    static nitro_glb glb;
    nitro_glb_init(&glb);
    render_apply_lights(&glb, o->lights);
    nitro_camera_lookat(eye, up, at, cam);
    nitro_glb_set_camera(&glb, cam);
    nitro_camera_perspective(
        render_fx(render_sin(half)), render_fx(render_sin(3.14159265358979 / 2 - half)),
        render_fx(256.0 / 192.0), render_fx(nearv), render_fx(dist + r * 1.5), glb.proj);
    nitro_glb_flush(&glb, &sink);
    static nitro_runtime rt;
    nitro_runtime_init(&rt, m, mdata, &glb, &sink, binds);
    nitro_runtime_draw(&rt);
    sink.write(sink.user, 0x04000540, 0, 4); /* SWAP_BUFFERS */
    gx_vblank(gx);
    raster_render(ra, gx_render_frame(gx), out, NULL);
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
    texset ts = {0};
    if (f.tex0) {
        ts.tex[0] = f.tex0;
        ts.data[0] = in.data;
        ts.n = 1;
    }
    gx_engine *gx = gx_create();
    raster_engine *ra = raster_create();
    dsgx_frame *frame = malloc(sizeof *frame);
    int rc = !gx || !ra || !frame;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (unsigned r = 0; !rc && r < repeat; r++) {
        for (unsigned i = 0; !rc && i < f.num_models; i++) {
            render_one(o, gx, ra, &f.models[i], in.data, &ts, frame);
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
    free(frame);
    if (ra) raster_destroy(ra);
    if (gx) gx_destroy(gx);
    nitro_file_free(&f);
    dsgx_nitro_input_free(&in);
    return rc;
}

/* ---- the sheet ---- */

typedef struct entry {
    char label[48];
    uint8_t *buf;
    size_t size;
    nitro_file file;
    bool parsed;
} entry;

int render_sheet(const char *path, const sheet_opts *o, const char *out)
{
    dsgx_nitro_input in;
    char oerr[600];
    if (dsgx_nitro_open(path, &in, oerr, sizeof oerr)) {
        fprintf(stderr, "dsgx render: %s\n", oerr);
        return 1;
    }
    static entry ents[MAX_CELLS];
    unsigned nent = 0;
    if (in.archive) {
        /* every member of the archive (LZ77 members decompressed) */
        for (unsigned i = 0; i < in.narc.num_files && nent < MAX_CELLS; i++) {
            const nitro_narc_file *nf = &in.narc.files[i];
            entry *e = &ents[nent];
            e->buf = malloc(nf->size ? nf->size : 1);
            if (!e->buf) continue;
            memcpy(e->buf, in.data + nf->offset, nf->size);
            e->size = nf->size;
            if (nf->name)
                snprintf(e->label, sizeof e->label, "%.47s", nf->name);
            else
                snprintf(e->label, sizeof e->label, "%u", i);
            if (dsgx_nitro_unpack(e->label, &e->buf, &e->size, oerr, sizeof oerr)) {
                free(e->buf);
                e->buf = NULL;
                continue;
            }
            nent++;
        }
    } else {
        /* one file (or one archive member): the input's buffer moves to the entry */
        ents[0].buf = in.data;
        ents[0].size = in.size;
        in.data = NULL;
        const char *base = strrchr(path, '/');
        snprintf(ents[0].label, sizeof ents[0].label, "%.47s", base ? base + 1 : path);
        nent = 1;
    }
    /* --tex files: uploaded first for every model */
    texset ts0 = {0};
    static uint8_t *tbuf[NITRO_MAX_TEX_SETS];
    static nitro_file tfile[NITRO_MAX_TEX_SETS];
    unsigned ntf = 0;
    int rc = 0;
    for (unsigned i = 0; i < o->ntex && ntf + 1 < NITRO_MAX_TEX_SETS; i++) {
        dsgx_nitro_input tin;
        if (dsgx_nitro_open(o->tex_paths[i], &tin, oerr, sizeof oerr) || tin.archive) {
            fprintf(stderr, "dsgx render: %s\n",
                    tin.archive ? "--tex needs a file or an archive member" : oerr);
            dsgx_nitro_input_free(&tin);
            rc = 1;
            continue;
        }
        tbuf[ntf] = tin.data;
        size_t ts = tin.size;
        if (!nitro_parse(tbuf[ntf], ts, &tfile[ntf]).ok) {
            fprintf(stderr, "dsgx render: cannot use %s\n", o->tex_paths[i]);
            free(tbuf[ntf]);
            rc = 1;
            continue;
        }
        if (tfile[ntf].tex0) {
            ts0.tex[ts0.n] = tfile[ntf].tex0;
            ts0.data[ts0.n++] = tbuf[ntf];
        }
        ntf++;
    }
    /* count cells */
    unsigned ncells = 0;
    for (unsigned i = 0; i < nent; i++) {
        ents[i].parsed = nitro_parse(ents[i].buf, ents[i].size, &ents[i].file).ok;
        if (ents[i].parsed && ents[i].file.kind == NITRO_KIND_BMD0)
            ncells += ents[i].file.num_models;
    }
    if (ncells > MAX_CELLS) ncells = MAX_CELLS;
    nitro_sheet sh;
    if (ncells == 0) {
        fprintf(stderr, "dsgx render: no model in %s\n", path);
        rc = 1;
    } else if (!nitro_sheet_init(&sh, ncells, o->scale ? o->scale : 1, true)) {
        fprintf(stderr, "dsgx render: out of memory\n");
        rc = 1;
        ncells = 0;
    }
    static dsgx_frame frame;
    unsigned cell = 0;
    gx_engine *gx = ncells ? gx_create() : NULL;
    raster_engine *ra = ncells ? raster_create() : NULL;
    if (ncells && (!gx || !ra)) {
        fprintf(stderr, "dsgx render: out of memory\n");
        rc = 1;
        nitro_sheet_free(&sh);
        ncells = 0;
    }
    for (unsigned i = 0; i < nent && cell < ncells; i++) {
        const nitro_file *f = &ents[i].file;
        if (!ents[i].parsed || f->kind != NITRO_KIND_BMD0) continue;
        texset ts = ts0;
        if (f->tex0 && ts.n < NITRO_MAX_TEX_SETS) {
            ts.tex[ts.n] = f->tex0;
            ts.data[ts.n++] = ents[i].buf;
        }
        for (unsigned m = 0; m < f->num_models && cell < ncells; m++, cell++) {
            render_one(o, gx, ra, &f->models[m], ents[i].buf, &ts, &frame);
            char label[96], hex[17];
            snprintf(label, sizeof label, "%.47s/%.16s", ents[i].label, f->models[m].name.s);
            nitro_sheet_put(&sh, cell, &frame, label, true);
            dsgx_frame_hash_hex(&frame, hex);
            printf("%s %s\n", hex, label);
        }
    }
    if (ra) raster_destroy(ra);
    if (gx) gx_destroy(gx);
    if (ncells) {
        char err[512];
        if (nitro_sheet_write_png(&sh, out, err, sizeof err)) {
            fprintf(stderr, "dsgx render: %s\n", err);
            rc = 1;
        } else {
            printf("%s %ux%u, %u model(s)\n", out, sh.width, sh.height, ncells);
        }
        nitro_sheet_free(&sh);
    }
    for (unsigned i = 0; i < nent; i++) {
        if (ents[i].parsed) nitro_file_free(&ents[i].file);
        free(ents[i].buf);
        memset(&ents[i], 0, sizeof ents[i]);
    }
    for (unsigned i = 0; i < ntf; i++) {
        nitro_file_free(&tfile[i]);
        free(tbuf[i]);
    }
    dsgx_nitro_input_free(&in);
    return rc;
}
