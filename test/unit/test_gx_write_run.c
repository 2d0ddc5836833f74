/*
 * test_gx_write_run.c - gx_write32_run (n bus writes handed over at once; the trace replay uses
 * it for runs of GXFIFO and command-port writes) against the reference: gx_write32 word by word.
 * Two engines get the same random bus writes, one in random-sized runs, one word by word, and
 * must end every run in the same saved state, byte for byte (dsgx_state_save: matrices,
 * geometry, polygon/vertex RAM, FIFO decoder and executor, cycle model, scheduler). The writes
 * mix command ports (weighted to the vertex commands), packed GXFIFO words with their
 * parameters, unused ports, unaligned addresses, POWCNT1 switching the geometry engine off and
 * on within a run, other 3D registers, SWAP_BUFFERS holding later entries until the VBlank, and
 * stretches in the cycle-driven mode (where a run falls back to gx_write32).
 * Likewise gx_bus_write32_run (cycle mode: write, run, write, run...) against gx_bus_write32 and
 * gx_run word by word, with slices short enough for writes to stall.
 * And gx_write32_block (a trace's `data` lines: VRAM copied in blocks) against gx_write32 word
 * by word, over banks mapped and unmapped, bank and window edges, unaligned starts and other
 * registers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx.h"
#include "raster/raster.h"
#include "tools/core/savestate.h"
#include "gx_state_compare.h"

static uint32_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* One random bus write. */
static gx_bus_word random_word(uint64_t *s)
{
    static const uint8_t ops[] = {0x20, 0x21, 0x22, 0x23, 0x23, 0x21, 0x22, 0x23,
                                  0x23, 0x10, 0x15, 0x29, 0x2A, 0x30, 0x31, 0x32,
                                  0x33, 0x40, 0x41, 0x60, 0x71, 0x72, 0x05};
    gx_bus_word w;
    uint32_t r = rnd(s) % 100u, v = rnd(s);
    w.value = v;
    if (r < 70) { /* a command port */
        uint8_t op = ops[rnd(s) % sizeof(ops)];
        w.addr = 0x04000400u + op * 4u;
        if (op == 0x23 && (v & 1u)) w.value = v & 0x0FFF0FFFu;
        if (op == 0x40) w.value = v & 3u;
        if (op == 0x29) w.value = (v & 0xFFFFFF00u) | 0xCFu;
    } else if (r < 85) { /* GXFIFO: packed words and anything else */
        w.addr = 0x04000400u + (rnd(s) & 0x3Fu);
        if (v & 1u) w.value = (v & 0x23232323u) | 0x20202020u; /* vertex-ish opcodes */
    } else if (r < 88) { /* unused ports 05CC..05FF, and GXSTAT */
        w.addr = 0x040005CCu + (rnd(s) % 0x38u);
    } else if (r < 90) { /* POWCNT1: geometry off now and then */
        w.addr = 0x04000304u;
        w.value = (v & 7u) == 0 ? 0x8207u : 0x820Fu;
    } else if (r < 92) { /* SWAP_BUFFERS now and then: later entries are held until the VBlank */
        w.addr = (v & 0x70u) == 0 ? 0x04000540u : 0x04000488u;
        w.value = v & 3u;
    } else { /* other 3D registers */
        static const uint32_t regs[] = {0x04000060u, 0x04000350u, 0x04000354u,
                                        0x04000600u, 0x04000610u, 0x04000340u};
        w.addr = regs[rnd(s) % 6u] + (rnd(s) & 3u);
    }
    return w;
}

static void test_run_matches_word_by_word(void **state)
{
    (void)state;
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    uint64_t seed = 0xB05B0A7D5EEDull;
    gx_bus_word w[200];
    unsigned words = 0, polys = 0;
    for (int round = 0; round < 3000; round++) {
        bool cycles = round % 500 >= 450; /* the last 50 of every 500 runs in cycle mode */
        gx_set_cycle_mode(a, cycles);
        gx_set_cycle_mode(b, cycles);
        size_t n = rnd(&seed) % 200u;
        for (size_t i = 0; i < n; i++) w[i] = random_word(&seed);
        gx_write32_run(a, w, n);
        for (size_t i = 0; i < n; i++) gx_write32(b, w[i].addr, w[i].value);
        words += (unsigned)n;
        if (cycles) {
            gx_run(a, 1000);
            gx_run(b, 1000);
        }
        same_state(a, b, r);
        if (round % 4 == 3) {
            polys += gx_read32(a, 0x04000604u) & 0xFFFu; /* RAM_COUNT */
            assert_int_equal(gx_vblank(a), gx_vblank(b));
            same_state(a, b, r);
        }
    }
    print_message("%u words, %u polygons\n", words, polys);
    assert_true(polys > 1000);
    engines_destroy(a, b, r);
}

/* gx_bus_write32_run (cycle mode: each write then gx_run, until one stalls) against
 * gx_bus_write32 and gx_run word by word; short slices make the FIFO fill and writes stall. */
