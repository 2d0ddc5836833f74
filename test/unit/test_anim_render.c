/* test_anim_render.c - animations drawn through the runtime hooks, the geometry engine and the
 * rasterizer: one jointed, textured fixture model (test_nitro_scene.h kit) and one animation
 * file of each kind built with nitro/anim_writer.h, rendered at several frames (sample points,
 * between samples, beyond the last interpolated frame) and compared with
 * golden/nitro-anim/manifest.tsv (scene, frame, xxh3). Plus checks that can fail on their own:
 * a pattern / material / visibility frame equals the static model given the values the
 * runtime's rules give by hand for that frame; a hidden node leaves clear-colour pixels; joint
 * rotations move the arm where the pivot matrix says; a misfit is reported by name and reason.
 *
 * Re-baseline: DSGX_NITRO_GOLDEN_UPDATE=1 ./test_anim_render rewrites the manifest and the PNGs
 * (look at each PNG). DSGX_NITRO_FIXTURE_DIR=DIR writes the fixtures as DIR/anim.nsbmd,
 * DIR/anim.nsbca, .nsbtp, .nsbta, .nsbma, .nsbva (for `dsgx render --anim` / `dsgx info`).
 *
 * The model "anim" (camera at z = 7 looking at the origin; a world point (X, Y, 0) lands near
 * screen (128 + 51.2 X, 96 - 51.2 Y): fovy 30, cot 15 = 3.732, 3.732 / 7 * 96 = 51.2):
 *   node 0 root; node 1 "arm" at (-2, 0.9) and node 2 "hand" 1.0 further along it, each a
 *   0.5 square centred 0.5 along local X (material "skin", 16-colour); node 3 "glow" at
 *   (-1.5, -1), untextured, colour from the material's diffuse (MAT0 target); node 4 "tile"
 *   at (0, -1), 256-colour with a texture matrix (SRT0 target); node 5 "face" at (1.5, -1),
 *   16-colour (PAT0 target). Bottom squares are 1.0 wide. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nitro/anim.h"
#include "nitro/anim_writer.h"
#include "test_nitro_scene.h"

#define NNODES 6
enum { KIND_JNT, KIND_PAT, KIND_SRT, KIND_MAT, KIND_VIS, NKINDS };
static const enum nitro_anim_kind KINDS[NKINDS] = {NITRO_ANIM_JNT, NITRO_ANIM_PAT, NITRO_ANIM_SRT,
                                                   NITRO_ANIM_MAT, NITRO_ANIM_VIS};
static const char *const EXT[NKINDS] = {"nsbca", "nsbtp", "nsbta", "nsbma", "nsbva"};

/* ---- the model, with the overrides the static-equivalence checks need ---- */

typedef struct variant {
    const char *face_tex, *face_pal; /* default pal16 / p_16 */
    bool glow_set;                   /* glow diffuse / alpha below replace the defaults */
    rgb15 glow_dif;
    unsigned glow_alpha;
    bool hide[NNODES]; /* NODE command flag cleared */
} variant;

/* A square without a COLOR command: the vertex colour is the material's diffuse (DIF_AMB bit
 * 15, GBATEK "DS 3D Polygon Light Parameters"). */
static void square_nocolor(nitro_dl *d, vtx16 h)
{
    nitro_dl_begin(d, 1);
    nitro_dl_vtx16(d, (vtx16)-h, (vtx16)-h, 0);
    nitro_dl_vtx16(d, h, (vtx16)-h, 0);
    nitro_dl_vtx16(d, h, h, 0);
    nitro_dl_vtx16(d, (vtx16)-h, h, 0);
    nitro_dl_end(d);
}

