/*
 * t3dm_render.c - `dsgx render MODEL.t3dm`: a Tiny3D model through t3dm/draw.h, the geometry
 * engine and the rendering engine, with the options of `dsgx render` for NSBMD files:
 *   -o out.png, --eye X Y Z --at X Y Z | --orbit YAW PITCH DIST, --fov DEG, --clear RGB15,
 *   --clear-alpha A, --edge, --fog, --aa, --scale N, --light I:X,Y,Z:RRGGBB, --trace out.trace,
 *   --model NAME|INDEX (one object), --anim NAME|INDEX with --frame N or --frames A..B[:STEP]
 *   (-o then a pattern with one %d) and --sheet sheet.png, --all (a contact sheet: the whole
 *   model and each object), --tex-dir DIR (any number).
 * Camera: by default the bounding box of the bind pose (bones applied) seen from the front,
 * as for NSBMD files. Frames: frame N is N/60 s of the animation (Tiny3D's keyframe tick),
 * looped. Textures: each material's sprite path ("rom:/dir/x.ci4.sprite") is looked for
 * beside the model (the path after "rom:/", then the file name) and then in each --tex-dir;
 * a missing or unreadable sprite draws its material untextured after one warning naming it.
 * The .sdata of the chosen animation must be beside the model (an error otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/sheet.h"
#include "raster/frame.h"
#include "raster/raster.h"
#include "t3dm/draw.h"
#include "t3dm/t3dm.h"
#include "tools/cli_util.h"
#include "tools/sheet.h"
#include "tools/t3dm_cli.h"

#define MAX_TEX_DIRS 8
#define MAX_FRAMES   100000L
#define MAX_SHEET    64u

typedef struct opts {
    const char *model, *out, *trace, *sheet, *frame, *frames, *anim, *object;
    const char *tex_dirs[MAX_TEX_DIRS];
    unsigned ntex_dirs, scale, clear_rgb, clear_alpha;
    double fov, eye[3], at[3], orbit[3];
    bool have_eye, have_orbit, edge, fog, aa, all;
    render_light lights[4];
} opts;

typedef struct scene {
    const t3dm_model *m;
    uint8_t **sprite; /* per material: the sprite file bytes, NULL = untextured */
    size_t *sprite_size;
    int *sprite_first; /* the first material with the same bytes (uploaded once) */
    t3dm_pose pose;
    int anim, object;
    uint32_t disp3dcnt, clear;
    uint8_t light_mask;
    nitro_glb glb;
} scene;

/* ---- the trace writer (the same text format as cmd_render.c: w8/w32/data lines) ---- */

typedef struct tracer {
    gx_engine *gx;
    FILE *f;
    uint32_t run_addr, run_len;
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

static void null_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    (void)u;
    (void)addr;
    (void)val;
    (void)bytes;
}

/* ---- textures ---- */

static uint8_t *try_read(const char *dir, const char *name, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", dir, *dir && dir[strlen(dir) - 1] != '/' ? "/" : "",
             name);
    return t3dm_cli_read(path, size);
}

/* Look a sprite up beside the model, then in each --tex-dir (relative path, then file name). */
static uint8_t *find_sprite(const opts *o, const char *stored, size_t *size)
{
    char dir[2048];
    snprintf(dir, sizeof dir, "%s", o->model);
    char *sl = strrchr(dir, '/');
    if (sl)
        sl[1] = 0;
    else
        dir[0] = 0;
    const char *rel = strncmp(stored, "rom:/", 5) ? stored : stored + 5;
    const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
    const char *dirs[MAX_TEX_DIRS + 1];
    unsigned nd = 0;
    dirs[nd++] = dir;
    for (unsigned i = 0; i < o->ntex_dirs; i++) dirs[nd++] = o->tex_dirs[i];
    for (unsigned i = 0; i < nd; i++) {
        uint8_t *d = try_read(dirs[i], rel, size);
        if (!d && base != rel) d = try_read(dirs[i], base, size);
        if (d) return d;
    }
    return NULL;
}

