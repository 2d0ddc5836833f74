/*
 * test_golden.c - manifest rules (golden/README.md): columns by name, dsgx_xxh3 overriding xxh3
 * except with --melonds-gaps, frames parsed from "NNN", reference detection, rewrite round trip.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/core/golden.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_columns_and_override(void **state)
{
    (void)state;
    char dir[] = "/tmp/dsgx_golden_XXXXXX", path[256], err[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    write_file(path, "features\ttrace\tframe\txxh3\tdsgx_xxh3\tdsgx_note\txfail\n"
                     "f\ta\t002\t0123456789abcdef\tfedcba9876543210\tgaps\t\n"
                     "f\tb\t7\taaaaaaaaaaaaaaaa\t\t\tknown\n");
    golden_manifest m;
    assert_int_equal(golden_manifest_load(&m, dir, err, sizeof err), 0);
    assert_false(m.reference);
    assert_int_equal(m.nrows, 2);
    assert_string_equal(golden_scene_name(&m, 0), "a");
    assert_int_equal(golden_row_frame(&m, 0), 2);
    assert_int_equal(golden_row_frame(&m, 1), 7);
    assert_string_equal(golden_expected_hash(&m, 0, false), "fedcba9876543210");
    assert_string_equal(golden_expected_hash(&m, 0, true), "0123456789abcdef");
    assert_string_equal(golden_expected_hash(&m, 1, false), "aaaaaaaaaaaaaaaa");
    assert_string_equal(golden_cell(&m, 1, m.c_xfail), "known");
    golden_scene_path(&m, 0, path, sizeof path);
    assert_non_null(strstr(path, "/a.trace"));
    /* edit and rewrite: the unknown column survives */
    assert_int_equal(golden_set_cell(&m, 1, m.c_xxh3, "bbbbbbbbbbbbbbbb"), 0);
    assert_true(golden_column(&m, "rdlines_count") >= 0);
    assert_int_equal(golden_manifest_save(&m, err, sizeof err), 0);
    golden_manifest_free(&m);
    assert_int_equal(golden_manifest_load(&m, dir, err, sizeof err), 0);
    assert_string_equal(golden_cell(&m, 1, m.c_xxh3), "bbbbbbbbbbbbbbbb");
    assert_string_equal(golden_cell(&m, 0, 0), "f");
    assert_true(m.c_rdlines >= 0);
    golden_manifest_free(&m);
    /* a reference directory */
    snprintf(path, sizeof path, "%s/REFERENCE-README.md", dir);
    write_file(path, "ref\n");
    assert_int_equal(golden_manifest_load(&m, dir, err, sizeof err), 0);
    assert_true(m.reference);
    golden_manifest_free(&m);
    unlink(path);
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    write_file(path, "name\txxh3\n");
    assert_int_equal(golden_manifest_load(&m, dir, err, sizeof err), -1); /* no frame column */
    unlink(path);
    rmdir(dir);
}

static void test_reference_manifest(void **state)
{
    (void)state;
    golden_manifest m;
    char err[256];
    assert_int_equal(golden_manifest_load(&m, DSGX_GOLDEN_DIR "/ref", err, sizeof err), 0);
    assert_true(m.reference);
    assert_true(m.nrows >= 52);
    golden_manifest_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_columns_and_override),
                                       cmocka_unit_test(test_reference_manifest)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
