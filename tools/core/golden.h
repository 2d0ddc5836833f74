/*
 * golden.h - golden-image manifests and scene runs (the library half of `dsgx golden`).
 *
 * A manifest is <dir>/manifest.tsv: tab-separated, a header row, columns found by name (see
 * golden/README.md): the scene (`name`, `trace` or `scene`; or `file` naming the input file
 * itself), `frame`, the expected hash `xxh3` (or `expected_xxh3`), and optionally `dsgx_xxh3` +
 * `dsgx_note` (our deliberate deviation from a reference), `rdlines_count`, `underflow_bit`,
 * and `xfail` (a known deviation and its reason). Other columns are kept as they are.
 * A directory holding REFERENCE-README.md is a reference: its `xxh3` column is never rewritten.
 */
#ifndef DSGX_GOLDEN_H
#define DSGX_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "raster/frame.h"

typedef struct golden_manifest {
    char *dir;
    bool reference;      /**< the directory holds REFERENCE-README.md */
    size_t ncols, nrows; /**< nrows excludes the header */
    char **cells;        /**< (nrows + 1) * ncols strings, row 0 is the header */
    /* column indexes, -1 when absent */
    int c_name, c_file, c_frame, c_xxh3, c_dsgx_xxh3, c_dsgx_note, c_rdlines, c_underflow, c_xfail;
} golden_manifest;

/** Load <dir>/manifest.tsv. @return 0, or -1 with "path:line: reason" in err. */
/** Parse manifest text (name is used in messages; m must be zeroed, m->dir may be NULL).
 *  @return 0, or -1 with "name:line: reason" in err (free m with golden_manifest_free). */
int golden_manifest_parse(golden_manifest *m, const char *name, const char *text, size_t n,
                          char *err, size_t errlen);
int golden_manifest_load(golden_manifest *m, const char *dir, char *err, size_t errlen);
/** Rewrite <dir>/manifest.tsv. @return 0 or -1 with a message. */
int golden_manifest_save(const golden_manifest *m, char *err, size_t errlen);
void golden_manifest_free(golden_manifest *m);

/** Cell of row r (0-based, header excluded) and column c; "" when the column is absent. */
const char *golden_cell(const golden_manifest *m, size_t r, int c);
/** Set a cell (copies @p v). @return 0 or -1 (out of memory). */
int golden_set_cell(golden_manifest *m, size_t r, int c, const char *v);
/** Index of a column, adding it (empty in every row) when absent. @return index or -1. */
int golden_column(golden_manifest *m, const char *name);
/** Append an empty row. @return its index, or -1. */
long golden_add_row(golden_manifest *m);

/** Scene name of row r: the `name`/`trace`/`scene` cell, or the `file` cell. */
const char *golden_scene_name(const golden_manifest *m, size_t r);
/** Path of the input of a scene: <dir>/<file>, or <dir>/<name>.render / .ntrfd / .trace
 *  (the first that exists; .trace when none does). */
void golden_scene_path(const golden_manifest *m, size_t r, char *out, size_t outlen);
/** Expected hash of row r: `dsgx_xxh3` when present and non-empty and !melonds_gaps, else
 *  `xxh3` / `expected_xxh3`. */
const char *golden_expected_hash(const golden_manifest *m, size_t r, bool melonds_gaps);
/** Parse the frame cell ("000", "3"). @return the frame index, or -1. */
long golden_row_frame(const golden_manifest *m, size_t r);

/** The manifests below @p root: every directory from @p root down (root included) that holds
 *  manifest.tsv, in sorted order (byte order of the names, depth first), so every run visits
 *  them in the same order. Hidden directories (".name") and symbolic links are not entered;
 *  at most GOLDEN_MAX_DEPTH levels. Appends malloc'ed paths ("root/sub/dir") to *dirs.
 *  @return the number appended (0: none below root), or -1 with a message in err. */
#define GOLDEN_MAX_DEPTH 16
long golden_find_manifests(const char *root, char ***dirs, size_t *ndirs, char *err, size_t errlen);

/** Parse "I/N" (1 <= I <= N <= 10000) for --shard. @return 0, or -1 (malformed). */
int golden_parse_shard(const char *s, unsigned *index, unsigned *count);
/** The shard (1..count) of the scene at position @p sorted_pos of the sorted scene list:
 *  round robin, so neighbouring (often similar) scenes spread over the shards. */
unsigned golden_shard_of(size_t sorted_pos, unsigned count);

/** Kind of a scene input, by its name: a render spec (".render") or a replayed input. */
bool golden_is_render_spec(const char *path);

/** One rendered frame of a scene. */
typedef struct golden_frame {
    dsgx_frame frame;
    char hash[17];
    unsigned rdlines;
    bool underflow;
} golden_frame;

/** Render a scene input (trace, NTRFD, PNG) on @p threads threads (dsgx_system_set_threads:
 *  pipelined from 2) and return every frame it emits.
 *  @return number of frames (>= 0; *out malloc'ed), or -1 with a message in err. */
long golden_render(const char *path, bool melonds_gaps, unsigned threads, golden_frame **out,
                   char *err, size_t errlen);

#endif