static void test_bus_run_matches_word_by_word(void **state)
{
    (void)state;
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    assert_true(gx_set_cycle_mode(a, true));
    assert_true(gx_set_cycle_mode(b, true));
    uint64_t seed = 0xC1C1E5EEDull;
    gx_bus_word w[200];
    unsigned stalls = 0;
    for (int round = 0; round < 2000; round++) {
        uint32_t slice = (uint32_t[]){1, 3, 7, 64, 1000}[rnd(&seed) % 5u];
        size_t n = rnd(&seed) % 200u;
        for (size_t i = 0; i < n; i++) w[i] = random_word(&seed);
        for (size_t i = 0; i < n;) {
            uint32_t sa;
            i += gx_bus_write32_run(a, w + i, n - i, slice, &sa);
            if (i < n) {
                assert_true(sa != 0);
                if (sa == GX_STALL_VBLANK) break; /* (both stop here, see below) */
                gx_run(a, slice);
                i++;
            } else {
                assert_int_equal(sa, 0);
            }
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t sb = gx_bus_write32(b, w[i].addr, w[i].value);
            stalls += sb != 0;
            if (sb == GX_STALL_VBLANK) break;
            gx_run(b, slice);
        }
        same_state(a, b, r);
        if (round % 4 == 3 || gx_stalled(a)) {
            assert_int_equal(gx_vblank(a), gx_vblank(b));
            gx_unstall(a);
            gx_unstall(b);
            same_state(a, b, r);
        }
    }
    print_message("%u stalled writes\n", stalls);
    assert_true(stalls > 100);
    engines_destroy(a, b, r);
}

/* A random start for a block: mostly in the LCDC window (on and around bank edges, the window's
 * end), sometimes before it, unaligned, or over 3D registers and command ports. */
static uint32_t random_block_addr(uint64_t *s)
{
    static const uint32_t edges[] = {0x06800000u, 0x06820000u, 0x06840000u, 0x06860000u,
                                     0x06880000u, 0x06890000u, 0x06894000u, 0x06898000u,
                                     0x068A0000u, 0x068A4000u};
    uint32_t r = rnd(s) % 100u;
    if (r < 50) return 0x06800000u + (rnd(s) % 0xA4000u & ~3u);
    if (r < 80) return edges[rnd(s) % 10u] - 64u * (rnd(s) % 8u) + 4u * (rnd(s) % 4u);
    if (r < 85) return 0x06800000u + rnd(s) % 0xA4000u; /* (unaligned) */
    if (r < 90) return 0x067FFF00u + 4u * (rnd(s) % 64u);
    return (rnd(s) & 1u ? 0x04000400u : 0x04000330u) + 4u * (rnd(s) % 32u);
}

static void test_block_matches_word_by_word(void **state)
{
    (void)state;
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    uint64_t seed = 0xB10CB10Cull;
    size_t cap = 0x24000u + 8u;
    uint8_t *bytes = malloc(cap);
    assert_non_null(bytes);
    gx_write16(a, 0x04000304u, 0x820F); /* (POWCNT1: the geometry engine on) */
    gx_write16(b, 0x04000304u, 0x820F);
    unsigned vram_bytes = 0;
    for (int round = 0; round < 400; round++) {
        if (round % 8 == 0) { /* new mappings: each bank in LCDC mode (MST 0) most often */
            for (uint32_t bank = 0; bank < 9; bank++) {
                uint32_t v = rnd(&seed);
                uint8_t cnt = (uint8_t)((v & 3u) ? 0x80u : v >> 8);
                uint32_t at = 0x04000240u + bank + (bank >= 7 ? 1u : 0u); /* (0247 is WRAMCNT) */
                gx_write8(a, at, cnt);
                gx_write8(b, at, cnt);
            }
        }
        uint32_t addr = random_block_addr(&seed);
        size_t n = rnd(&seed) % 4u == 0 ? rnd(&seed) % cap : rnd(&seed) % 600u;
        for (size_t i = 0; i < n; i++) bytes[i] = (uint8_t)rnd(&seed);
        gx_write32_block(a, addr, bytes, n);
        for (size_t k = 0; k + 4 <= n; k += 4)
            gx_write32(b, addr + (uint32_t)k,
                       (uint32_t)bytes[k] | (uint32_t)bytes[k + 1] << 8 |
                           (uint32_t)bytes[k + 2] << 16 | (uint32_t)bytes[k + 3] << 24);
        if (addr - 0x06800000u < 0xA4000u) vram_bytes += (unsigned)n;
        same_state(a, b, r);
    }
    print_message("%u bytes from starts in the LCDC window\n", vram_bytes);
    assert_true(vram_bytes > 1000000u);
    free(bytes);
    engines_destroy(a, b, r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_matches_word_by_word),
        cmocka_unit_test(test_bus_run_matches_word_by_word),
        cmocka_unit_test(test_block_matches_word_by_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
