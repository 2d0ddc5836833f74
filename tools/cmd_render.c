/*
 * cmd_render.c - `dsgx render MODEL.nsbmd [--tex FILE.nsbtx ...] [--model NAME|INDEX] -o out.png`
 *
 * Renders one model through the G3D runtime (nitro/runtime.h), the geometry engine and the
 * rendering engine. Camera (tools/sheet.c render_set_camera): by default the auto-fit of
 * tools/core/autofit.h (the model as drawn at frame 0 of its animations, centred and filling
 * the frame, from a raised three-quarter view), or --orbit YAW PITCH DIST (degrees, model
 * units; DIST 0: fitted), or --eye/--at. Floating point is used only for the camera set-up and
 * converted once to 1.19.12 before anything reaches the engine. Textures: the lookup plan of
 * tools/core/texfind.h (--tex files, the model's file, its archive, its folder), each name's
 * source reported on stderr when it is not the model's own file.
 * --all (contact sheets of every model of a file or NARC, --shard), --scale (nearest-neighbour
 * output scale) and --light (light vectors/colours) are in tools/sheet.c.
 *
 * Animations: --anim FILE[:NAME|INDEX] (any number; NSBCA/NSBTP/NSBTA/NSBMA/NSBVA) are bound to
 * the model with nitro_anim_player_add after the textures are uploaded (PAT0 names resolve in
 * VRAM), and drawn at --frame N, or at every frame of --frames A..B[:STEP] with -o a printf-style
 * pattern (one %d conversion, e.g. out/frame%03d.png) and/or --sheet sheet.png (a contact sheet
 * labelled with the frame numbers). Every frame is drawn by fresh engines with the same uploads,
 * so frame N of a sequence hashes the same as --frame N alone. Without a selector, every
 * animation of a file that fits the model is bound (those that do not are reported); with one,
 * a misfit is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/anim.h"
#include "nitro/nitro.h"
#include "nitro/runtime.h"
#include "raster/frame.h"
#include "raster/raster.h"
#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/nitro_open.h"
#include "tools/render_frame.h"
#include "tools/core/texfind.h"
#include "tools/render_util.h"
#include "tools/sheet.h"
#include "tools/t3dm_cli.h"

#define MAX_TEX        NITRO_MAX_TEX_SETS
#define MAX_ANIM_FILES 8

/* A model, texture or animation file: FILE, ARCHIVE.narc:INDEX|NAME, LZ77 decompressed
 * (tools/core/nitro_open.h). Prints the reason and returns NULL on failure. */
static uint8_t *load(const char *path, size_t *size)
{
    dsgx_nitro_input in;
    char err[600];
    if (dsgx_nitro_open(path, &in, err, sizeof err)) {
        fprintf(stderr, "dsgx render: %s\n", err);
        return NULL;
    }
    if (in.archive) {
        fprintf(stderr,
                "dsgx render: %s is a NARC archive: name a member (%s:INDEX or %s:NAME) or "
                "use --all\n",
                path, path, path);
        dsgx_nitro_input_free(&in);
        return NULL;
    }
    uint8_t *data = in.data;
    *size = in.size;
    in.data = NULL; /* ownership moves to the caller */
    dsgx_nitro_input_free(&in);
    return data;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dsgx render MODEL.nsbmd [--tex FILE.nsbtx ...] [--model NAME|INDEX]\n"
            "       [--eye X Y Z --at X Y Z | --orbit YAW PITCH DIST] [--fov DEG]\n"
            "       [--near Z --far Z]\n"
            "       [--clear RGB15 --clear-alpha A] [--edge] [--fog] [--aa] [--scale N]\n"
            "       [--light I:X,Y,Z:RRGGBB ...] [--trace out.trace] -o out.png\n"
            "       [--anim FILE[:NAME|INDEX] ...] [--frame N | --frames A..B[:STEP]]\n"
            "       [--sheet sheet.png]   (with --frames, -o is a pattern: out/f%%03d.png)\n"
            "       dsgx render --all FILE.nsbmd|ARCHIVE.narc[:INDEX|NAME] [--shard I/N]\n"
            "       [--tex ...] [--orbit ...] [--fov DEG] [--clear ...] [--light ...] [--scale N]\n"
            "       -o sheet.png\n"
            "Textures: names the model's file lacks (and an NSBTP's names) are looked up in the\n"
            "  --tex files (these win every name they hold), the model's file, the NSBTX members\n"
            "  of its NARC (index order), then the *.nsbtx files of its folder (sorted by name);\n"
            "  first match wins; each name from elsewhere is reported with its file on stderr.\n"
            "Camera: by default the model as drawn (at frame 0 of its animations) is seen from a\n"
            "  raised three-quarter view (yaw %g, pitch %g degrees), centred, reaching %g%% of\n"
            "  the frame's width or height; --orbit YAW PITCH DIST looks at the centre from DIST\n"
            "  (DIST 0: the fitted distance from that angle); --eye X Y Z --at X Y Z: any view.\n"
            "--all --shard I/N: models k (archive order) with k mod N = I - 1; the N shards\n"
            "  cover every model once. A progress line shows on a terminal for long runs.\n"
            "       dsgx render MODEL.t3dm --help   (Tiny3D models)\n",
            RENDER_DEFAULT_YAW, RENDER_DEFAULT_PITCH, RENDER_FIT_FILL * 100);
}

