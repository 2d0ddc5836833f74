/*
 * t3dm_render.c - `dsgx render MODEL.t3dm`: a Tiny3D model through t3dm/draw.h, the geometry
 * engine and the rendering engine, with the options of `dsgx render` for NSBMD files:
 *   -o out.png, --eye X Y Z --at X Y Z | --orbit YAW PITCH DIST, --fov DEG, --near Z --far Z,
 *   --clear RGB15, --clear-alpha A, --edge, --fog, --aa, --scale N, --light I:X,Y,Z:RRGGBB,
 *   --trace out.trace, --model NAME|INDEX (one object), --anim NAME|INDEX with --frame N or
 *   --frames A..B[:STEP] (-o then a pattern with one %d) and --sheet sheet.png, --all (a contact
 *   sheet: the whole model and each object) with --shard I/N, --tex-dir DIR (any number).
 * Camera: the auto-fit of tools/core/autofit.h as for NSBMD files (tools/sheet.c
 * render_set_camera): every vertex the parts load, through its bone's matrix in the pose of the
 * animation's first frame (frame 0; the bind pose without --anim), centred and filling the
 * frame from the raised three-quarter view; --orbit and --eye/--at as for NSBMD files. Frames:
 * frame N is N/60 s of the animation (Tiny3D's keyframe tick), looped. Textures: each
 * material's sprite path ("rom:/dir/x.ci4.sprite") is looked for beside the model (the path
 * after "rom:/", then the file name) and then in each --tex-dir; a missing or unreadable
 * sprite draws its material untextured after one warning naming it. The .sdata of the chosen
 * animation must be beside the model (an error otherwise).
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
#include "tools/core/autofit.h"
#include "tools/progress.h"
#include "tools/render_util.h"
#include "tools/sheet.h"
#include "tools/t3dm_cli.h"

#define MAX_TEX_DIRS 8

typedef struct opts {
    render_options r; /* the options of `dsgx render` for NSBMD files; r.select: the object */
    const char *anim;
    const char *tex_dirs[MAX_TEX_DIRS];
    unsigned ntex_dirs;
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
    snprintf(dir, sizeof dir, "%s", o->r.model);
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
    nitro_gx_sink null_sink = {NULL, render_null_write, NULL};
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
    render_tracer *tr = calloc(1, sizeof *tr);
    nitro_texvram *vram = calloc(1, sizeof *vram);
    unsigned n = sc->m->num_materials;
    t3dm_texbind *binds = calloc(n + 1u, sizeof *binds);
    bool ok = gx && ra && tr && vram && binds;
    if (ok) {
        tr->gx = gx;
        tr->f = trace_f;
        nitro_gx_sink sink = {tr, render_tracer_write, render_tracer_read};
        render_tracer_write(tr, REG_POWCNT1, 0x820F, 4);
        render_tracer_write(tr, REG_DISPCNT, 0x00010108, 4);
        nitro_texvram_init(vram);
        for (unsigned i = 0; i < n; i++) {
            char err[300];
            if (sc->sprite[i])
                t3dm_upload_sprite(vram, sc->sprite[i], sc->sprite_size[i], &sink, &binds[i], err,
                                   sizeof err);
            else if (sc->sprite_first[i] >= 0)
                binds[i] = binds[sc->sprite_first[i]];
        }
        render_tracer_write(tr, REG_DISP3DCNT, sc->disp3dcnt, 4);
        render_tracer_write(tr, REG_CLEAR_COLOR, sc->clear, 4);
        render_tracer_write(tr, REG_CLEAR_DEPTH, 0x7FFF, 4);
        nitro_glb glb = sc->glb;
        nitro_glb_flush(&glb, &sink);
        t3dm_pose_bind(&sc->pose, sc->m);
        if (sc->anim >= 0)
            t3dm_pose_animate(&sc->pose, sc->m, (unsigned)sc->anim,
                              (float)frame / (float)T3DM_TICKS_PER_SECOND);
        t3dm_draw_opts o = {&sc->pose, binds, sc->light_mask, sc->object, true};
        t3dm_draw(sc->m, &o, &sink);
        render_tracer_write(tr, 0x04000540, 0, 4); /* SWAP_BUFFERS */
        render_tracer_flush(tr);
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

/* The model's points for the auto-fit: every vertex the drawn parts load, through its bone's
 * matrix in the pose of frame 0 (the animation's first frame, or the bind pose). */
static bool fit_points(scene *sc, dsgx_fit_points *pts)
{
    const t3dm_model *m = sc->m;
    t3dm_pose_bind(&sc->pose, m);
    if (sc->anim >= 0) t3dm_pose_animate(&sc->pose, m, (unsigned)sc->anim, 0.0f);
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
                if (!dsgx_fit_points_add(pts, q[0], q[1], q[2])) return false;
            }
        }
    }
    return true;
}

