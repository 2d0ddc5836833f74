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
# golden trees, render specs, --shard and --junit on scratch copies of the corpora
add_test(NAME cli.golden_tree
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/golden_tree.sh $<TARGET_FILE:dsgx>
          ${PROJECT_SOURCE_DIR}/golden ${CMAKE_CURRENT_BINARY_DIR}/cli_golden_tree_tmp)
# the --report page loaded in headless Chromium; without a browser the script says SKIPPED and
# exits 77, which CTest shows as "Skipped" (CI installs Debian's chromium package)
add_test(NAME cli.golden_report
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/golden_report.sh $<TARGET_FILE:dsgx>
          ${PROJECT_SOURCE_DIR}/golden ${CMAKE_CURRENT_BINARY_DIR}/cli_golden_report_tmp)
set_tests_properties(cli.golden_tree cli.golden_report PROPERTIES LABELS cli)
set_tests_properties(cli.golden_report PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME cli.render_lookup
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/render_lookup.sh $<TARGET_FILE:dsgx>
          $<TARGET_FILE:test_render_lookup> ${CMAKE_CURRENT_BINARY_DIR}/cli_render_lookup_tmp)
set_tests_properties(cli.render_lookup PROPERTIES LABELS cli)
add_test(NAME cli.cycles
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/cycles.sh $<TARGET_FILE:dsgx> ${PROJECT_SOURCE_DIR}/golden)
set_tests_properties(cli.cycles PROPERTIES LABELS cli)
add_test(NAME cli.t3dm
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/t3dm.sh $<TARGET_FILE:dsgx>
          $<TARGET_FILE:test_t3dm_render> ${CMAKE_CURRENT_BINARY_DIR}/cli_t3dm_tmp)
set_tests_properties(cli.t3dm PROPERTIES LABELS cli)
# `dsgx bench` runs and prints well-formed figures (text, --json, --csv) and one engine pair
# stays under 8 MiB allocated; not timed (bench/README.md)
add_test(NAME cli.bench
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/bench.sh $<TARGET_FILE:dsgx> ${PROJECT_SOURCE_DIR}/golden/ref
          $<TARGET_FILE:test_nitro_render> ${CMAKE_CURRENT_BINARY_DIR}/cli_bench_tmp)
set_tests_properties(cli.bench PROPERTIES LABELS "cli;bench")
add_test(NAME cli.pipeline
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/pipeline.sh $<TARGET_FILE:dsgx>
          ${PROJECT_SOURCE_DIR}/golden ${CMAKE_CURRENT_BINARY_DIR}/cli_pipeline_tmp)
set_tests_properties(cli.pipeline PROPERTIES LABELS cli)
