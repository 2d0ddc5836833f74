/*
 * render_spec.h - render specs: a golden scene that is a model drawn by `dsgx render` rather than
 * a recorded trace (syntax: golden/README.md "Render specs").
 *
 * A spec is text: a version line `dsgx-render 1`, then one `key value...` per line, `#` starts a
 * comment. Each key is a `dsgx render` option without its dashes (`eye 0 0.5 5` is
 * `--eye 0 0.5 5`; `file` is the model file, the positional argument), plus `frame-is` (what
 * the manifest's frame column selects: `anim`, the animation frame, or `model`, the model index
 * in the file). Relative file names are relative to the spec's directory. The parser turns it
 * into the argument vector of `dsgx render`, so a spec draws exactly what the command would.
 */
#ifndef DSGX_RENDER_SPEC_H
#define DSGX_RENDER_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What the frame column of a manifest row selects in a spec scene. */
enum render_spec_frame { RENDER_SPEC_FRAME_ANIM, RENDER_SPEC_FRAME_MODEL };

/** At most this many lines with a key, and this many bytes in a spec. */
#define RENDER_SPEC_MAX_KEYS  64
#define RENDER_SPEC_MAX_BYTES 65536

typedef struct render_spec {
    int argc;    /**< argv[0] is "render" */
    char **argv; /**< NULL-terminated; file names already joined to the spec's directory */
    enum render_spec_frame frame_is;
} render_spec;

/** Parse spec text. @p name is used in messages, @p dir (may be NULL or "") is prepended to
 *  relative file names. @p s must be zeroed.
 *  @return 0, or -1 with "name:line: reason" in err (free s with render_spec_free either way). */
int render_spec_parse(render_spec *s, const char *name, const char *dir, const char *text,
                      size_t len, char *err, size_t errlen);
/** Read and parse the spec file at @p path (relative names are relative to its directory). */
int render_spec_load(render_spec *s, const char *path, char *err, size_t errlen);
void render_spec_free(render_spec *s);

/** Append "--frame N" or "--model N" (by frame_is) to a copy of the spec's arguments.
 *  @return a NULL-terminated argv of *argc entries to free with render_spec_argv_free, or NULL
 *  (out of memory). */
char **render_spec_argv(const render_spec *s, long frame, int *argc);
void render_spec_argv_free(char **argv);

#endif