static bool load_textures(scene *sc, const opts *o)
{
    unsigned n = sc->m->num_materials;
    sc->sprite = calloc(n + 1u, sizeof *sc->sprite);
    sc->sprite_size = calloc(n + 1u, sizeof *sc->sprite_size);
    sc->sprite_first = calloc(n + 1u, sizeof *sc->sprite_first);
    if (!sc->sprite || !sc->sprite_size || !sc->sprite_first) return false;
    for (unsigned i = 0; i < n; i++) {
        sc->sprite_first[i] = -1;
        const char *p = sc->m->materials[i].tex[0].path;
        if (!p) continue;
        for (unsigned k = 0; k < i; k++)
            if (sc->m->materials[k].tex[0].path && !strcmp(sc->m->materials[k].tex[0].path, p)) {
                sc->sprite_first[i] = sc->sprite_first[k] >= 0 ? sc->sprite_first[k] : (int)k;
                break;
            }
        if (sc->sprite_first[i] >= 0) continue;
        sc->sprite[i] = find_sprite(o, p, &sc->sprite_size[i]);
        if (!sc->sprite[i])
            fprintf(stderr,
                    "dsgx render: warning: texture %s not found beside the model or in "
                    "--tex-dir; material %u \"%s\" drawn untextured\n",
                    p, i, sc->m->materials[i].name ? sc->m->materials[i].name : "");
    }
    /* placement pass: report sprites that do not read or fit, once, and drop them */
    nitro_gx_sink null_sink = {NULL, null_write, NULL};
    nitro_texvram vram;
    nitro_texvram_init(&vram);
    for (unsigned i = 0; i < n; i++) {
        if (!sc->sprite[i]) continue;
        t3dm_texbind b;
        char err[300];
        if (!t3dm_upload_sprite(&vram, sc->sprite[i], sc->sprite_size[i], &null_sink, &b, err,
                                sizeof err)) {
            fprintf(stderr, "dsgx render: warning: texture %s: %s; drawn untextured\n",
                    sc->m->materials[i].tex[0].path, err);
            free(sc->sprite[i]);
            sc->sprite[i] = NULL;
        }
    }
    return true;
}

/* ---- one frame ---- */

static bool draw_frame(scene *sc, long frame, FILE *trace_f, dsgx_frame *out)
{
    gx_engine *gx = gx_create();
    raster_engine *ra = raster_create();
    tracer *tr = calloc(1, sizeof *tr);
    nitro_texvram *vram = calloc(1, sizeof *vram);
    unsigned n = sc->m->num_materials;
    t3dm_texbind *binds = calloc(n + 1u, sizeof *binds);
    bool ok = gx && ra && tr && vram && binds;
    if (ok) {
        tr->gx = gx;
        tr->f = trace_f;
        nitro_gx_sink sink = {tr, tr_write, tr_read};
        tr_write(tr, REG_POWCNT1, 0x820F, 4);
        tr_write(tr, REG_DISPCNT, 0x00010108, 4);
        nitro_texvram_init(vram);
        for (unsigned i = 0; i < n; i++) {
            char err[300];
            if (sc->sprite[i])
                t3dm_upload_sprite(vram, sc->sprite[i], sc->sprite_size[i], &sink, &binds[i], err,
                                   sizeof err);
            else if (sc->sprite_first[i] >= 0)
                binds[i] = binds[sc->sprite_first[i]];
        }
        tr_write(tr, REG_DISP3DCNT, sc->disp3dcnt, 4);
        tr_write(tr, REG_CLEAR_COLOR, sc->clear, 4);
        tr_write(tr, REG_CLEAR_DEPTH, 0x7FFF, 4);
        nitro_glb glb = sc->glb;
        nitro_glb_flush(&glb, &sink);
        t3dm_pose_bind(&sc->pose, sc->m);
        if (sc->anim >= 0)
            t3dm_pose_animate(&sc->pose, sc->m, (unsigned)sc->anim,
                              (float)frame / (float)T3DM_TICKS_PER_SECOND);
        t3dm_draw_opts o = {&sc->pose, binds, sc->light_mask, sc->object, true};
        t3dm_draw(sc->m, &o, &sink);
        tr_write(tr, 0x04000540, 0, 4); /* SWAP_BUFFERS */
        flush_run(tr);
        if (tr->f) fprintf(tr->f, "frame\n");
        gx_vblank(gx);
        raster_render(ra, gx_render_frame(gx), out, NULL);
    }
    free(binds);
    free(vram);
    free(tr);
    if (ra) raster_destroy(ra);
    if (gx) gx_destroy(gx);
    return ok;
}

