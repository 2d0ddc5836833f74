/*
 * test_render_lookup.c - texture lookup beside a model (tools/core/texfind.h) and the auto-fit
 * camera (tools/core/autofit.h), on fixtures made with the project's writers (nitro/writer.h,
 * nitro/anim_writer.h, nitro/narc_writer.h): no game files.
 *
 * Fixture tree (written to a temporary directory, or to $DSGX_NITRO_FIXTURE_DIR for the CLI
 * test test/cli/render_lookup.sh):
 *   loose/  tree.nsbmd (materials wood+wood_pl, bark, leaf; no textures), crate.nsbmd (wood+
 *           wood_pl; no textures), crate_full.nsbmd (the same with wood.nsbtx's TEX0 inside),
 *           wood.nsbtx {wood, bark | wood_pl}, alt.nsbtx {bark, leaf}, extra.nsbtx {leaf2},
 *           tree.nsbtp (pattern on "leaf": leaf at frame 0, leaf2 from frame 1)
 *   arc/    models.narc [0 tree.nsbmd, 1 notes.bin, 2 wood.nsbtx (LZ77), 3 crate.nsbmd],
 *           alt.nsbtx
 *   fit/    ring.nsbmd (a flat ring in XZ), pole.nsbmd (tall and thin), big.nsbmd (a cube 512
 *           units wide through POSSCALE), fit.narc [ring, pole, big]
 *           shift.nsbca (moves the pole's node to (40, 25, -30)), damaged.nsbtx (not a valid
 *           file: skipped)
 *   many.narc  130 unnamed members: ring, pole, big, ring, ...
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include "nitro/anim_writer.h"
#include "nitro/narc_writer.h"
#include "test_nitro_scene.h"
#include "tools/core/autofit.h"
#include "tools/core/nitro_open.h"
#include "tools/core/texfind.h"

/* ---- fixture files ---- */

static char root[512];

