/*
 * test_anim_curves.c - animation curves at sample points, between samples and beyond the last
 * interpolated frame, for each kind; expected values worked by hand from the runtime's rules
 * (pret/pokediamond NNS_G3D_nsbca.s, NNS_G3D_nsbma.s, NNS_G3D_nsbta.s; nsbtp.c, nsbva.c).
 * Files are built with anim_writer and parsed back, so the parser is exercised too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nitro/anim.h"
#include "nitro/anim_writer.h"

typedef struct fixture {
    nitro_buf buf;
    nitro_file f;
    nitro_anims a;
} fixture;

static void load(fixture *x, enum nitro_anim_kind k, const nitro_wanim *w)
{
    memset(x, 0, sizeof *x);
    assert_true(nitro_write_anim(k, w, 1, &x->buf));
    nitro_status st = nitro_parse(x->buf.data, x->buf.size, &x->f);
    assert_true(st.ok);
    st = nitro_anims_parse(&x->f, &x->a);
    if (!st.ok) fail_msg("%s at 0x%zx: %s", st.structure, st.offset, st.reason);
    assert_int_equal(x->a.num, 1);
}

static void unload(fixture *x)
{
    nitro_anims_free(&x->a);
    nitro_file_free(&x->f);
    nitro_buf_free(&x->buf);
}

/* Translation, step 2, 32-bit, 6 frames, last interpolated frame 4: samples at frames 0, 2, 4
 * and (stored per frame) 5. Odd frames up to 4 halve each sample before adding. */
static void test_jnt_trans_step2(void **s)
{
    (void)s;
    static const int32_t tx[] = {0x1000, 0x3000, 0x5001, -0x1000};
    nitro_wjnt_track t = {.tag = NITRO_JNT_CONST_TY | NITRO_JNT_CONST_TZ | NITRO_JNT_IDENTITY_R |
                                 NITRO_JNT_IDENTITY_S};
    t.trans[0] = (nitro_wcurve){.step = 2, .last = 4, .samples = tx, .count = 4};
    t.trans[1] = (nitro_wcurve){.constant = true, .value = 7};
    t.trans[2] = (nitro_wcurve){.constant = true, .value = -7};
    nitro_wanim w = {.name = "walk", .frames = 6, .jnt = &t, .num_jnt = 1};
    fixture x;
    load(&x, NITRO_ANIM_JNT, &w);
    const nitro_anim *a = &x.a.anims[0];
    const nitro_curve *c = &a->jnt[0].trans[0];
    assert_int_equal(c->step, 2);
    assert_int_equal(c->count, 4);
    assert_int_equal(nitro_curve_value(x.buf.data, c, 0), 0x1000);
    assert_int_equal(nitro_curve_value(x.buf.data, c, 1), 0x2000);
    assert_int_equal(nitro_curve_value(x.buf.data, c, 2), 0x3000);
    assert_int_equal(nitro_curve_value(x.buf.data, c, 3), 0x1800 + 0x2800);
    assert_int_equal(nitro_curve_value(x.buf.data, c, 4), 0x5001);
    assert_int_equal(nitro_curve_value(x.buf.data, c, 5), -0x1000); /* beyond last */
    nitro_node n;
    memset(&n, 0, sizeof n);
    nitro_jnt_result r;
    nitro_jnt_eval(a, x.buf.data, 0, &n, 3 << 12, &r);
    assert_int_equal(r.trans[0], 0x4000);
    assert_int_equal(r.trans[1], 7);
    assert_int_equal(r.trans[2], -7);
    assert_int_equal(r.flag, NITRO_JNT_RES_ROT_ZERO | NITRO_JNT_RES_SCALE_ONE);
    /* frames past the end clamp to the last one (NNSi_G3dAnmCalcNsBca) */
    nitro_jnt_eval(a, x.buf.data, 0, &n, 100 << 12, &r);
    assert_int_equal(r.trans[0], -0x1000);
    unload(&x);
}

/* Scale, step 4, 16-bit pairs (scale, inverse), 9 frames, last 8: frames 1 and 3 weight the
 * nearer sample 3:1, frame 2 takes the mean. */