/* ---- camera ---- */

/* Bounding box of the bind pose: every loaded vertex through its bone's matrix. */
static void pose_box(const scene *sc, double lo[3], double hi[3])
{
    const t3dm_model *m = sc->m;
    bool any = false;
    for (int k = 0; k < 3; k++) lo[k] = hi[k] = 0;
    for (unsigned oi = 0; oi < m->num_objects; oi++) {
        if (sc->object >= 0 && (int)oi != sc->object) continue;
        const t3dm_object *ob = &m->objects[oi];
        for (unsigned p = 0; p < ob->num_parts; p++) {
            const t3dm_part *pt = &ob->parts[p];
            for (unsigned i = 0; i < pt->vert_count; i++) {
                t3dm_vertex v;
                t3dm_vertex_get(m, pt->vert_offset + 16u * i, &v);
                double q[3] = {v.pos[0], v.pos[1], v.pos[2]};
                if (pt->matrix != 0xFFFF && pt->matrix < sc->pose.num_bones) {
                    const fx32 *mx = sc->pose.matrix[pt->matrix];
                    double r[3];
                    for (int c = 0; c < 3; c++)
                        r[c] = (q[0] * mx[c] + q[1] * mx[3 + c] + q[2] * mx[6 + c] + mx[9 + c]) /
                               4096.0;
                    memcpy(q, r, sizeof q);
                }
                for (int k = 0; k < 3; k++) {
                    if (!any || q[k] < lo[k]) lo[k] = q[k];
                    if (!any || q[k] > hi[k]) hi[k] = q[k];
                }
                any = true;
            }
        }
    }
}

static void setup_camera(scene *sc, const opts *o)
{
    double lo[3], hi[3], eye[3], at[3];
    pose_box(sc, lo, hi);
    double c[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    double r =
        0.5 * render_sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                          (hi[2] - lo[2]) * (hi[2] - lo[2]));
    if (r < 1e-3) r = 1;
    double half = o->fov * 3.14159265358979 / 360.0, dist = r / render_sin(half) * 1.1;
    memcpy(eye, o->eye, sizeof eye);
    memcpy(at, o->at, sizeof at);
    if (o->have_orbit) {
        double yaw = o->orbit[0] * 3.14159265358979 / 180,
               pitch = o->orbit[1] * 3.14159265358979 / 180;
        dist = o->orbit[2];
        memcpy(at, c, sizeof at);
        eye[0] = c[0] + dist * render_cos(pitch) * render_sin(yaw);
        eye[1] = c[1] + dist * render_sin(pitch);
        eye[2] = c[2] + dist * render_cos(pitch) * render_cos(yaw);
    } else if (!o->have_eye) {
        memcpy(at, c, sizeof at);
        eye[0] = c[0];
        eye[1] = c[1];
        eye[2] = c[2] + dist;
    }
    double ex[3] = {eye[0] - at[0], eye[1] - at[1], eye[2] - at[2]};
    double ed = render_sqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]);
    double nearv = ed - r * 1.5 > ed * 0.01 ? ed - r * 1.5 : ed * 0.01, farv = ed + r * 1.5;
    fx32 feye[3], fat[3], fup[3] = {0, FX32_ONE, 0}, cam[12];
    for (int k = 0; k < 3; k++) {
        feye[k] = render_fx(eye[k]);
        fat[k] = render_fx(at[k]);
    }
    t3dm_glb_init(&sc->glb); /* base scale = T3DM_POS_SCALE (t3dm/draw.h) */
    render_apply_lights(&sc->glb, o->lights);
    nitro_camera_lookat(feye, fup, fat, cam);
    nitro_glb_set_camera(&sc->glb, cam);
    nitro_camera_perspective(render_fx(render_sin(half)), render_fx(render_cos(half)),
                             render_fx(256.0 / 192.0), render_fx(nearv), render_fx(farv),
                             sc->glb.proj);
    sc->light_mask = 1;
    for (unsigned i = 0; i < 4; i++)
        if (o->lights[i].set) sc->light_mask |= (uint8_t)(1u << i);
}

