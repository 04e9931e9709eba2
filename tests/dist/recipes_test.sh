#!/usr/bin/env bash
# The Slurm and Kubernetes recipes of docs/distributed-bake.md, run as a shell
# loop: a stand-in `sbatch` runs docs/recipes/slurm-bake-job.sbatch once per
# array index (SLURM_ARRAY_TASK_ID / _COUNT set as Slurm sets them) and the
# merge script after; the Indexed Job's container command runs once per
# JOB_COMPLETION_INDEX. Both merges must equal the one-process bake.
# Usage: recipes_test.sh SPARK SOURCE_DIR LEVEL_DIR. About 5 s of CPU.
set -euo pipefail
spark=$1 src=$2 levels=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
hash_of() { sed -n 's/.*hash \([0-9a-f]\{16\}\).*/\1/p' <<<"$1"; }
mkdir -p "$work/bin" "$work/project/out" "$work/project/docs"
ln -s "$src/docs/recipes" "$work/project/docs/recipes"
ln -s "$levels/terrain-1k.obj" "$work/project/out/terrain-1k.obj"
ln -s "$spark" "$work/bin/spark"
cat >"$work/bin/sbatch" <<'SB'
#!/usr/bin/env bash
# sbatch stand-in: --array=A-B runs the script once per index, in order.
set -euo pipefail
array="" script=""
for a in "$@"; do
  case $a in --array=*) array=${a#--array=} ;; --*) ;; *) script=$a ;; esac
done
grep -q '^#SBATCH' "$script" || { echo "sbatch: $script has no #SBATCH lines" >&2; exit 1; }
if [ -n "$array" ]; then
  first=${array%-*} last=${array#*-}
  for ((i = first; i <= last; i++)); do
    SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$((last - first + 1)) bash "$script" >&2
  done
  echo 4242
else
  bash "$script"
fi
SB
chmod +x "$work/bin/sbatch"
cd "$work/project"
export PATH="$work/bin:$PATH"
whole=$(hash_of "$(spark bake out/terrain-1k.obj -o whole.json --cell-size 0.5 --tile-size 64)")

out=$(JOBS=4 docs/recipes/slurm-bake.sh out/terrain-1k.obj out/slurm.navmesh.json --cell-size 0.5 --tile-size 64 2>&1)
[ "$(ls bake-cache/manifests | wc -l)" -eq 4 ] || fail "slurm: $(ls bake-cache/manifests | wc -l) manifests, not 4"
[ "$(hash_of "$out")" = "$whole" ] || fail "slurm: $out (whole bake $whole)"

# Kubernetes: the Indexed Job's container script, once per index, then the merge.
rm -rf bake-cache
script=$(awk '/^ *args:/ {grab = 1; next} grab && /- \|/ {body = 1; next} body && /^ *[a-zA-Z]+:/ {exit} body {print}' \
  docs/recipes/k8s-bake-job.yaml)
completions=$(sed -n 's/^ *completions: *\([0-9]*\).*/\1/p' docs/recipes/k8s-bake-job.yaml)
[ -n "$script" ] && [ "$completions" -gt 1 ] || fail "k8s: no container script or completions in the manifest"
spark bake plan out/terrain-1k.obj --cell-size 0.5 --tile-size 64 -o bake-cache/plan.jsonl 2>/dev/null
for ((i = 0; i < completions; i++)); do JOB_COMPLETION_INDEX=$i bash -c "$script" 2>/dev/null; done
k8s=$(spark bake merge --plan bake-cache/plan.jsonl --manifest bake-cache/manifests/job-*.jsonl -o k8s.json)
[ "$(hash_of "$k8s")" = "$whole" ] || fail "k8s: $k8s (whole bake $whole)"
echo "recipes: slurm (4 array tasks) and k8s ($completions indices) merge to $whole"
