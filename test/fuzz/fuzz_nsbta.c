/* fuzz_nsbta.c - NSBTA texture SRT animation files through the parsers and evaluators (body in
 * fuzz_anim_common.h; seeds: test/fuzz/corpus/fuzz_nsbta/, made with anim_writer). */
#include "fuzz_anim_common.h"
