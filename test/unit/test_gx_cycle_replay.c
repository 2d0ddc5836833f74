/*
 * test_gx_cycle_replay.c - the cycle-driven mode draws the same frames as run-to-completion:
 * every golden/ref and golden/rdlines trace, its writes interleaved with gx_run slices of 1, 7,
 * 64 and 1000 cycles (the FIFO fills, writes stall, commands run late), with enough cycles
 * before each frame, gives the frame hashes, RDLINES_COUNT and underflow bits of the default
 * mode (which the golden tests check against the references).
 */
#define _POSIX_C_SOURCE 200809L /* strdup, dirent (cycle_replay.h) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cycle_replay.h"

static const uint32_t slices[] = {1, 7, 64, 1000};

static void check_dir(const char *sub, unsigned min_traces)
{
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "%s/%s", DSGX_GOLDEN_DIR, sub);
    char **names;
    unsigned n = replay_list(dir, &names);
    assert_true(n >= min_traces);
    unsigned stalled_traces = 0;
    for (unsigned i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        dsgx_trace t;
        assert_int_equal(replay_load(&t, path), 0);
        static replay_out ref, cyc;
        replay_complete(&t, &ref);
        assert_true(ref.nframes > 0);
        bool stalled = false;
        for (unsigned k = 0; k < sizeof slices / sizeof slices[0]; k++) {
            replay_cycles(&t, slices[k], &cyc);
            if (cyc.nframes != ref.nframes)
                fail_msg("%s slice %u: frame count", names[i], slices[k]);
            for (unsigned f = 0; f < ref.nframes; f++) {
                if (cyc.hash[f] != ref.hash[f] || cyc.rdlines[f] != ref.rdlines[f] ||
                    cyc.underflow[f] != ref.underflow[f])
                    fail_msg("%s slice %u frame %u: %016llx rd %u uf %d, expected %016llx rd %u "
                             "uf %d",
                             names[i], slices[k], f, (unsigned long long)cyc.hash[f],
                             cyc.rdlines[f], cyc.underflow[f], (unsigned long long)ref.hash[f],
                             ref.rdlines[f], ref.underflow[f]);
            }
            stalled = stalled || cyc.stalls > 0;
        }
        stalled_traces += stalled;
        dsgx_trace_free(&t);
        free(names[i]);
    }
    free(names);
    /* the 1-cycle slices overrun the FIFO on the larger traces: stalls were exercised */
    if (min_traces > 40) assert_true(stalled_traces > 0);
}

static void test_ref_traces(void **state)
{
    (void)state;
    check_dir("ref", 52);
}

static void test_rdlines_traces(void **state)
{
    (void)state;
    check_dir("rdlines", 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_traces),
        cmocka_unit_test(test_rdlines_traces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
