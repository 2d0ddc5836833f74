/* fuzz_nsbma.c - NSBMA material colour animation files through the parsers and evaluators (body in
 * fuzz_anim_common.h; seeds: test/fuzz/corpus/fuzz_nsbma/, made with anim_writer). */
#include "fuzz_anim_common.h"
