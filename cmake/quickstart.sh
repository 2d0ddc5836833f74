#!/bin/sh
# quickstart.sh - set up, build and run dsgx on a Debian machine (the README's Quick start).
#   sh cmake/quickstart.sh demo   install what is missing, build, render the built-in demo scene
#                                 to demo.png and print its XXH3 frame hash
#   sh cmake/quickstart.sh test   install what is missing, build, run the whole test suite
# Environment: BUILD_DIR (default build), DSGX_WERROR=ON for warnings as errors,
#              CC to choose the compiler, DSGX_SANITIZE=ON for ASan+UBSan.
set -eu
cd "$(dirname "$0")/.."
job=${1:-demo}
build=${BUILD_DIR:-build}

need=""
for p in cmake make gcc pkg-config libpng-dev libxxhash-dev libcmocka-dev; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
    echo "quickstart: installing$need"
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >/dev/null
fi

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DDSGX_WERROR="${DSGX_WERROR:-OFF}" -DDSGX_SANITIZE="${DSGX_SANITIZE:-OFF}" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null

case "$job" in
demo) "$build/dsgx" demo -o demo.png ;;
test) ctest --test-dir "$build" --output-on-failure -j"$(nproc)" ${CTEST_ARGS:-} ;;
*) echo "usage: sh cmake/quickstart.sh demo|test" >&2; exit 2 ;;
esac