/* Global state with the camera `o` asks for, fitted to the object(s) sc->object draws. */
static bool setup_camera(scene *sc, const opts *o)
{
    dsgx_fit_points pts;
    dsgx_fit_points_init(&pts);
    if (!fit_points(sc, &pts) && pts.n == 0) { /* at the point limit the points kept fit */
        dsgx_fit_points_free(&pts);
        return false;
    }
    t3dm_glb_init(&sc->glb); /* base scale = T3DM_POS_SCALE (t3dm/draw.h) */
    render_apply_lights(&sc->glb, o->r.lights);
    render_set_camera(&sc->glb, &o->r.cam, &pts);
    dsgx_fit_points_free(&pts);
    sc->light_mask = 1;
    for (unsigned i = 0; i < 4; i++)
        if (o->r.lights[i].set) sc->light_mask |= (uint8_t)(1u << i);
    return true;
}

/* ---- options ---- */

static void usage(FILE *f)
{
    fprintf(f, "usage: dsgx render MODEL.t3dm [--tex-dir DIR ...] [--model NAME|INDEX]\n"
               "       [--eye X Y Z --at X Y Z | --orbit YAW PITCH DIST] [--fov DEG]\n"
               "       [--near Z --far Z]\n"
               "       [--clear RGB15 --clear-alpha A] [--edge] [--fog] [--aa] [--scale N]\n"
               "       [--light I:X,Y,Z:RRGGBB ...] [--trace out.trace] -o out.png\n"
               "       [--anim NAME|INDEX] [--frame N | --frames A..B[:STEP]] [--sheet s.png]\n"
               "       dsgx render --all MODEL.t3dm [--shard I/N] [...] -o sheet.png\n"
               "  frame N = N/60 s of the animation; sprites and .sdata files are looked for\n"
               "  beside the model (and sprites in each --tex-dir). Camera: the auto-fit of\n"
               "  NSBMD files (`dsgx render --help`) on the pose of the animation's frame 0.\n"
               "  --all: the whole model, then each object; --shard I/N: cells k with\n"
               "  k mod N = I - 1.\n");
}

/* --tex-dir DIR and --anim NAME|INDEX (render_extra_fn). */
static int own_option(void *user, int argc, char **argv, int i)
{
    opts *o = user;
    if (!strcmp(argv[i], "--tex")) {
        fprintf(stderr, "dsgx render: --tex names Nitro texture files; a T3DM's sprites are "
                        "found beside the model or in --tex-dir DIR\n");
        return -1;
    }
    if (i + 1 >= argc) return 0;
    if (!strcmp(argv[i], "--anim")) {
        o->anim = argv[i + 1];
        return 2;
    }
    if (strcmp(argv[i], "--tex-dir")) return 0;
    if (o->ntex_dirs == MAX_TEX_DIRS) {
        fprintf(stderr, "dsgx render: at most %d --tex-dir\n", MAX_TEX_DIRS);
        return -1;
    }
    o->tex_dirs[o->ntex_dirs++] = argv[i + 1];
    return 2;
}

static int parse_args(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    render_options_init(&o->r);
    return render_options_read(&o->r, argc, argv, own_option, o, usage);
}

