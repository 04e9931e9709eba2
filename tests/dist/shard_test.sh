#!/usr/bin/env bash
# `spark test --shard I/N`, `--list` and `--junit` per shard: for N = 1..5 the
# shards hold every test exactly once; a test keeps its shard when another
# file's tests are added; a shard's JUnit report holds exactly its tests.
# Usage: shard_test.sh SPARK SOURCE_DIR. Well under 1 s of CPU.
set -euo pipefail
spark=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
suite() { # FILE NAME TESTS
    { echo "{\"version\": 1, \"name\": \"$2\", \"tests\": ["
      for i in $(seq "$3"); do
          [ "$i" -gt 1 ] && echo ","
          echo "{\"name\": \"$2 test $i\", \"steps\": [{\"do\": \"system.version\"}]}"
      done
      echo "]}"; } >"$1"
}
mkdir -p suites/a suites/b
suite suites/a/one.test.json one 7
suite suites/a/two.test.json two 5
suite suites/b/three.test.json three 9
"$spark" test suites --list >all.txt
[ "$(wc -l <all.txt)" -eq 21 ] || fail "--list printed $(wc -l <all.txt) tests, not 21"
for n in 1 2 3 4 5; do
    : >union.txt
    for ((i = 0; i < n; i++)); do "$spark" test suites --list --shard $i/$n >>union.txt; done
    [ -z "$(sort union.txt | uniq -d)" ] || fail "N=$n: a test is in two shards"
    diff <(sort all.txt) <(sort union.txt) >/dev/null || fail "N=$n: the shards do not hold every test"
done
# Stable: a test keeps its shard when another file's tests are added.
for i in 0 1 2; do "$spark" test suites --list --shard $i/3 | sed "s/^/$i /"; done | sort >before.txt
suite suites/b/four.test.json four 11
for i in 0 1 2; do "$spark" test suites --list --shard $i/3 | sed "s/^/$i /"; done | sort >after.txt
[ "$(wc -l <after.txt)" -eq 32 ] || fail "after adding: $(wc -l <after.txt) tests"
[ -z "$(comm -23 before.txt after.txt)" ] || fail "tests moved shard: $(comm -23 before.txt after.txt)"
# Each shard runs its tests and reports them in its own JUnit file.
for i in 0 1 2 3; do
    want=$("$spark" test suites --list --shard $i/4 | wc -l)
    out=$("$spark" test suites --shard $i/4 --junit junit-$i.xml)
    tail -1 <<<"$out" | grep -q "^$want passed, 0 failed" || [ "$want" -eq 0 ] || fail "shard $i/4: $out"
    grep -q "<testsuites[^>]* tests=\"$want\"" junit-$i.xml || fail "shard $i/4: junit-$i.xml does not hold $want tests"
    [ "$(grep -c "<testcase" junit-$i.xml)" -eq "$want" ] || fail "shard $i/4: junit test cases"
done
# The repository's own suites (listed, not run): every test once for N = 1..5.
"$spark" test tests/scenarios samples --project "$src" --list | sort >repo.txt
[ "$(wc -l <repo.txt)" -gt 50 ] || fail "the repository lists $(wc -l <repo.txt) tests"
for n in 1 2 3 4 5; do
    for ((i = 0; i < n; i++)); do "$spark" test tests/scenarios samples --project "$src" --list --shard $i/$n; done |
        sort >repo-union.txt
    cmp -s repo.txt repo-union.txt || fail "N=$n: the repository's shards do not hold every test once"
done
rc=0; "$spark" test suites --shard 4/4 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--shard 4/4 exited $rc"
rc=0; "$spark" test suites --shard 1 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--shard 1 exited $rc"
echo "shards: 21 tests, every test once for N = 1..5, stable when 11 are added"
