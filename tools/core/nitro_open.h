/*
 * nitro_open.h - open a Nitro input the way users name it: FILE, ARCHIVE.narc:INDEX or
 * ARCHIVE.narc:NAME; LZ77-compressed files and archive members (types 0x10/0x11) are
 * decompressed transparently, so files taken straight from a game's file system open directly.
 * Shared by `dsgx info` and `dsgx render` (model, --tex and --anim files).
 */
#ifndef DSGX_NITRO_OPEN_H
#define DSGX_NITRO_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nitro/nitro.h"

/** Largest file or member accepted (and decompressed size). */
#define DSGX_NITRO_MAX_FILE (64u << 20)

typedef struct dsgx_nitro_input {
    uint8_t *data; /**< the file, member or decompressed bytes (owned) */
    size_t size;
    bool archive;    /**< a NARC opened without a selector: data is the whole archive */
    nitro_narc narc; /**< the parsed archive when archive is true */
} dsgx_nitro_input;

/** @return 0, or -1 with "ARG: reason" in err. Free with dsgx_nitro_input_free(). */
int dsgx_nitro_open(const char *arg, dsgx_nitro_input *in, char *err, size_t errlen);
void dsgx_nitro_input_free(dsgx_nitro_input *in);
/** Replace a malloc'd buffer by its decompression when it is LZ77-compressed (and not a Nitro
 *  file or archive). @return 0, or -1 with "NAME: ..." in err (the buffer is kept). */
int dsgx_nitro_unpack(const char *name, uint8_t **data, size_t *size, char *err, size_t errlen);

#endif
