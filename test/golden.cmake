# Golden-image tests: `dsgx golden check` over each corpus (label: golden).
#   golden.ref                 melonDS reference traces (dsgx_xxh3 where we deliberately differ)
#   golden.ref.melonds_gaps    the same with melonDS's edge-gap rule: every frame == melonDS
#   golden.rdlines             the rendering-timing reference (RDLINES_COUNT, underflow bit)
#   golden.scenes              our own corpus
#   golden.hw                  polyrastertest scenes where hardware and melonDS differ
#   golden.ntrfd               the real NTRFD dumps replay to their melonDS frames
#   golden.ntrfd.later         dsgx's dumps of later frames (golden/ntrfd-later) replay to the frames
#                              of the traces they were dumped from
#   golden.nitro               Nitro runtime scenes: render specs drawn by `dsgx render`
#   golden.nitro_anim          the same with animations (the unit tests check the same hashes)
#   golden.nitro.fixtures      the committed fixture models are what the project's writers make
#   golden.t3dm                Tiny3D (T3DM) scenes: render specs drawn by `dsgx render`
#   golden.t3dm.fixtures       the committed .t3dm, .sdata and .sprite files are the writers'
#                              (the unit test test_t3dm_render checks the same hashes)
#   golden.tree                the whole tree from its root (every manifest below golden/)
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
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/ntrfd
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
add_test(NAME golden.nitro
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/nitro
                 -o ${DSGX_GOLDEN_OUT}/nitro)
add_test(NAME golden.nitro_anim
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/nitro-anim
                 -o ${DSGX_GOLDEN_OUT}/nitro_anim)
add_test(NAME golden.nitro.fixtures
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/golden_fixtures.sh ${PROJECT_SOURCE_DIR}/golden
                 ${CMAKE_CURRENT_BINARY_DIR}/nitro_fixtures_tmp
                 nitro DSGX_NITRO_FIXTURE_DIR $<TARGET_FILE:test_nitro_render> "*.nsb*"
                 nitro-anim DSGX_NITRO_FIXTURE_DIR $<TARGET_FILE:test_anim_render> "*.nsb*")
add_test(NAME golden.t3dm
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden/t3dm
                 -o ${DSGX_GOLDEN_OUT}/t3dm)
add_test(NAME golden.t3dm.fixtures
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/golden_fixtures.sh ${PROJECT_SOURCE_DIR}/golden
                 ${CMAKE_CURRENT_BINARY_DIR}/t3dm_fixtures_tmp
                 t3dm DSGX_T3DM_FIXTURE_DIR $<TARGET_FILE:test_t3dm_render>
                 "*.t3dm *.sdata tex/*.sprite")
add_test(NAME golden.tree
         COMMAND $<TARGET_FILE:dsgx> golden check ${PROJECT_SOURCE_DIR}/golden
                 -o ${DSGX_GOLDEN_OUT}/tree)
set_tests_properties(golden.ref golden.ref.melonds_gaps golden.rdlines golden.scenes golden.hw
                     golden.ntrfd golden.ntrfd.later
                     golden.ref.threads golden.rdlines.threads golden.scenes.threads golden.hw.threads
                     golden.nitro golden.nitro_anim golden.nitro.fixtures
                     golden.t3dm golden.t3dm.fixtures golden.tree
                     PROPERTIES LABELS golden)
# Re-create the committed Nitro and T3DM fixtures with the project's writers (then the
# golden.*.fixtures tests pass again; look at the frames with
# `dsgx golden check golden/nitro golden/nitro-anim golden/t3dm`):
#   cmake --build BUILD --target golden_fixtures
add_custom_target(golden_fixtures
  COMMAND ${CMAKE_COMMAND} -E env DSGX_NITRO_FIXTURE_DIR=${PROJECT_SOURCE_DIR}/golden/nitro
          $<TARGET_FILE:test_nitro_render>
  COMMAND ${CMAKE_COMMAND} -E env DSGX_NITRO_FIXTURE_DIR=${PROJECT_SOURCE_DIR}/golden/nitro-anim
          $<TARGET_FILE:test_anim_render>
  COMMAND ${CMAKE_COMMAND} -E env DSGX_T3DM_FIXTURE_DIR=${PROJECT_SOURCE_DIR}/golden/t3dm
          $<TARGET_FILE:test_t3dm_render>
  DEPENDS test_nitro_render test_anim_render test_t3dm_render
  COMMENT "Fixtures of golden/nitro, golden/nitro-anim and golden/t3dm from the project's writers"
  VERBATIM)