static bool build_model(kit *k, const variant *v)
{
    nitro_dl *bar = new_dl(k), *sq = new_dl(k), *plain = new_dl(k);
    quad(bar, 0x800, 0, 0x400, 0x7FFF);
    nitro_dl_finish(bar);
    quad(sq, 0, 0, 0x800, 0x7FFF);
    nitro_dl_finish(sq);
    square_nocolor(plain, 0x800);
    nitro_dl_finish(plain);
    nitro_wmesh meshes[3] = {mesh_of(bar, "bar"), mesh_of(sq, "sq"), mesh_of(plain, "plain")};
    nitro_material mats[4];
    mat_init(&mats[0], "skin", "pal16", "p_16", 0);
    mat_init(&mats[1], "glow", NULL, NULL, 0);
    mats[1].dif_amb = 0x7C1Fu | 0x8000u | (0x318Cu << 16);
    if (v->glow_set) {
        mats[1].dif_amb = v->glow_dif | 0x8000u | (0x318Cu << 16);
        mats[1].polygon_attr = (mats[1].polygon_attr & ~0x1F0000u) | (v->glow_alpha << 16);
    }
    mat_init(&mats[2], "water", "pal256", "p_256", 0);
    mats[2].flags |= NITRO_MAT_TEXMTX_USE;
    mats[2].teximage_param |= 1u << 30; /* texgen: TexCoord source, the texture matrix applies */
    mat_init(&mats[3], "face", v->face_tex ? v->face_tex : "pal16",
             v->face_pal ? v->face_pal : "p_16", 0);
    nitro_node nodes[NNODES];
    static const char *const names[NNODES] = {"root", "arm", "hand", "glow", "tile", "face"};
    for (unsigned i = 0; i < NNODES; i++) node_init(&nodes[i], names[i]);
    node_trans(&nodes[1], -0x2000, 0x0E66, 0);
    node_trans(&nodes[2], 0x1000, 0, 0);
    node_trans(&nodes[3], -0x1800, -0x1000, 0);
    node_trans(&nodes[4], 0, -0x1000, 0);
    node_trans(&nodes[5], 0x1800, -0x1000, 0);
    nitro_buf *b = &k->sbc[0];
    nitro_sbc_node(b, 0, !v->hide[0]);
    nitro_sbc_nodedesc(b, 0, 0, 0, 0, -1);
    nitro_sbc_node(b, 1, !v->hide[1]);
    nitro_sbc_nodedesc(b, 1, 0, 0, 1, 0);
    nitro_sbc_mat(b, 0, 0);
    nitro_sbc_shp(b, 0);
    nitro_sbc_node(b, 2, !v->hide[2]);
    nitro_sbc_nodedesc(b, 2, 1, 0, -1, 1);
    nitro_sbc_mat(b, 0, 0);
    nitro_sbc_shp(b, 0);
    static const uint8_t mat_of[3] = {1, 2, 3}, mesh[3] = {2, 1, 1};
    for (unsigned n = 3; n < NNODES; n++) {
        nitro_sbc_node(b, (uint8_t)n, !v->hide[n]);
        nitro_sbc_nodedesc(b, (uint8_t)n, 0, 0, -1, 0);
        nitro_sbc_mat(b, 0, mat_of[n - 3]);
        nitro_sbc_shp(b, mesh[n - 3]);
    }
    nitro_sbc_ret(b);
    nitro_wmodel m;
    model_init(&m, "anim", 0x2000);
    m.nodes = nodes;
    m.num_nodes = NNODES;
    m.materials = mats;
    m.num_materials = 4;
    m.meshes = meshes;
    m.num_meshes = 3;
    m.sbc = b->data;
    m.sbc_size = (uint32_t)b->size;
    nitro_wtexture tex[7];
    nitro_wpalette pal[6];
    build_textures(k, tex, pal);
    nitro_wtex0 t = {tex, 7, pal, 6};
    char err[160];
    bool ok = nitro_write_bmd0(&m, 1, &t, &k->file, err, sizeof err);
    if (!ok) fprintf(stderr, "writer: %s\n", err);
    return ok;
}

/* ---- the animations ---- */

/* Rotations about Z (row vectors: rows (c, s, 0), (-s, c, 0), (0, 0, 1)). Pivot entries:
 * pivot at _22 (index 8), A = _00 = c, B = _01 = s, C = -B (bit 5), D = A. */
