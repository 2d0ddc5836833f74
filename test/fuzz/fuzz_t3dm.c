/* fuzz_t3dm.c - t3dm_parse on arbitrary bytes (seeds: the fixtures of t3dm/writer.c written by
 * test_t3dm_parse); a model that parses is also used as every animation's .sdata stream,
 * posed at two times and drawn into a sink that only counts, so the stream reader, the
 * playback and the drawing walk see the same bytes. */
#include <stdint.h>
#include <stdlib.h>

#include "t3dm/draw.h"
#include "t3dm/t3dm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_write(void *user, uint32_t addr, uint32_t val, unsigned bytes)
{
    (void)addr;
    (void)val;
    (void)bytes;
    (*(unsigned long *)user)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    t3dm_model m;
    t3dm_status st = t3dm_parse(data, size, &m);
    if (!st.ok) return 0;
    for (unsigned a = 0; a < m.num_anims; a++) t3dm_anim_load_sdata(&m, a, data, size);
    t3dm_pose p;
    if (t3dm_pose_init(&p, &m)) {
        for (unsigned a = 0; a < m.num_anims; a++) {
            t3dm_pose_animate(&p, &m, a, 0.4f);
            t3dm_pose_animate(&p, &m, a, 1000.0f);
        }
        unsigned long writes = 0;
        nitro_gx_sink sink = {&writes, count_write, NULL};
        t3dm_draw_opts o = {.pose = &p, .object = -1};
        unsigned tris = t3dm_draw(&m, &o, &sink); /* the compiled draw list (drawlist.c) */
        unsigned long list_writes = writes;
        writes = 0;
        /* the reference walk makes the same bus writes (test_t3dm_drawlist checks them word by
         * word on generated models; here their number on any input the reader accepts) */
        if (t3dm_draw_walk(&m, &o, &sink) != tris || writes != list_writes) abort();
        t3dm_pose_free(&p);
    }
    t3dm_free(&m);
    return 0;
}
