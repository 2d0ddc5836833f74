# Installation: `cmake --install BUILD [--prefix DIR]` installs
#   lib/libdsgx.a, lib/libdsgx.so.VERSION (+ soname and dev links), bin/dsgx,
#   include/dsgx/... (the public headers below, in the source layout: every header's own
#   #includes resolve relative to it, so -I<prefix>/include is all a compiler needs),
#   lib/pkgconfig/dsgx.pc, lib/cmake/dsgx/ (find_package(dsgx): dsgx::dsgx, dsgx::dsgx_static).
include(CMakePackageConfigHelpers)

# ---- the public headers: THE list of what is installed (README "Installing and embedding").
# A header listed here must include only headers listed here (test cli.package_headers compiles
# each one alone against the installed tree), and dsgx.h should include it.
set(DSGX_PUBLIC_HEADERS
  dsgx.h
  dsgx_api.h
  gx/gx.h
  gx/gx_frame.h
  gx/fixed.h
  tools/core/savestate.h
  raster/raster.h
  raster/frame.h
  nitro/nitro.h
  nitro/runtime.h
  nitro/anim.h
  tools/core/trace.h
  tools/core/ntrfd.h
  t3dm/t3dm.h
  t3dm/draw.h
  t3dm/sprite.h
)
foreach(h ${DSGX_PUBLIC_HEADERS})
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/${h}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dsgx/${dir})
endforeach()

install(TARGETS dsgx_lib dsgx_shared EXPORT dsgxTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS dsgx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# ---- CMake package ----
set(DSGX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dsgx)
install(EXPORT dsgxTargets NAMESPACE dsgx:: DESTINATION ${DSGX_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/dsgxConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/dsgxConfig.cmake INSTALL_DESTINATION ${DSGX_CMAKE_DIR})
# 0.x: a minor version may break the API, so only the same MAJOR.MINOR is compatible
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/dsgxConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dsgxConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/dsgxConfigVersion.cmake
        DESTINATION ${DSGX_CMAKE_DIR})

# ---- pkg-config (relocatable: the prefix is found from the .pc file's own location) ----
file(RELATIVE_PATH DSGX_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" DSGX_PC_TO_PREFIX "${DSGX_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/dsgx.pc.in ${CMAKE_CURRENT_BINARY_DIR}/dsgx.pc
               @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dsgx.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- exported symbols: `cmake --build BUILD --target dsgx_update_symbols` rewrites
# cmake/dsgx.symbols from the built shared library; test cli.package_symbols compares them.
add_custom_target(dsgx_update_symbols
  COMMAND ${CMAKE_COMMAND} -DMODE=update -DLIB=$<TARGET_FILE:dsgx_shared>
          -DLIST=${CMAKE_CURRENT_SOURCE_DIR}/cmake/dsgx.symbols
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/DsgxSymbols.cmake
  DEPENDS dsgx_shared VERBATIM)