/* ---- options ---- */

static void usage(FILE *f)
{
    fprintf(f, "usage: dsgx render MODEL.t3dm [--tex-dir DIR ...] [--model NAME|INDEX]\n"
               "       [--eye X Y Z --at X Y Z | --orbit YAW PITCH DIST] [--fov DEG]\n"
               "       [--clear RGB15 --clear-alpha A] [--edge] [--fog] [--aa] [--scale N]\n"
               "       [--light I:X,Y,Z:RRGGBB ...] [--trace out.trace] -o out.png\n"
               "       [--anim NAME|INDEX] [--frame N | --frames A..B[:STEP]] [--sheet s.png]\n"
               "       dsgx render --all MODEL.t3dm [...] -o sheet.png\n"
               "  frame N = N/60 s of the animation; sprites and .sdata files are looked for\n"
               "  beside the model (and sprites in each --tex-dir)\n");
}

static bool parse_num(const char *s, const char *end, long *out)
{
    if (s == end || end - s > 9) return false;
    long v = 0;
    for (const char *p = s; p < end; p++) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return v < MAX_FRAMES;
}

static bool parse_range(const char *s, long *a, long *b, long *step)
{
    const char *dots = strstr(s, ".."), *colon = strchr(s, ':');
    if (!dots || (colon && colon < dots)) return false;
    const char *bend = colon ? colon : s + strlen(s);
    *step = 1;
    if (!parse_num(s, dots, a) || !parse_num(dots + 2, bend, b)) return false;
    if (colon && !parse_num(colon + 1, colon + strlen(colon), step)) return false;
    return *a <= *b && *step >= 1;
}

/* One %d (optionally %0Nd) in the pattern, %% for '%'; formatted by hand. */
static bool pattern_format(const char *pat, long v, char *out, size_t size)
{
    size_t o = 0;
    int convs = 0;
    for (const char *p = pat; *p && o + 1 < size; p++) {
        if (*p != '%') {
            out[o++] = *p;
            continue;
        }
        if (p[1] == '%') {
            out[o++] = '%';
            p++;
            continue;
        }
        const char *q = p + 1;
        bool zero = *q == '0';
        if (zero) q++;
        int width = (*q >= '1' && *q <= '9') ? *q++ - '0' : 0;
        if (*q != 'd') return false;
        char digits[24];
        int nd = snprintf(digits, sizeof digits, "%ld", v);
        for (int i = nd; i < width && o + 1 < size; i++) out[o++] = zero ? '0' : ' ';
        for (int i = 0; i < nd && o + 1 < size; i++) out[o++] = digits[i];
        convs++;
        p = q;
    }
    out[o] = 0;
    return convs <= 1;
}

