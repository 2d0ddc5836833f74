/*
 * cmd_render.c - `dsgx render MODEL.nsbmd [--tex FILE.nsbtx ...] [--model NAME|INDEX] -o out.png`
 *
 * Renders one model through the G3D runtime (nitro/runtime.h), the geometry engine and the
 * rendering engine. Camera: frames the model's bounding box (box * pos_scale) from the front,
 * or --eye/--at, or --orbit YAW PITCH DIST (degrees, model units). Floating point is used only
 * here, for the camera set-up, and converted once to 1.19.12 before anything reaches the
 * engine. Texture lookup order: --tex files in the order given, then the model file's TEX0.
 * --all (contact sheets of every model of a file or NARC), --scale (nearest-neighbour output
 * scale) and --light (light vectors/colours) are in tools/sheet.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/nitro.h"
#include "nitro/runtime.h"
#include "raster/frame.h"
#include "raster/raster.h"
#include "tools/commands.h"
#include "tools/sheet.h"

#define MAX_TEX 6

typedef struct tracer {
    gx_engine *gx;
    FILE *f;
    uint32_t run_addr, run_len; /* pending `data` run in the LCDC window */
    uint8_t run[4096];
} tracer;

static void flush_run(tracer *t)
{
    if (!t->f || !t->run_len) return;
    fprintf(t->f, "data %08X ", t->run_addr);
    for (uint32_t i = 0; i < t->run_len; i++) fprintf(t->f, "%02X", t->run[i]);
    fputc('\n', t->f);
    t->run_len = 0;
}

static void tr_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    tracer *t = u;
    if (bytes == 1)
        gx_write8(t->gx, addr, (uint8_t)val);
    else
        gx_write32(t->gx, addr, val);
    if (!t->f) return;
    bool lcdc = bytes == 4 && addr >= REG_VRAM_LCDC_BASE && addr < REG_VRAM_LCDC_END;
    if (lcdc && t->run_len && addr == t->run_addr + t->run_len && t->run_len + 4 <= sizeof t->run) {
        for (int i = 0; i < 4; i++) t->run[t->run_len++] = (uint8_t)(val >> (8 * i));
        return;
    }
    flush_run(t);
    if (lcdc) {
        t->run_addr = addr;
        for (int i = 0; i < 4; i++) t->run[t->run_len++] = (uint8_t)(val >> (8 * i));
        return;
    }
    if (bytes == 1)
        fprintf(t->f, "w8 %08X %02X\n", addr, val & 0xffu);
    else
        fprintf(t->f, "w32 %08X %08X\n", addr, val);
}

static uint32_t tr_read(void *u, uint32_t addr)
{
    return gx_read32(((tracer *)u)->gx, addr);
}

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return b;
}

static fx32 fx(double v)
{
    return (fx32)(v * 4096.0 + (v < 0 ? -0.5 : 0.5));
}

/* Small maths without libm (the CLI does not link it): Newton square root, Taylor sine. */
static double msqrt(double x)
{
    if (x <= 0) return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 60; i++) r = 0.5 * (r + x / r);
    return r;
}

static double msin(double x)
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

static double mcos(double x)
{
    return msin(x + 3.14159265358979 / 2);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: dsgx render MODEL.nsbmd [--tex FILE.nsbtx ...] [--model NAME|INDEX]\n"
               "       [--eye X Y Z --at X Y Z | --orbit YAW PITCH DIST] [--fov DEG]\n"
               "       [--clear RGB15 --clear-alpha A] [--edge] [--fog] [--aa] [--scale N]\n"
               "       [--light I:X,Y,Z:RRGGBB ...] [--trace out.trace] -o out.png\n"
               "       dsgx render --all FILE.nsbmd|ARCHIVE.narc[:INDEX|NAME] [--tex ...]\n"
               "       [--fov DEG] [--clear ...] [--light ...] [--scale N] -o sheet.png\n");
}