static const uint16_t PIVOTS[] = {
    0x0028, 0x1000, 0x0000, /* 0: 0 degrees */
    0x0028, 0x0ec8, 0x061f, /* 1: 22.5 */
    0x0028, 0x0b50, 0x0b50, /* 2: 45 */
    0x0028, 0x0ec8, 0xf9e1, /* 3: -22.5 */
    0x0028, 0x0b50, 0xf4b0, /* 4: -45 */
};
/* Basis entries: words 0-4 hold _00, _01, _02, _10, _11 << 3 (low 3 bits: _12, here 0). */
static const uint16_t BASIS[] = {
    0x6ed8, 0x4000, 0x0000, 0xc000, 0x6ed8, /* 0: +30 degrees: c = 0xddb, s = 0x800 */
    0x6ed8, 0xc000, 0x0000, 0x4000, 0x6ed8, /* 1: -30 degrees */
};

static bool build_jnt(nitro_buf *out)
{
    static const int32_t arm_rot[9] = {0x8000, 0x8001, 0x8002, 0x8001, 0x8000,
                                       0x8003, 0x8004, 0x8003, 0x8000};
    /* step 4, 16-bit, last 4: frames 0 and 4, then 5..8 one each */
    static const int32_t hand_tx[6] = {0x1000, 0x1400, 0x1200, 0x1000, 0x0e00, 0x1000};
    /* step 2, last 6: frames 0 2 4 6, then 7 and 8 */
    static const int32_t hand_rot[6] = {0, 1, 0, 1, 0, 1};
    /* step 2, last 8: frames 0 2 4 6 8 (scale, 1/scale) */
    static const int32_t hand_sx[5] = {0x1000, 0x1800, 0x2000, 0x1800, 0x1000};
    static const int32_t hand_isx[5] = {0x1000, 0x0aab, 0x0800, 0x0aab, 0x1000};
    static nitro_wjnt_track t[NNODES];
    memset(t, 0, sizeof t);
    t[0].tag = NITRO_JNT_IDENTITY_T | NITRO_JNT_CONST_R | NITRO_JNT_IDENTITY_S;
    t[0].rot = (nitro_wcurve){.constant = true, .value = 0x8000};
    t[1].tag = NITRO_JNT_BASE_T | NITRO_JNT_IDENTITY_S | 1u << 24;
    t[1].rot = (nitro_wcurve){.step = 1, .last = 8, .samples = arm_rot, .count = 9};
    t[2].tag = NITRO_JNT_CONST_TY | NITRO_JNT_CONST_TZ | NITRO_JNT_CONST_SY | NITRO_JNT_CONST_SZ |
               2u << 24;
    t[2].trans[0] =
        (nitro_wcurve){.step = 4, .last = 4, .fx16 = true, .samples = hand_tx, .count = 6};
    t[2].trans[1] = (nitro_wcurve){.constant = true, .value = 0};
    t[2].trans[2] = t[2].trans[1];
    t[2].rot = (nitro_wcurve){.step = 2, .last = 6, .samples = hand_rot, .count = 6};
    t[2].scale[0] =
        (nitro_wcurve){.step = 2, .last = 8, .samples = hand_sx, .samples2 = hand_isx, .count = 5};
    t[2].scale[1] = (nitro_wcurve){.constant = true, .value = 0x1000, .value2 = 0x1000};
    t[2].scale[2] = t[2].scale[1];
    t[3].tag = NITRO_JNT_BASE_T | NITRO_JNT_IDENTITY_R | NITRO_JNT_BASE_S | 3u << 24;
    t[4].tag = NITRO_JNT_IDENTITY | 4u << 24; /* the tile drops to the origin */
    t[5].tag = NITRO_JNT_CONST_TX | NITRO_JNT_CONST_TY | NITRO_JNT_CONST_TZ | NITRO_JNT_BASE_R |
               NITRO_JNT_IDENTITY_S | 5u << 24;
    t[5].trans[0] = (nitro_wcurve){.constant = true, .value = 0x1800};
    t[5].trans[1] = (nitro_wcurve){.constant = true, .value = -0x0800};
    t[5].trans[2] = (nitro_wcurve){.constant = true, .value = 0};
    /* a second animation with more tracks than the model has nodes: does not fit */
    static nitro_wjnt_track big[8];
    for (unsigned i = 0; i < 8; i++)
        big[i] = (nitro_wjnt_track){.tag = NITRO_JNT_IDENTITY | i << 24};
    nitro_wanim w[2] = {{.name = "swing",
                         .frames = 9,
                         .jnt = t,
                         .num_jnt = NNODES,
                         .pivots = PIVOTS,
                         .num_pivots = 5,
                         .basis = BASIS,
                         .num_basis = 2},
                        {.name = "big", .frames = 2, .jnt = big, .num_jnt = 8}};
    return nitro_write_anim(NITRO_ANIM_JNT, w, 2, out);
}

