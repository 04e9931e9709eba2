#!/usr/bin/env bash
# Builds the determinism suite for one target (the libraries with header-only
# dependencies, SPARK_LIBS_ONLY) and runs it against the pinned hashes.
#   run_target.sh SOURCE_DIR BUILD_DIR TARGET SET
# TARGET: arm64 (g++-aarch64-linux-gnu, static, under qemu-aarch64),
#         wasm (Debian's emscripten, under node),
#         gcc-O0 gcc-O2 gcc-O3v3 clang-O0 clang-O2 clang-O3v3 (x86-64; O3v3 is
#         -O3 -march=x86-64-v3: AVX2 and FMA present, -ffp-contract=off keeps FMA out).
# SET: short or full (det_suite --set), or js (wasm only: the JavaScript package
# js/ over this build's spark_nav.js, under node's test runner). Exits 77 (CTest: skipped) when the
# target's tools are missing (scripts/setup installs them).
set -euo pipefail
src=$1 build=$2 target=$3 set=$4
skip() { echo "determinism $target: skipped: $1"; exit 77; }
need() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 || skip "$t not found (scripts/setup installs it)"; done; }
args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DSPARK_LIBS_ONLY=ON)
command -v ccache >/dev/null 2>&1 && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
configure=(cmake)
case $target in
  arm64) need aarch64-linux-gnu-g++ qemu-aarch64
         args+=("-DCMAKE_TOOLCHAIN_FILE=$src/cmake/aarch64-linux-gnu.cmake") ;;
  wasm)  need emcmake em++ node
         configure=(emcmake cmake)
         # Plain node: Emscripten 3.1.6's default adds --experimental-wasm-threads, which node 20 refuses.
         args+=("-DCMAKE_CROSSCOMPILING_EMULATOR=$(command -v node)")
         # Emscripten's JS optimiser needs Debian's node-acorn, in Debian's node
         # module folder (a node from elsewhere does not look there).
         export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH} ;;
  gcc-*|clang-*)
         cc=${target%%-*}; cxx=g++; [ "$cc" = clang ] && cxx=clang++
         need "$cxx"
         case ${target#*-} in
           O0) opt="-O0" ;; O2) opt="-O2" ;;
           O3v3) opt="-O3 -march=x86-64-v3"
                 grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo || skip "this CPU has no AVX2/FMA" ;;
           *) echo "unknown optimisation in $target" >&2; exit 2 ;;
         esac
         args+=("-DCMAKE_C_COMPILER=$cc" "-DCMAKE_CXX_COMPILER=$cxx" "-DCMAKE_CXX_FLAGS_RELEASE=$opt") ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
start=$(date +%s)
"${configure[@]}" -S "$src" -B "$build" "${args[@]}" >"$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
what=det_suite
[ "$set" = js ] && what=spark_nav_wasm
cmake --build "$build" --target $what -j "$(nproc 2>/dev/null || echo 2)" >"$build.build.log" 2>&1 \
  || { tail -n 60 "$build.build.log"; exit 1; }
built=$(date +%s)
echo "determinism $target: built in $((built - start)) s"
if [ "$set" = js ]; then
  SPARK_NAV_MODULE="$build/js/spark_nav.js" node --test "$src/js/test/"
  exit
fi
ctest --test-dir "$build" -R "^determinism_$set\$" --output-on-failure
echo "determinism $target: ran the $set set in $(($(date +%s) - built)) s"
