#!/bin/sh
# Packaging checks on an installed libdsgx (test/package.cmake registers them; .ci/run runs the
# same out of tree). Usage: check.sh MODE BUILD_DIR PREFIX SOURCE_DIR [TRACE...]
#   install   cmake --install BUILD_DIR into PREFIX (fresh) and check the installed files
#   headers   every installed header compiles alone with only -I PREFIX/include (C11, and
#             dsgx.h as C++), and dsgx.h reaches every installed header
#   pkgconfig build examples/emu_minimal through pkg-config, compare its frame hashes on TRACE
#             with `PREFIX/bin/dsgx replay TRACE`, as is and with a save state round trip in
#             the middle of the trace (emu_minimal --state-mid)
#   cmake     the same through find_package(dsgx)
set -eu
mode=$1 build=$2 prefix=$3 src=$4
shift 4
CC=${CC:-cc}
fail() { echo "FAIL: $*" >&2; exit 1; }

compare() { # compare EXE: its hashes against dsgx replay's on every TRACE
    exe=$1
    for tr in "$@"; do
        [ "$tr" = "$exe" ] && continue
        want=$("$prefix/bin/dsgx" replay "$tr" | awk '/^frame /{print $1, $2, $3}')
        [ -n "$want" ] || fail "dsgx replay $tr printed no frame"
        # as is, then with a save state round trip (save, new engines, restore) mid-trace
        for opt in "" --state-mid; do
            got=$("$exe" "$tr" $opt)
            if [ "$want" != "$got" ]; then
                echo "dsgx replay:"; echo "$want"; echo "$exe $opt:"; echo "$got"
                fail "frame hashes differ on $tr ($opt)"
            fi
        done
        echo "$(basename "$tr"): $(echo "$got" | wc -l) frames, same hashes (also restored mid-trace)"
    done
}

case $mode in
install)
    rm -rf "$prefix"
    cmake --install "$build" --prefix "$prefix" >/dev/null
    for f in include/dsgx/dsgx.h include/dsgx/dsgx_api.h bin/dsgx; do
        [ -e "$prefix/$f" ] || fail "$f not installed"
    done
    lib=$(find "$prefix" -name 'libdsgx.a' | head -1)
    so=$(find "$prefix" -name 'libdsgx.so.[0-9]*' -type f | head -1)
    [ -n "$lib" ] || fail "libdsgx.a not installed"
    [ -n "$so" ] || fail "libdsgx.so.VERSION not installed"
    find "$prefix" -name dsgx.pc | grep -q . || fail "dsgx.pc not installed"
    find "$prefix" -name dsgxConfig.cmake | grep -q . || fail "dsgxConfig.cmake not installed"
    find "$prefix" -name dsgxConfigVersion.cmake | grep -q . || fail "version file not installed"
    if find "$prefix/include" -name '*internal*' | grep .; then fail "internal header installed"; fi
    echo "installed into $prefix"
    ;;
headers)
    inc=$prefix/include
    n=0
    for h in $(cd "$inc" && find dsgx -name '*.h' | sort); do
        printf '#include <%s>\nint dsgx_header_check;\n' "$h" |
            $CC -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I "$inc" -x c - ||
            fail "$h does not compile alone against $inc"
        n=$((n + 1))
    done
    reached=$(printf '#include <dsgx/dsgx.h>\n' | $CC -std=c11 -H -fsyntax-only -I "$inc" -x c - 2>&1 |
        sed -n 's/^\.* //p' | xargs realpath)
    inc=$(realpath "$inc")
    for h in $(cd "$inc" && find dsgx -name '*.h' ! -name dsgx.h); do
        echo "$reached" | grep -qx "$inc/$h" || fail "dsgx/dsgx.h does not include $h"
    done
    if command -v c++ >/dev/null; then
        printf '#include <dsgx/dsgx.h>\nint main() { return dsgx_version() ? 0 : 1; }\n' |
            c++ -Wall -Wextra -Werror -fsyntax-only -I "$inc" -x c++ - || fail "dsgx.h as C++"
    fi
    echo "$n installed headers compile alone"
    ;;
pkgconfig)
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
    PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name dsgx.pc | head -1)") \
        make -s -C "$src/examples" OUT="$out" >/dev/null || fail "pkg-config build"
    compare "$out/emu_minimal" "$@"
    ;;
cmake)
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
    cmake -S "$src/examples" -B "$out" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
        >/dev/null || fail "find_package configure"
    cmake --build "$out" >/dev/null || fail "find_package build"
    compare "$out/emu_minimal" "$@"
    ;;
*) fail "unknown mode $mode" ;;
esac