static int parse_args(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->fov = 30;
    o->scale = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && more) {
            o->out = argv[++i];
        } else if (!strcmp(a, "--tex-dir") && more) {
            if (o->ntex_dirs == MAX_TEX_DIRS) {
                fprintf(stderr, "dsgx render: at most %d --tex-dir\n", MAX_TEX_DIRS);
                return 2;
            }
            o->tex_dirs[o->ntex_dirs++] = argv[++i];
        } else if (!strcmp(a, "--anim") && more) {
            o->anim = argv[++i];
        } else if (!strcmp(a, "--frame") && more) {
            o->frame = argv[++i];
        } else if (!strcmp(a, "--frames") && more) {
            o->frames = argv[++i];
        } else if (!strcmp(a, "--sheet") && more) {
            o->sheet = argv[++i];
        } else if (!strcmp(a, "--model") && more) {
            o->object = argv[++i];
        } else if (!strcmp(a, "--trace") && more) {
            o->trace = argv[++i];
        } else if (!strcmp(a, "--fov") && more) {
            o->fov = atof(argv[++i]);
        } else if (!strcmp(a, "--scale") && more) {
            o->scale = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(a, "--clear") && more) {
            o->clear_rgb = (unsigned)strtoul(argv[++i], NULL, 16) & 0x7fffu;
        } else if (!strcmp(a, "--clear-alpha") && more) {
            o->clear_alpha = (unsigned)atoi(argv[++i]) & 31u;
        } else if ((!strcmp(a, "--eye") || !strcmp(a, "--at") || !strcmp(a, "--orbit")) &&
                   i + 3 < argc) {
            double *v = !strcmp(a, "--eye") ? o->eye : !strcmp(a, "--at") ? o->at : o->orbit;
            for (int k = 0; k < 3; k++) v[k] = atof(argv[++i]);
            if (v == o->eye) o->have_eye = true;
            if (v == o->orbit) o->have_orbit = true;
        } else if (!strcmp(a, "--edge")) {
            o->edge = true;
        } else if (!strcmp(a, "--fog")) {
            o->fog = true;
        } else if (!strcmp(a, "--aa")) {
            o->aa = true;
        } else if (!strcmp(a, "--all")) {
            o->all = true;
        } else if (!strcmp(a, "--light") && more) {
            if (!render_parse_light(argv[++i], o->lights)) {
                fprintf(stderr, "dsgx render: bad --light %s (want I:X,Y,Z:RRGGBB)\n", argv[i]);
                return 2;
            }
        } else if (a[0] != '-' && !o->model) {
            o->model = a;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!o->model || (!o->out && !(o->frames && o->sheet)) || o->scale < 1 || o->scale > 16) {
        usage(stderr);
        return 2;
    }
    return -1;
}

/* ---- the command ---- */

static int render_sequence(scene *sc, const opts *o, long a, long b, long step)
{
    unsigned total = (unsigned)((b - a) / step + 1), every = 1;
    nitro_sheet sh;
    bool have_sheet = false;
    char msg[512];
    if (o->sheet) {
        every = (total + MAX_SHEET - 1) / MAX_SHEET;
        if (!nitro_sheet_init(&sh, (total + every - 1) / every, 1, true)) return 1;
        have_sheet = true;
    }
    static dsgx_frame frame;
    int rc = 0;
    unsigned i = 0;
    for (long f = a; f <= b; f += step, i++) {
        if (!draw_frame(sc, f, NULL, &frame)) {
            rc = 1;
            break;
        }
        char hex[17], path[1024];
        dsgx_frame_hash_hex(&frame, hex);
        if (o->out) {
            pattern_format(o->out, f, path, sizeof path);
            char dir[1024];
            snprintf(dir, sizeof dir, "%s", path);
            char *slash = strrchr(dir, '/');
            if (slash && slash != dir) {
                *slash = 0;
                cli_mkdirs(dir); /* out/frame000.png -> out/, as cmd_render does */
            }
            if (render_write_scaled(&frame, o->scale, path, msg, sizeof msg)) {
                fprintf(stderr, "dsgx render: %s\n", msg);
                rc = 1;
                break;
            }
        }
        if (have_sheet && i % every == 0) {
            char label[32];
            snprintf(label, sizeof label, "frame %ld", f);
            nitro_sheet_put(&sh, i / every, &frame, label, true);
        }
        printf("frame %ld %s\n", f, hex);
    }
    if (have_sheet) {
        if (!rc && nitro_sheet_write_png(&sh, o->sheet, msg, sizeof msg)) {
            fprintf(stderr, "dsgx render: %s\n", msg);
            rc = 1;
        } else if (!rc) {
            printf("%s %ux%u, %u frame(s)\n", o->sheet, sh.width, sh.height,
                   (total + every - 1) / every);
        }
        nitro_sheet_free(&sh);
    }
    return rc;
}

