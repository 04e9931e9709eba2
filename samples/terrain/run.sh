#!/usr/bin/env bash
# The 1 km terrain sample, from a clean clone (run from the repository root):
#   samples/terrain/run.sh [SPARK]     # SPARK defaults to build/release/cli/spark
# 1. tools/terrain.py writes the level (549k triangles: hills, 4,000 boxes,
#    40 platforms with ramps) to out/terrain-1k.obj (19 MB, deterministic);
# 2. `spark bake` bakes it in 64-cell tiles of 0.5 m cells (1,024 tiles);
# 3. `spark test` imports the mesh and finds a path from one plaza to the
#    other (1.36 km, across some forty tiles), pinning the mesh hash.
set -euo pipefail
spark=${1:-build/release/cli/spark}
mkdir -p out
python3 tools/terrain.py -o out/terrain-1k.obj
"$spark" bake out/terrain-1k.obj -o out/terrain-1k.navmesh.json --cell-size 0.5 --tile-size 64
"$spark" test samples/terrain/terrain.test.json
