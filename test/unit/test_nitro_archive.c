/*
 * test_nitro_archive.c - LZ77 (0x10, 0x11) streams and NARC archives built by hand from the
 * format descriptions (GBATEK "BIOS Decompression Functions", "NitroARC File System").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nitro/nitro.h"

static void test_lz10(void **state)
{
    (void)state;
    /* "ABCABCABCAB" = 3 literals + reference (length 8, distance 3):
     * flags 0b00010000, 'A' 'B' 'C', ref b0 = (8-3) << 4 | 0, b1 = 3-1 = 2. */
    const uint8_t in[] = {0x10, 11, 0, 0, 0x10, 'A', 'B', 'C', 0x50, 0x02};
    uint8_t *out;
    size_t n;
    nitro_status st = nitro_lz77_decompress(in, sizeof in, 1024, &out, &n);
    assert_true(st.ok);
    assert_int_equal(n, 11);
    assert_memory_equal(out, "ABCABCABCAB", 11);
    free(out);
    assert_true(nitro_lz77_detect(in, sizeof in));
    /* Reference before the start: distance 3 after one literal. */
    const uint8_t bad[] = {0x10, 11, 0, 0, 0x40, 'A', 0x50, 0x02};
    st = nitro_lz77_decompress(bad, sizeof bad, 1024, &out, &n);
    assert_false(st.ok);
    assert_int_equal(st.offset, 6);
    /* Truncated stream. */
    st = nitro_lz77_decompress(in, sizeof in - 1, 1024, &out, &n);
    assert_false(st.ok);
    /* Output above the caller's limit. */
    st = nitro_lz77_decompress(in, sizeof in, 10, &out, &n);
    assert_false(st.ok);
}

static void test_lz11(void **state)
{
    (void)state;
    /* 1 literal 'x' then a 3-byte reference (b0 >> 4 == 0): length 0x11 + 0x0F = 32 ->
     * b0 = 0x00, b1 = 0xF0 | dist-1 high nibble (0), b2 = 0 (distance 1). Total 33 bytes. */
    const uint8_t in[] = {0x11, 33, 0, 0, 0x40, 'x', 0x00, 0xF0, 0x00};
    uint8_t *out;
    size_t n;
    nitro_status st = nitro_lz77_decompress(in, sizeof in, 1024, &out, &n);
    assert_true(st.ok);
    assert_int_equal(n, 33);
    for (size_t i = 0; i < n; i++) assert_int_equal(out[i], 'x');
    free(out);
    /* 4-byte form: b0 = 0x10, b1 = 0, b2 = 0, b3 = 0: length 0x111 = 273, distance 1. */
    const uint8_t in4[] = {0x11, 0x12, 0x01, 0x00, 0x40, 'a', 0x10, 0x00, 0x00, 0x00};
    st = nitro_lz77_decompress(in4, sizeof in4, 1024, &out, &n);
    assert_true(st.ok);
    assert_int_equal(n, 274);
    assert_int_equal(out[273], 'a');
    free(out);
    const uint8_t in2[] = {0x11, 6, 0, 0, 0x20, 'a', 'b', 0x30, 0x01};
    /* 'a','b', then b0 = 0x30: length 3 + 1 = 4, distance (0 << 8 | 1) + 1 = 2: "abab" */
    st = nitro_lz77_decompress(in2, sizeof in2, 1024, &out, &n);
    assert_true(st.ok);
    assert_memory_equal(out, "ababab", 6);
    free(out);
}

/* Build a NARC with names: root has "a.bin" and directory "d" containing "b.bin". */
static size_t build_narc(uint8_t *p, bool cycle)
{
    size_t n = 0;
#define U8(v)  (p[n++] = (uint8_t)(v))
#define U16(v) (U8(v), U8((v) >> 8))
#define U32(v) (U16((v)&0xFFFF), U16((uint32_t)(v) >> 16))
    memcpy(p, "NARC", 4);
    n = 4;
    U16(0xFFFE);
    U16(0x0100);
    U32(0); /* size, unchecked */
    U16(16);
    U16(3);
    /* BTAF: 2 files: 0 = 4 bytes at 0, 1 = 3 bytes at 4 */
    memcpy(p + n, "BTAF", 4);
    n += 4;
    U32(8 + 4 + 16);
    U16(2);
    U16(0);
    U32(0);
    U32(4);
    U32(4);
    U32(7);
    /* BTNF: 2 directories. Root subtable at 16, dir 1 subtable at 16 + 11. */
    size_t fnt = n;
    memcpy(p + n, "BTNF", 4);
    n += 4;
    U32(0); /* patched */
    size_t d0 = n;
    U32(16);
    U16(0);
    U16(2);
    U32(16 + 11);
    U16(1);
    U16(0xF000);
    /* root: file "a.bin" (id 0), dir "d" (id 0xF001), end */
    U8(5);
    memcpy(p + n, "a.bin", 5);
    n += 5;
    U8(0x81);
    U8('d');
    U16(cycle ? 0xF000 : 0xF001);
    U8(0);
    /* dir 1: file "b.bin" (id 1), end */
    U8(5);
    memcpy(p + n, "b.bin", 5);
    n += 5;
    U8(0);
    while ((n - fnt) % 4) U8(0);
    uint32_t fs = (uint32_t)(n - fnt);
    memcpy(p + fnt + 4, &fs, 4); /* little-endian host assumed by the test's CI */
    (void)d0;
    memcpy(p + n, "GMIF", 4);
    n += 4;
    U32(8 + 8);
    memcpy(p + n, "DATAxyz\0", 8);
    n += 8;
    return n;
#undef U8
#undef U16
#undef U32
}

static void test_narc(void **state)
{
    (void)state;
    uint8_t buf[256];
    size_t len = build_narc(buf, false);
    nitro_narc a;
    nitro_status st = nitro_narc_parse(buf, len, &a);
    assert_true(st.ok);
    assert_int_equal(a.num_files, 2);
    assert_true(a.has_names);
    assert_string_equal(a.files[0].name, "a.bin");
    assert_string_equal(a.files[1].name, "d/b.bin");
    assert_int_equal(a.files[1].size, 3);
    assert_memory_equal(buf + a.files[1].offset, "xyz", 3);
    assert_int_equal(nitro_narc_find(&a, "b.bin"), 1);
    assert_int_equal(nitro_narc_find(&a, "d/b.bin"), 1);
    assert_int_equal(nitro_narc_find(&a, "c.bin"), -1);
    nitro_narc_free(&a);
    /* A directory that contains itself: refused, not followed. */
    len = build_narc(buf, true);
    st = nitro_narc_parse(buf, len, &a);
    assert_false(st.ok);
    assert_string_equal(st.structure, "NARC BTNF");
    /* Truncation at every byte: never ok (the GMIF block is last). */
    len = build_narc(buf, false);
    for (size_t k = 0; k < len; k++) {
        st = nitro_narc_parse(buf, k, &a);
        assert_false(st.ok);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lz10),
        cmocka_unit_test(test_lz11),
        cmocka_unit_test(test_narc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