/* ---- animation files ---- */

typedef struct anim_file {
    char path[1024], sel[64];
    bool has_sel;
    uint8_t *buf;
    size_t size;
    nitro_file file;
    bool parsed;
    nitro_anims anims;
    bool anims_ok;
} anim_file;

/* FILE[:NAME|INDEX]: the part after the last ':' selects an animation unless the whole
 * argument opens as a file (FILE may itself be ARCHIVE.narc:MEMBER). */
static bool anim_open(anim_file *af, const char *arg)
{
    snprintf(af->path, sizeof af->path, "%s", arg);
    char *colon = strrchr(af->path, ':');
    dsgx_nitro_input probe;
    char perr[600];
    bool whole = dsgx_nitro_open(af->path, &probe, perr, sizeof perr) == 0 && !probe.archive;
    if (whole || probe.archive) dsgx_nitro_input_free(&probe);
    if (!whole && colon && colon[1] && !strchr(colon, '/')) {
        snprintf(af->sel, sizeof af->sel, "%s", colon + 1);
        af->has_sel = true;
        *colon = 0;
    }
    af->buf = load(af->path, &af->size);
    if (!af->buf) return false;
    char msg[512];
    nitro_status st = nitro_parse(af->buf, af->size, &af->file);
    if (!st.ok) {
        nitro_status_format(&st, af->path, msg, sizeof msg);
        fprintf(stderr, "dsgx render: %s\n", msg);
        return false;
    }
    af->parsed = true;
    st = nitro_anims_parse(&af->file, &af->anims);
    if (!st.ok) {
        nitro_status_format(&st, af->path, msg, sizeof msg);
        fprintf(stderr, "dsgx render: %s\n", msg);
        return false;
    }
    af->anims_ok = true;
    if (af->anims.num == 0) {
        fprintf(stderr,
                "dsgx render: %s: no animation in the file (an NSBCA, NSBTP, NSBTA, NSBMA "
                "or NSBVA is expected)\n",
                af->path);
        return false;
    }
    return true;
}

static void anim_close(anim_file *af)
{
    if (af->anims_ok) nitro_anims_free(&af->anims);
    if (af->parsed) nitro_file_free(&af->file);
    free(af->buf);
}

/* The animation the selector names: its index, -1 for every one (no selector), -2 for none. */
static int anim_pick(const anim_file *af)
{
    const nitro_anims *as = &af->anims;
    if (!af->has_sel) return -1;
    char *end;
    long v = strtol(af->sel, &end, 10);
    if (*end == 0) return v >= 0 && v < (long)as->num ? (int)v : -2;
    for (unsigned i = 0; i < as->num; i++)
        if (!strncmp(as->anims[i].name.s, af->sel, 16) && strlen(af->sel) <= 16) return (int)i;
    return -2;
}

/* The texture-pattern names of the animations that will be bound join the lookup. */
static void anim_need_textures(const anim_file *af, dsgx_texplan *plan)
{
    int k = anim_pick(af);
    for (unsigned i = 0; i < af->anims.num; i++)
        if (k == -1 || k == (int)i) dsgx_texplan_need_anim(plan, &af->anims.anims[i]);
}

