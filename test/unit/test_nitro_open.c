/*
 * test_nitro_open.c - opening Nitro inputs as users name them (tools/core/nitro_open.h): plain
 * files, LZ77 type 0x10 files, NARC archives listed whole, members by index and by name
 * (decompressed when LZ77), and the errors for a missing member, a selector on a non-archive
 * and a missing file. The archive and the compressed stream are built by hand from GBATEK's
 * NARC (BTAF/BTNF/GMIF) and LZ77 descriptions.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/core/nitro_open.h"

static const uint8_t payload[12] = {'B', 'M', 'D', '0', 1, 2, 3, 4, 5, 6, 7, 8};

/* LZ77 type 0x10 with literals only: header (type, 24-bit size), then per 8 bytes a flag byte
 * 0 (all literal) and the bytes. */
static size_t lz77_literals(uint8_t *out, const uint8_t *in, size_t n)
{
    size_t o = 0;
    out[o++] = 0x10;
    out[o++] = (uint8_t)n;
    out[o++] = (uint8_t)(n >> 8);
    out[o++] = (uint8_t)(n >> 16);
    for (size_t i = 0; i < n; i += 8) {
        out[o++] = 0;
        for (size_t k = i; k < n && k < i + 8; k++) out[o++] = in[k];
    }
    while (o % 4) out[o++] = 0;
    return o;
}

static void put16(uint8_t *p, size_t *n, unsigned v)
{
    p[(*n)++] = (uint8_t)v;
    p[(*n)++] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, size_t *n, uint32_t v)
{
    put16(p, n, v & 0xFFFF);
    put16(p, n, v >> 16);
}

/* NARC with member 0 "model.nsbmd" (LZ77 of payload) and member 1 "b.bin" (4 raw bytes). */
static size_t build_narc(uint8_t *p)
{
    uint8_t lz[64];
    size_t lzn = lz77_literals(lz, payload, sizeof payload);
    size_t n = 0;
    memcpy(p, "NARC", 4);
    n = 4;
    put16(p, &n, 0xFFFE);
    put16(p, &n, 0x0100);
    size_t total_at = n;
    put32(p, &n, 0);
    put16(p, &n, 16);
    put16(p, &n, 3);
    memcpy(p + n, "BTAF", 4);
    n += 4;
    put32(p, &n, 12 + 16);
    put16(p, &n, 2);
    put16(p, &n, 0);
    put32(p, &n, 0);
    put32(p, &n, (uint32_t)lzn);
    put32(p, &n, (uint32_t)lzn);
    put32(p, &n, (uint32_t)lzn + 4);
    size_t fnt = n;
    memcpy(p + n, "BTNF", 4);
    n += 4;
    size_t fnt_size_at = n;
    put32(p, &n, 0);
    put32(p, &n, 8); /* root subtable right after the 8-byte directory entry */
    put16(p, &n, 0); /* first file id */
    put16(p, &n, 1); /* one directory */
    p[n++] = 11;
    memcpy(p + n, "model.nsbmd", 11);
    n += 11;
    p[n++] = 5;
    memcpy(p + n, "b.bin", 5);
    n += 5;
    p[n++] = 0;
    while ((n - fnt) % 4) p[n++] = 0;
    size_t tmp = fnt_size_at;
    put32(p, &tmp, (uint32_t)(n - fnt));
    memcpy(p + n, "GMIF", 4);
    n += 4;
    put32(p, &n, (uint32_t)(8 + lzn + 4));
    memcpy(p + n, lz, lzn);
    n += lzn;
    memcpy(p + n, "RAW!", 4);
    n += 4;
    tmp = total_at;
    put32(p, &tmp, (uint32_t)n);
    return n;
}

static char dir[64];

static void write_file(const char *name, const uint8_t *d, size_t n, char *path)
{
    sprintf(path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/dsgx_open_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static void test_plain_and_lz77(void **state)
{
    (void)state;
    char path[128], err[600];
    dsgx_nitro_input in;
    write_file("plain.nsbmd", payload, sizeof payload, path);
    assert_int_equal(dsgx_nitro_open(path, &in, err, sizeof err), 0);
    assert_false(in.archive);
    assert_int_equal(in.size, sizeof payload);
    assert_memory_equal(in.data, payload, sizeof payload);
    dsgx_nitro_input_free(&in);

    uint8_t lz[64];
    size_t n = lz77_literals(lz, payload, sizeof payload);
    write_file("packed.lz", lz, n, path);
    assert_int_equal(dsgx_nitro_open(path, &in, err, sizeof err), 0);
    assert_int_equal(in.size, sizeof payload);
    assert_memory_equal(in.data, payload, sizeof payload);
    dsgx_nitro_input_free(&in);

    /* a selector on a file that is not an archive */
    char arg[160];
    snprintf(arg, sizeof arg, "%s/plain.nsbmd:1", dir);
    assert_int_equal(dsgx_nitro_open(arg, &in, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a NARC archive"));
    snprintf(arg, sizeof arg, "%s/missing.nsbmd", dir);
    assert_int_equal(dsgx_nitro_open(arg, &in, err, sizeof err), -1);
    assert_non_null(strstr(err, "missing.nsbmd"));
}

static void test_archive(void **state)
{
    (void)state;
    uint8_t narc[512];
    size_t n = build_narc(narc);
    char path[128], arg[160], err[600];
    write_file("pack.narc", narc, n, path);
    dsgx_nitro_input in;
    assert_int_equal(dsgx_nitro_open(path, &in, err, sizeof err), 0);
    assert_true(in.archive);
    assert_int_equal(in.narc.num_files, 2);
    dsgx_nitro_input_free(&in);

    /* by index and by name; member 0 is LZ77 and comes back decompressed */
    const char *sel[] = {"0", "model.nsbmd"};
    for (int i = 0; i < 2; i++) {
        snprintf(arg, sizeof arg, "%s:%s", path, sel[i]);
        assert_int_equal(dsgx_nitro_open(arg, &in, err, sizeof err), 0);
        assert_false(in.archive);
        assert_int_equal(in.size, sizeof payload);
        assert_memory_equal(in.data, payload, sizeof payload);
        dsgx_nitro_input_free(&in);
    }
    snprintf(arg, sizeof arg, "%s:b.bin", path);
    assert_int_equal(dsgx_nitro_open(arg, &in, err, sizeof err), 0);
    assert_int_equal(in.size, 4);
    assert_memory_equal(in.data, "RAW!", 4);
    dsgx_nitro_input_free(&in);

    snprintf(arg, sizeof arg, "%s:7", path);
    assert_int_equal(dsgx_nitro_open(arg, &in, err, sizeof err), -1);
    assert_non_null(strstr(err, "no member \"7\""));
    snprintf(arg, sizeof arg, "%s:nope.bin", path);
    assert_int_equal(dsgx_nitro_open(arg, &in, err, sizeof err), -1);
    assert_non_null(strstr(err, "no member \"nope.bin\""));
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"plain.nsbmd", "packed.lz", "pack.narc"};
    char path[128];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_and_lz77),
        cmocka_unit_test(test_archive),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