static void save(const char *rel, const uint8_t *d, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

static void save_buf(const char *rel, nitro_buf *b)
{
    assert_false(b->oom);
    save(rel, b->data, b->size);
    nitro_buf_free(b);
}

/* Textures: wood (16 colours, palette wood_pl), bark, leaf, leaf2 (direct colour), 16x16. */
typedef struct texdata {
    uint8_t wood[16 * 16 / 2], pal[32], direct[3][16 * 16 * 2];
    nitro_wtexture tex[4];
    nitro_wpalette pl;
} texdata;

static void build_tex(texdata *t)
{
    static const char *const names[4] = {"wood", "bark", "leaf", "leaf2"};
    static const rgb15 tint[3] = {0x0150, 0x03E0, 0x7C1F};
    for (unsigned i = 0; i < sizeof t->wood; i++) t->wood[i] = (uint8_t)(i * 7 + (i >> 3));
    pal_ramp(t->pal, 16, 3);
    for (unsigned k = 0; k < 3; k++)
        for (unsigned i = 0; i < 256; i++) {
            rgb15 c = (rgb15)((((i >> 4) ^ i) & 1 ? tint[k] : (rgb15)(tint[k] >> 1)) | 0x8000u);
            t->direct[k][2 * i] = (uint8_t)c;
            t->direct[k][2 * i + 1] = (uint8_t)(c >> 8);
        }
    for (unsigned k = 0; k < 4; k++) {
        memset(&t->tex[k], 0, sizeof t->tex[k]);
        t->tex[k].name = names[k];
        unsigned fmt = k == 0 ? 3u : 7u;
        t->tex[k].teximage_param = (1u << 20) | (1u << 23) | (fmt << 26);
        t->tex[k].extra = 16u | (16u << 11);
        t->tex[k].data = k == 0 ? t->wood : t->direct[k - 1];
    }
    memset(&t->pl, 0, sizeof t->pl);
    t->pl.name = "wood_pl";
    t->pl.data = t->pal;
    t->pl.size = sizeof t->pal;
}

static void write_btx(const char *rel, const nitro_wtexture *tex, unsigned ntex,
                      const nitro_wpalette *pal, unsigned npal, nitro_buf *keep)
{
    nitro_wtex0 w = {tex, ntex, pal, npal};
    nitro_buf b = {0};
    char err[160];
    assert_true(nitro_write_btx0(&w, &b, err, sizeof err));
    if (keep) {
        nitro_buf_bytes(keep, b.data, b.size);
        assert_false(keep->oom);
    }
    save_buf(rel, &b);
}

static void rigid(nitro_buf *b, unsigned nmesh, bool posscale)
{
    nitro_sbc_node(b, 0, true);
    nitro_sbc_nodedesc(b, 0, 0, 0, -1, -1);
    if (posscale) nitro_sbc_posscale(b, false);
    for (unsigned i = 0; i < nmesh; i++) {
        nitro_sbc_mat(b, 0, (uint8_t)i);
        nitro_sbc_shp(b, (uint8_t)i);
    }
    if (posscale) nitro_sbc_posscale(b, true);
    nitro_sbc_ret(b);
}

/* A model of n quads side by side, material i naming tex[i] / pal[i] (NULL: none). */
static void write_quads(kit *k, const char *name, unsigned n, const char *const *tex,
                        const char *const *pal, const nitro_wtex0 *own, nitro_buf *out)
{
    nitro_wmesh meshes[3];
    nitro_material mats[3];
    static const char *const mname[3] = {"m0", "m1", "m2"};
    for (unsigned i = 0; i < n; i++) {
        nitro_dl *d = new_dl(k);
        quad(d, (vtx16)(((int)(i * 2) - (int)(n - 1)) * 0x900), 0, 0x800, 0x7FFF);
        nitro_dl_finish(d);
        meshes[i] = mesh_of(d, mname[i]);
        mat_init(&mats[i], mname[i], tex[i], pal ? pal[i] : NULL, 0);
    }
    nitro_node node;
    node_init(&node, "root");
    nitro_wmodel m;
    model_init(&m, name, 0x2000);
    m.nodes = &node;
    m.num_nodes = 1;
    m.materials = mats;
    m.num_materials = n;
    m.meshes = meshes;
    m.num_meshes = n;
    nitro_buf sbc = {0};
    rigid(&sbc, n, false);
    m.sbc = sbc.data;
    m.sbc_size = (uint32_t)sbc.size;
    char err[160];
    assert_true(nitro_write_bmd0(&m, 1, own, out, err, sizeof err));
    nitro_buf_free(&sbc);
}

/* An untextured model of one mesh (display list d), model units scaled by pos_scale. */
static void write_shape(const char *name, nitro_dl *d, fx32 pos_scale, nitro_buf *out)
{
    nitro_wmesh mesh = mesh_of(d, "shape");
    nitro_material mat;
    mat_init(&mat, "white", NULL, NULL, 0);
    nitro_node node;
    node_init(&node, "root");
    nitro_wmodel m;
    model_init(&m, name, 0x2000);
    m.info.pos_scale = pos_scale;
    m.info.inv_pos_scale = (fx32)(((int64_t)FX32_ONE << 12) / pos_scale);
    m.nodes = &node;
    m.num_nodes = 1;
    m.materials = &mat;
    m.num_materials = 1;
    m.meshes = &mesh;
    m.num_meshes = 1;
    nitro_buf sbc = {0};
    rigid(&sbc, 1, pos_scale != FX32_ONE);
    m.sbc = sbc.data;
    m.sbc_size = (uint32_t)sbc.size;
    char err[160];
    assert_true(nitro_write_bmd0(&m, 1, NULL, out, err, sizeof err));
    nitro_buf_free(&sbc);
}

/* cos and sin of 2 pi i / 24 in 1.3.12, from the 15-degree table (4096 * cos 15k). */
static void circle24(unsigned i, int *c, int *s)
{
    static const int q[7] = {4096, 3956, 3547, 2896, 2048, 1060, 0};
    unsigned a = i % 24, quad = a / 6, r = a % 6;
    int cc = q[r], ss = q[6 - r];
    int cs[4][2] = {{cc, ss}, {-ss, cc}, {-cc, -ss}, {ss, -cc}};
    *c = cs[quad][0];
    *s = cs[quad][1];
}

static void ring_dl(nitro_dl *d)
{
    nitro_dl_begin(d, 1);
    nitro_dl_color(d, 0x7FFF);
    for (unsigned i = 0; i < 24; i++) {
        int c0, s0, c1, s1;
        circle24(i, &c0, &s0);
        circle24(i + 1, &c1, &s1);
        /* outer radius 2, inner 1.5, in the XZ plane (y = 0) */
        nitro_dl_vtx16(d, (vtx16)(c0 * 2), 0, (vtx16)(s0 * 2));
        nitro_dl_vtx16(d, (vtx16)(c1 * 2), 0, (vtx16)(s1 * 2));
        nitro_dl_vtx16(d, (vtx16)(c1 * 3 / 2), 0, (vtx16)(s1 * 3 / 2));
        nitro_dl_vtx16(d, (vtx16)(c0 * 3 / 2), 0, (vtx16)(s0 * 3 / 2));
    }
    nitro_dl_end(d);
    nitro_dl_finish(d);
}

/* A box of half-sizes hx, hy, hz (1.3.12), four side faces and the two caps. */
static void box_dl(nitro_dl *d, vtx16 hx, vtx16 hy, vtx16 hz, rgb15 col)
{
    static const int f[6][4][3] = {
        {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
        {{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}},
        {{1, -1, 1}, {1, -1, -1}, {1, 1, -1}, {1, 1, 1}},
        {{-1, -1, -1}, {-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}},
        {{-1, 1, 1}, {1, 1, 1}, {1, 1, -1}, {-1, 1, -1}},
        {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}},
    };
    nitro_dl_begin(d, 1);
    for (unsigned i = 0; i < 6; i++) {
        nitro_dl_color(d, (rgb15)(col - (rgb15)(i * 0x0421)));
        for (unsigned v = 0; v < 4; v++)
            nitro_dl_vtx16(d, (vtx16)(f[i][v][0] * hx), (vtx16)(f[i][v][1] * hy),
                           (vtx16)(f[i][v][2] * hz));
    }
    nitro_dl_end(d);
    nitro_dl_finish(d);
}

/* LZ77 type 0x10 with literals only (GBATEK "BIOS Decompression Functions"). */
static void lz77_literals(const uint8_t *in, size_t n, nitro_buf *out)
{
    nitro_buf_u8(out, 0x10);
    nitro_buf_u8(out, (uint8_t)n);
    nitro_buf_u8(out, (uint8_t)(n >> 8));
    nitro_buf_u8(out, (uint8_t)(n >> 16));
    for (size_t i = 0; i < n; i += 8) {
        nitro_buf_u8(out, 0);
        nitro_buf_bytes(out, in + i, n - i < 8 ? n - i : 8);
    }
    nitro_buf_align(out, 4);
}

static void write_fixtures(void)
{
    char path[1024];
    static const char *const sub[3] = {"loose", "arc", "fit"};
    for (unsigned i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", root, sub[i]);
        mkdir(path, 0777);
    }
    static texdata t;
    build_tex(&t);
    /* the texture files */
    nitro_buf wood = {0};
    const nitro_wtexture wood_tex[2] = {t.tex[0], t.tex[1]}, alt_tex[2] = {t.tex[1], t.tex[2]};
    nitro_wtexture alt_mod[2] = {alt_tex[0], alt_tex[1]};
    alt_mod[0].data = t.direct[2]; /* alt's bark looks like leaf: the two barks differ */
    write_btx("loose/wood.nsbtx", wood_tex, 2, &t.pl, 1, &wood);
    write_btx("loose/alt.nsbtx", alt_mod, 2, NULL, 0, NULL);
    write_btx("arc/alt.nsbtx", alt_mod, 2, NULL, 0, NULL);
    write_btx("loose/extra.nsbtx", &t.tex[3], 1, NULL, 0, NULL);
    /* the models */
    static const char *const tree_tex[3] = {"wood", "bark", "leaf"};
    static const char *const tree_pal[3] = {"wood_pl", NULL, NULL};
    kit *k = calloc(1, sizeof *k);
    assert_non_null(k);
    nitro_buf tree = {0}, crate = {0}, full = {0};
    write_quads(k, "tree", 3, tree_tex, tree_pal, NULL, &tree);
    write_quads(k, "crate", 1, tree_tex, tree_pal, NULL, &crate);
    nitro_wtex0 own = {wood_tex, 2, &t.pl, 1};
    write_quads(k, "crate", 1, tree_tex, tree_pal, &own, &full);
    save("loose/tree.nsbmd", tree.data, tree.size);
    save("loose/crate.nsbmd", crate.data, crate.size);
    save_buf("loose/crate_full.nsbmd", &full);
    /* the pattern animation: leaf, then leaf2 from frame 1 */
    static const char *const pat_tex[2] = {"leaf", "leaf2"}, *const pat_mat[1] = {"m2"};
    static const uint16_t keys[4] = {0, 0xFF00, 1, 0xFF01};
    static const uint16_t *const kp[1] = {keys};
    static const unsigned nk[1] = {2};
    nitro_wanim pat = {.name = "sway",
                       .frames = 4,
                       .mat_names = pat_mat,
                       .num_mat = 1,
                       .tex_names = pat_tex,
                       .num_tex_names = 2,
                       .pat_num_keys = nk,
                       .pat_keys = kp,
                       .pat_ratio = 0x800};
    nitro_buf nsbtp = {0};
    assert_true(nitro_write_anim(NITRO_ANIM_PAT, &pat, 1, &nsbtp));
    save_buf("loose/tree.nsbtp", &nsbtp);
    /* the archive */
    nitro_buf lz = {0}, narc = {0};
    lz77_literals(wood.data, wood.size, &lz);
    static const uint8_t notes[5] = {'n', 'o', 't', 'e', 's'};
    nitro_wnarc_file files[4] = {{"tree.nsbmd", tree.data, (uint32_t)tree.size},
                                 {"notes.bin", notes, 5},
                                 {"wood.nsbtx", lz.data, (uint32_t)lz.size},
                                 {"crate.nsbmd", crate.data, (uint32_t)crate.size}};
    assert_true(nitro_write_narc(files, 4, true, &narc));
    save_buf("arc/models.narc", &narc);
    nitro_buf_free(&lz);
    nitro_buf_free(&wood);
    nitro_buf_free(&tree);
    nitro_buf_free(&crate);
    /* the fit models */
    nitro_buf shape[3] = {{0}, {0}, {0}};
    nitro_dl *d = new_dl(k);
    ring_dl(d);
    write_shape("ring", d, FX32_ONE, &shape[0]);
    d = new_dl(k);
    box_dl(d, 0x00C0, 0x6000, 0x00C0, 0x7FFF); /* 0.09 x 12 x 0.09 */
    write_shape("pole", d, FX32_ONE, &shape[1]);
    d = new_dl(k);
    box_dl(d, 0x1000, 0x1000, 0x1000, 0x7FFF);
    write_shape("big", d, 256 * FX32_ONE, &shape[2]); /* 512 units wide */
    static const char *const shape_file[3] = {"fit/ring.nsbmd", "fit/pole.nsbmd", "fit/big.nsbmd"};
    nitro_wnarc_file fit[3];
    for (unsigned i = 0; i < 3; i++) {
        save(shape_file[i], shape[i].data, shape[i].size);
        fit[i].name = shape_file[i] + 4;
        fit[i].data = shape[i].data;
        fit[i].size = (uint32_t)shape[i].size;
    }
    nitro_buf fnarc = {0};
    assert_true(nitro_write_narc(fit, 3, true, &fnarc));
    save_buf("fit/fit.narc", &fnarc);
    /* a damaged texture file beside the fit models: skipped, never used */
    static const uint8_t damaged[16] = {'B', 'T', 'X', '0', 0xFF, 0xFE, 1, 0, 0xFF, 0xFF, 0, 0};
    save("fit/damaged.nsbtx", damaged, sizeof damaged);
    /* a joint animation moving the pole's node far off the origin: the fit follows it */
    static nitro_wjnt_track move;
    memset(&move, 0, sizeof move);
    move.tag = NITRO_JNT_CONST_TX | NITRO_JNT_CONST_TY | NITRO_JNT_CONST_TZ | NITRO_JNT_BASE_R |
               NITRO_JNT_IDENTITY_S;
    move.trans[0] = (nitro_wcurve){.constant = true, .value = 40 * FX32_ONE};
    move.trans[1] = (nitro_wcurve){.constant = true, .value = 25 * FX32_ONE};
    move.trans[2] = (nitro_wcurve){.constant = true, .value = -30 * FX32_ONE};
    nitro_wanim shift = {.name = "shift", .frames = 2, .jnt = &move, .num_jnt = 1};
    nitro_buf nsbca = {0};
    assert_true(nitro_write_anim(NITRO_ANIM_JNT, &shift, 1, &nsbca));
    save_buf("fit/shift.nsbca", &nsbca);
    /* 130 unnamed members (the three shapes in turn): more models than a sheet shows */
    static nitro_wnarc_file many[130];
    for (unsigned i = 0; i < 130; i++) many[i] = fit[i % 3];
    nitro_buf mnarc = {0};
    assert_true(nitro_write_narc(many, 130, false, &mnarc));
    save_buf("many.narc", &mnarc);
    for (unsigned i = 0; i < 3; i++) nitro_buf_free(&shape[i]);
    kit_free(k);
    free(k);
}

static int setup(void **state)
{
    (void)state;
    const char *dir = getenv("DSGX_NITRO_FIXTURE_DIR");
    if (dir) {
        snprintf(root, sizeof root, "%s", dir);
        mkdir(root, 0777);
    } else {
        snprintf(root, sizeof root, "/tmp/dsgx_lookup_XXXXXX");
        if (!mkdtemp(root)) return -1;
    }
    write_fixtures();
    return 0;
}

/* Remove a directory tree made by setup (a temporary root only). */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (!lstat(path, &sb) && S_ISDIR(sb.st_mode))
            remove_tree(path);
        else
            remove(path);
    }
    closedir(d);
    rmdir(dir);
}