/* MAT0 on "glow": diffuse step 2 (last 6: frames 0 2 4 6, then 7), alpha step 4 (last 4:
 * frames 0 4, then 5 6 7). */
static const int32_t MAT_DIF[5] = {0x001f, 0x03e0, 0x7c00, 0x7fff, 0x03ff};
static const int32_t MAT_ALPHA[5] = {31, 7, 0, 16, 31};

static bool build_mat(nitro_buf *out)
{
    static nitro_wcurve ch[1][5];
    ch[0][0] = (nitro_wcurve){.step = 2, .last = 6, .samples = MAT_DIF, .count = 5};
    ch[0][1] = (nitro_wcurve){.constant = true, .value = 0x318c};
    ch[0][2] = (nitro_wcurve){.constant = true, .value = 0};
    ch[0][3] = (nitro_wcurve){.constant = true, .value = 0};
    ch[0][4] = (nitro_wcurve){.step = 4, .last = 4, .samples = MAT_ALPHA, .count = 5};
    static const char *const names[] = {"glow"};
    nitro_wanim w = {.name = "flash", .frames = 8, .mat_names = names, .mat_ch = ch, .num_mat = 1};
    return nitro_write_anim(NITRO_ANIM_MAT, &w, 1, out);
}

/* SRT0 on "water": scale constant 1, rotation step 2 (last 6), translation S step 1,
 * translation T step 4 16-bit (last 4: frames 0 4, then 5 6 7). */
static bool build_srt(nitro_buf *out)
{
    static const int32_t rs[5] = {0, 0x800, 0xddb, 0x1000, 0},
                         rc[5] = {0x1000, 0xddb, 0x800, 0, 0x1000};
    static const int32_t ts[8] = {0, 0x2000, 0x4000, 0x6000, 0x8000, 0xa000, 0xc000, 0xe000};
    static const int32_t tt[5] = {0, 0x8000, 0x6000, 0x3000, 0};
    static nitro_wcurve ch[1][5];
    ch[0][0] = (nitro_wcurve){.constant = true, .value = 0x1000};
    ch[0][1] = ch[0][0];
    ch[0][2] = (nitro_wcurve){.step = 2, .last = 6, .samples = rs, .samples2 = rc, .count = 5};
    ch[0][3] = (nitro_wcurve){.step = 1, .last = 7, .samples = ts, .count = 8};
    ch[0][4] = (nitro_wcurve){.step = 4, .last = 4, .fx16 = true, .samples = tt, .count = 5};
    static const char *const names[] = {"water"};
    nitro_wanim w = {.name = "scroll", .frames = 8, .mat_names = names, .mat_ch = ch, .num_mat = 1};
    return nitro_write_anim(NITRO_ANIM_SRT, &w, 1, out);
}

/* PAT0 on "face": a key every 2 frames through four texture/palette pairs (the third a
 * 4-colour palette, bound in 8-byte units). */
static const char *const PAT_TEX[4] = {"a3i5", "pal256", "pal4", "pal16"};
static const char *const PAT_PAL[4] = {"p_a3i5", "p_256", "p_4", "p_16"};

static bool build_pat(nitro_buf *out)
{
    static const uint16_t keys[] = {0, 0x0000, 2, 0x0101, 4, 0x0202, 6, 0x0303};
    static const uint16_t *const kp[] = {keys};
    static const unsigned nk[] = {4};
    static const char *const names[] = {"face"};
    nitro_wanim w = {.name = "blink",
                     .frames = 8,
                     .mat_names = names,
                     .num_mat = 1,
                     .tex_names = PAT_TEX,
                     .num_tex_names = 4,
                     .pltt_names = PAT_PAL,
                     .num_pltt_names = 4,
                     .pat_num_keys = nk,
                     .pat_keys = kp,
                     .pat_ratio = 0x800};
    return nitro_write_anim(NITRO_ANIM_PAT, &w, 1, out);
}