static void test_jnt_scale_step4(void **s)
{
    (void)s;
    static const int32_t sc[] = {0x1000, 0x2000, 0x3000}, inv[] = {0x1000, 0x800, 0x555};
    nitro_wjnt_track t = {.tag = NITRO_JNT_IDENTITY_T | NITRO_JNT_IDENTITY_R | NITRO_JNT_CONST_SY |
                                 NITRO_JNT_CONST_SZ};
    t.scale[0] = (nitro_wcurve){
        .step = 4, .last = 8, .fx16 = true, .samples = sc, .samples2 = inv, .count = 3};
    t.scale[1] = (nitro_wcurve){.constant = true, .value = 0x1000, .value2 = 0x1000};
    t.scale[2] = t.scale[1];
    nitro_wanim w = {.name = "grow", .frames = 9, .jnt = &t, .num_jnt = 1};
    fixture x;
    load(&x, NITRO_ANIM_JNT, &w);
    const nitro_curve *c = &x.a.anims[0].jnt[0].scale[0];
    fx32 v[2];
    nitro_curve_scale(x.buf.data, c, 1, v);
    assert_int_equal(v[0], (3 * 0x1000 + 0x2000) >> 2);
    assert_int_equal(v[1], (3 * 0x1000 + 0x800) >> 2);
    nitro_curve_scale(x.buf.data, c, 2, v);
    assert_int_equal(v[0], 0x1800);
    nitro_curve_scale(x.buf.data, c, 3, v);
    assert_int_equal(v[0], (3 * 0x2000 + 0x1000) >> 2);
    nitro_curve_scale(x.buf.data, c, 4, v);
    assert_int_equal(v[0], 0x2000);
    nitro_curve_scale(x.buf.data, c, 8, v);
    assert_int_equal(v[0], 0x3000);
    assert_int_equal(v[1], 0x555);
    unload(&x);
}

/* Fractional frames (option bit 0) and end-to-start blending (bit 1). */
static void test_jnt_fraction(void **s)
{
    (void)s;
    static const int32_t tx[] = {0x1000, 0x3000};
    nitro_wjnt_track t = {.tag = NITRO_JNT_CONST_TY | NITRO_JNT_CONST_TZ | NITRO_JNT_IDENTITY_R |
                                 NITRO_JNT_IDENTITY_S};
    t.trans[0] = (nitro_wcurve){.step = 1, .samples = tx, .count = 2};
    nitro_wanim w = {.name = "loop", .frames = 2, .flag = 3, .jnt = &t, .num_jnt = 1};
    fixture x;
    load(&x, NITRO_ANIM_JNT, &w);
    const nitro_anim *a = &x.a.anims[0];
    fx32 v[2];
    nitro_curve_value_ex(a, x.buf.data, &a->jnt[0].trans[0], 0x800, v); /* frame 0.5 */
    assert_int_equal(v[0], 0x1000 + ((0x2000 * 0x800) >> 12));
    /* frame 1.5: last frame, blended back towards sample 0 */
    nitro_curve_value_ex(a, x.buf.data, &a->jnt[0].trans[0], 0x1800, v);
    assert_int_equal(v[0], 0x3000 - 0x1000);
    unload(&x);
}