static int teardown(void **state)
{
    (void)state;
    if (!getenv("DSGX_NITRO_FIXTURE_DIR")) remove_tree(root);
    return 0;
}

/* ---- texture lookup ---- */

typedef struct opened {
    uint8_t *buf;
    size_t size;
    nitro_file f;
} opened;

static void open_model(const char *rel, opened *o)
{
    char path[1024], err[600];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    dsgx_nitro_input in;
    assert_int_equal(dsgx_nitro_open(path, &in, err, sizeof err), 0);
    o->buf = in.data;
    o->size = in.size;
    in.data = NULL;
    dsgx_nitro_input_free(&in);
    assert_true(nitro_parse(o->buf, o->size, &o->f).ok);
}

static void close_model(opened *o)
{
    nitro_file_free(&o->f);
    free(o->buf);
}

/* The plan for model `rel` with the --tex files `tex` (relative, NULL-terminated). */
static dsgx_texplan *plan_for(const char *rel, const char *const *tex, dsgx_texlib *lib, opened *o,
                              unsigned *missing)
{
    char path[1024], err[600];
    dsgx_texlib_init(lib);
    for (unsigned i = 0; tex && tex[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, tex[i]);
        assert_int_equal(dsgx_texlib_add_option(lib, path, err, sizeof err), 0);
    }
    snprintf(path, sizeof path, "%s/%s", root, rel);
    dsgx_texlib_add_around(lib, path);
    open_model(rel, o);
    dsgx_texplan *p = malloc(sizeof *p);
    assert_non_null(p);
    dsgx_texplan_init(p);
    dsgx_texplan_need_model(p, &o->f.models[0]);
    *missing = dsgx_texplan_resolve(p, lib, o->f.tex0, o->buf, "own");
    return p;
}

