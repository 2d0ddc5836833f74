/*
 * test_frame.c - canonical bytes, XXH3 frame hash, PNG encoding and its exact inverse, compare
 * and diff (specs/frame.md).
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
#include <png.h>

#include "raster/frame.h"

static void test_zero_frame_hash(void **state)
{
    (void)state;
    dsgx_frame *f = calloc(1, sizeof *f);
    char hex[17];
    dsgx_frame_hash_hex(f, hex);
    /* the all-zero frame: the warm-up frame hash of the rdlines reference manifest */
    assert_string_equal(hex, "3389eb3e22178950");
    free(f);
}

static void test_canonical_layout(void **state)
{
    (void)state;
    dsgx_frame *f = calloc(1, sizeof *f);
    f->px[0] = dsgx_pixel(1, 2, 3, 4);
    f->px[1] = 0xFFFFFFFFu; /* bits outside the fields do not count */
    uint8_t *b = malloc(DSGX_FRAME_BYTES);
    dsgx_frame_canonical(f, b);
    assert_memory_equal(b, "\x01\x02\x03\x04\x3f\x3f\x3f\x1f", 8);
    dsgx_frame *g = calloc(1, sizeof *g);
    g->px[0] = dsgx_pixel(1, 2, 3, 4);
    g->px[1] = 0x1F3F3F3Fu;
    assert_true(dsgx_frame_hash(f) == dsgx_frame_hash(g));
    free(b);
    free(f);
    free(g);
}

static void test_png_roundtrip(void **state)
{
    (void)state;
    dsgx_frame *f = calloc(1, sizeof *f), *g = calloc(1, sizeof *g);
    for (unsigned i = 0; i < DSGX_FRAME_PIXELS; i++)
        f->px[i] = dsgx_pixel(i & 63, (i >> 6) & 63, (i >> 12) & 63, (i * 7) & 31);
    char path[] = "/tmp/dsgx_test_frame_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[256];
    assert_int_equal(dsgx_frame_write_png(f, path, err, sizeof err), 0);
    /* the PNG's bytes follow the spec: colour8 = c6<<2 | c6>>4, alpha8 = a5<<3 | a5>>2 */
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_file(&img, path));
    img.format = PNG_FORMAT_RGBA;
    uint8_t *rgba = malloc(PNG_IMAGE_SIZE(img));
    assert_true(png_image_finish_read(&img, NULL, rgba, 0, NULL));
    unsigned i = 1 + 63 * 64 + 3 * 4096; /* r=1 g=63 b=3 */
    assert_int_equal(rgba[i * 4 + 0], (1 << 2) | (1 >> 4));
    assert_int_equal(rgba[i * 4 + 1], (63 << 2) | (63 >> 4));
    assert_int_equal(rgba[i * 4 + 2], (3 << 2) | (3 >> 4));
    unsigned a = (i * 7) & 31;
    assert_int_equal(rgba[i * 4 + 3], a ? ((a << 3) | (a >> 2)) : 0);
    assert_int_equal(rgba[3], 0); /* pixel 0 has alpha 0 */
    free(rgba);
    assert_int_equal(dsgx_frame_load(g, path, err, sizeof err), 0);
    assert_memory_equal(f->px, g->px, sizeof f->px);
    unlink(path);
    free(f);
    free(g);
}

/* The speed-tuned PNG writer (zlib level 1, no filter) decodes to exactly the bytes of the
 * reference conversion (colour8 = c6 << 2 | c6 >> 4, alpha8 = a5 ? a5 << 3 | a5 >> 2 : 0),
 * for frames with flat areas, gradients and noise; and dsgx_frame_rgba8 gives those bytes. */