/* Rotations: a pivot entry (X axis: +1 at _00, A B / +-B +-A below) and a basis entry. */
static void test_jnt_rotations(void **s)
{
    (void)s;
    /* pivot 0: form 0, rev C: [1 0 0; 0 A B; 0 -B A] with A = cos 60 = 0x800, B = sin 60 */
    static const uint16_t piv[] = {0x0020, 0x0800, 0x0ddb};
    /* basis: _00 = _11 = 0xFFF, _01 = _02 = _10 = 0, _12 low bits: word 4 bit 0 -> bit 12 */
    static const uint16_t bas[] = {0x7ff8, 0x0000, 0x0000, 0x0000, 0x7ff9};
    nitro_wjnt_track t[2] = {
        {.tag = NITRO_JNT_IDENTITY_T | NITRO_JNT_IDENTITY_S | NITRO_JNT_CONST_R},
        {.tag = NITRO_JNT_IDENTITY_T | NITRO_JNT_IDENTITY_S | NITRO_JNT_CONST_R | 1u << 24}};
    t[0].rot = (nitro_wcurve){.constant = true, .value = 0x8000};
    t[1].rot = (nitro_wcurve){.constant = true, .value = 0};
    nitro_wanim w = {.name = "turn",
                     .frames = 1,
                     .jnt = t,
                     .num_jnt = 2,
                     .pivots = piv,
                     .num_pivots = 1,
                     .basis = bas,
                     .num_basis = 1};
    fixture x;
    load(&x, NITRO_ANIM_JNT, &w);
    const nitro_anim *a = &x.a.anims[0];
    fx32 m[9];
    nitro_jnt_rot(a, x.buf.data, &a->jnt[0].rot, 0, m);
    const fx32 want_p[9] = {0x1000, 0, 0, 0, 0x800, 0x0ddb, 0, -0x0ddb, 0x800};
    assert_memory_equal(m, want_p, sizeof m);
    nitro_jnt_rot(a, x.buf.data, &a->jnt[1].rot, 0, m);
    /* _12 = sext13(0x1000) = -4096; row 2 = row0 x row1 = (0, -(0xFFF * -4096) >> 12, 0xFFE) */
    const fx32 want_b[9] = {0xfff, 0, 0, 0, 0xfff, -0x1000, 0, 0xfff, (0xfff * 0xfff) >> 12};
    assert_memory_equal(m, want_b, sizeof m);
    unload(&x);
}

/* MAT0: diffuse red -> blue in step 2 (R|B and G blended separately, masked), alpha step 4. */
static void test_mat_colors(void **s)
{
    (void)s;
    static const int32_t dif[] = {0x001f, 0x7c00, 0x03e0, 0x0001}, alpha[] = {31, 0, 0};
    nitro_wcurve ch[1][5] = {{
        {.step = 2, .last = 2, .samples = dif, .count = 4},
        {.constant = true, .value = 0x1234},
        {.constant = true, .value = 0x0421},
        {.constant = true, .value = 0x7fff},
        {.step = 4, .last = 4, .samples = alpha, .count = 2},
    }};
    const char *names[] = {"mat0"};
    nitro_wanim w = {.name = "flash", .frames = 5, .mat_names = names, .mat_ch = ch, .num_mat = 1};
    fixture x;
    load(&x, NITRO_ANIM_MAT, &w);
    const nitro_anim *a = &x.a.anims[0];
    assert_int_equal(nitro_curve_color(x.buf.data, &a->mat[0].ch[0], 1), 0x3c0f);
    assert_int_equal(nitro_curve_color(x.buf.data, &a->mat[0].ch[0], 3), 0x03e0); /* beyond */
    assert_int_equal(nitro_curve_color(x.buf.data, &a->mat[0].ch[4], 1), (3 * 31 + 0) >> 2);
    assert_int_equal(nitro_curve_color(x.buf.data, &a->mat[0].ch[4], 2), 15);
    nitro_mat_result r;
    memset(&r, 0, sizeof r);
    r.dif_amb = 0x8000;
    r.polygon_attr = 0x001f00c0;
    nitro_mat_eval(a, x.buf.data, 0, 2, &r);
    assert_int_equal(r.dif_amb, 0x8000u | 0x7c00u | 0x1234u << 16);
    assert_int_equal(r.spe_emi, 0x0421u | 0x7fffu << 16);
    assert_int_equal(r.polygon_attr, 0x000f00c0);
    unload(&x);
}

/* SRT0: constant scale 1 and rotation (0, 1) set SCALE_ONE / ROT_ZERO; translation sampled. */
static void test_srt(void **s)
{
    (void)s;
    static const int32_t ts[] = {0, 0x800, 0x1000};
    nitro_wcurve ch[1][5] = {{
        {.constant = true, .value = 0x1000},
        {.constant = true, .value = 0x1000},
        {.constant = true, .value = 0x10000000},
        {.step = 2, .last = 4, .samples = ts, .count = 3},
        {.constant = true, .value = 0},
    }};
    const char *names[] = {"water"};
    nitro_wanim w = {.name = "scroll", .frames = 5, .mat_names = names, .mat_ch = ch, .num_mat = 1};
    fixture x;
    load(&x, NITRO_ANIM_SRT, &w);
    nitro_mat_result r;
    memset(&r, 0, sizeof r);
    nitro_srt_eval(&x.a.anims[0], x.buf.data, 0, 0, &r);
    assert_int_equal(r.flag, NITRO_MATRES_SCALE_ONE | NITRO_MATRES_ROT_ZERO |
                                 NITRO_MATRES_TRANS_ZERO | NITRO_MATRES_TEXMTX_SET);
    assert_int_equal(r.teximage >> 30, 1);
    nitro_srt_eval(&x.a.anims[0], x.buf.data, 0, 3, &r);
    assert_int_equal(r.trans_s, (0x800 + 0x1000) >> 1);
    assert_int_equal(r.flag & NITRO_MATRES_TRANS_ZERO, 0);
    unload(&x);
}

