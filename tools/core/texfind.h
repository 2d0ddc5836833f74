/*
 * texfind.h - where a model's (or a texture-pattern animation's) textures and palettes come
 * from when they are not inside its file. Shared by `dsgx render` and `dsgx info`.
 *
 * Sources, in order of precedence:
 *   1. the --tex files, in the order given (always uploaded: an explicit choice wins every
 *      name it holds);
 *   2. the TEX0 block of the model's own file;
 *   3. the NSBTX (BTX0) members of the NARC archive the model was opened from
 *      (ARCHIVE.narc:INDEX|NAME), in member index order, LZ77 members unpacked;
 *   4. the NSBTX files in the model's folder (the archive's folder for an archive member):
 *      every regular file whose name ends in ".nsbtx" (any case), sorted bytewise by name.
 * (Textures inside other NSBMD files are never searched.) Sources 3 and 4 are automatic: one is
 * uploaded only when it holds a name that sources 1 and 2 lack, and each missing name comes from
 * the FIRST automatic source holding it.
 *
 * Names: what a material's texture and palette dictionaries name (nitro_material
 * texture_name / palette_name) and what an NSBTP's texture and palette name lists hold. A name
 * matches a TEX0 dictionary entry when the two are byte-for-byte equal up to the first NUL or
 * 16 bytes (nitro_find_texture / nitro_find_palette): case-sensitive, no trimming, no
 * extension or suffix games add. Textures and palettes are separate name spaces, looked up
 * independently (a texture and its palette may come from different files).
 * Ambiguity: when several automatic sources hold a missing name the first wins and the plan
 * records the next one (`also`) so the caller can say so; it is never an error. The uploaded
 * sets are kept in source order, so the runtime's own binding (the first uploaded set holding
 * the name, nitro_texvram_bind_tex) picks exactly the source recorded here.
 *
 * The library never prints: callers report from the plan (dsgx_texplan_format).
 */
#ifndef DSGX_TEXFIND_H
#define DSGX_TEXFIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nitro/anim.h"
#include "nitro/nitro.h"
#include "nitro/runtime.h"

/** At most this many candidate files (the rest of a huge folder or archive is ignored). */
#define DSGX_TEXLIB_MAX_FILES 4096u
/** At most this many bytes of candidate files kept in memory. */
#define DSGX_TEXLIB_MAX_BYTES (256u << 20)
/** At most this many distinct names looked up per plan. */
#define DSGX_TEXPLAN_MAX_NEED 1024u

typedef enum dsgx_tex_origin {
    DSGX_TEX_OPTION,  /**< a --tex file */
    DSGX_TEX_MODEL,   /**< the model's own file */
    DSGX_TEX_ARCHIVE, /**< a member of the model's archive */
    DSGX_TEX_FOLDER,  /**< a file beside the model */
} dsgx_tex_origin;

/** One candidate file: parsed, with a TEX0 block. */
typedef struct dsgx_texsrc {
    char label[1024]; /**< "models.narc:12 (wood.nsbtx)", "dir/wood.nsbtx", or the --tex path */
    dsgx_tex_origin origin;
    uint8_t *buf; /**< owned */
    size_t size;
    nitro_file file;
} dsgx_texsrc;

/** The candidate files of one model or of every model of an archive (built once for --all). */
typedef struct dsgx_texlib {
    dsgx_texsrc *src;
    unsigned n, cap;
    size_t bytes;
    unsigned skipped; /**< candidates left out (unreadable, not BTX0 after all, over a limit) */
    char first_skip[1100]; /**< why the first of them was left out ("FILE: reason") */
} dsgx_texlib;

void dsgx_texlib_init(dsgx_texlib *lib);
void dsgx_texlib_free(dsgx_texlib *lib);
/** Add a --tex file (FILE or ARCHIVE.narc:MEMBER, LZ77 unpacked) as an OPTION source.
 *  @return 0, or -1 with the reason in err (not found, not a Nitro file, no TEX0). */
int dsgx_texlib_add_option(dsgx_texlib *lib, const char *arg, char *err, size_t errlen);
/**
 * Add the automatic sources around the model named `model_arg` (as the user typed it): the
 * BTX0 members of its archive when it is ARCHIVE:MEMBER (or when it is the archive itself, as
 * for --all), then the *.nsbtx files of its folder. Unreadable candidates are skipped (counted
 * in lib->skipped). @return the number of sources added.
 */
unsigned dsgx_texlib_add_around(dsgx_texlib *lib, const char *model_arg);

/** One name a model or animation needs and where it was found. */
typedef struct dsgx_texneed {
    nitro_name name;
    bool palette;
    int set;  /**< index of the plan's set it binds to, -1 when not found */
    int also; /**< another automatic source holding it (index into the library), or -1 */
} dsgx_texneed;

/** The TEX0 sets to upload, in order, and where each needed name comes from. */
typedef struct dsgx_texplan {
    unsigned nsets;
    const nitro_tex0 *tex[NITRO_MAX_TEX_SETS];
    const uint8_t *data[NITRO_MAX_TEX_SETS];
    const char *label[NITRO_MAX_TEX_SETS];
    dsgx_tex_origin origin[NITRO_MAX_TEX_SETS];
    dsgx_texneed need[DSGX_TEXPLAN_MAX_NEED];
    unsigned nneed;
    unsigned no_room; /**< automatic sources left out: more than NITRO_MAX_TEX_SETS sets */
} dsgx_texplan;

void dsgx_texplan_init(dsgx_texplan *p);
/** Add every texture and palette name of the model's materials (duplicates once). */
void dsgx_texplan_need_model(dsgx_texplan *p, const nitro_model *m);
/** Add the texture and palette names of a texture-pattern animation (other kinds: none). */
void dsgx_texplan_need_anim(dsgx_texplan *p, const nitro_anim *a);
/**
 * Choose the sets: the library's OPTION sources, the model's own TEX0 (own may be NULL; its
 * label is own_label), then the automatic sources that supply a missing name, in library
 * order. Fills need[].set / .also. @return the number of names not found.
 */
unsigned dsgx_texplan_resolve(dsgx_texplan *p, const dsgx_texlib *lib, const nitro_tex0 *own,
                              const uint8_t *own_data, const char *own_label);
/** "texture wood from models.narc:12 (wood.nsbtx)", "palette p not found", with
 *  "; also in LABEL (not used)" on ambiguity. */
void dsgx_texplan_format(const dsgx_texplan *p, const dsgx_texlib *lib, unsigned i, char *out,
                         size_t size);

#endif
