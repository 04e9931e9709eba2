#!/usr/bin/env bash
# `spark bake plan / job / merge --plan` end to end (docs/distributed-bake.md):
# tile jobs with content keys equal the one-process bake; the cache skips
# every tile it holds; a changed box re-bakes only the tiles it meets; a
# missing or mismatched tile is a coded error naming it.
# Usage: bake_job_test.sh SPARK SOURCE_DIR. About 4 s of CPU.
set -euo pipefail
spark=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
hash_of() { sed -n 's/.*hash \([0-9a-f]\{16\}\).*/\1/p' <<<"$1"; }

python3 "$src/tools/terrain.py" --size 200 -o level.obj >/dev/null
python3 "$src/tools/terrain.py" --size 200 --extra-box 104,104,1.5,2 -o changed.obj >/dev/null
set_=(--cell-size 0.5 --tile-size 32)
whole=$(hash_of "$("$spark" bake level.obj -o whole.json "${set_[@]}")")
[ -n "$whole" ] || fail "no hash from spark bake"

# Plan, three jobs by share, merge: the one-process bake's hash.
"$spark" bake plan level.obj "${set_[@]}" -o plan.jsonl 2>/dev/null
tiles=$(wc -l <plan.jsonl)
[ "$tiles" -gt 50 ] || fail "plan has $tiles tiles"
for i in 0 1 2; do "$spark" bake job level.obj "${set_[@]}" --share $i/3 --cache cache --manifest m$i.jsonl 2>/dev/null; done
[ "$(cat m0.jsonl m1.jsonl m2.jsonl | wc -l)" -eq "$tiles" ] || fail "the shares do not cover the plan once"
merged=$(hash_of "$("$spark" bake merge --plan plan.jsonl --manifest m0.jsonl m1.jsonl m2.jsonl -o merged.json)")
[ "$merged" = "$whole" ] || fail "merged $merged, whole bake $whole"

# Again with the cache: every tile skipped, same manifest.
"$spark" bake job level.obj "${set_[@]}" --cache cache --manifest again.jsonl 2>/dev/null
grep -q '"baked":true' again.jsonl && fail "a cached tile was baked again"
[ "$(wc -l <again.jsonl)" -eq "$tiles" ] || fail "the cached run lists $(wc -l <again.jsonl) tiles"

# A box added at (104, 104): only the tiles it meets (tile 6 of 16 m) re-bake,
# and the merge equals the one-process bake of the changed level.
"$spark" bake job changed.obj "${set_[@]}" --cache cache --manifest changed.jsonl 2>/dev/null
rebaked=$(grep '"baked":true' changed.jsonl | sed 's/.*"tile":\[\([-0-9,]*\)\].*/\1/' | tr '\n' ' ')
[ "$rebaked" = "6,6 " ] || fail "re-baked tiles: '$rebaked' (expected only 6,6)"
"$spark" bake plan changed.obj "${set_[@]}" -o plan2.jsonl 2>/dev/null
merged2=$(hash_of "$("$spark" bake merge --plan plan2.jsonl --manifest changed.jsonl -o merged2.json)")
whole2=$(hash_of "$("$spark" bake changed.obj -o whole2.json "${set_[@]}")")
[ "$merged2" = "$whole2" ] && [ "$merged2" != "$whole" ] || fail "changed: merged $merged2, whole $whole2"

# Errors name the tile: a manifest left out, a stale manifest, a tampered file.
expect_error() { # CODE TILE-TEXT COMMAND...
    local code=$1 tile=$2; shift 2
    local out rc=0
    out=$("$@" 2>&1) || rc=$?
    [ "$rc" -eq 1 ] || fail "$* exited $rc: $out"
    grep -q "$code" <<<"$out" && grep -qF "$tile" <<<"$out" || fail "expected $code naming $tile: $out"
}
first=$(head -1 m1.jsonl | sed 's/.*"tile":\[\([-0-9]*\),\([-0-9]*\)\].*/(\1, \2)/')
expect_error E_NAV_TILE_MISSING "$first" "$spark" bake merge --plan plan.jsonl --manifest m0.jsonl m2.jsonl -o x.json
expect_error E_NAV_TILE_MISMATCH "tile (6, 6)" "$spark" bake merge --plan plan2.jsonl --manifest m0.jsonl m1.jsonl m2.jsonl -o x.json
file=$(grep '"tile":\[6,6\]' changed.jsonl | sed 's/.*"file":"\([^"]*\)".*/\1/')
cp "$(grep '"tile":\[5,5\]' m0.jsonl m1.jsonl m2.jsonl | sed 's/.*"file":"\([^"]*\)".*/\1/')" "$file"
expect_error E_NAV_TILE_MISSING "tile (6, 6)" "$spark" bake merge --plan plan2.jsonl --manifest changed.jsonl -o x.json
[ ! -e x.json ] || fail "a failed merge wrote its output"

# Usage errors exit 2; an untiled job is refused with its code.
rc=0; "$spark" bake job level.obj --tile-size 32 --share 3/3 --cache c 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "--share 3/3 exited $rc"
rc=0; "$spark" bake merge --plan plan.jsonl -o x.json 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "--plan without --manifest exited $rc"
expect_error E_NAV_CONFIG "tile_size" "$spark" bake job level.obj --cache c
# More tiles than a session holds meshes (5,929 tiles of 1.6 m): the merge
# reads each tile on its own. About 2.5 s of CPU.
python3 "$src/tools/terrain.py" --size 120 -o small.obj >/dev/null
fine=(--cell-size 0.2 --tile-size 8)
"$spark" bake plan small.obj "${fine[@]}" -o fine.jsonl 2>/dev/null
"$spark" bake job small.obj "${fine[@]}" --cache fine --manifest fine-m.jsonl 2>/dev/null
[ "$(wc -l <fine.jsonl)" -gt 4096 ] || fail "only $(wc -l <fine.jsonl) fine tiles"
fine_merged=$(hash_of "$("$spark" bake merge --plan fine.jsonl --manifest fine-m.jsonl -o fine.json)")
fine_whole=$(hash_of "$("$spark" bake small.obj -o fine-whole.json "${fine[@]}")")
[ -n "$fine_whole" ] && [ "$fine_merged" = "$fine_whole" ] || fail "5,929 tiles: merged $fine_merged, whole $fine_whole"
echo "bake jobs: $tiles tiles, hash $whole; changed box re-baked tile 6,6 only"
