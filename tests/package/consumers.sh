#!/bin/bash
# The installed package works for a game's build: installs the build tree
# ($1) into a temporary prefix, builds tests/package/consumer against it with
# find_package(spark) (C++), with pkg-config (spark-nav, spark-ai; C++), and
# consumer.c as C99 with pkg-config (spark-nav, the C API); runs the three and
# checks they print the same line (versions, path length, carved mesh hash);
# then builds samples/c/obstacles.c and flight.c the same way and runs them.
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -x "$tmp/prefix/bin/spark"
test -f "$tmp/prefix/include/spark/nav/navmesh.h"
! ls "$tmp/prefix/include/spark/nav" | grep -q internal   # public headers only

cmake -S "$src/tests/package/consumer" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/cmake" >/dev/null
viaCmake=$("$tmp/cmake/consumer")

export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
c++ -std=c++20 -O2 "$src/tests/package/consumer/main.cpp" -o "$tmp/pc-consumer" $(pkg-config --cflags --libs spark-nav spark-ai)
viaPkgConfig=$("$tmp/pc-consumer")

cc -std=c99 -Wall -Wextra -pedantic -Werror -c "$src/tests/package/consumer/consumer.c" -o "$tmp/consumer.o" \
  $(pkg-config --cflags spark-nav)
cc "$tmp/consumer.o" -o "$tmp/c-consumer" $(pkg-config --libs spark-nav)   # a C link: the .pc adds -lstdc++
viaC=$("$tmp/c-consumer")

# The reference's samples in C, built from the installed package alone.
for sample in obstacles flight; do
  cc -std=c99 -Wall -Wextra -pedantic -Werror -c "$src/samples/c/$sample.c" -o "$tmp/$sample.o" $(pkg-config --cflags spark-nav)
  cc "$tmp/$sample.o" -o "$tmp/$sample" $(pkg-config --libs spark-nav)
  (cd "$src" && "$tmp/$sample" >/dev/null)
done

echo "find_package: $viaCmake"
echo "pkg-config:   $viaPkgConfig"
echo "C API:        $viaC"
[ "$viaCmake" = "$viaPkgConfig" ]
[ "$viaCmake" = "$viaC" ]
version=$(sed -n 's/^project(spark VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[[ "$viaCmake" == "nav $version ai $version "* ]]
