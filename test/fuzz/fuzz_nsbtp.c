/* fuzz_nsbtp.c - NSBTP texture pattern animation files through the parsers and evaluators (body in
 * fuzz_anim_common.h; seeds: test/fuzz/corpus/fuzz_nsbtp/, made with anim_writer). */
#include "fuzz_anim_common.h"