/* VIS0: frame 0 all shown, 1 hides glow (3), 2 hides face (5), 3 hides both. */
static const bool VIS_HIDE[4][NNODES] = {
    {0}, {0, 0, 0, 1, 0, 0}, {0, 0, 0, 0, 0, 1}, {0, 0, 0, 1, 0, 1}};

static bool build_vis(nitro_buf *out)
{
    static uint32_t words[1];
    words[0] = 0;
    for (unsigned f = 0; f < 4; f++)
        for (unsigned n = 0; n < NNODES; n++)
            if (!VIS_HIDE[f][n]) words[0] |= 1u << (f * NNODES + n);
    nitro_wanim w = {.name = "hide", .frames = 4, .vis_nodes = NNODES, .vis_words = words};
    return nitro_write_anim(NITRO_ANIM_VIS, &w, 1, out);
}

/* ---- set-up ---- */

typedef struct world {
    kit k;
    nitro_buf anim[NKINDS];
    nitro_file af[NKINDS];
    nitro_anims as[NKINDS];
} world;

static void world_build(world *w)
{
    memset(w, 0, sizeof *w);
    static const variant plain = {0};
    assert_true(build_model(&w->k, &plain));
    bool (*const build[NKINDS])(nitro_buf *) = {build_jnt, build_pat, build_srt, build_mat,
                                                build_vis};
    for (unsigned i = 0; i < NKINDS; i++) {
        assert_true(build[i](&w->anim[i]));
        assert_true(nitro_parse(w->anim[i].data, w->anim[i].size, &w->af[i]).ok);
        nitro_status st = nitro_anims_parse(&w->af[i], &w->as[i]);
        if (!st.ok) fail_msg("%s: %s at 0x%zx: %s", EXT[i], st.structure, st.offset, st.reason);
        assert_int_equal(w->as[i].anims[0].kind, KINDS[i]);
    }
}

static void world_free(world *w)
{
    for (unsigned i = 0; i < NKINDS; i++) {
        nitro_anims_free(&w->as[i]);
        nitro_file_free(&w->af[i]);
        nitro_buf_free(&w->anim[i]);
    }
    kit_free(&w->k);
}

/* What render_with's prepare step binds: the first animation of each kind in `mask`. */
typedef struct binding {
    const world *w;
    unsigned mask;
    long frame;
    nitro_anim_player p;
} binding;

static void prepare(void *user, const nitro_model *m, const nitro_texvram *vram, nitro_runtime *rt)
{
    binding *b = user;
    char err[256];
    nitro_anim_player_init(&b->p, m);
    for (unsigned i = 0; i < NKINDS; i++) {
        if (!(b->mask & (1u << i))) continue;
        if (!nitro_anim_player_add(&b->p, &b->w->as[i].anims[0], b->w->anim[i].data, vram, err,
                                   sizeof err))
            fail_msg("%s: %s", EXT[i], err);
    }
    nitro_anim_player_set_frame(&b->p, (fx32)(b->frame * 4096));
    nitro_anim_hooks h = nitro_anim_player_hooks(&b->p);
    nitro_runtime_set_hooks(rt, &h);
}

static const view VIEW = {{0, 0, 0x7000}, {0, 0, 0}};

static void draw(const world *w, unsigned mask, long frame, dsgx_frame *out)
{
    binding b = {w, mask, frame, {0}};
    render_with(w->k.file.data, w->k.file.size, 0, &VIEW, prepare, &b, out);
    nitro_anim_player_free(&b.p);
}

static void draw_static(const variant *v, dsgx_frame *out)
{
    static kit k;
    memset(&k, 0, sizeof k);
    assert_true(build_model(&k, v));
    render(k.file.data, k.file.size, 0, &VIEW, out);
    kit_free(&k);
}

static uint32_t px(const dsgx_frame *f, unsigned x, unsigned y)
{
    return f->px[y * DSGX_FRAME_W + x];
}

/* ---- golden scenes ---- */

typedef struct scene_def {
    const char *name;
    unsigned mask;
    long frames[8];
    unsigned nframes;
} scene_def;