/* The line dsgx_texplan_format gives for the name (texture or palette). */
static const char *line_of(const dsgx_texplan *p, const dsgx_texlib *lib, const char *name,
                           bool palette)
{
    static char line[2600];
    for (unsigned i = 0; i < p->nneed; i++)
        if (p->need[i].palette == palette && !strcmp(p->need[i].name.s, name)) {
            dsgx_texplan_format(p, lib, i, line, sizeof line);
            /* drop the fixture root so the expectations read as relative paths */
            char *r = strstr(line, root);
            while (r) {
                size_t n = strlen(root) + 1;
                memmove(r, r + n, strlen(r + n) + 1);
                r = strstr(line, root);
            }
            return line;
        }
    fail_msg("%s not needed", name);
    return "";
}

static void test_folder_lookup(void **state)
{
    (void)state;
    dsgx_texlib lib;
    opened o;
    unsigned missing;
    dsgx_texplan *p = plan_for("loose/tree.nsbmd", NULL, &lib, &o, &missing);
    assert_int_equal(missing, 0);
    assert_int_equal(p->nneed, 4); /* wood, wood_pl, bark, leaf */
    /* the folder sorted by name: alt.nsbtx before wood.nsbtx (extra.nsbtx holds none) */
    assert_string_equal(line_of(p, &lib, "wood", false), "texture wood from loose/wood.nsbtx");
    assert_string_equal(line_of(p, &lib, "wood_pl", true), "palette wood_pl from loose/wood.nsbtx");
    assert_string_equal(line_of(p, &lib, "bark", false),
                        "texture bark from loose/alt.nsbtx; also in loose/wood.nsbtx (not used)");
    assert_string_equal(line_of(p, &lib, "leaf", false), "texture leaf from loose/alt.nsbtx");
    /* two sets uploaded, in folder order, so the runtime's first-match binding agrees */
    assert_int_equal(p->nsets, 2);
    assert_int_equal(p->origin[0], DSGX_TEX_FOLDER);
    assert_non_null(strstr(p->label[0], "alt.nsbtx"));
    free(p);
    close_model(&o);
    dsgx_texlib_free(&lib);
}

