/* fuzz_sprite.c - t3dm_sprite_parse on arbitrary bytes, then every level decoded and converted
 * with each resize mode (memory stays bounded: a parsed level fits in the input, a DS texture
 * is at most 1024x1024). */
#include <stdint.h>
#include <stdlib.h>

#include "t3dm/sprite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    t3dm_sprite s;
    t3dm_sprite_error err;
    if (t3dm_sprite_parse(data, size, &s, &err) != 0) return 0;
    for (unsigned level = 0; level <= T3DM_SPRITE_MAX_LODS; level++) {
        const t3dm_sprite_image *img = level ? &s.lods[level - 1] : &s.image;
        if (!img->pixels) continue;
        uint8_t *rgba = malloc((size_t)img->width * img->height * 4);
        if (rgba) (void)t3dm_sprite_decode_rgba8(&s, level, rgba);
        free(rgba);
        for (unsigned mode = 0; mode < 3; mode++) {
            t3dm_ds_options o = {.resize = mode == 1 ? T3DM_DS_SCALE : T3DM_DS_PAD,
                                 .intensity_alpha = mode == 2,
                                 .alpha_threshold = (uint8_t)(size & 0xFF),
                                 .level = level};
            t3dm_ds_texture t;
            if (t3dm_sprite_to_ds(&s, &o, &t, &err) == 0) {
                (void)t3dm_ds_teximage_param(&t, 0, true, true, false, false, 0);
                t3dm_ds_texture_free(&t);
            }
        }
    }
    return 0;
}
