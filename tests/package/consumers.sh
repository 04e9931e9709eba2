#!/bin/bash
# The installed package works for a game's build, an engine plug-in and a C
# program (CTest `package_consumers`, label `consumer`). Installs the build tree
# ($1) into a temporary prefix and builds against that copy alone:
#   (a) tests/package/consumer as a CMake project, find_package(spark 0.2 CONFIG
#       REQUIRED COMPONENTS nav), the compiler's default standard, static libraries;
#   (b) consumer.c as C99 through pkg-config (spark-nav-static);
#   (c) tests/package/plugin: a MODULE library linking the static libraries,
#       dlopened by a host that links nothing of Spark;
#   (d) (a) again against the shared libraries (-Dspark_SHARED_LIBS=ON);
# each bakes dungeon.obj ($3) and finds a path, and must print the line the
# installed `spark` command gives for the same file (spark bake, then nav.path
# through spark run). Then builds samples/c/obstacles.c and flight.c from the
# installed package and runs them. Exit 77 (skipped) without the dungeon.
# Cost: 18 s on a loaded 2-core machine (two small CMake projects, a C++ file
# built twice, a handful of C files, five bakes of the dungeon).
set -euo pipefail
build=$1
src=$(realpath "$2")
obj=$3
if [ ! -f "$obj" ]; then
  echo "SKIP: $obj is absent (the shared data beside the repository)"
  exit 77
fi
obj=$(realpath "$obj")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
test -x "$prefix/bin/spark"
test -f "$prefix/include/spark/nav/navmesh.h"
test -f "$prefix/include/spark/version.h"
fail() { echo "$*"; exit 1; }
if ls "$prefix/include/spark/nav" | grep -q internal; then fail "internal headers installed"; fi
# Nothing of the building machine's paths in the package (dependencies are found by name).
if grep -rq -e "$src" -e "$(realpath "$build")" -e /usr/lib "$prefix/lib/cmake" "$prefix/lib/pkgconfig"; then
  fail "the package names paths of the machine that built it"
fi

# What the CLI answers: the bake's hash and polygons, then the path.
from="[26, 10, -3.25]" to="[26.5, 15.25, -77.25]" extents="[4, 8, 4]"   # as in consumer/dungeon.h
mkdir "$tmp/cli"
cp "$obj" "$tmp/cli/dungeon.obj"
baked=$(cd "$tmp/cli" && "$prefix/bin/spark" bake dungeon.obj -o dungeon.navmesh.json --project .)
answers=$(printf '%s\n' \
  '{"command": "nav.import", "params": {"name": "dungeon", "path": "dungeon.navmesh.json"}}' \
  "{\"command\": \"nav.path\", \"params\": {\"mesh\": \"dungeon\", \"from\": $from, \"to\": $to, \"extents\": $extents}}" |
  "$prefix/bin/spark" run - --project "$tmp/cli")
expected=$(python3 -c '
import json, sys
imported, path = (json.loads(line)["result"] for line in sys.argv[1].splitlines())
r = path
line = "mesh %s polygons %d path %s %d %.3f" % (imported["hash"], imported["polygons"],
        "complete" if r["complete"] else "partial", len(r["points"]), r["length"])
line += "".join(" %.2f,%.2f,%.2f" % tuple(p) for p in r["points"])
print(line.replace("-0.00", "0.00"))' "$answers")
[[ "$baked" == *"hash ${expected:5:16}"* ]] || fail "spark bake: $baked; nav.import: $expected"

same() { # label, line: the line must be the CLI's
  local line=${2//-0.00/0.00}
  echo "$1: $line"
  [ "$line" = "$expected" ] || { echo "expected (CLI): $expected"; exit 1; }
}

# (a) CMake, static libraries, the compiler's default standard.
cmake -S "$src/tests/package/consumer" -B "$tmp/a" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -Dspark_SHARED_LIBS=OFF >/dev/null
cmake --build "$tmp/a" >/dev/null
# No standard asked for by the project: spark::nav's cxx_std_20 sets it.
grep -q -e '-std=c++20' -e '-std=gnu++20' "$tmp/a/CMakeFiles/consumer.dir/flags.make" || fail "not compiled as C++20"
same "(a) find_package, static" "$("$tmp/a/consumer" "$obj")"

# (b) C99 through pkg-config.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
cc -std=c99 -Wall -Wextra -pedantic -Werror -I"$src/tests/package/consumer" -c "$src/tests/package/consumer/consumer.c" \
  -o "$tmp/consumer.o" $(pkg-config --cflags spark-nav-static)
cc "$tmp/consumer.o" -o "$tmp/c-consumer" $(pkg-config --libs spark-nav-static)   # a C link: the .pc adds -lstdc++
same "(b) C99, pkg-config" "$("$tmp/c-consumer" "$obj")"

# (c) An engine plug-in: a MODULE library with the static libraries inside, dlopened.
cmake -S "$src/tests/package/plugin" -B "$tmp/c" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/c" >/dev/null
exported=$(nm -D --defined-only "$tmp/c/plugin.so" | awk '{print $3}' | grep -v '^_' | sort | tr '\n' ' ')
[ "$exported" = "plugin_run " ] || fail "the plug-in exports: $exported"
same "(c) MODULE plug-in" "$("$tmp/c/host" "$tmp/c/plugin.so" "$obj")"

# (d) The shared libraries.
cmake -S "$src/tests/package/consumer" -B "$tmp/d" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -Dspark_SHARED_LIBS=ON >/dev/null
cmake --build "$tmp/d" >/dev/null
readelf -d "$tmp/d/consumer" | grep -q 'NEEDED.*libspark_nav.so.0.2' || fail "(d) does not link libspark_nav.so.0.2"
same "(d) shared libraries" "$("$tmp/d/consumer" "$obj")"

# The reference's samples in C, built from the installed package alone.
for sample in obstacles flight; do
  cc -std=c99 -Wall -Wextra -pedantic -Werror -c "$src/samples/c/$sample.c" -o "$tmp/$sample.o" \
    $(pkg-config --cflags spark-nav-static)
  cc "$tmp/$sample.o" -o "$tmp/$sample" $(pkg-config --libs spark-nav-static)
  (cd "$src" && "$tmp/$sample" >/dev/null)
done