#define M(k) (1u << (k))
static const scene_def SCENES[] = {
    /* 0 1 2: step-1 arm samples, step-4 / step-2 hand between samples; 5 7 8 beyond last */
    {"jnt", M(KIND_JNT), {0, 1, 2, 3, 5, 7, 8}, 7},
    {"mat", M(KIND_MAT), {0, 1, 2, 3, 5, 6, 7}, 7},
    {"srt", M(KIND_SRT), {0, 1, 3, 5, 6}, 5},
    {"pat", M(KIND_PAT), {0, 1, 2, 4, 7}, 5},
    {"vis", M(KIND_VIS), {0, 1, 2, 3}, 4},
    {"all", M(KIND_JNT) | M(KIND_PAT) | M(KIND_SRT) | M(KIND_MAT) | M(KIND_VIS), {0, 3, 6}, 3},
};
#define NSCENES (sizeof SCENES / sizeof SCENES[0])

static void dump_fixtures(const world *w, const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/anim.nsbmd", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(w->k.file.data, 1, w->k.file.size, f), w->k.file.size);
    fclose(f);
    for (unsigned i = 0; i < NKINDS; i++) {
        snprintf(path, sizeof path, "%s/anim.%s", dir, EXT[i]);
        f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(w->anim[i].data, 1, w->anim[i].size, f), w->anim[i].size);
        fclose(f);
    }
}

static void test_golden(void **state)
{
    (void)state;
    static world w;
    world_build(&w);
    if (getenv("DSGX_NITRO_FIXTURE_DIR")) dump_fixtures(&w, getenv("DSGX_NITRO_FIXTURE_DIR"));
    bool update = getenv("DSGX_NITRO_GOLDEN_UPDATE") != NULL;
    const char *manifest = DSGX_GOLDEN_DIR "/nitro-anim/manifest.tsv";
    golden_row rows[64];
    unsigned nrows = update ? 0 : read_manifest(manifest, rows, 64), checked = 0, failed = 0;
    FILE *mf = NULL;
    if (update) {
        mf = fopen(manifest, "w");
        assert_non_null(mf);
        fprintf(mf, "name\tframe\txxh3\n");
    }
    static dsgx_frame frame;
    for (unsigned s = 0; s < NSCENES; s++) {
        for (unsigned i = 0; i < SCENES[s].nframes; i++) {
            long fr = SCENES[s].frames[i];
            draw(&w, SCENES[s].mask, fr, &frame);
            char hex[17], path[512], err[256];
            dsgx_frame_hash_hex(&frame, hex);
            if (update) {
                fprintf(mf, "%s\t%ld\t%s\n", SCENES[s].name, fr, hex);
                snprintf(path, sizeof path, DSGX_GOLDEN_DIR "/nitro-anim/%s.frame%03ld.png",
                         SCENES[s].name, fr);
                assert_int_equal(dsgx_frame_write_png(&frame, path, err, sizeof err), 0);
                continue;
            }
            bool found = false;
            for (unsigned r = 0; r < nrows; r++) {
                if (strcmp(rows[r].name, SCENES[s].name) || rows[r].frame != (unsigned)fr) continue;
                found = true;
                checked++;
                if (strcmp(rows[r].hash, hex)) {
                    failed++;
                    snprintf(path, sizeof path, "anim_%s.%ld.actual.png", SCENES[s].name, fr);
                    dsgx_frame_write_png(&frame, path, err, sizeof err);
                    fprintf(stderr, "%s frame %ld: %s, golden %s (actual written to %s)\n",
                            SCENES[s].name, fr, hex, rows[r].hash, path);
                }
            }
            if (!found) {
                failed++;
                fprintf(stderr, "%s frame %ld: not in the manifest\n", SCENES[s].name, fr);
            }
        }
    }
    world_free(&w);
    if (mf) {
        fclose(mf);
        return;
    }
    assert_int_equal(failed, 0);
    assert_int_equal(checked, nrows);
}

/* ---- one render per kind through the hooks ---- */

/* PAT0: at frame 5 the key of frame 4 is in force (pal4 / p_4, a 4-colour palette at an
 * 8-byte offset); at frame 1 the key of frame 0 (a3i5 / p_a3i5). The frame must equal the
 * static model whose "face" material names that texture and palette. */
