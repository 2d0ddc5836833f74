/*
 * test_golden.c - manifest rules (golden/README.md): columns by name, dsgx_xxh3 overriding xxh3
 * except with --melonds-gaps, frames parsed from "NNN", reference detection, rewrite round trip;
 * manifests found below a directory (sorted, hidden directories skipped) and the golden tree
 * itself; --shard parsing and the round-robin deal covering every scene once.
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

static void free_dirs(char **dirs, size_t n)
{
    for (size_t i = 0; i < n; i++) free(dirs[i]);
    free(dirs);
}

static void test_find_manifests(void **state)
{
    (void)state;
    char root[] = "/tmp/dsgx_golden_find_XXXXXX", p[256];
    assert_non_null(mkdtemp(root));
    static const char *const made[] = {"b", "a", "a/z", "a/y", "a/y/deep", ".hidden", "c"};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", root, made[i]);
        assert_int_equal(mkdir(p, 0755), 0);
    }
    /* manifests in b, a/z, a/y/deep, .hidden and the root; a, a/y and c have none */
    static const char *const with[] = {"", "/b", "/a/z", "/a/y/deep", "/.hidden"};
    for (size_t i = 0; i < sizeof with / sizeof with[0]; i++) {
        snprintf(p, sizeof p, "%s%s/manifest.tsv", root, with[i]);
        write_file(p, "name\tframe\txxh3\n");
    }
    char **dirs = NULL, err[256];
    size_t n = 0;
    assert_int_equal(golden_find_manifests(root, &dirs, &n, err, sizeof err), 4);
    assert_int_equal(n, 4);
    static const char *const want[] = {"", "/a/y/deep", "/a/z", "/b"}; /* sorted, root first */
    for (size_t i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s%s", root, want[i]);
        assert_string_equal(dirs[i], p);
    }
    /* appends; a directory with nothing below: 0 */
    snprintf(p, sizeof p, "%s/c", root);
    assert_int_equal(golden_find_manifests(p, &dirs, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    /* a trailing slash lists the same paths */
    snprintf(p, sizeof p, "%s/a/", root);
    assert_int_equal(golden_find_manifests(p, &dirs, &n, err, sizeof err), 2);
    snprintf(p, sizeof p, "%s/a/y/deep", root);
    assert_string_equal(dirs[4], p);
    free_dirs(dirs, n);
    for (size_t i = 0; i < sizeof with / sizeof with[0]; i++) {
        snprintf(p, sizeof p, "%s%s/manifest.tsv", root, with[i]);
        unlink(p);
    }
    for (size_t i = sizeof made / sizeof made[0]; i-- > 0;) {
        snprintf(p, sizeof p, "%s/%s", root, made[i]);
        rmdir(p);
    }
    rmdir(root);
}

/* The project's own tree: every corpus is found from the root. */
static void test_find_golden_tree(void **state)
{
    (void)state;
    char **dirs = NULL, err[256];
    size_t n = 0;
    assert_true(golden_find_manifests(DSGX_GOLDEN_DIR, &dirs, &n, err, sizeof err) >= 6);
    static const char *const want[] = {"/nitro",   "/nitro-anim", "/ntrfd",
                                       "/rdlines", "/ref",        "/scenes"};
    size_t at = 0; /* each found, in this order (other corpora may sit between them) */
    for (size_t i = 0; i < 6; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s%s", DSGX_GOLDEN_DIR, want[i]);
        while (at < n && strcmp(dirs[at], p)) at++;
        assert_true(at < n);
    }
    free_dirs(dirs, n);
}

static void test_shards(void **state)
{
    (void)state;
    unsigned i, n;
    assert_int_equal(golden_parse_shard("2/3", &i, &n), 0);
    assert_int_equal(i, 2);
    assert_int_equal(n, 3);
    assert_int_equal(golden_parse_shard("1/1", &i, &n), 0);
    static const char *const bad[] = {
        "0/3", "4/3", "1/0", "1", "1/", "/2", "a/b", "1/2x", "-1/2", "1/10001", "1234567/1234567",
        ""};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        assert_int_equal(golden_parse_shard(bad[k], &i, &n), -1);
    /* every position in exactly one shard, shard sizes within one of each other */
    for (unsigned count = 1; count <= 7; count++) {
        unsigned size[8] = {0};
        for (size_t pos = 0; pos < 50; pos++) {
            unsigned s = golden_shard_of(pos, count);
            assert_true(s >= 1 && s <= count);
            size[s]++;
        }
        for (unsigned s = 1; s <= count; s++)
            assert_true(size[s] == 50 / count || size[s] == 50 / count + 1);
    }
    assert_true(golden_is_render_spec("golden/nitro/lit.render"));
    assert_false(golden_is_render_spec("golden/ref/x.trace"));
    assert_false(golden_is_render_spec(".render"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns_and_override), cmocka_unit_test(test_reference_manifest),
        cmocka_unit_test(test_find_manifests), cmocka_unit_test(test_find_golden_tree),
        cmocka_unit_test(test_shards)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
