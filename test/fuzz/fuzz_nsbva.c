/* fuzz_nsbva.c - NSBVA visibility animation files through the parsers and evaluators (body in
 * fuzz_anim_common.h; seeds: test/fuzz/corpus/fuzz_nsbva/, made with anim_writer). */
#include "fuzz_anim_common.h"
