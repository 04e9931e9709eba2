#!/usr/bin/env bash
# Bakes a level's tiles as a Slurm job array, then merges them
# (docs/distributed-bake.md). Run on the login node from the project folder,
# which every node sees at the same path:
#   JOBS=16 docs/recipes/slurm-bake.sh out/terrain-1k.obj out/terrain-1k.navmesh.json --cell-size 0.5 --tile-size 64
# SPARK (default: spark on PATH) and CACHE (default: bake-cache) may be set.
set -euo pipefail
level=$1 output=$2; shift 2
export SPARK=${SPARK:-spark} CACHE=${CACHE:-bake-cache} JOBS=${JOBS:-16}
export LEVEL=$level OUTPUT=$output SETTINGS="$*"
rm -rf "$CACHE/manifests" # a new run: manifests of an older one would be merged too
"$SPARK" bake plan "$LEVEL" $SETTINGS -o "$CACHE/plan.jsonl"
array=$(sbatch --parsable --array=0-$((JOBS - 1)) --export=ALL docs/recipes/slurm-bake-job.sbatch)
sbatch --dependency=afterok:"$array" --export=ALL docs/recipes/slurm-bake-merge.sbatch
