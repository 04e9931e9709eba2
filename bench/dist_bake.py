#!/usr/bin/env python3
"""The distributed bake's cost (docs/distributed-bake.md, "Costs").

    /usr/bin/python3 bench/dist_bake.py [--size 4000] [--jobs 16] [--spark build/release/cli/spark]

On a terrain from tools/terrain.py (default 4 km x 4 km, 8.8 M triangles;
0.5 m cells, 64-cell tiles), it measures
  - one `spark bake --tile-size 64` process on all threads (wall, CPU, peak RSS);
  - tools/dask_bake.py on a local cluster of 2 workers x 1 thread, cold cache
    (wall, tiles/s, peak RSS of each worker process and of the largest job it ran);
and, from the Dask run's per-job times, projects the wall time on 16 and 64
machines: plan + max(total job time / machines, longest job) + merge, with
the plan and merge timed on their own here: plan + (a job's level read, ~ the
plan) + (job time - jobs x level read) / machines + merge. Prints a Markdown table. Needs
Debian's python3-distributed; writes into out/dist-bench/.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def run_timed(command, cwd, allow_fail=False):
    """Runs `command` in a child and returns (stdout, wall s, CPU s, peak RSS MB) of exactly that child."""
    start = time.monotonic()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        os.chdir(cwd)
        errors = os.open(os.path.join(cwd, "stderr.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(errors, 2)
        os.execvp(command[0], command)
    os.close(w)
    chunks = []
    while True:
        data = os.read(r, 65536)
        if not data:
            break
        chunks.append(data)
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    out = b"".join(chunks).decode()
    if os.waitstatus_to_exitcode(status) != 0 and allow_fail:
        with open(os.path.join(cwd, "stderr.txt")) as f:
            return "FAILED: " + f.read().strip().splitlines()[-1], wall, usage.ru_utime + usage.ru_stime, 0.0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s failed (exit %d): %s" % (" ".join(command[:3]), os.waitstatus_to_exitcode(status), out))
    return out, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=4000, help="terrain edge [m]")
    parser.add_argument("--jobs", type=int, default=16, help="Dask jobs (each reads the whole level)")
    parser.add_argument("--spark", default=os.path.join(ROOT, "build", "release", "cli", "spark"))
    args = parser.parse_args()
    spark = os.path.abspath(args.spark)
    work = os.path.join(ROOT, "out", "dist-bench")
    os.makedirs(work, exist_ok=True)
    level = "terrain-%dm.obj" % args.size
    settings = ["--cell-size", "0.5", "--tile-size", "64"]
    if not os.path.exists(os.path.join(work, level)):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "terrain.py"), "--size", str(args.size),
                        "-o", os.path.join(work, level)], check=True)
    triangles = sum(1 for line in open(os.path.join(work, level)) if line.startswith("f "))

    out, one_wall, one_cpu, one_rss = run_timed(
        [spark, "bake", level, "-o", "one.json", "--threads", "0", "--project", work] + settings, work)
    one_hash = out.split("hash ")[1].split()[0]

    _, plan_wall, plan_cpu, plan_rss = run_timed([spark, "bake", "plan", level, "--project", work] + settings +
                                          ["-o", "plan-alone.jsonl"], work)
    tiles = sum(1 for _ in open(os.path.join(work, "plan-alone.jsonl")))

    shutil.rmtree(os.path.join(work, "cache"), ignore_errors=True)
    report = os.path.join(work, "dask-report.json")
    out, dask_wall, dask_cpu, _ = run_timed(
        [sys.executable, os.path.join(ROOT, "tools", "dask_bake.py"), level, "-o", "dask.json", "--project", work,
         "--cache", "cache", "--spark", spark, "--jobs", str(args.jobs), "--local-workers", "2", "--report", report,
         "--quiet", "--"] + settings, work, allow_fail=True)
    dask_hash = out if out.startswith("FAILED") else out.split("hash ")[1].split()[0]
    with open(report) as f:
        rep = json.load(f)

    manifests = sorted(os.path.join("cache", "dask.json.manifests", m)
                       for m in os.listdir(os.path.join(work, "cache", "dask.json.manifests")))
    merge_out, merge_wall, merge_cpu, merge_rss = run_timed(
        [spark, "bake", "merge", "--project", work, "--plan", "cache/dask.json.plan.jsonl", "--manifest"] + manifests +
        ["-o", "merge-alone.json"], work, allow_fail=True)
    # CPU seconds: a one-thread job's wall time on a machine of its own (this
    # shared machine's wall times carry other sessions' load).
    job_seconds = [j["cpu_seconds"] for j in rep["job_list"]]
    total_job = sum(job_seconds)
    per_tile_ms = 1000.0 * total_job / tiles

    # On M machines, one job each: every job reads and clips the whole level
    # (about what the plan alone costs, F) and bakes 1/M of the tiles' work.
    fixed = plan_cpu
    tile_work = max(total_job - len(job_seconds) * fixed, 0.0)

    def projected(machines):
        return plan_cpu + fixed + tile_work / machines + merge_cpu

    print("terrain %d m x %d m: %d triangles, %d tiles of 64 cells at 0.5 m; hashes: one process %s, Dask %s%s" % (
        args.size, args.size, triangles, tiles, one_hash, dask_hash, "" if one_hash == dask_hash else " (DIFFER)"))
    print()
    print("| run | wall s | CPU s | tiles/s (wall) | peak RSS |")
    print("|---|---:|---:|---:|---|")
    print("| one `spark bake`, all threads (%d) | %.1f | %.1f | %.0f | %.0f MB |" % (
        os.cpu_count(), one_wall, one_cpu, tiles / one_wall, one_rss))
    rss = ", ".join("worker %s: %.0f MB (its largest job %.0f MB)" % (
        w, v["worker_peak_rss_kb"] / 1024.0, v["job_peak_rss_kb"] / 1024.0) for w, v in sorted(rep["workers"].items()))
    print("| Dask, 2 local workers x 1 thread, %d jobs, cold cache | %.1f | %.1f (jobs) | %.0f | %s |" % (
        rep["jobs"], dask_wall, total_job, tiles / dask_wall, rss))
    print("| `spark bake plan` alone | %.1f | %.1f | | %.0f MB |" % (plan_wall, plan_cpu, plan_rss))
    print("| `spark bake merge --plan` alone | %.1f | %.1f | | %.0f MB%s |" % (
        merge_wall, merge_cpu, merge_rss, " " + merge_out if merge_out.startswith("FAILED") else ""))
    for m in (16, 64):
        print("| projected, %d machines x 1 job: plan + read + tile work / %d + merge | %.1f | | %.0f | |" % (
            m, m, projected(m), tiles / projected(m)))
    print()
    print("per tile: %.2f ms of job CPU (level reads included; %.2f ms without); %d jobs, %.1f s CPU in all, "
          "%.1f..%.1f s each; a job's level read ~ the plan's %.1f s" % (
              per_tile_ms, 1000.0 * tile_work / tiles, len(job_seconds), total_job, min(job_seconds),
              max(job_seconds), fixed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