static void test_archive_then_folder(void **state)
{
    (void)state;
    dsgx_texlib lib;
    opened o;
    unsigned missing;
    dsgx_texplan *p = plan_for("arc/models.narc:0", NULL, &lib, &o, &missing);
    assert_int_equal(missing, 0);
    /* the archive's LZ77 member first, then the folder's alt.nsbtx */
    assert_string_equal(line_of(p, &lib, "wood", false),
                        "texture wood from arc/models.narc:2 (wood.nsbtx)");
    assert_string_equal(line_of(p, &lib, "bark", false),
                        "texture bark from arc/models.narc:2 (wood.nsbtx); also in arc/alt.nsbtx "
                        "(not used)");
    assert_string_equal(line_of(p, &lib, "leaf", false), "texture leaf from arc/alt.nsbtx");
    assert_int_equal(p->nsets, 2);
    assert_int_equal(p->origin[0], DSGX_TEX_ARCHIVE);
    assert_int_equal(p->origin[1], DSGX_TEX_FOLDER);
    free(p);
    close_model(&o);
    dsgx_texlib_free(&lib);
}

static void test_option_wins(void **state)
{
    (void)state;
    dsgx_texlib lib;
    opened o;
    unsigned missing;
    static const char *const tex[] = {"loose/wood.nsbtx", NULL};
    dsgx_texplan *p = plan_for("loose/tree.nsbmd", tex, &lib, &o, &missing);
    assert_int_equal(missing, 0);
    char want[1200];
    snprintf(want, sizeof want, "texture bark from loose/wood.nsbtx (--tex)");
    assert_string_equal(line_of(p, &lib, "bark", false), want);
    assert_string_equal(line_of(p, &lib, "leaf", false), "texture leaf from loose/alt.nsbtx");
    assert_int_equal(p->origin[0], DSGX_TEX_OPTION);
    free(p);
    close_model(&o);
    dsgx_texlib_free(&lib);
}

