# Golden-image tests: `dsgx golden check` over each corpus (label: golden).
#   golden.ref                 melonDS reference traces (dsgx_xxh3 where we deliberately differ)
#   golden.ref.melonds_gaps    the same with melonDS's edge-gap rule: every frame == melonDS
#   golden.rdlines             the rendering-timing reference (RDLINES_COUNT, underflow bit)
#   golden.scenes              our own corpus
#   golden.hw                  polyrastertest scenes where hardware and melonDS differ
#   golden.ntrfd               the real NTRFD dumps replay to their melonDS frames
#   golden.ntrfd.later         dsgx's dumps of later frames (golden/ntrfd-later) replay to the frames
#                              of the traces they were dumped from
#   golden.*.threads           the same frames drawn with the scanlines split over several
#                              threads (raster/threads.c) and the replay pipelined (frame N
#                              drawn while the geometry engine runs frame N+1,
#                              tools/core/system.h): nothing may change; the rdlines corpus has
#                              frames the timing model cuts (the one-thread redraw)
set(DSGX_GOLDEN_OUT ${CMAKE_BINARY_DIR}/golden-out)
add_test(NAME golden.ref
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/ref
                 -o ${DSGX_GOLDEN_OUT}/ref)
add_test(NAME golden.ref.melonds_gaps
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/ref --melonds-gaps
                 -o ${DSGX_GOLDEN_OUT}/ref_melonds_gaps)
add_test(NAME golden.rdlines
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/rdlines
                 -o ${DSGX_GOLDEN_OUT}/rdlines)
add_test(NAME golden.scenes
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/scenes
                 -o ${DSGX_GOLDEN_OUT}/scenes)
add_test(NAME golden.hw
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/hw
                 -o ${DSGX_GOLDEN_OUT}/hw)
add_test(NAME golden.ntrfd
         COMMAND $<TARGET_FILE:dsgx> golden check ${CMAKE_CURRENT_SOURCE_DIR}/data/ntrfd
                 --melonds-gaps -o ${DSGX_GOLDEN_OUT}/ntrfd)
add_test(NAME golden.ntrfd.later
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/ntrfd-later
                 -o ${DSGX_GOLDEN_OUT}/ntrfd_later)
add_test(NAME golden.ref.threads
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/ref --threads 3
                 -o ${DSGX_GOLDEN_OUT}/ref_threads)
add_test(NAME golden.rdlines.threads
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/rdlines --threads 2
                 -o ${DSGX_GOLDEN_OUT}/rdlines_threads)
add_test(NAME golden.scenes.threads
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/scenes --threads 8
                 -o ${DSGX_GOLDEN_OUT}/scenes_threads)
add_test(NAME golden.hw.threads
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/hw --threads 2
                 -o ${DSGX_GOLDEN_OUT}/hw_threads)
set_tests_properties(golden.ref golden.ref.melonds_gaps golden.rdlines golden.scenes golden.hw
                     golden.ntrfd golden.ntrfd.later
                     golden.ref.threads golden.rdlines.threads golden.scenes.threads
                     golden.hw.threads
                     PROPERTIES LABELS golden)
