/*
 * test_progress.c - the progress line (tools/progress.h) driven by a fake clock: nothing when
 * not a terminal, nothing in the first second, the text (count, rate, time left), redraws at
 * most every PROGRESS_INTERVAL, and the erase sequences.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/progress.h"

static double fake_clock(void *user)
{
    return *(const double *)user;
}

/* Everything written to f so far, from the start. */
static const char *contents(FILE *f, char *buf, size_t size)
{
    fflush(f);
    long end = ftell(f);
    rewind(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    fseek(f, end, SEEK_SET);
    return buf;
}

static void test_format(void **state)
{
    (void)state;
    double now = 100;
    progress p;
    progress_init(&p, stderr, true, fake_clock, &now, "golden", "scenes", 120);
    char line[128];
    progress_format(&p, 100.5, line, sizeof line);
    assert_string_equal(line, "golden: 0/120 scenes"); /* no rate before the first item */
    p.done = 40;
    progress_format(&p, 110, line, sizeof line); /* 4/s, 80 to go */
    assert_string_equal(line, "golden: 40/120 scenes, 4.0/s, 20s left");
    p.done = 1;
    progress_format(&p, 130, line, sizeof line); /* 1 in 30 s: 119 * 30 = 3570 s */
    assert_string_equal(line, "golden: 1/120 scenes, 0.0/s, 59:30 left");
    p.total = 10000;
    progress_format(&p, 110, line, sizeof line); /* 9999 * 10 s */
    assert_string_equal(line, "golden: 1/10000 scenes, 0.1/s, 27:46:30 left");
    p.done = 5000;
    progress_format(&p, 110, line, sizeof line); /* 500/s: no decimals */
    assert_string_equal(line, "golden: 5000/10000 scenes, 500/s, 10s left");
    /* truncation keeps the terminator */
    char tiny[8];
    assert_int_equal(progress_format(&p, 110, tiny, sizeof tiny), 7);
    assert_string_equal(tiny, "golden:");
}

static void test_not_a_terminal(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    double now = 0;
    progress p;
    progress_init(&p, f, false, fake_clock, &now, "render", "models", 10);
    for (size_t i = 1; i <= 10; i++) {
        now += 5;
        progress_update(&p, i);
    }
    progress_clear(&p);
    progress_finish(&p);
    assert_int_equal(ftell(f), 0);
    fclose(f);
}

static void test_terminal_line(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    double now = 50;
    progress p;
    progress_init(&p, f, true, fake_clock, &now, "golden", "scenes", 4);
    char buf[512];
    now = 50.9;
    progress_update(&p, 1); /* under a second: a quick run shows nothing */
    assert_string_equal(contents(f, buf, sizeof buf), "");
    now = 51.0;
    progress_update(&p, 2);
    assert_string_equal(contents(f, buf, sizeof buf), "\rgolden: 2/4 scenes, 2.0/s, 1s left\033[K");
    now = 51.05;
    progress_update(&p, 3); /* within PROGRESS_INTERVAL of the last draw: skipped */
    assert_int_equal(strlen(contents(f, buf, sizeof buf)),
                     strlen("\rgolden: 2/4 scenes, 2.0/s, 1s left\033[K"));
    progress_clear(&p); /* erased so the caller can print; the next update redraws */
    now = 51.06;
    progress_update(&p, 3);
    assert_string_equal(contents(f, buf, sizeof buf), "\rgolden: 2/4 scenes, 2.0/s, 1s left\033[K"
                                                      "\r\033[K"
                                                      "\rgolden: 3/4 scenes, 2.8/s, 1s left\033[K");
    now = 51.07;
    progress_update(&p, 4); /* the last item is always drawn */
    progress_finish(&p);
    const char *s = contents(f, buf, sizeof buf);
    const char *tail = "\rgolden: 4/4 scenes, 3.7/s, 0s left\033[K\r\033[K";
    assert_true(strlen(s) > strlen(tail));
    assert_string_equal(s + strlen(s) - strlen(tail), tail);
    progress_finish(&p); /* nothing shown: nothing more written */
    assert_string_equal(contents(f, buf, sizeof buf), s);
    fclose(f);
}

static void test_monotonic(void **state)
{
    (void)state;
    double a = progress_monotonic(NULL), b = progress_monotonic(NULL);
    assert_true(a > 0);
    assert_true(b >= a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_not_a_terminal),
        cmocka_unit_test(test_terminal_line),
        cmocka_unit_test(test_monotonic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