int cmd_render(int argc, char **argv)
{
    const char *model_path = NULL, *out = NULL, *trace = NULL, *model_sel = NULL;
    const char *tex_paths[MAX_TEX];
    unsigned ntex = 0, scale = 1, clear_rgb = 0, clear_alpha = 0;
    double fov = 30, eye[3] = {0}, at[3] = {0}, orbit[3] = {0};
    bool have_eye = false, have_orbit = false, edge = false, fog = false, aa = false;
    bool all = false;
    render_light lights[4] = {{0}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && more) {
            out = argv[++i];
        } else if (!strcmp(a, "--tex") && more && ntex < MAX_TEX) {
            tex_paths[ntex++] = argv[++i];
        } else if (!strcmp(a, "--model") && more) {
            model_sel = argv[++i];
        } else if (!strcmp(a, "--trace") && more) {
            trace = argv[++i];
        } else if (!strcmp(a, "--fov") && more) {
            fov = atof(argv[++i]);
        } else if (!strcmp(a, "--scale") && more) {
            scale = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(a, "--clear") && more) {
            clear_rgb = (unsigned)strtoul(argv[++i], NULL, 16) & 0x7fffu;
        } else if (!strcmp(a, "--clear-alpha") && more) {
            clear_alpha = (unsigned)atoi(argv[++i]) & 31u;
        } else if ((!strcmp(a, "--eye") || !strcmp(a, "--at") || !strcmp(a, "--orbit")) &&
                   i + 3 < argc) {
            double *v = !strcmp(a, "--eye") ? eye : !strcmp(a, "--at") ? at : orbit;
            for (int k = 0; k < 3; k++) v[k] = atof(argv[++i]);
            if (v == eye) have_eye = true;
            if (v == orbit) have_orbit = true;
        } else if (!strcmp(a, "--edge")) {
            edge = true;
        } else if (!strcmp(a, "--fog")) {
            fog = true;
        } else if (!strcmp(a, "--aa")) {
            aa = true;
        } else if (!strcmp(a, "--all")) {
            all = true;
        } else if (!strcmp(a, "--light") && more) {
            if (!render_parse_light(argv[++i], lights)) {
                fprintf(stderr, "dsgx render: bad --light %s (want I:X,Y,Z:RRGGBB)\n", argv[i]);
                return 2;
            }
        } else if (a[0] != '-' && !model_path) {
            model_path = a;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!model_path || !out || scale < 1 || scale > 16) {
        usage(stderr);
        return 2;
    }
    if (all) {
        sheet_opts so = {tex_paths, ntex, fov, clear_rgb, clear_alpha, edge, fog, aa, scale, {{0}}};
        memcpy(so.lights, lights, sizeof lights);
        return render_sheet(model_path, &so, out);
    }

    size_t msize;
    uint8_t *mbuf = load(model_path, &msize);
    if (!mbuf) {
        fprintf(stderr, "dsgx render: cannot read %s\n", model_path);
        return 1;
    }
    nitro_file mf;
    char msg[512];
    nitro_status st = nitro_parse(mbuf, msize, &mf);
    if (!st.ok || mf.num_models == 0) {
        nitro_status_format(&st, model_path, msg, sizeof msg);
        fprintf(stderr, "dsgx render: %s\n", st.ok ? "no model in file" : msg);
        free(mbuf);
        return 1;
    }
    int mi = 0;
    if (model_sel) {
        char *end;
        long v = strtol(model_sel, &end, 10);
        mi = *end == 0 ? (int)v : nitro_find_model(&mf, model_sel);
        if (mi < 0 || (unsigned)mi >= mf.num_models) {
            fprintf(stderr, "dsgx render: no model '%s'\n", model_sel);
            nitro_file_free(&mf);
            free(mbuf);
            return 1;
        }
    }
    const nitro_model *m = &mf.models[mi];

    int rc = 1;
    uint8_t *tbuf[MAX_TEX] = {0};
    nitro_file tf[MAX_TEX];
    unsigned ntf = 0;
    gx_engine *gx = gx_create();
    raster_engine *ra = raster_create();
    tracer tr = {.gx = gx};
    static nitro_runtime rt;
    static dsgx_frame frame;
    if (!gx || !ra) goto done;
    if (trace) {
        tr.f = fopen(trace, "w");
        if (!tr.f) {
            fprintf(stderr, "dsgx render: cannot write %s\n", trace);
            goto done;
        }
        fprintf(tr.f, "dsgx-trace 1\n# dsgx render %s model %d\n", model_path, mi);
    }
    nitro_gx_sink sink = {&tr, tr_write, tr_read};
    tr_write(&tr, REG_POWCNT1, 0x820F, 4);
    tr_write(&tr, REG_DISPCNT, 0x00010108, 4);

    nitro_texvram vram;
    nitro_texvram_init(&vram);
    for (unsigned i = 0; i < ntex; i++) {
        size_t ts;
        tbuf[i] = load(tex_paths[i], &ts);
        if (!tbuf[i]) {
            fprintf(stderr, "dsgx render: cannot read %s\n", tex_paths[i]);
            goto done;
        }
        st = nitro_parse(tbuf[i], ts, &tf[ntf]);
        if (!st.ok) {
            nitro_status_format(&st, tex_paths[i], msg, sizeof msg);
            fprintf(stderr, "dsgx render: %s\n", msg);
            goto done;
        }
        ntf++;
        if (tf[ntf - 1].tex0 && !nitro_texvram_upload(&vram, tf[ntf - 1].tex0, tbuf[i], &sink))
            fprintf(stderr, "dsgx render: %s: textures do not fit in VRAM\n", tex_paths[i]);
    }
    if (mf.tex0 && !nitro_texvram_upload(&vram, mf.tex0, mbuf, &sink))
        fprintf(stderr, "dsgx render: %s: textures do not fit in VRAM\n", model_path);
    static nitro_mat_bind binds[NITRO_MAX_MATERIALS];
    unsigned missing = nitro_bind_textures(&vram, m, binds);
    if (missing) fprintf(stderr, "dsgx render: %u texture name(s) not found\n", missing);

    /* rendering registers */
    uint32_t d3 = 1u /* texture */ | 8u /* alpha blend */ | (aa ? 16u : 0) | (edge ? 32u : 0) |
                  (fog ? 128u : 0);
    tr_write(&tr, REG_DISP3DCNT, d3, 4);
    tr_write(&tr, REG_CLEAR_COLOR, clear_rgb | (clear_alpha << 16), 4);
    tr_write(&tr, REG_CLEAR_DEPTH, 0x7FFF, 4);

    /* camera (float, tools side only; converted once to 1.19.12) */
    double ps = m->info.pos_scale / 4096.0, lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = m->info.box[k] / 4096.0 * ps;
        hi[k] = lo[k] + m->info.box[3 + k] / 4096.0 * ps;
    }
    double c[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    double r = 0.5 * msqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                           (hi[2] - lo[2]) * (hi[2] - lo[2]));
    if (r < 1e-3) r = 1;
    double half = fov * 3.14159265358979 / 360.0, dist = r / msin(half) * 1.1;
    if (have_orbit) {
        double yaw = orbit[0] * 3.14159265358979 / 180, pitch = orbit[1] * 3.14159265358979 / 180;
        dist = orbit[2];
        memcpy(at, c, sizeof at);
        eye[0] = c[0] + dist * mcos(pitch) * msin(yaw);
        eye[1] = c[1] + dist * msin(pitch);
        eye[2] = c[2] + dist * mcos(pitch) * mcos(yaw);
    } else if (!have_eye) {
        memcpy(at, c, sizeof at);
        eye[0] = c[0];
        eye[1] = c[1];
        eye[2] = c[2] + dist;
    }
    double ex[3] = {eye[0] - at[0], eye[1] - at[1], eye[2] - at[2]};
    double ed = msqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]);
    double nearv = ed - r * 1.5 > ed * 0.01 ? ed - r * 1.5 : ed * 0.01, farv = ed + r * 1.5;
    /* scale the world so that far fits 1.19.12 comfortably */
    fx32 feye[3], fat[3], fup[3] = {0, FX32_ONE, 0}, cam[12];
    for (int k = 0; k < 3; k++) {
        feye[k] = fx(eye[k]);
        fat[k] = fx(at[k]);
    }
    static nitro_glb glb;
    nitro_glb_init(&glb);
    render_apply_lights(&glb, lights);
    nitro_camera_lookat(feye, fup, fat, cam);
    nitro_glb_set_camera(&glb, cam);
    nitro_camera_perspective(fx(msin(half)), fx(mcos(half)), fx(256.0 / 192.0), fx(nearv), fx(farv),
                             glb.proj);
    nitro_glb_flush(&glb, &sink);
    nitro_runtime_init(&rt, m, mbuf, &glb, &sink, binds);
    nitro_runtime_draw(&rt);
    tr_write(&tr, 0x04000540, 0, 4); /* SWAP_BUFFERS */
    flush_run(&tr);
    if (tr.f) fprintf(tr.f, "frame\n");
    gx_vblank(gx);
    raster_render(ra, gx_render_frame(gx), &frame, NULL);

    if (render_write_scaled(&frame, scale, out, msg, sizeof msg) == 0) rc = 0;
    if (rc) fprintf(stderr, "dsgx render: %s\n", msg);
    char hex[17];
    dsgx_frame_hash_hex(&frame, hex);
    printf("%s %s\n", hex, out);
done:
    if (tr.f) fclose(tr.f);
    for (unsigned i = 0; i < ntf; i++) nitro_file_free(&tf[i]);
    for (unsigned i = 0; i < MAX_TEX; i++) free(tbuf[i]);
    if (ra) raster_destroy(ra);
    if (gx) gx_destroy(gx);
    nitro_file_free(&mf);
    free(mbuf);
    return rc;
}
