/* test_t3dm_drawlist.c - the compiled draw list (t3dm/drawlist.c) against the reference walk
 * (t3dm_draw_walk in t3dm/draw.c): for every fixture and for random models and options, the
 * bus writes must be identical, write for write (address, value, width), and so must the
 * triangle counts. The list is also replayed across pose changes (the bone matrices are the
 * only patched words) and rebuilt exactly when an option that shapes the stream changes.
 * Drawn into a geometry engine through nitro_gx_engine_sink (the replay then hands the words
 * to gx_write_gxfifo), the engine must end in the state that gx_write32 word by word gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "raster/raster.h"
#include "tools/core/savestate.h"
#include "t3dm/draw.h"
#include "t3dm/t3dm.h"
#include "test_t3dm_fixtures.h"
#include "test_rand.h"
#include "gx_state_compare.h"

/* ---- recording sink ---- */

typedef struct wrec {
    uint32_t *v; /* addr, val, bytes triples */
    size_t n, cap;
} wrec;

static void rec_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    wrec *r = u;
    if (r->n + 3 > r->cap) {
        r->cap = r->cap ? r->cap * 2 : 4096;
        r->v = realloc(r->v, r->cap * sizeof *r->v);
        assert_non_null(r->v);
    }
    r->v[r->n++] = addr;
    r->v[r->n++] = val;
    r->v[r->n++] = bytes;
}

static uint32_t rec_read(void *u, uint32_t addr)
{
    (void)u;
    (void)addr;
    return 0;
}

static void assert_same(const wrec *a, const wrec *b, const char *what)
{
    if (a->n != b->n) fail_msg("%s: %zu writes (walk) vs %zu (list)", what, a->n / 3, b->n / 3);
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i] != b->v[i])
            fail_msg("%s: write %zu differs: %08x (walk) vs %08x (list)", what, i / 3,
                     (unsigned)a->v[i], (unsigned)b->v[i]);
}

/* Walk, one-shot t3dm_draw and the caller's list: all three must agree. */
static void check(const t3dm_model *m, const t3dm_draw_opts *o, t3dm_drawlist *dl, const char *what)
{
    wrec a = {0}, b = {0}, c = {0};
    nitro_gx_sink sa = {&a, rec_write, rec_read}, sb = {&b, rec_write, rec_read},
                  sc = {&c, rec_write, rec_read};
    unsigned ta = t3dm_draw_walk(m, o, &sa);
    unsigned tb = t3dm_draw(m, o, &sb);
    unsigned tc = t3dm_drawlist_draw(dl, m, o, &sc);
    assert_true(a.n > 0);
    assert_int_equal(ta, tb);
    assert_int_equal(ta, tc);
    assert_same(&a, &b, what);
    assert_same(&a, &c, what);
    free(a.v);
    free(b.v);
    free(c.v);
}

/* ---- the fixtures ---- */

static void check_fixture(const fx_file *f, bool textured)
{
    t3dm_model m;
    assert_true(t3dm_parse(f->data, f->size, &m).ok);
    if (f->sdata) assert_true(t3dm_anim_load_sdata(&m, 0, f->sdata, f->sdata_size).ok);
    t3dm_pose pose;
    assert_true(t3dm_pose_init(&pose, &m));
    t3dm_texbind binds[16];
    memset(binds, 0, sizeof binds);
    for (unsigned i = 0; textured && i < 16 && i < m.num_materials; i++) {
        binds[i].bound = i % 3 != 2; /* some materials left untextured */
        binds[i].teximage = (i * 0x1234u) & 0xFFFFu;
        binds[i].has_palette = i & 1u;
        binds[i].pltt_base = i * 3u;
    }
    t3dm_drawlist dl;
    t3dm_drawlist_init(&dl);
    for (int bs = 0; bs < 2; bs++)
        for (int obj = -1; obj < (int)m.num_objects; obj++) {
            t3dm_draw_opts o = {&pose, textured ? binds : NULL, (uint8_t)(obj & 15), obj, bs};
            check(&m, &o, &dl, "fixture");
            o.pose = NULL;
            check(&m, &o, &dl, "fixture, no pose");
        }
    /* animation frames through one list: the pose changes, the list is not rebuilt */
    t3dm_draw_opts o = {&pose, textured ? binds : NULL, 1, -1, true};
    check(&m, &o, &dl, "frame 0");
    unsigned compiles = dl.compiles;
    for (unsigned fr = 0; m.num_anims && fr < 60; fr += 7) {
        t3dm_pose_animate(&pose, &m, 0, (float)fr / T3DM_TICKS_PER_SECOND);
        check(&m, &o, &dl, "animated frame");
    }
    assert_int_equal(dl.compiles, compiles);
    t3dm_drawlist_free(&dl);
    t3dm_pose_free(&pose);
    t3dm_free(&m);
}

