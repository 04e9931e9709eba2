#!/bin/bash
# The Python package (CTest `python_spark_nav`, label `consumer`): installs
# ./python with pip, offline and without build isolation, into a temporary
# folder (it copies the shared library the CMake build made, $1), then runs
# python/tests with pytest against that installed copy, the CLI ($2) and the
# dungeon ($3) at hand. Exit 77 (skipped) without a python3 that has numpy,
# pytest and pip (scripts/setup installs Debian's). Cost: 13 s on a loaded
# 2-core machine (pip's build of the package: 9 s; the tests: 1.5 s).
set -euo pipefail
lib=$(realpath "$1")
cli=$(realpath "$2")
dungeon=$(realpath -m "$3")
src=$(cd "$(dirname "$0")/../.." && pwd)
python=
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import setuptools, numpy, pytest, pip' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "SKIP: no python3 with numpy, pytest, pip and setuptools (scripts/setup installs them)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The sources are copied: pip builds in the source tree, which stays clean so.
cp -r "$src/python" "$tmp/src"
SPARK_NAV_LIBRARY=$lib "$python" -m pip install --no-build-isolation --no-deps --no-index --quiet \
  --target "$tmp/site" "$tmp/src" >"$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log"; exit 1; }
test -f "$tmp/site/spark_nav/libspark_nav.so.0.2"
test -f "$tmp/site/spark_nav/libspark_core.so.0.2"
cd "$tmp"
env -u SPARK_NAV_LIBRARY PYTHONPATH="$tmp/site" SPARK_CLI="$cli" SPARK_DUNGEON="$dungeon" \
  "$python" -m pytest -q -p no:cacheprovider "$src/python/tests"
# The example runs too (on the installed copy).
env -u SPARK_NAV_LIBRARY PYTHONPATH="$tmp/site" "$python" "$src/python/examples/walkthrough.py" >/dev/null