/* The option combinations; @return -1 (fine) or the exit status. */
static int check_opts(const opts *o, bool result, long *fa, long *fb, long *step)
{
    if (!o->r.model || (!o->r.out && !(o->r.frames && o->r.sheet) && !result) || o->r.scale < 1 ||
        o->r.scale > 16) {
        usage(stderr);
        return 2;
    }
    if (render_frame_options(o->r.frame, o->r.frames, o->r.out, o->r.sheet, o->r.trace, fa, fb,
                             step))
        return 2;
    if (result && (o->r.frames || o->r.all || o->r.trace)) {
        fprintf(stderr, "dsgx render: one frame only here (no --frames, --all or --trace)\n");
        return 2;
    }
    if (o->r.cam.fov <= 0 || o->r.cam.fov >= 180) {
        fprintf(stderr, "dsgx render: bad --fov (want 0 < DEG < 180)\n");
        return 2;
    }
    if (o->r.all && (o->anim || o->r.frames)) {
        fprintf(stderr, "dsgx render: --all does not take --anim or --frames\n");
        return 2;
    }
    if (o->r.shard) {
        unsigned i, n;
        if (!o->r.all || !render_parse_shard(o->r.shard, &i, &n)) {
            fprintf(stderr, "dsgx render: %s\n",
                    o->r.all ? "bad --shard (want I/N, 1 <= I <= N <= 10000)"
                             : "--shard needs --all");
            return 2;
        }
    }
    return -1;
}

/* ---- the command ---- */

static bool draw_cb(void *user, long frame, dsgx_frame *out)
{
    return draw_frame(user, frame, NULL, out);
}

/* --all: the whole model, then each object on its own (each framed by itself, as --model
 * frames it); --shard I/N keeps the cells k with k mod N = I - 1. */
typedef struct all_job {
    scene *sc;
    const opts *o;
    unsigned shard, shards;
} all_job;

static int all_cell(void *user, unsigned k, dsgx_frame *out, char *label, size_t size, char *err,
                    size_t errlen)
{
    (void)err;
    (void)errlen;
    all_job *j = user;
    unsigned c = j->shard - 1 + k * j->shards; /* the k-th cell of this shard */
    j->sc->object = c == 0 ? -1 : (int)c - 1;
    if (!setup_camera(j->sc, j->o) || !draw_frame(j->sc, 0, NULL, out)) return 1; /* memory */
    const char *nm = c ? j->sc->m->objects[c - 1].name : "all";
    snprintf(label, size, "%s", nm ? nm : "");
    return 0;
}

static int render_all(scene *sc, const opts *o)
{
    unsigned cells = 1 + (sc->m->num_objects > 1 ? sc->m->num_objects : 0);
    all_job j = {sc, o, 1, 1};
    if (o->r.shard) render_parse_shard(o->r.shard, &j.shard, &j.shards);
    unsigned mine = cells >= j.shard ? (cells - j.shard) / j.shards + 1 : 0;
    if (!mine) {
        fprintf(stderr, "dsgx render: shard %u of %u is empty (%u cell(s))\n", j.shard, j.shards,
                cells);
        return 1;
    }
    char tail[64] = "";
    if (j.shards > 1)
        snprintf(tail, sizeof tail, " (shard %u of %u, %u in all)", j.shard, j.shards, cells);
    render_cells_job job = {mine,     all_cell,   &j,    "objects", "cell",
                            o->r.out, o->r.scale, false, tail};
    return render_cells(&job);
}

/* The object --model names: its index, or -1 after reporting. */
static int pick_object(const opts *o, const t3dm_model *m)
{
    char *end;
    long v = strtol(o->r.select, &end, 10);
    if (*end == 0 && v >= 0 && v < (long)m->num_objects) return (int)v;
    for (unsigned i = 0; i < m->num_objects; i++)
        if (m->objects[i].name && !strcmp(m->objects[i].name, o->r.select)) return (int)i;
    fprintf(stderr, "dsgx render: no object '%s'\n", o->r.select);
    return -1;
}