static void test_png_decodes_to_reference(void **state)
{
    (void)state;
    dsgx_frame *f = calloc(1, sizeof *f);
    uint8_t *want = malloc(DSGX_FRAME_BYTES), *mine = malloc(DSGX_FRAME_BYTES);
    uint32_t seed = 1;
    char path[] = "/tmp/dsgx_test_frame_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int round = 0; round < 4; round++) {
        for (unsigned i = 0; i < DSGX_FRAME_PIXELS; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned x = i % 256, y = i / 256, n = seed >> 16;
            uint32_t p = round == 0   ? dsgx_pixel(5, 10, 20, 0) /* one flat colour */
                         : round == 1 ? dsgx_pixel(x & 63, y & 63, (x + y) & 63, 31)
                         : round == 2 ? dsgx_pixel(n & 63, (n >> 6) & 63, (n >> 3) & 63, n & 31)
                                      : (x > 64 && x < 192 && y > 40 && y < 150
                                             ? dsgx_pixel(n & 63, 40, y & 63, 31)
                                             : 0u);
            f->px[i] = p;
            unsigned c[3] = {dsgx_pixel_r(p), dsgx_pixel_g(p), dsgx_pixel_b(p)},
                     a = dsgx_pixel_a(p);
            for (int k = 0; k < 3; k++) want[i * 4 + k] = (uint8_t)((c[k] << 2) | (c[k] >> 4));
            want[i * 4 + 3] = (uint8_t)(a ? ((a << 3) | (a >> 2)) : 0);
        }
        dsgx_frame_rgba8(f, mine);
        assert_memory_equal(mine, want, DSGX_FRAME_BYTES);
        char err[256];
        assert_int_equal(dsgx_frame_write_png(f, path, err, sizeof err), 0);
        png_image img;
        memset(&img, 0, sizeof img);
        img.version = PNG_IMAGE_VERSION;
        assert_true(png_image_begin_read_from_file(&img, path));
        assert_int_equal(img.width, DSGX_FRAME_W);
        assert_int_equal(img.height, DSGX_FRAME_H);
        img.format = PNG_FORMAT_RGBA;
        uint8_t *rgba = malloc(PNG_IMAGE_SIZE(img));
        assert_true(png_image_finish_read(&img, NULL, rgba, 0, NULL));
        assert_memory_equal(rgba, want, DSGX_FRAME_BYTES);
        free(rgba);
    }
    unlink(path);
    free(want);
    free(mine);
    free(f);
}

static void test_compare_and_diff(void **state)
{
    (void)state;
    dsgx_frame *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b), *d = calloc(1, sizeof *d);
    dsgx_frame_diff r;
    dsgx_frame_compare(a, b, &r);
    assert_int_equal(r.differing, 0);
    assert_int_equal(r.x0, -1);
    b->px[10 * 256 + 20] = dsgx_pixel(5, 0, 0, 0);
    b->px[30 * 256 + 5] = dsgx_pixel(0, 0, 0, 1);
    dsgx_frame_compare(a, b, &r);
    assert_int_equal(r.differing, 2);
    assert_int_equal(r.x0, 5);
    assert_int_equal(r.y0, 10);
    assert_int_equal(r.x1, 20);
    assert_int_equal(r.y1, 30);
    dsgx_frame_diff_image(a, b, d);
    assert_int_equal(d->px[10 * 256 + 20], dsgx_pixel(63, 0, 0, 31));  /* red: r differs */
    assert_int_equal(d->px[30 * 256 + 5], dsgx_pixel(63, 63, 63, 31)); /* white: alpha only */
    free(a);
    free(b);
    free(d);
}

static void test_load_errors(void **state)
{
    (void)state;
    dsgx_frame *f = calloc(1, sizeof *f);
    char err[256];
    assert_int_equal(dsgx_frame_load(f, "/nonexistent/frame.png", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/frame.png"));
    char path[] = "/tmp/dsgx_test_bad_XXXXXX";
    int fd = mkstemp(path);
    assert_true(write(fd, "hello", 5) == 5);
    close(fd);
    assert_int_equal(dsgx_frame_load(f, path, err, sizeof err), -1);
    assert_non_null(strstr(err, "neither a PNG nor a 196608-byte raw frame"));
    unlink(path);
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_frame_hash),  cmocka_unit_test(test_canonical_layout),
        cmocka_unit_test(test_png_roundtrip),    cmocka_unit_test(test_png_decodes_to_reference),
        cmocka_unit_test(test_compare_and_diff), cmocka_unit_test(test_load_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
