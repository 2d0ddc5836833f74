/*
 * test_trace.c - the trace reader (specs/trace.md): every directive and every error case, with
 * the file:line messages the spec asks for; and the writer round trip.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/core/trace.h"

static int parse(dsgx_trace *t, const char *text, char *err, size_t n)
{
    memset(t, 0, sizeof *t);
    return dsgx_trace_parse(t, "x.trace", text, strlen(text), err, n);
}

static void test_directives(void **state)
{
    (void)state;
    dsgx_trace t;
    char err[256];
    const char *text = "# comment\n"
                       "dsgx-trace 1   # version\n"
                       "\n"
                       "w32 04000440 00000002\n"
                       "w16 04000304 820f\n"
                       "w8  04000240 83    # bank A\n"
                       "data 06800000 0102030405060708\n"
                       "frame\n";
    assert_int_equal(parse(&t, text, err, sizeof err), 0);
    assert_int_equal(t.n, 5);
    assert_int_equal(t.nframes, 1);
    assert_int_equal(t.items[0].op, TRACE_W32);
    assert_int_equal(t.items[0].addr, 0x04000440);
    assert_int_equal(t.items[0].value, 2);
    assert_int_equal(t.items[0].line, 4);
    assert_int_equal(t.items[1].op, TRACE_W16);
    assert_int_equal(t.items[1].value, 0x820F); /* hex is case-insensitive */
    assert_int_equal(t.items[2].op, TRACE_W8);
    assert_int_equal(t.items[2].value, 0x83);
    assert_int_equal(t.items[3].op, TRACE_DATA);
    assert_int_equal(t.items[3].data_len, 8);
    assert_memory_equal(t.data + t.items[3].data_off, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    assert_int_equal(t.items[4].op, TRACE_FRAME);
    dsgx_trace_free(&t);
}

static void expect_error(const char *text, const char *msg, size_t kept)
{
    dsgx_trace t;
    char err[256] = "";
    assert_int_equal(parse(&t, text, err, sizeof err), -1);
    if (!strstr(err, msg)) fail_msg("expected '%s' in '%s'", msg, err);
    assert_int_equal(t.n, kept); /* operations before the bad line are kept, none after */
    dsgx_trace_free(&t);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", "x.trace:1: missing version line", 0);
    expect_error("w32 04000440 0\n", "x.trace:1: missing version line", 0);
    expect_error("dsgx-trace 2\n", "x.trace:1: unknown trace version '2'", 0);
    expect_error("dsgx-trace 1\nw64 04000000 0\n", "x.trace:2: unknown directive 'w64'", 0);
    expect_error("dsgx-trace 1\nw32 0400044G 0\n", "x.trace:2: malformed address", 0);
    expect_error("dsgx-trace 1\nw32 104000440 0\n", "x.trace:2: malformed address", 0);
    expect_error("dsgx-trace 1\nw32 04000442 0\n", "x.trace:2: address 04000442 is not 4-aligned",
                 0);
    expect_error("dsgx-trace 1\nw16 04000301 0\n", "x.trace:2: address 04000301 is not 2-aligned",
                 0);
    expect_error("dsgx-trace 1\nw16 04000304 10000\n",
                 "x.trace:2: value 10000 too wide for a 16-bit write", 0);
    expect_error("dsgx-trace 1\nw8 04000240 100\n",
                 "x.trace:2: value 100 too wide for a 8-bit write", 0);
    expect_error("dsgx-trace 1\nw32 04000440 100000000\n", "x.trace:2: malformed value", 0);
    expect_error("dsgx-trace 1\nw32 04000440 0\ndata 06800000 010\n",
                 "x.trace:3: odd number of hex digits", 1);
    expect_error("dsgx-trace 1\ndata 06800000 010203\n",
                 "x.trace:2: data byte count 3 is not a multiple of 4", 0);
    expect_error("dsgx-trace 1\ndata 06800002 01020304\n",
                 "x.trace:2: address 06800002 is not 4-aligned", 0);
    expect_error("dsgx-trace 1\nw32 04000440\n", "x.trace:2: 'w32' takes an address and a value",
                 0);
    expect_error("dsgx-trace 1\nframe 1\n", "x.trace:2: 'frame' takes no arguments", 0);
    expect_error("dsgx-trace 1\nframe\nframe\nbogus\nframe\n",
                 "x.trace:4: unknown directive 'bogus'", 2);
}

static void test_leading_zeros(void **state)
{
    (void)state;
    dsgx_trace t;
    char err[256];
    /* a value's width is its numeric value, not its digit count */
    assert_int_equal(parse(&t, "dsgx-trace 1\nw8 04000240 0083\n", err, sizeof err), 0);
    assert_int_equal(t.items[0].value, 0x83);
    dsgx_trace_free(&t);
}

static void test_write_roundtrip(void **state)
{
    (void)state;
    dsgx_trace t, u;
    char err[256];
    const char *text = "dsgx-trace 1\nw32 04000440 00000002\nw16 04000304 820F\nw8  04000240 83\n"
                       "data 06800000 0102030405060708\nframe\n";
    assert_int_equal(parse(&t, text, err, sizeof err), 0);
    char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    assert_int_equal(dsgx_trace_write(&t, f), 0);
    long n = ftell(f);
    fclose(f);
    buf[n] = 0;
    assert_string_equal(buf, text);
    assert_int_equal(parse(&u, buf, err, sizeof err), 0);
    assert_int_equal(u.n, t.n);
    dsgx_trace_free(&t);
    dsgx_trace_free(&u);
}

/* Every byte value as a hex digit, a data digit and a token separator: the table-driven
 * scanner (trace.c hexval, is_blank) against the character classes of the spec, written out
 * here the slow, obvious way. */
static int ref_hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void test_every_byte(void **state)
{
    (void)state;
    dsgx_trace t;
    char err[256], text[64];
    for (int c = 1; c < 256; c++) {
        if (c == '\n' || c == '#') continue; /* line end and comment: their own tests */
        int want = ref_hexval(c);
        bool blank = c == ' ' || c == '\t' || c == '\r';
        /* as the value of a w8 write: accepted iff a hex digit, with its value */
        snprintf(text, sizeof text, "dsgx-trace 1\nw8 04000240 %c\n", c);
        int rc = parse(&t, text, err, sizeof err);
        if (want >= 0) {
            assert_int_equal(rc, 0);
            assert_int_equal(t.n, 1);
            assert_int_equal(t.items[0].value, (uint32_t)want);
        } else {
            assert_int_equal(rc, -1); /* a missing (blank) or malformed value */
        }
        dsgx_trace_free(&t);
        /* as a data digit (second digit of byte 1) */
        snprintf(text, sizeof text, "dsgx-trace 1\ndata 06800000 0%c000000\n", c);
        rc = parse(&t, text, err, sizeof err);
        if (want >= 0) {
            assert_int_equal(rc, 0);
            assert_int_equal(t.data_len, 4);
            assert_int_equal(t.data[0], (uint8_t)want);
        } else {
            assert_int_equal(rc, -1);
        }
        dsgx_trace_free(&t);
        /* as the separator between directive and address: accepted iff blank */
        snprintf(text, sizeof text, "dsgx-trace 1\nw8%c04000240 1\n", c);
        rc = parse(&t, text, err, sizeof err);
        assert_int_equal(rc, blank ? 0 : -1);
        dsgx_trace_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directives),    cmocka_unit_test(test_errors),
        cmocka_unit_test(test_leading_zeros), cmocka_unit_test(test_write_roundtrip),
        cmocka_unit_test(test_every_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