static void test_pat_equals_static(void **state)
{
    (void)state;
    static world w;
    world_build(&w);
    static dsgx_frame a, b;
    static const struct {
        long frame;
        unsigned key;
    } cases[] = {{5, 2}, {1, 0}, {6, 3}};
    for (unsigned i = 0; i < 3; i++) {
        draw(&w, M(KIND_PAT), cases[i].frame, &a);
        variant v = {.face_tex = PAT_TEX[cases[i].key], .face_pal = PAT_PAL[cases[i].key]};
        draw_static(&v, &b);
        assert_memory_equal(a.px, b.px, sizeof a.px);
    }
    /* and differs from the unanimated model (pal16 / p_16) at frame 2 (pal256 / p_256) */
    draw(&w, M(KIND_PAT), 2, &a);
    static const variant plain = {0};
    draw_static(&plain, &b);
    assert_true(memcmp(a.px, b.px, sizeof a.px) != 0);
    world_free(&w);
}

/* MAT0: frame 2 = diffuse sample 1 (green 0x03E0, step 2, even frame), alpha (3 * 31 + 7) >> 2
 * is frame 1's; frame 2's alpha is the mean (31 + 7) >> 1 = 19. Frame 5 is beyond the last
 * interpolated alpha frame (4): stored sample 2 = 0, so the polygon is not drawn and the glow
 * square shows the clear colour. */
static void test_mat_alpha_and_colour(void **state)
{
    (void)state;
    static world w;
    world_build(&w);
    static dsgx_frame a, b;
    draw(&w, M(KIND_MAT), 2, &a);
    variant v = {.glow_set = true, .glow_dif = 0x03E0, .glow_alpha = 19};
    draw_static(&v, &b);
    assert_memory_equal(a.px, b.px, sizeof a.px);
    /* translucent: the glow centre (51, 147) mixes green with the clear colour */
    uint32_t g = px(&a, 51, 147), bg = px(&a, 2, 2);
    assert_true(dsgx_pixel_g(g) > dsgx_pixel_g(bg) && dsgx_pixel_g(g) < 63);
    /* frame 7: diffuse beyond last (stored sample 4, yellow 0x03FF), alpha sample 4 = 31 */
    draw(&w, M(KIND_MAT), 7, &a);
    v = (variant){.glow_set = true, .glow_dif = 0x03FF, .glow_alpha = 31};
    draw_static(&v, &b);
    assert_memory_equal(a.px, b.px, sizeof a.px);
    draw(&w, M(KIND_MAT), 5, &a);
    assert_int_equal(px(&a, 51, 147), px(&a, 2, 2));
    world_free(&w);
}

/* VIS0: frame 3 hides glow and face: their centres are clear colour, and the frame equals the
 * static model with those NODE commands' visible flag cleared. */
static void test_vis_hides(void **state)
{
    (void)state;
    static world w;
    world_build(&w);
    static dsgx_frame a, b;
    draw(&w, M(KIND_VIS), 3, &a);
    uint32_t bg = px(&a, 2, 2);
    assert_int_equal(px(&a, 51, 147), bg);
    assert_int_equal(px(&a, 205, 147), bg);
    assert_true(px(&a, 128, 147) != bg); /* the tile stays */
    variant v = {.hide = {0, 0, 0, 1, 0, 1}};
    draw_static(&v, &b);
    assert_memory_equal(a.px, b.px, sizeof a.px);
    draw(&w, M(KIND_VIS), 0, &a);
    assert_true(px(&a, 51, 147) != bg);
    world_free(&w);
}

/* JNT: the arm (node 1, at (-2, 0.9)) turns by the pivot rotation of each frame: frame 0 is
 * 0 degrees, the bar centre (local (0.5, 0)) at world (-1.5, 0.9) = screen (51, 50); frame 2
 * is +45 degrees (rows (c, s), (-s, c)): local (0.5, 0) goes to (0.354, 0.354), world
 * (-1.646, 1.254) = screen (44, 32), and the old centre is then off the bar (its local point
 * is (0.354, -0.354), outside |y| <= 0.25). Node 4's IDENTITY tag drops the tile to the
 * origin: screen (128, 96) is covered, (128, 147) is not. */