static void test_own_textures_and_missing(void **state)
{
    (void)state;
    dsgx_texlib lib;
    opened o;
    unsigned missing;
    /* crate_full holds its textures: nothing automatic is uploaded */
    dsgx_texplan *p = plan_for("loose/crate_full.nsbmd", NULL, &lib, &o, &missing);
    assert_int_equal(missing, 0);
    assert_int_equal(p->nsets, 1);
    assert_int_equal(p->origin[0], DSGX_TEX_MODEL);
    assert_string_equal(line_of(p, &lib, "wood", false), "texture wood in own");
    free(p);
    close_model(&o);
    dsgx_texlib_free(&lib);
    /* a model in fit/ (only a damaged NSBTX there) finds nothing */
    opened t;
    open_model("loose/tree.nsbmd", &t);
    dsgx_texlib_init(&lib);
    char path[1024];
    snprintf(path, sizeof path, "%s/fit/ring.nsbmd", root);
    dsgx_texlib_add_around(&lib, path);
    assert_int_equal(lib.n, 0);
    assert_int_equal(lib.skipped, 1); /* fit/damaged.nsbtx */
    p = malloc(sizeof *p);
    dsgx_texplan_init(p);
    dsgx_texplan_need_model(p, &t.f.models[0]);
    assert_int_equal(dsgx_texplan_resolve(p, &lib, NULL, NULL, "own"), 4);
    assert_string_equal(line_of(p, &lib, "leaf", false), "texture leaf not found");
    free(p);
    close_model(&t);
    dsgx_texlib_free(&lib);
}