static void test_fixtures(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_static(&f), 0); /* lists, a strip with restarts, a sequence */
    check_fixture(&f, false);
    fx_free(&f);
    assert_int_equal(fx_textured_all(&f), 0);
    check_fixture(&f, true);
    fx_free(&f);
    assert_int_equal(fx_skinned_model(&f, false), 0);
    check_fixture(&f, false);
    fx_free(&f);
    assert_int_equal(fx_skinned_model(&f, true), 0);
    check_fixture(&f, false);
    fx_free(&f);
}

/* ---- random models ---- */

static unsigned rn(uint32_t *s, unsigned n)
{
    return n ? rnd(s) % n : 0;
}

/* A random strip of n indices (n >= 3): restarts only where two more follow and never inside
 * a first triangle, as the reader demands. */
static void rand_strip(uint32_t *s, int16_t *out, unsigned n, unsigned slots)
{
    unsigned since = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned v = rn(s, slots);
        bool restart = i > 0 && since >= 3 && i + 2 < n && rn(s, 5) == 0;
        if (restart) since = 0;
        out[i] = (int16_t)(v | (restart ? 0x8000u : 0u));
        since++;
    }
}

enum { RV = 256, RO = 3, RP = 6, RB = 36 };

typedef struct rmodel {
    t3dm_vertex v[RV];
    uint8_t tris[RO][RP][60];
    int16_t strips[RO][RP][2][40];
    t3dm_w_part parts[RO][RP];
    t3dm_w_object objs[RO];
    t3dm_w_material mats[RO];
    t3dm_w_bone bones[RB];
} rmodel;

static int rand_model(uint32_t *s, rmodel *r, fx_file *f)
{
    memset(r, 0, sizeof *r);
    uint32_t col = rnd(s) | 0xFFu;
    for (unsigned i = 0; i < RV; i++) {
        t3dm_vertex *v = &r->v[i];
        for (int k = 0; k < 3; k++) v->pos[k] = (int16_t)rnd(s);
        v->norm = (uint16_t)rnd(s);
        if (rn(s, 4) == 0) col = rnd(s); /* runs of one colour: DIF_AMB/COLOR only on change */
        for (int k = 0; k < 4; k++) v->rgba[k] = (uint8_t)(col >> (24 - 8 * k));
        for (int k = 0; k < 2; k++) v->st[k] = (int16_t)rnd(s);
    }
    unsigned nb = rn(s, 3) == 0 ? 0 : 1 + rn(s, RB); /* up to 36: beyond the 30 stored */
    for (unsigned b = 0; b < nb; b++)
        r->bones[b] = (t3dm_w_bone){"b",
                                    b ? (uint16_t)rn(s, b) : 0xFFFF,
                                    {1, 1, 1},
                                    {0, 0, 0, 1},
                                    {(float)rn(s, 64), (float)rn(s, 64), 0}};
    unsigned no = 1 + rn(s, RO);
    for (unsigned o = 0; o < no; o++) {
        t3dm_w_material *mt = &r->mats[o];
        mt->name = "m";
        mt->draw_flags = (rnd(s) & (T3DM_FLAG_CULL_FRONT | T3DM_FLAG_CULL_BACK)) |
                         (rn(s, 3) == 0 ? T3DM_FLAG_NO_LIGHT : 0u) | T3DM_FLAG_TEXTURED;
        mt->blend_mode = rn(s, 3) == 0 ? 1u : 0u;
        mt->fog_mode = (uint8_t)rn(s, 3);
        mt->tex[0] = (t3dm_w_texture){"rom:/t.sprite",
                                      (uint16_t)(8u << rn(s, 5)),
                                      (uint16_t)(8u << rn(s, 5)),
                                      rn(s, 2),
                                      rn(s, 2),
                                      rn(s, 2),
                                      rn(s, 2)};
        unsigned np = 1 + rn(s, RP);
        unsigned tri_count = 0;
        for (unsigned p = 0; p < np; p++) {
            t3dm_w_part *pt = &r->parts[o][p];
            pt->vert_dest = (uint16_t)rn(s, 60);
            pt->vert_count = (uint16_t)rn(s, T3DM_CACHE_SLOTS - pt->vert_dest + 1u);
            pt->vert_first = 2u * rn(s, (RV - pt->vert_count) / 2u + 1u);
            unsigned mx = rn(s, nb + 1); /* nb: no bone, also in skinned models */
            pt->matrix = mx < nb ? (uint16_t)mx : 0xFFFF;
            /* slots below 70 only; some may not have been loaded: the walk's fallback path */
            unsigned nt = rn(s, 21);
            for (unsigned i = 0; i < 3 * nt; i++) r->tris[o][p][i] = (uint8_t)rn(s, 70);
            pt->tris = r->tris[o][p];
            pt->num_tris = (uint16_t)(3 * nt);
            for (unsigned k = 0; k < 2 && rn(s, 2); k++) {
                unsigned n = 3 + rn(s, 38);
                rand_strip(s, r->strips[o][p][k], n, rn(s, 4) ? 70u : 40u);
                pt->strips[k] = r->strips[o][p][k];
                pt->strip_count[k] = (uint8_t)n;
            }
            if (rn(s, 3) == 0) {
                pt->seq_base = (uint8_t)rn(s, 40);
                pt->seq_count = (uint8_t)rn(s, 10);
            }
            tri_count += nt + pt->seq_count;
        }
        r->objs[o] = (t3dm_w_object){"o", o, r->parts[o], np, (uint16_t)tri_count};
    }
    t3dm_w_model m = {.vertices = r->v,
                      .num_vertices = RV,
                      .objects = r->objs,
                      .num_objects = no,
                      .materials = r->mats,
                      .num_materials = no,
                      .bones = r->bones,
                      .num_bones = nb};
    return t3dm_write(&m, &f->data, &f->size);
}