/* Bind the animations of one file to the player. */
static bool anim_bind(nitro_anim_player *p, const anim_file *af, const nitro_texvram *vram)
{
    char err[256];
    const nitro_anims *as = &af->anims;
    if (af->has_sel) {
        int k = anim_pick(af);
        if (k < 0) {
            fprintf(stderr, "dsgx render: %s: no animation '%s'; the file has", af->path, af->sel);
            for (unsigned i = 0; i < as->num; i++)
                fprintf(stderr, "%s %u \"%s\"", i ? "," : "", i, as->anims[i].name.s);
            fputc('\n', stderr);
            return false;
        }
        if (!nitro_anim_player_add(p, &as->anims[k], af->buf, vram, err, sizeof err)) {
            fprintf(stderr, "dsgx render: %s: %s\n", af->path, err);
            return false;
        }
        return true;
    }
    unsigned bound = 0;
    for (unsigned i = 0; i < as->num; i++) {
        if (nitro_anim_player_add(p, &as->anims[i], af->buf, vram, err, sizeof err))
            bound++;
        else
            fprintf(stderr, "dsgx render: %s: skipping animation %u: %s\n", af->path, i, err);
    }
    if (!bound) fprintf(stderr, "dsgx render: %s: no animation fits the model\n", af->path);
    return bound > 0;
}

/* ---- drawing one frame ---- */

typedef struct scene {
    const nitro_model *m;
    const uint8_t *mbuf;
    const dsgx_texplan *plan; /* the texture sets, in upload order */
    uint32_t disp3dcnt, clear;
    nitro_glb glb; /* initialised, camera and projection set */
    nitro_anim_player *player;
} scene;

/* Upload every TEX0 set in order; @return false after reporting one that does not fit. */
static bool upload_all(const scene *sc, nitro_texvram *vram, const nitro_gx_sink *sink, bool report)
{
    bool ok = true;
    nitro_texvram_init(vram);
    const dsgx_texplan *p = sc->plan;
    for (unsigned i = 0; i < p->nsets; i++)
        if (!nitro_texvram_upload(vram, p->tex[i], p->data[i], sink)) {
            if (report)
                fprintf(stderr, "dsgx render: the textures of %s do not fit in VRAM\n",
                        p->origin[i] == DSGX_TEX_MODEL ? "the model's file" : p->label[i]);
            ok = false;
        }
    return ok;
}

/* Fresh engines, the uploads, the global state, the model at `frame`; trace_f may be NULL. */
static bool draw_frame(const scene *sc, long frame, FILE *trace_f, dsgx_frame *out)
{
    gx_engine *gx = gx_create();
    raster_engine *ra = raster_create();
    if (!gx || !ra) {
        if (gx) gx_destroy(gx);
        if (ra) raster_destroy(ra);
        return false;
    }
    static render_tracer tr;
    memset(&tr, 0, sizeof tr);
    tr.gx = gx;
    tr.f = trace_f;
    nitro_gx_sink sink = {&tr, render_tracer_write, render_tracer_read};
    render_tracer_write(&tr, REG_POWCNT1, 0x820F, 4);
    render_tracer_write(&tr, REG_DISPCNT, 0x00010108, 4);
    static nitro_texvram vram;
    upload_all(sc, &vram, &sink, false);
    static nitro_mat_bind binds[NITRO_MAX_MATERIALS];
    nitro_bind_textures(&vram, sc->m, binds);
    render_tracer_write(&tr, REG_DISP3DCNT, sc->disp3dcnt, 4);
    render_tracer_write(&tr, REG_CLEAR_COLOR, sc->clear, 4);
    render_tracer_write(&tr, REG_CLEAR_DEPTH, 0x7FFF, 4);
    static nitro_glb glb;
    glb = sc->glb;
    nitro_glb_flush(&glb, &sink);
    static nitro_runtime rt;
    nitro_runtime_init(&rt, sc->m, sc->mbuf, &glb, &sink, binds);
    if (sc->player) {
        nitro_anim_player_set_frame(sc->player, dsgx_shl32((int32_t)frame, 12));
        nitro_anim_hooks h = nitro_anim_player_hooks(sc->player);
        nitro_runtime_set_hooks(&rt, &h);
    }
    nitro_runtime_draw(&rt);
    render_tracer_write(&tr, 0x04000540, 0, 4); /* SWAP_BUFFERS */
    render_tracer_flush(&tr);
    if (tr.f) fprintf(tr.f, "frame\n");
    gx_vblank(gx);
    raster_render(ra, gx_render_frame(gx), out, NULL);
    raster_destroy(ra);
    gx_destroy(gx);
    return true;
}

static bool draw_cb(void *user, long frame, dsgx_frame *out)
{
    return draw_frame(user, frame, NULL, out);
}

/* --tex FILE and --anim FILE[:NAME|INDEX] (render_extra_fn). */
typedef struct files {
    const char **tex, **anim;
    unsigned ntex, nanim;
} files;

