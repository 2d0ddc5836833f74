# Finds the three dependencies (Debian packages in brackets) and fails with a clear message
# naming the package to install:
#   libpng  [libpng-dev]   PNG output and input
#   xxHash  [libxxhash-dev] XXH3-64 frame hashes
#   cmocka  [libcmocka-dev] unit tests (only with DSGX_TESTS)
find_package(PkgConfig QUIET)

find_package(PNG QUIET)
if(NOT PNG_FOUND)
  message(FATAL_ERROR "dsgx: libpng not found. Install it: apt-get install libpng-dev")
endif()
add_library(dsgx::png INTERFACE IMPORTED)
target_link_libraries(dsgx::png INTERFACE PNG::PNG)

find_path(XXHASH_INCLUDE_DIR xxhash.h)
find_library(XXHASH_LIBRARY NAMES xxhash)
if(NOT XXHASH_INCLUDE_DIR OR NOT XXHASH_LIBRARY)
  message(FATAL_ERROR "dsgx: xxHash not found. Install it: apt-get install libxxhash-dev")
endif()
add_library(dsgx::xxhash INTERFACE IMPORTED)
target_include_directories(dsgx::xxhash INTERFACE ${XXHASH_INCLUDE_DIR})
target_link_libraries(dsgx::xxhash INTERFACE ${XXHASH_LIBRARY})
# xxHash's x86 dispatcher (libxxhash 0.8 on x86-64, e.g. Debian/Ubuntu's, exports it): XXH3
# with the widest vector unit of the CPU (SSE2, AVX2 or AVX-512) chosen at run time, the same
# hash values. The save-state checksum uses it when it is there (tools/core/savestate.c).
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES ${XXHASH_INCLUDE_DIR})
set(CMAKE_REQUIRED_LIBRARIES ${XXHASH_LIBRARY})
check_c_source_compiles("#include <xxh_x86dispatch.h>
int main(void) { return (int)XXH3_64bits_dispatch(\"dsgx\", 4); }" DSGX_HAVE_XXH3_DISPATCH)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)

if(DSGX_TESTS)
  find_path(CMOCKA_INCLUDE_DIR cmocka.h)
  find_library(CMOCKA_LIBRARY NAMES cmocka)
  if(NOT CMOCKA_INCLUDE_DIR OR NOT CMOCKA_LIBRARY)
    message(FATAL_ERROR "dsgx: cmocka not found. Install it: apt-get install libcmocka-dev "
                        "(or configure with -DDSGX_TESTS=OFF to skip the tests)")
  endif()
  add_library(dsgx::cmocka INTERFACE IMPORTED)
  target_include_directories(dsgx::cmocka INTERFACE ${CMOCKA_INCLUDE_DIR})
  target_link_libraries(dsgx::cmocka INTERFACE ${CMOCKA_LIBRARY})
endif()