static void test_random(void **state)
{
    (void)state;
    static rmodel r;
    uint32_t s = 0x9E3779B9u;
    unsigned parsed = 0, rebuilt = 0;
    for (unsigned it = 0; it < 300; it++) {
        fx_file f = {0};
        assert_int_equal(rand_model(&s, &r, &f), 0);
        t3dm_model m;
        if (!t3dm_parse(f.data, f.size, &m).ok) {
            fx_free(&f);
            continue;
        }
        parsed++;
        t3dm_pose pose;
        assert_true(t3dm_pose_init(&pose, &m));
        t3dm_texbind binds[RO];
        for (unsigned i = 0; i < RO; i++)
            binds[i] = (t3dm_texbind){rn(&s, 4) != 0, rnd(&s) & 0x3FFFFFFFu, rn(&s, 2) != 0,
                                      rnd(&s) & 0x1FFFu};
        t3dm_drawlist dl;
        t3dm_drawlist_init(&dl);
        for (unsigned d = 0; d < 6; d++) {
            t3dm_draw_opts o = {rn(&s, 4) ? &pose : NULL, rn(&s, 4) ? binds : NULL,
                                (uint8_t)rn(&s, 16), rn(&s, 3) ? -1 : (int)rn(&s, m.num_objects),
                                rn(&s, 2) != 0};
            for (unsigned b = 0; b < pose.num_bones; b++)
                for (int k = 0; k < 12; k++)
                    pose.matrix[b][k] = (fx32)(rnd(&s) & 0x3FFFFu) - 0x20000;
            unsigned before = dl.compiles;
            check(&m, &o, &dl, "random model");
            /* same options, a new pose: replayed with the new matrices, not rebuilt */
            for (unsigned b = 0; b < pose.num_bones; b++) pose.matrix[b][0] ^= 0x155;
            check(&m, &o, &dl, "random model, new pose");
            assert_true(dl.compiles <= before + 1);
            rebuilt += dl.compiles - before;
        }
        t3dm_drawlist_free(&dl);
        t3dm_pose_free(&pose);
        t3dm_free(&m);
        fx_free(&f);
    }
    print_message("%u of 300 random models parsed, %u list builds\n", parsed, rebuilt);
    assert_true(parsed >= 200);
    assert_true(rebuilt > parsed); /* options changed: lists were rebuilt */
}

/* The list is rebuilt exactly when what shapes the stream changes. */
static void test_rebuild(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_skinned_model(&f, false), 0);
    t3dm_model m;
    assert_true(t3dm_parse(f.data, f.size, &m).ok);
    t3dm_pose pose;
    assert_true(t3dm_pose_init(&pose, &m));
    t3dm_texbind bind = {true, 0x1234, false, 0};
    t3dm_drawlist dl;
    t3dm_drawlist_init(&dl);
    t3dm_draw_opts o = {&pose, &bind, 1, -1, true};
    check(&m, &o, &dl, "first");
    assert_int_equal(dl.compiles, 1);
    pose.matrix[1][9] += 4096;
    check(&m, &o, &dl, "pose moved");
    assert_int_equal(dl.compiles, 1);
    bind.teximage = 0x4321;
    check(&m, &o, &dl, "other texture");
    assert_int_equal(dl.compiles, 2);
    o.light_mask = 3;
    check(&m, &o, &dl, "other lights");
    assert_int_equal(dl.compiles, 3);
    o.base_scaled = false;
    check(&m, &o, &dl, "base not scaled");
    assert_int_equal(dl.compiles, 4);
    o.pose = NULL;
    check(&m, &o, &dl, "no pose");
    assert_int_equal(dl.compiles, 5);
    check(&m, &o, &dl, "no pose again");
    assert_int_equal(dl.compiles, 5);
    assert_true(dl.num_words > 0 && dl.num_words <= dl.cap);
    t3dm_drawlist_free(&dl);
    t3dm_pose_free(&pose);
    t3dm_free(&m);
    fx_free(&f);
}