static int run(const opts *o, t3dm_model *m, long fa, long fb, long step, dsgx_frame *result)
{
    scene *sc = calloc(1, sizeof *sc);
    dsgx_frame *frame = malloc(sizeof *frame);
    int rc = 1;
    FILE *trace_f = NULL;
    if (!sc || !frame) {
        fprintf(stderr, "dsgx render: out of memory\n");
        goto done;
    }
    sc->m = m;
    sc->anim = -1;
    sc->object = -1;
    if (!t3dm_pose_init(&sc->pose, m) || !load_textures(sc, o)) goto done;
    if (o->r.select && (sc->object = pick_object(o, m)) < 0) goto done;
    if (o->anim) {
        sc->anim = t3dm_find_anim(m, o->anim);
        if (sc->anim < 0) {
            fprintf(stderr, "dsgx render: %s: no animation '%s'; the model has", o->r.model,
                    o->anim);
            for (unsigned i = 0; i < m->num_anims; i++)
                fprintf(stderr, "%s %u \"%s\"", i ? "," : "", i, m->anims[i].name);
            fputc('\n', stderr);
            goto done;
        }
        if (!t3dm_cli_load_sdata(m, o->r.model, sc->anim, true)) goto done;
    }
    sc->disp3dcnt = 1u | 8u | (o->r.aa ? 16u : 0) | (o->r.edge ? 32u : 0) | (o->r.fog ? 128u : 0);
    sc->clear = o->r.clear_rgb | (o->r.clear_alpha << 16);
    if (o->r.all) {
        rc = render_all(sc, o);
        goto done;
    }
    if (!setup_camera(sc, o)) {
        fprintf(stderr, "dsgx render: out of memory\n");
        goto done;
    }
    if (o->r.frames) {
        rc = render_sequence(draw_cb, sc, fa, fb, step, o->r.out, o->r.sheet, o->r.scale);
        goto done;
    }
    if (o->r.trace) {
        trace_f = fopen(o->r.trace, "w");
        if (!trace_f) {
            fprintf(stderr, "dsgx render: cannot write %s\n", o->r.trace);
            goto done;
        }
        fprintf(trace_f, "dsgx-trace 1\n# dsgx render %s frame %ld\n", o->r.model, fa);
    }
    if (!draw_frame(sc, fa, trace_f, frame)) {
        fprintf(stderr, "dsgx render: out of memory\n");
        goto done;
    }
    if (result) {
        *result = *frame;
        rc = 0;
        goto done;
    }
    char msg[512], hex[17];
    if (render_write_scaled(frame, o->r.scale, o->r.out, msg, sizeof msg) == 0)
        rc = 0;
    else
        fprintf(stderr, "dsgx render: %s\n", msg);
    dsgx_frame_hash_hex(frame, hex);
    printf("%s %s\n", hex, o->r.out);
done:
    if (trace_f) fclose(trace_f);
    if (sc) {
        for (unsigned i = 0; sc->sprite && i < m->num_materials; i++) free(sc->sprite[i]);
        free(sc->sprite);
        free(sc->sprite_size);
        free(sc->sprite_first);
        t3dm_pose_free(&sc->pose);
    }
    free(sc);
    free(frame);
    return rc;
}

int t3dm_cli_render(int argc, char **argv, dsgx_frame *result)
{
    bool found = false;
    for (int i = 1; i < argc && !found; i++) found = argv[i][0] != '-' && t3dm_cli_is_t3dm(argv[i]);
    if (!found) return -1;
    opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) return rc;
    long fa, fb, step;
    rc = check_opts(&o, result != NULL, &fa, &fb, &step);
    if (rc >= 0) return rc;
    size_t size;
    uint8_t *data = t3dm_cli_read(o.r.model, &size);
    if (!data) {
        fprintf(stderr, "dsgx render: cannot read %s\n", o.r.model);
        return 1;
    }
    t3dm_model m;
    t3dm_status st = t3dm_parse(data, size, &m);
    if (!st.ok) {
        char msg[600];
        t3dm_status_format(&st, o.r.model, msg, sizeof msg);
        fprintf(stderr, "dsgx render: %s\n", msg);
        free(data);
        return 1;
    }
    rc = run(&o, &m, fa, fb, step, result);
    t3dm_free(&m);
    free(data);
    return rc;
}