/* PAT0 key lookup and VIS0 bits. */
static void test_pat_vis(void **s)
{
    (void)s;
    static const uint16_t keys[] = {0, 0x0000, 3, 0xff01, 5, 0x0002};
    const uint16_t *kp[] = {keys};
    const unsigned nk[] = {3};
    const char *names[] = {"face"}, *tex[] = {"a", "b", "c"}, *pl[] = {"p"};
    nitro_wanim w = {.name = "blink",
                     .frames = 8,
                     .mat_names = names,
                     .num_mat = 1,
                     .tex_names = tex,
                     .num_tex_names = 3,
                     .pltt_names = pl,
                     .num_pltt_names = 1,
                     .pat_num_keys = nk,
                     .pat_keys = kp,
                     .pat_ratio = 0x600};
    fixture x;
    load(&x, NITRO_ANIM_PAT, &w);
    uint8_t t, p;
    assert_int_equal(nitro_pat_key(&x.a.anims[0], x.buf.data, 0, 0, NULL, &t, &p), 0);
    assert_int_equal(nitro_pat_key(&x.a.anims[0], x.buf.data, 0, 4, NULL, &t, &p), 1);
    assert_int_equal(t, 1);
    assert_int_equal(p, 255);
    assert_int_equal(nitro_pat_key(&x.a.anims[0], x.buf.data, 0, 7, NULL, &t, &p), 2);
    unload(&x);

    static const uint32_t bits[] = {0x27}; /* 2 nodes x 3 frames */
    nitro_wanim v = {.name = "vis", .frames = 3, .vis_nodes = 2, .vis_words = bits};
    load(&x, NITRO_ANIM_VIS, &v);
    const nitro_anim *a = &x.a.anims[0];
    assert_true(nitro_vis_eval(a, x.buf.data, 0, 1));
    assert_false(nitro_vis_eval(a, x.buf.data, 1, 1));
    assert_false(nitro_vis_eval(a, x.buf.data, 0, 2));
    assert_true(nitro_vis_eval(a, x.buf.data, 1, 2));
    unload(&x);
}

/* A truncated file is reported with a structure and an offset, never read past. */
static void test_truncated(void **s)
{
    (void)s;
    static const int32_t tx[] = {1, 2, 3, 4};
    nitro_wjnt_track t = {.tag = NITRO_JNT_IDENTITY_R | NITRO_JNT_IDENTITY_S};
    for (int k = 0; k < 3; k++) t.trans[k] = (nitro_wcurve){.step = 1, .samples = tx, .count = 4};
    nitro_wanim w = {.name = "x", .frames = 4, .jnt = &t, .num_jnt = 1};
    nitro_buf b = {0};
    assert_true(nitro_write_anim(NITRO_ANIM_JNT, &w, 1, &b));
    w.frames = 40; /* claims more samples than stored */
    nitro_buf b2 = {0};
    assert_true(nitro_write_anim(NITRO_ANIM_JNT, &w, 1, &b2));
    nitro_file f;
    assert_true(nitro_parse(b2.data, b2.size, &f).ok);
    nitro_anims a;
    nitro_status st = nitro_anims_parse(&f, &a);
    assert_false(st.ok);
    assert_true(st.offset > 0 && st.offset < b2.size);
    nitro_file_free(&f);
    nitro_buf_free(&b);
    nitro_buf_free(&b2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jnt_trans_step2), cmocka_unit_test(test_jnt_scale_step4),
        cmocka_unit_test(test_jnt_fraction),    cmocka_unit_test(test_jnt_rotations),
        cmocka_unit_test(test_mat_colors),      cmocka_unit_test(test_srt),
        cmocka_unit_test(test_pat_vis),         cmocka_unit_test(test_truncated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