/* ---- the engine sink (gx_write_gxfifo) against gx_write32 word by word ---- */

static void fwd_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    if (bytes == 1)
        gx_write8(u, addr, (uint8_t)val);
    else
        gx_write32(u, addr, val);
}

/* The same draws (a list replayed with two poses, then one-shot) into two engines: one through
 * the engine's own sink, one through a sink that forwards to gx_write32. */
static void check_engine(const t3dm_model *m, const t3dm_draw_opts *o, t3dm_pose *pose, bool power,
                         gx_engine *ga, gx_engine *gb, raster_engine *r)
{
    nitro_gx_sink sa = nitro_gx_engine_sink(ga), sb = {gb, fwd_write, rec_read};
    gx_reset(ga);
    gx_reset(gb);
    uint32_t pow = power ? 0x820Fu : 0x8203u; /* geometry off in the second */
    gx_write32(ga, REG_POWCNT1, pow);
    gx_write32(gb, REG_POWCNT1, pow);
    t3dm_drawlist la, lb;
    t3dm_drawlist_init(&la);
    t3dm_drawlist_init(&lb);
    unsigned ta = t3dm_drawlist_draw(&la, m, o, &sa), tb = t3dm_drawlist_draw(&lb, m, o, &sb);
    assert_int_equal(ta, tb);
    for (uint32_t b = 0; pose && b < pose->num_bones; b++) pose->matrix[b][3] += 0x321;
    ta = t3dm_drawlist_draw(&la, m, o, &sa);
    tb = t3dm_drawlist_draw(&lb, m, o, &sb);
    assert_int_equal(ta, tb);
    assert_int_equal(t3dm_draw(m, o, &sa), t3dm_draw(m, o, &sb));
    t3dm_drawlist_free(&la);
    t3dm_drawlist_free(&lb);
    size_t na, nb;
    uint8_t *a = state_of(ga, r, &na), *b = state_of(gb, r, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);
    gx_write32(ga, 0x04000540, 0); /* SWAP_BUFFERS */
    gx_write32(gb, 0x04000540, 0);
    gx_vblank(ga);
    gx_vblank(gb);
    gx_frame_stats fa, fb;
    gx_last_frame_stats(ga, &fa);
    gx_last_frame_stats(gb, &fb);
    assert_true(fa.cycles == fb.cycles);
    assert_int_equal(fa.commands, fb.commands);
    assert_int_equal(fa.polygons, fb.polygons);
    assert_int_equal(fa.vertices, fb.vertices);
    if (power)
        assert_true(fa.commands > 0); /* the draws reached the engine */
    else
        assert_int_equal(fa.commands, 0); /* geometry off: every GXFIFO word ignored */
}

static void test_engine_sink(void **state)
{
    (void)state;
    gx_engine *ga = gx_create(), *gb = gx_create();
    raster_engine *r = raster_create();
    assert_non_null(ga);
    assert_non_null(gb);
    assert_non_null(r);
    int (*make[])(fx_file *) = {fx_static, fx_textured_all};
    for (unsigned k = 0; k < 4; k++) {
        fx_file f = {0};
        int rc = k < 2 ? make[k](&f) : fx_skinned_model(&f, k == 3);
        assert_int_equal(rc, 0);
        t3dm_model m;
        assert_true(t3dm_parse(f.data, f.size, &m).ok);
        t3dm_pose pose;
        assert_true(t3dm_pose_init(&pose, &m));
        t3dm_texbind binds[16];
        memset(binds, 0, sizeof binds);
        for (unsigned i = 0; i < 16 && i < m.num_materials; i++)
            binds[i] = (t3dm_texbind){i % 3 != 2, (i * 0x1234u) & 0xFFFFu, i & 1u, i * 3u};
        for (int p = 0; p < 2; p++) {
            t3dm_draw_opts o = {p ? NULL : &pose, binds, 1, -1, true};
            check_engine(&m, &o, p ? NULL : &pose, true, ga, gb, r);
            check_engine(&m, &o, p ? NULL : &pose, false, ga, gb, r);
        }
        t3dm_pose_free(&pose);
        t3dm_free(&m);
        fx_free(&f);
    }
    raster_destroy(r);
    gx_destroy(ga);
    gx_destroy(gb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_rebuild),
        cmocka_unit_test(test_engine_sink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