static void test_jnt_moves(void **state)
{
    (void)state;
    static world w;
    world_build(&w);
    static dsgx_frame a, b;
    draw(&w, M(KIND_JNT), 0, &a);
    draw(&w, M(KIND_JNT), 2, &b);
    uint32_t bg = px(&a, 2, 2);
    assert_true(px(&a, 51, 50) != bg);
    assert_int_equal(px(&a, 44, 32), bg);
    assert_int_equal(px(&b, 51, 50), bg);
    assert_true(px(&b, 44, 32) != bg);
    assert_true(px(&a, 128, 96) != bg);
    assert_int_equal(px(&a, 128, 147), bg);
    world_free(&w);
}

/* SRT0: frame 0 leaves the tile's texture unmoved (scale 1, rotation (0, 1) and translation 0
 * set the SCALE_ONE / ROT_ZERO / TRANS_ZERO flags), so the frame equals the unanimated model,
 * whose material already uses the texture matrix with those flags. Frame 3 rotates (between
 * rotation samples 1 and 2) and translates the texture: the tile's pixels change while its
 * coverage (the polygon) does not. */
static void test_srt_moves_texture(void **state)
{
    (void)state;
    static world w;
    world_build(&w);
    static dsgx_frame a, b;
    draw(&w, M(KIND_SRT), 0, &a);
    static const variant plain = {0};
    draw_static(&plain, &b);
    assert_memory_equal(a.px, b.px, sizeof a.px);
    draw(&w, M(KIND_SRT), 3, &b);
    uint32_t bg = px(&a, 2, 2);
    unsigned changed = 0;
    for (unsigned y = 122; y < 172; y++)
        for (unsigned x = 103; x < 153; x++) {
            assert_int_equal(px(&a, x, y) == bg, px(&b, x, y) == bg);
            changed += px(&a, x, y) != px(&b, x, y);
        }
    assert_true(changed > 100);
    world_free(&w);
}

/* Several at once: joints + pattern + material at frame 4 give the same face and glow pixels
 * as the pattern and the material alone (they target different things), and the joints still
 * move the arm. */
static void test_combined(void **state)
{
    (void)state;
    static world w;
    world_build(&w);
    static dsgx_frame all, one;
    draw(&w, M(KIND_JNT) | M(KIND_PAT) | M(KIND_MAT), 4, &all);
    draw(&w, M(KIND_PAT), 4, &one);
    assert_int_equal(px(&all, 205, 147), px(&one, 205, 147)); /* face: node 5 keeps (1.5,-1) */
    draw(&w, M(KIND_MAT), 4, &one);
    assert_int_equal(px(&all, 51, 147), px(&one, 51, 147));
    draw(&w, M(KIND_JNT), 4, &one);
    assert_int_equal(px(&all, 51, 50), px(&one, 51, 50));
    world_free(&w);
}

/* A misfit names the animation and the reason; a VIS0 for another node count too. */
static void test_misfit(void **state)
{
    (void)state;
    static world w;
    world_build(&w);
    nitro_file f;
    assert_true(nitro_parse(w.k.file.data, w.k.file.size, &f).ok);
    static nitro_anim_player p;
    nitro_anim_player_init(&p, &f.models[0]);
    char err[256];
    assert_int_equal(w.as[KIND_JNT].num, 2);
    assert_false(nitro_anim_player_add(&p, &w.as[KIND_JNT].anims[1], w.anim[KIND_JNT].data, NULL,
                                       err, sizeof err));
    assert_non_null(strstr(err, "\"big\""));
    assert_non_null(strstr(err, "8 tracks"));
    assert_non_null(strstr(err, "6 nodes"));
    /* a pattern whose textures are not in VRAM */
    assert_false(nitro_anim_player_add(&p, &w.as[KIND_PAT].anims[0], w.anim[KIND_PAT].data, NULL,
                                       err, sizeof err));
    assert_non_null(strstr(err, "\"blink\""));
    assert_non_null(strstr(err, "\"a3i5\" not loaded"));
    assert_int_equal(p.num, 0);
    nitro_anim_player_free(&p);
    nitro_file_free(&f);
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pat_equals_static),
        cmocka_unit_test(test_mat_alpha_and_colour),
        cmocka_unit_test(test_vis_hides),
        cmocka_unit_test(test_jnt_moves),
        cmocka_unit_test(test_srt_moves_texture),
        cmocka_unit_test(test_combined),
        cmocka_unit_test(test_misfit),
        cmocka_unit_test(test_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