/* --all: the whole model, then each object on its own (each framed by itself). */
static int render_all(scene *sc, const opts *o)
{
    unsigned cells = 1 + (sc->m->num_objects > 1 ? sc->m->num_objects : 0);
    nitro_sheet sh;
    char msg[512];
    if (!nitro_sheet_init(&sh, cells, o->scale, true)) return 1;
    static dsgx_frame frame;
    int rc = 0;
    for (unsigned c = 0; c < cells && !rc; c++) {
        sc->object = c == 0 ? -1 : (int)c - 1;
        setup_camera(sc, o); /* each cell frames its own object, as --model does */
        if (!draw_frame(sc, 0, NULL, &frame)) {
            rc = 1;
            break;
        }
        char hex[17], label[64];
        dsgx_frame_hash_hex(&frame, hex);
        const char *nm = c ? sc->m->objects[c - 1].name : "all";
        snprintf(label, sizeof label, "%s", nm ? nm : "");
        nitro_sheet_put(&sh, c, &frame, label, true);
        printf("%s %s\n", hex, label);
    }
    if (!rc && nitro_sheet_write_png(&sh, o->out, msg, sizeof msg)) {
        fprintf(stderr, "dsgx render: %s\n", msg);
        rc = 1;
    } else if (!rc) {
        printf("%s %ux%u, %u cell(s)\n", o->out, sh.width, sh.height, cells);
    }
    nitro_sheet_free(&sh);
    return rc;
}

static int check_frames(const opts *o, long *fa, long *fb, long *step)
{
    *fa = *fb = 0;
    *step = 1;
    if (o->frame && o->frames) {
        fprintf(stderr, "dsgx render: --frame and --frames exclude each other\n");
        return 2;
    }
    if (o->frame && !parse_num(o->frame, o->frame + strlen(o->frame), fa)) {
        fprintf(stderr, "dsgx render: bad --frame '%s' (want a whole frame number 0..%ld)\n",
                o->frame, MAX_FRAMES - 1);
        return 2;
    }
    if (o->frames && !parse_range(o->frames, fa, fb, step)) {
        fprintf(stderr,
                "dsgx render: bad --frames '%s' (want A..B or A..B:STEP, whole frames, A <= B, "
                "STEP >= 1, below %ld)\n",
                o->frames, MAX_FRAMES);
        return 2;
    }
    if (!o->frames) *fb = *fa;
    if (o->frames && o->out) {
        char tmp[8];
        bool one = strchr(o->out, '%') != NULL;
        if (!pattern_format(o->out, 0, tmp, sizeof tmp) || (!one && *fb > *fa)) {
            fprintf(stderr,
                    "dsgx render: with --frames, -o needs one %%d conversion (e.g. "
                    "'out/frame%%03d.png'), got '%s'\n",
                    o->out);
            return 2;
        }
    }
    if (o->sheet && !o->frames) {
        fprintf(stderr, "dsgx render: --sheet needs --frames A..B\n");
        return 2;
    }
    if (o->trace && o->frames) {
        fprintf(stderr, "dsgx render: --trace records one frame; use --frame N\n");
        return 2;
    }
    if (o->all && (o->anim || o->frames)) {
        fprintf(stderr, "dsgx render: --all does not take --anim or --frames\n");
        return 2;
    }
    return -1;
}

