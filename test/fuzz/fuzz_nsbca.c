/* fuzz_nsbca.c - NSBCA joint animation files through the parsers and evaluators (body in
 * fuzz_anim_common.h; seeds: test/fuzz/corpus/fuzz_nsbca/, made with anim_writer). */
#include "fuzz_anim_common.h"