static void test_pattern_names(void **state)
{
    (void)state;
    dsgx_texlib lib;
    opened o, a;
    unsigned missing;
    dsgx_texplan *p = plan_for("loose/tree.nsbmd", NULL, &lib, &o, &missing);
    open_model("loose/tree.nsbtp", &a);
    nitro_anims as;
    assert_true(nitro_anims_parse(&a.f, &as).ok);
    dsgx_texplan_need_anim(p, &as.anims[0]);
    assert_int_equal(dsgx_texplan_resolve(p, &lib, o.f.tex0, o.buf, "own"), 0);
    assert_string_equal(line_of(p, &lib, "leaf2", false), "texture leaf2 from loose/extra.nsbtx");
    assert_int_equal(p->nsets, 3); /* alt, extra, wood: folder order */
    assert_non_null(strstr(p->label[1], "extra.nsbtx"));
    nitro_anims_free(&as);
    close_model(&a);
    free(p);
    close_model(&o);
    dsgx_texlib_free(&lib);
}

/* The NARC writer round-trips through the parser, with and without names; bad names fail. */
static void test_narc_writer(void **state)
{
    (void)state;
    static const uint8_t a[5] = {1, 2, 3, 4, 5}, b[3] = {6, 7, 8};
    nitro_wnarc_file files[3] = {{"a.bin", a, 5}, {"empty", a, 0}, {"b.nsbtx", b, 3}};
    for (int names = 0; names < 2; names++) {
        nitro_buf out = {0};
        assert_true(nitro_write_narc(files, 3, names, &out));
        nitro_narc n;
        assert_true(nitro_narc_parse(out.data, out.size, &n).ok);
        assert_int_equal(n.num_files, 3);
        for (unsigned i = 0; i < 3; i++) {
            assert_int_equal(n.files[i].size, files[i].size);
            assert_int_equal(n.files[i].offset % 4, 0);
            assert_memory_equal(out.data + n.files[i].offset, files[i].data, files[i].size);
            if (names)
                assert_string_equal(n.files[i].name, files[i].name);
            else
                assert_null(n.files[i].name);
        }
        assert_int_equal(names ? nitro_narc_find(&n, "b.nsbtx") : -1, names ? 2 : -1);
        nitro_narc_free(&n);
        nitro_buf_free(&out);
    }
    nitro_wnarc_file bad = {"dir/x", a, 5};
    nitro_buf out = {0};
    assert_false(nitro_write_narc(&bad, 1, true, &out));
    nitro_buf_free(&out);
}

/* ---- auto-fit ---- */

/* Project every point through the fitted view (as nitro_camera_lookat / _perspective do) and
 * return the image-plane extents over the half-angle tangents (-1..1 = the frame's edges). */
static void extents(const dsgx_fit_points *pts, const dsgx_fit_view *v, double tan_half,
                    double aspect, double ext[4])
{
    double z[3], x[3], y[3];
    for (int k = 0; k < 3; k++) z[k] = v->eye[k] - v->at[k];
    double l = dsgx_fit_sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
    for (int k = 0; k < 3; k++) z[k] /= l;
    x[0] = z[2], x[1] = 0, x[2] = -z[0];
    l = dsgx_fit_sqrt(x[0] * x[0] + x[2] * x[2]);
    x[0] /= l, x[2] /= l;
    y[0] = z[1] * x[2] - z[2] * x[1], y[1] = z[2] * x[0] - z[0] * x[2];
    y[2] = z[0] * x[1] - z[1] * x[0];
    ext[0] = ext[2] = 1e9;
    ext[1] = ext[3] = -1e9;
    for (unsigned i = 0; i < pts->n; i++) {
        double e[3] = {pts->p[i][0] - v->eye[0], pts->p[i][1] - v->eye[1],
                       pts->p[i][2] - v->eye[2]};
        double depth = -(e[0] * z[0] + e[1] * z[1] + e[2] * z[2]);
        assert_true(depth > v->near * 0.999 && depth < v->far * 1.001);
        double u = (e[0] * x[0] + e[1] * x[1] + e[2] * x[2]) / depth / (tan_half * aspect);
        double w = (e[0] * y[0] + e[1] * y[1] + e[2] * y[2]) / depth / tan_half;
        if (u < ext[0]) ext[0] = u;
        if (u > ext[1]) ext[1] = u;
        if (w < ext[2]) ext[2] = w;
        if (w > ext[3]) ext[3] = w;
    }
}