static int run(const opts *o, t3dm_model *m, long fa, long fb, long step)
{
    static scene sc;
    memset(&sc, 0, sizeof sc);
    sc.m = m;
    sc.anim = -1;
    sc.object = -1;
    int rc = 1;
    FILE *trace_f = NULL;
    if (!t3dm_pose_init(&sc.pose, m) || !load_textures(&sc, o)) goto done;
    if (o->object) {
        char *end;
        long v = strtol(o->object, &end, 10);
        sc.object = -1;
        if (*end == 0 && v >= 0 && v < (long)m->num_objects) sc.object = (int)v;
        for (unsigned i = 0; sc.object < 0 && i < m->num_objects; i++)
            if (m->objects[i].name && !strcmp(m->objects[i].name, o->object)) sc.object = (int)i;
        if (sc.object < 0) {
            fprintf(stderr, "dsgx render: no object '%s'\n", o->object);
            goto done;
        }
    }
    if (o->anim) {
        sc.anim = t3dm_find_anim(m, o->anim);
        if (sc.anim < 0) {
            fprintf(stderr, "dsgx render: %s: no animation '%s'; the model has", o->model, o->anim);
            for (unsigned i = 0; i < m->num_anims; i++)
                fprintf(stderr, "%s %u \"%s\"", i ? "," : "", i, m->anims[i].name);
            fputc('\n', stderr);
            goto done;
        }
        if (!t3dm_cli_load_sdata(m, o->model, sc.anim, true)) goto done;
    }
    sc.disp3dcnt = 1u | 8u | (o->aa ? 16u : 0) | (o->edge ? 32u : 0) | (o->fog ? 128u : 0);
    sc.clear = o->clear_rgb | (o->clear_alpha << 16);
    setup_camera(&sc, o);
    if (o->all) {
        rc = render_all(&sc, o);
        goto done;
    }
    if (o->frames) {
        rc = render_sequence(&sc, o, fa, fb, step);
        goto done;
    }
    if (o->trace) {
        trace_f = fopen(o->trace, "w");
        if (!trace_f) {
            fprintf(stderr, "dsgx render: cannot write %s\n", o->trace);
            goto done;
        }
        fprintf(trace_f, "dsgx-trace 1\n# dsgx render %s frame %ld\n", o->model, fa);
    }
    static dsgx_frame frame;
    if (!draw_frame(&sc, fa, trace_f, &frame)) {
        fprintf(stderr, "dsgx render: out of memory\n");
        goto done;
    }
    char msg[512], hex[17];
    if (render_write_scaled(&frame, o->scale, o->out, msg, sizeof msg) == 0)
        rc = 0;
    else
        fprintf(stderr, "dsgx render: %s\n", msg);
    dsgx_frame_hash_hex(&frame, hex);
    printf("%s %s\n", hex, o->out);
done:
    if (trace_f) fclose(trace_f);
    for (unsigned i = 0; sc.sprite && i < m->num_materials; i++) free(sc.sprite[i]);
    free(sc.sprite);
    free(sc.sprite_size);
    free(sc.sprite_first);
    t3dm_pose_free(&sc.pose);
    return rc;
}

int t3dm_cli_render(int argc, char **argv)
{
    bool found = false;
    for (int i = 1; i < argc && !found; i++) found = argv[i][0] != '-' && t3dm_cli_is_t3dm(argv[i]);
    if (!found) return -1;
    opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) return rc;
    long fa, fb, step;
    rc = check_frames(&o, &fa, &fb, &step);
    if (rc >= 0) return rc;
    size_t size;
    uint8_t *data = t3dm_cli_read(o.model, &size);
    if (!data) {
        fprintf(stderr, "dsgx render: cannot read %s\n", o.model);
        return 1;
    }
    t3dm_model m;
    t3dm_status st = t3dm_parse(data, size, &m);
    if (!st.ok) {
        char msg[600];
        t3dm_status_format(&st, o.model, msg, sizeof msg);
        fprintf(stderr, "dsgx render: %s\n", msg);
        free(data);
        return 1;
    }
    rc = run(&o, &m, fa, fb, step);
    t3dm_free(&m);
    free(data);
    return rc;
}
