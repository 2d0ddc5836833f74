# Command-line tests (label cli): the tool's own behaviour on inputs and bad inputs.
add_test(NAME cli.explain_summary
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/explain_summary.sh $<TARGET_FILE:dsgx>
          ${PROJECT_SOURCE_DIR}/golden/ref ${CMAKE_CURRENT_SOURCE_DIR}/data/cycles/melonds_cycles.tsv)
add_test(NAME cli.errors
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/errors.sh $<TARGET_FILE:dsgx>
          ${CMAKE_CURRENT_BINARY_DIR}/cli_tmp ${PROJECT_SOURCE_DIR}/golden/ref/multiframe_3.trace)
set_tests_properties(cli.explain_summary cli.errors PROPERTIES LABELS cli)
add_test(NAME cli.nitro
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/nitro.sh $<TARGET_FILE:dsgx>
          $<TARGET_FILE:test_nitro_render> $<TARGET_FILE:test_anim_render>
          ${CMAKE_CURRENT_BINARY_DIR}/cli_nitro_tmp)
set_tests_properties(cli.nitro PROPERTIES LABELS cli)
add_test(NAME cli.golden
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/golden.sh $<TARGET_FILE:dsgx>
          ${PROJECT_SOURCE_DIR}/golden/ref ${CMAKE_CURRENT_BINARY_DIR}/cli_golden_tmp)
set_tests_properties(cli.golden PROPERTIES LABELS cli)
add_test(NAME cli.convert
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/convert.sh $<TARGET_FILE:dsgx>
          ${PROJECT_SOURCE_DIR}/golden ${CMAKE_CURRENT_BINARY_DIR}/cli_convert_tmp)
set_tests_properties(cli.convert PROPERTIES LABELS cli)
add_test(NAME cli.pipeline
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/pipeline.sh $<TARGET_FILE:dsgx>
          ${PROJECT_SOURCE_DIR}/golden ${CMAKE_CURRENT_BINARY_DIR}/cli_pipeline_tmp)
set_tests_properties(cli.pipeline PROPERTIES LABELS cli)