/* The fitted view touches the margin (fill) in one axis, is within it in the other, and is
 * centred in both. */
static void check_fit(const dsgx_fit_points *pts, double yaw, double pitch)
{
    const double tan_half = 0.26795, aspect = 4.0 / 3.0, fill = 0.9;
    double dir[3], ext[4];
    dsgx_fit_direction(yaw, pitch, dir);
    dsgx_fit_view v;
    assert_true(dsgx_fit_camera(pts, dir, tan_half, aspect, fill, &v));
    extents(pts, &v, tan_half, aspect, ext);
    double wx = (ext[1] - ext[0]) / 2, wy = (ext[3] - ext[2]) / 2;
    assert_true(wx <= fill + 1e-6 && wy <= fill + 1e-6);
    assert_true(wx > fill - 1e-6 || wy > fill - 1e-6);
    assert_true(ext[1] + ext[0] < 1e-6 && ext[1] + ext[0] > -1e-6);
    assert_true(ext[3] + ext[2] < 1e-6 && ext[3] + ext[2] > -1e-6);
}

static void test_fit_shapes(void **state)
{
    (void)state;
    dsgx_fit_points pts;
    /* a flat ring in XZ, off-centre: from the default and from other views */
    dsgx_fit_points_init(&pts);
    for (unsigned i = 0; i < 24; i++) {
        int c, s;
        circle24(i, &c, &s);
        assert_true(dsgx_fit_points_add(&pts, 10 + c / 2048.0, 3, -5 + s / 2048.0));
    }
    check_fit(&pts, 30, 30);
    check_fit(&pts, -120, 10);
    check_fit(&pts, 0, 80);
    /* a tall thin box (height-limited) and a wide flat one (width-limited) */
    dsgx_fit_points_free(&pts);
    for (int c = 0; c < 8; c++)
        dsgx_fit_points_add(&pts, c & 1 ? 0.05 : -0.05, c & 2 ? 6 : -6, c & 4 ? 0.05 : -0.05);
    check_fit(&pts, 30, 30);
    dsgx_fit_points_free(&pts);
    for (int c = 0; c < 8; c++)
        dsgx_fit_points_add(&pts, c & 1 ? 900 : -900, c & 2 ? 1 : -1, c & 4 ? 40 : -40);
    check_fit(&pts, 30, 30);
    /* a line along Z (degenerate in two axes) still fills from a three-quarter view */
    dsgx_fit_points_free(&pts);
    dsgx_fit_points_add(&pts, 0, 0, -3);
    dsgx_fit_points_add(&pts, 0, 0, 3);
    check_fit(&pts, 30, 30);
    /* a single point and nothing at all give a usable view around them */
    dsgx_fit_points_free(&pts);
    dsgx_fit_points_add(&pts, 1, 2, 3);
    double dir[3];
    dsgx_fit_direction(30, 30, dir);
    dsgx_fit_view v;
    assert_true(dsgx_fit_camera(&pts, dir, 0.26795, 4.0 / 3, 0.9, &v));
    assert_true(v.near > 0 && v.far > v.near);
    assert_true(v.at[0] > 0.99 && v.at[0] < 1.01 && v.at[1] > 1.99 && v.at[1] < 2.01);
    dsgx_fit_points_free(&pts);
    assert_true(dsgx_fit_camera(&pts, dir, 0.26795, 4.0 / 3, 0.9, &v));
    assert_true(v.near > 0 && v.far > v.near);
    /* bad arguments */
    const double up[3] = {0, 1, 0};
    assert_false(dsgx_fit_camera(&pts, up, 0.26795, 4.0 / 3, 0.9, &v));
    assert_false(dsgx_fit_camera(&pts, dir, 0.26795, 4.0 / 3, 1.5, &v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folder_lookup), cmocka_unit_test(test_archive_then_folder),
        cmocka_unit_test(test_option_wins),   cmocka_unit_test(test_own_textures_and_missing),
        cmocka_unit_test(test_pattern_names), cmocka_unit_test(test_narc_writer),
        cmocka_unit_test(test_fit_shapes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
