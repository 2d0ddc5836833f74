# Packaging tests (label cli): the exported symbols against cmake/dsgx.symbols, then an install
# into a fresh prefix in the build tree, the installed headers compiled alone, and the example
# built out of tree against the installed package twice (pkg-config, find_package) and run on
# golden/ref traces, its frame hashes compared with `dsgx replay`. Not registered in sanitizer
# builds (an uninstrumented example cannot load an instrumented library).
add_test(NAME cli.package_symbols
  COMMAND ${CMAKE_COMMAND} -DMODE=check -DLIB=$<TARGET_FILE:dsgx_shared>
          -DLIST=${PROJECT_SOURCE_DIR}/cmake/dsgx.symbols -P ${PROJECT_SOURCE_DIR}/cmake/DsgxSymbols.cmake)
set_tests_properties(cli.package_symbols PROPERTIES LABELS cli)
if(NOT DSGX_SANITIZE AND NOT DSGX_TSAN AND NOT DSGX_LIBFUZZER)
  set(pkg_check ${CMAKE_CURRENT_SOURCE_DIR}/package/check.sh)
  set(pkg_prefix ${CMAKE_BINARY_DIR}/package-test-prefix)
  set(pkg_traces ${PROJECT_SOURCE_DIR}/golden/ref/c_textured_quad.trace
                 ${PROJECT_SOURCE_DIR}/golden/ref/clear_plane.trace
                 ${PROJECT_SOURCE_DIR}/golden/ref/d_lit_cube.trace)
  foreach(mode install headers pkgconfig cmake)
    add_test(NAME cli.package_${mode}
      COMMAND sh ${pkg_check} ${mode} ${CMAKE_BINARY_DIR} ${pkg_prefix} ${PROJECT_SOURCE_DIR}
              ${pkg_traces})
    set_tests_properties(cli.package_${mode} PROPERTIES LABELS cli)
    if(mode STREQUAL "install")
      set_tests_properties(cli.package_install PROPERTIES FIXTURES_SETUP dsgx_installed)
    else()
      set_tests_properties(cli.package_${mode} PROPERTIES FIXTURES_REQUIRED dsgx_installed)
    endif()
  endforeach()
endif()