static int own_option(void *user, int argc, char **argv, int i)
{
    files *fl = user;
    if (!strcmp(argv[i], "--tex-dir")) {
        fprintf(stderr, "dsgx render: --tex-dir is for T3DM sprites; a Nitro model's textures "
                        "come from --tex FILE.nsbtx or beside the model\n");
        return -1;
    }
    bool tex = !strcmp(argv[i], "--tex");
    if (i + 1 >= argc || (!tex && strcmp(argv[i], "--anim"))) return 0;
    unsigned *n = tex ? &fl->ntex : &fl->nanim, max = tex ? MAX_TEX : MAX_ANIM_FILES;
    if (*n == max) {
        fprintf(stderr, "dsgx render: at most %u %s files\n", max, argv[i]);
        return -1;
    }
    (tex ? fl->tex : fl->anim)[(*n)++] = argv[i + 1];
    return 2;
}

/* `dsgx render`; with @p result (render_to_frame) the one frame is returned instead of written. */
static int render_main(int argc, char **argv, dsgx_frame *result)
{
    const char *tex_paths[MAX_TEX], *anim_args[MAX_ANIM_FILES];
    render_options ro;
    render_options_init(&ro);
    int t3dm_rc = t3dm_cli_render(argc, argv, result); /* Tiny3D: tools/t3dm_render.c */
    if (t3dm_rc >= 0) return t3dm_rc;
    files fl = {tex_paths, anim_args, 0, 0};
    int prc = render_options_read(&ro, argc, argv, own_option, &fl, usage);
    if (prc >= 0) return prc;
    unsigned ntex = fl.ntex, nanim = fl.nanim;
    const char *model_path = ro.model, *out = ro.out, *trace = ro.trace, *model_sel = ro.select;
    const char *frames_arg = ro.frames, *sheet_path = ro.sheet, *frame_arg = ro.frame;
    const char *shard_arg = ro.shard;
    unsigned scale = ro.scale, clear_rgb = ro.clear_rgb, clear_alpha = ro.clear_alpha;
    render_camera cam = ro.cam;
    bool edge = ro.edge, fog = ro.fog, aa = ro.aa, all = ro.all;
    render_light lights[4];
    memcpy(lights, ro.lights, sizeof lights);
    if (!model_path || (!out && !(frames_arg && sheet_path) && !result) || scale < 1 ||
        scale > 16) {
        usage(stderr);
        return 2;
    }
    /* frame options */
    long fa, fb, fstep;
    if (render_frame_options(frame_arg, frames_arg, out, sheet_path, trace, &fa, &fb, &fstep))
        return 2;
    bool sequence = frames_arg != NULL;
    if (result && (sequence || all || trace)) {
        fprintf(stderr, "dsgx render: one frame only here (no --frames, --all or --trace)\n");
        return 2;
    }
    if (cam.fov <= 0 || cam.fov >= 180) {
        fprintf(stderr, "dsgx render: bad --fov (want 0 < DEG < 180)\n");
        return 2;
    }
    unsigned shard = 1, shards = 1;
    if (shard_arg && (!all || !render_parse_shard(shard_arg, &shard, &shards))) {
        fprintf(stderr, "dsgx render: %s\n",
                all ? "bad --shard (want I/N, 1 <= I <= N <= 10000)" : "--shard needs --all");
        return 2;
    }
    if (all) {
        if (nanim || sequence) {
            fprintf(stderr, "dsgx render: --all does not take --anim or --frames\n");
            return 2;
        }
        sheet_opts so = {tex_paths, ntex, cam,   clear_rgb, clear_alpha, edge,
                         fog,       aa,   scale, {{0}},     shard,       shards};
        memcpy(so.lights, lights, sizeof lights);
        return render_sheet(model_path, &so, out);
    }

    size_t msize;
    uint8_t *mbuf = load(model_path, &msize);
    if (!mbuf) return 1;
    nitro_file mf;
    char msg[512];
    nitro_status st = nitro_parse(mbuf, msize, &mf);
    if (!st.ok || mf.num_models == 0) {
        nitro_status_format(&st, model_path, msg, sizeof msg);
        fprintf(stderr, "dsgx render: %s\n", st.ok ? "no model in file" : msg);
        if (st.ok) nitro_file_free(&mf);
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
    static anim_file afs[MAX_ANIM_FILES];
    memset(afs, 0, sizeof afs);
    static nitro_anim_player player;
    nitro_anim_player_init(&player, m);
    static scene sc;
    memset(&sc, 0, sizeof sc);
    sc.m = m;
    sc.mbuf = mbuf;
    FILE *trace_f = NULL;
    dsgx_texlib lib;
    dsgx_texlib_init(&lib);
    dsgx_texplan *plan = malloc(sizeof *plan);
    dsgx_fit_points pts;
    dsgx_fit_points_init(&pts);
    if (!plan) goto done;
    sc.plan = plan;

    /* the animation files first: their texture-pattern names join the texture lookup */
    for (unsigned i = 0; i < nanim; i++)
        if (!anim_open(&afs[i], anim_args[i])) goto done;
    /* textures: --tex files, the model's file, its archive, its folder (texfind.h) */
    for (unsigned i = 0; i < ntex; i++)
        if (dsgx_texlib_add_option(&lib, tex_paths[i], msg, sizeof msg)) {
            fprintf(stderr, "dsgx render: %s\n", msg);
            goto done;
        }
    dsgx_texplan_init(plan);
    dsgx_texplan_need_model(plan, m);
    for (unsigned i = 0; i < nanim; i++) anim_need_textures(&afs[i], plan);
    /* the archive and the folder are read only when a name is still missing */
    if (dsgx_texplan_resolve(plan, &lib, mf.tex0, mbuf, "the model's file")) {
        dsgx_texlib_add_around(&lib, model_path);
        dsgx_texplan_resolve(plan, &lib, mf.tex0, mbuf, "the model's file");
    }
    render_report_textures(stderr, "dsgx render: ", plan, &lib, false);
    if (lib.skipped)
        fprintf(stderr,
                "dsgx render: %u texture file(s) beside the model could not be used (first: "
                "%s)\n",
                lib.skipped, lib.first_skip);
    /* placement pass: the same uploads every frame makes, to report problems and resolve the
     * animations' texture names once */
    nitro_gx_sink null_sink = {NULL, render_null_write, NULL};
    static nitro_texvram vram;
    upload_all(&sc, &vram, &null_sink, true);
    for (unsigned i = 0; i < nanim; i++)
        if (!anim_bind(&player, &afs[i], &vram)) goto done;
    sc.player = nanim ? &player : NULL;

    /* rendering registers */
    sc.disp3dcnt = 1u /* texture */ | 8u /* alpha blend */ | (aa ? 16u : 0) | (edge ? 32u : 0) |
                   (fog ? 128u : 0);
    sc.clear = clear_rgb | (clear_alpha << 16);

    /* camera: fitted to the model as drawn at the animations' first frame (frame 0, so that a
     * frame hashes the same alone and in any sequence) */
    if (!render_measure(NULL, m, mbuf, sc.player, 0, &pts)) {
        fprintf(stderr, "dsgx render: out of memory\n");
        goto done;
    }
    nitro_glb_init(&sc.glb);
    render_apply_lights(&sc.glb, lights);
    render_set_camera(&sc.glb, &cam, &pts);

    if (sequence) {
        rc = render_sequence(draw_cb, &sc, fa, fb, fstep, out, sheet_path, scale);
        goto done;
    }
    if (trace) {
        trace_f = fopen(trace, "w");
        if (!trace_f) {
            fprintf(stderr, "dsgx render: cannot write %s\n", trace);
            goto done;
        }
        fprintf(trace_f, "dsgx-trace 1\n# dsgx render %s model %d frame %ld\n", model_path, mi, fa);
    }
    static dsgx_frame frame;
    if (!draw_frame(&sc, fa, trace_f, &frame)) {
        fprintf(stderr, "dsgx render: out of memory\n");
        goto done;
    }
    if (result) {
        *result = frame;
        rc = 0;
        goto done;
    }
    if (render_write_scaled(&frame, scale, out, msg, sizeof msg) == 0) rc = 0;
    if (rc) fprintf(stderr, "dsgx render: %s\n", msg);
    char hex[17];
    dsgx_frame_hash_hex(&frame, hex);
    printf("%s %s\n", hex, out);
done:
    if (trace_f) fclose(trace_f);
    nitro_anim_player_free(&player);
    for (unsigned i = 0; i < nanim; i++) anim_close(&afs[i]);
    dsgx_fit_points_free(&pts);
    dsgx_texlib_free(&lib);
    free(plan);
    nitro_file_free(&mf);
    free(mbuf);
    return rc;
}

int cmd_render(int argc, char **argv)
{
    return render_main(argc, argv, NULL);
}

int render_to_frame(int argc, char **argv, dsgx_frame *out)
{
    return render_main(argc, argv, out);
}
