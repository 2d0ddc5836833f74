#include <stdio.h>
#include <string.h>
#include "nitro/anim_writer.h"
static void save(const char *p, enum nitro_anim_kind k, const nitro_wanim *w)
{
    nitro_buf b = {0};
    nitro_write_anim(k, w, 1, &b);
    FILE *f = fopen(p, "wb");
    fwrite(b.data, 1, b.size, f);
    fclose(f);
    nitro_buf_free(&b);
}
int main(int argc, char **argv)
{
    const char *d = argv[1];
    char p[512];
    (void)argc;
    static const int32_t s4[] = {0x1000, 0x2000, 0x3000, 0x800, 0x900, 0xa00},
                         inv[] = {0x1000, 0x800, 0x555, 1, 2, 3};
    static const int32_t r[] = {0x8000, 0, 0x8000, 0, 0x8000, 0};
    static const uint16_t piv[] = {0x0020, 0x0800, 0x0ddb, 0x0014, 0x0ddb, 0x0800};
    static const uint16_t bas[] = {0x7ff8, 0, 0, 0, 0x7ff9};
    nitro_wjnt_track t[3] = {
        {.tag = NITRO_JNT_CONST_SZ},
        {.tag = NITRO_JNT_BASE_T | NITRO_JNT_BASE_S | NITRO_JNT_CONST_R | 1u << 24},
        {.tag = NITRO_JNT_IDENTITY | 2u << 24}};
    t[0].trans[0] = (nitro_wcurve){.step = 2, .last = 4, .samples = s4, .count = 4};
    t[0].trans[1] = (nitro_wcurve){.step = 4, .last = 4, .fx16 = true, .samples = s4, .count = 3};
    t[0].trans[2] = (nitro_wcurve){.step = 1, .samples = s4, .count = 6};
    t[0].rot = (nitro_wcurve){.step = 2, .last = 4, .samples = r, .count = 4};
    t[0].scale[0] = (nitro_wcurve){
        .step = 4, .last = 4, .fx16 = true, .samples = s4, .samples2 = inv, .count = 3};
    t[0].scale[1] = (nitro_wcurve){.step = 1, .samples = s4, .samples2 = inv, .count = 6};
    t[0].scale[2] = (nitro_wcurve){.constant = true, .value = 0x1000, .value2 = 0x1000};
    t[1].rot = (nitro_wcurve){.constant = true, .value = 0};
    nitro_wanim j = {.name = "jnt",
                     .frames = 6,
                     .flag = 3,
                     .jnt = t,
                     .num_jnt = 3,
                     .pivots = piv,
                     .num_pivots = 2,
                     .basis = bas,
                     .num_basis = 1};
    snprintf(p, sizeof p, "%s/fuzz_nsbca/seed.nsbca", d);
    save(p, NITRO_ANIM_JNT, &j);
    static const int32_t col[] = {0x1f, 0x7c00, 0x3e0, 1}, al[] = {31, 0, 5, 9};
    nitro_wcurve ch[2][5] = {{{.step = 2, .last = 2, .samples = col, .count = 4},
                              {.constant = true, .value = 0x1234},
                              {.step = 4, .last = 4, .samples = col, .count = 2},
                              {.step = 1, .samples = col, .count = 4},
                              {.step = 4, .last = 4, .samples = al, .count = 2}},
                             {{.constant = true},
                              {.constant = true},
                              {.constant = true},
                              {.constant = true},
                              {.constant = true, .value = 31}}};
    const char *mn[] = {"mat0", "mat1"};
    nitro_wanim m = {
        .name = "mat", .frames = 5, .flag = 1, .mat_names = mn, .mat_ch = ch, .num_mat = 2};
    snprintf(p, sizeof p, "%s/fuzz_nsbma/seed.nsbma", d);
    save(p, NITRO_ANIM_MAT, &m);
    static const int32_t ts[] = {0, 0x800, 0x1000, 0x1800, 0x2000},
                         sn[] = {0, 0x800, 0xddb, 0x1000}, cs[] = {0x1000, 0xddb, 0x800, 0};
    nitro_wcurve sc[1][5] = {{{.step = 1, .fx16 = true, .samples = ts, .count = 5},
                              {.constant = true, .value = 0x1000},
                              {.step = 2, .last = 4, .samples = sn, .samples2 = cs, .count = 3},
                              {.step = 4, .last = 4, .samples = ts, .count = 2},
                              {.step = 2, .last = 4, .fx16 = true, .samples = ts, .count = 3}}};
    nitro_wanim s = {.name = "srt", .frames = 5, .mat_names = mn, .mat_ch = sc, .num_mat = 1};
    snprintf(p, sizeof p, "%s/fuzz_nsbta/seed.nsbta", d);
    save(p, NITRO_ANIM_SRT, &s);
    static const uint16_t keys[] = {0, 0x0000, 3, 0xff01, 5, 0x0002};
    const uint16_t *kp[] = {keys, keys};
    const unsigned nk[] = {3, 2};
    const char *tx[] = {"a", "b", "c"}, *pl[] = {"p"};
    nitro_wanim pt = {.name = "pat",
                      .frames = 8,
                      .mat_names = mn,
                      .num_mat = 2,
                      .tex_names = tx,
                      .num_tex_names = 3,
                      .pltt_names = pl,
                      .num_pltt_names = 1,
                      .pat_num_keys = nk,
                      .pat_keys = kp,
                      .pat_ratio = 0x600};
    snprintf(p, sizeof p, "%s/fuzz_nsbtp/seed.nsbtp", d);
    save(p, NITRO_ANIM_PAT, &pt);
    static const uint32_t bits[] = {0x27, 0xffff0000u};
    nitro_wanim v = {.name = "vis", .frames = 20, .vis_nodes = 3, .vis_words = bits};
    snprintf(p, sizeof p, "%s/fuzz_nsbva/seed.nsbva", d);
    save(p, NITRO_ANIM_VIS, &v);
    return 0;
}
