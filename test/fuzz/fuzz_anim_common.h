/* fuzz_anim_common.h - the body shared by the five animation fuzz targets (fuzz_nsbca.c,
 * fuzz_nsbtp.c, fuzz_nsbta.c, fuzz_nsbma.c, fuzz_nsbva.c): the container parser, then the
 * animation content parser and every evaluator at a few frames (fractional frames for joints),
 * on arbitrary bytes. The targets differ only in their seed corpus
 * (test/fuzz/corpus/fuzz_nsbXX/, made with nitro/anim_writer.h). */
#ifndef DSGX_FUZZ_ANIM_COMMON_H
#define DSGX_FUZZ_ANIM_COMMON_H

#include <stdint.h>
#include <string.h>

#include "nitro/anim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_anim_one(const uint8_t *data, size_t size)
{
    nitro_file f;
    if (!nitro_parse(data, size, &f).ok) return 0;
    nitro_anims a;
    if (nitro_anims_parse(&f, &a).ok) {
        nitro_node n;
        memset(&n, 0, sizeof n);
        for (unsigned i = 0; i < a.num; i++) {
            const nitro_anim *x = &a.anims[i];
            for (unsigned fr = 0; fr < 3; fr++) {
                fx32 F = (fx32)(fr * 0x1800u);
                nitro_mat_result r;
                memset(&r, 0, sizeof r);
                for (unsigned t = 0; t < x->num_tracks; t++) {
                    if (x->kind == NITRO_ANIM_JNT) {
                        nitro_jnt_result j;
                        nitro_jnt_eval(x, data, t, &n, F, &j);
                    } else if (x->kind == NITRO_ANIM_MAT) {
                        nitro_mat_eval(x, data, t, fr, &r);
                    } else if (x->kind == NITRO_ANIM_SRT) {
                        nitro_srt_eval(x, data, t, fr, &r);
                    } else if (x->kind == NITRO_ANIM_PAT) {
                        nitro_pat_key(x, data, t, fr, NULL, NULL, NULL);
                    }
                }
                if (x->kind == NITRO_ANIM_VIS)
                    for (unsigned nd = 0; nd < x->vis_nodes && nd < 64; nd++)
                        nitro_vis_eval(x, data, nd, fr);
            }
        }
        nitro_anims_free(&a);
    }
    nitro_file_free(&f);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_anim_one(data, size);
}

#endif
