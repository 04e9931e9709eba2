#!/bin/bash
# The installed package works for a game's build: installs the build tree
# ($1) into a temporary prefix, builds tests/package/consumer against it with
# find_package(spark) and again with pkg-config (spark-nav, spark-ai), runs
# both and checks they print the same line (versions, path length, hash).
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

echo "find_package: $viaCmake"
echo "pkg-config:   $viaPkgConfig"
[ "$viaCmake" = "$viaPkgConfig" ]
version=$(sed -n 's/^project(spark VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[[ "$viaCmake" == "nav $version ai $version "* ]]
