#!/usr/bin/env python3
"""Bakes a level's tiles across machines on Dask, then merges them.

    python3 tools/dask_bake.py LEVEL -o OUT [--scheduler tcp://HOST:PORT] [--jobs N]
        [--project DIR] [--cache DIR] [--spark PATH] -- --cell-size 0.5 --tile-size 64

What it does (docs/distributed-bake.md):
1. `spark bake plan LEVEL SETTINGS` lists the tiles and their input keys;
2. the tiles are cut into N jobs (`--share I/N`: runs of tiles in tile order),
   each submitted to the scheduler as a task that runs
   `spark bake job LEVEL SETTINGS --share I/N --cache CACHE` on a worker and
   brings back its manifest lines; tiles whose key is in the cache are skipped;
3. progress (tiles done / total, ETA) goes to stderr as jobs end;
4. the manifests are written beside the plan and `spark bake merge --plan`
   checks every tile and key and writes OUT.

A worker lost mid-bake costs only its jobs: the scheduler runs them again
elsewhere (a task is a pure function of its tiles, so the merged mesh and its
hash are the same). Workers need the `spark` binary and the project folder at
the same paths (a shared file system on a farm). Without `--scheduler` a local
cluster of `--local-workers` processes of one thread each is started on
127.0.0.1. Paths (LEVEL, OUT, CACHE) are relative to the project.

Needs Debian's python3-distributed (scripts/setup installs it), nothing else.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

try:
    from distributed import Client, LocalCluster, as_completed
except ImportError:  # pragma: no cover - told to the user, not tested
    sys.exit("dask_bake: python3-distributed is missing: apt-get install python3-distributed "
             "(and run Debian's /usr/bin/python3)")


def run_job(command, cwd):
    """A Dask task: one `spark bake job`. Returns its manifest lines and who ran it."""
    start = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(command), done.returncode, done.stderr.strip()))
    from distributed import get_worker
    worker = get_worker()
    return {
        "manifest": done.stdout,
        "seconds": time.monotonic() - start,
        "cpu_seconds": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "worker": worker.name if worker.name is not None else worker.address,
        "worker_pid": os.getpid(),
        # Peak RSS of the largest job this worker ran so far, and of the worker itself. [KB]
        "job_peak_rss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        "worker_peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def find_spark(given):
    if given:
        return os.path.abspath(given)
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "build", "release", "cli", "spark")
    return shutil.which("spark") or os.path.abspath(built)


def run(command, cwd):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit("dask_bake: %s failed (exit %d)" % (" ".join(command[:3]), done.returncode))
    return done


def main():
    parser = argparse.ArgumentParser(description="Bake a level's tiles on Dask and merge them.",
                                     epilog="Settings after -- go to spark bake plan/job, e.g. -- --tile-size 64")
    parser.add_argument("level", help=".obj or .space3d.json level, relative to the project")
    parser.add_argument("-o", "--output", required=True, help="merged navmesh document, relative to the project")
    parser.add_argument("--scheduler", help="tcp://HOST:PORT of a running dask scheduler (default: a local cluster)")
    parser.add_argument("--local-workers", type=int, default=2, help="workers of the local cluster (1 thread each)")
    parser.add_argument("--wait-workers", type=int, default=0, help="wait until this many workers have joined")
    parser.add_argument("--jobs", type=int, default=0, help="jobs to cut the tiles into (default: 64 tiles a job)")
    parser.add_argument("--project", default=".", help="project folder (the same path on every worker)")
    parser.add_argument("--cache", default="bake-cache", help="tile cache folder, relative to the project")
    parser.add_argument("--spark", help="spark binary (default: spark on PATH, else build/release/cli/spark)")
    parser.add_argument("--report", help="write a JSON report (jobs, workers, times) to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args, settings = parser.parse_known_args()
    if settings and settings[0] == "--":
        settings = settings[1:]
    if "--share" in settings or "--cache" in settings or "--manifest" in settings:
        parser.error("--share, --cache and --manifest are the driver's; give only bake settings after --")

    project = os.path.abspath(args.project)
    spark = find_spark(args.spark)
    base = os.path.basename(args.output)
    plan = os.path.join(args.cache, base + ".plan.jsonl")
    manifests = os.path.join(args.cache, base + ".manifests")
    os.makedirs(os.path.join(project, manifests), exist_ok=True)
    start = time.monotonic()

    common = [args.level, "--project", project] + settings
    run([spark, "bake", "plan"] + common + ["-o", plan], project)
    with open(os.path.join(project, plan)) as f:
        total = sum(1 for line in f if line.strip())
    jobs = args.jobs if args.jobs > 0 else max(1, (total + 63) // 64)
    jobs = min(jobs, max(total, 1))

    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.local_workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
    try:
        if args.wait_workers > 0:
            client.wait_for_workers(args.wait_workers, timeout=120)
        commands = [[spark, "bake", "job"] + common + ["--share", "%d/%d" % (i, jobs), "--cache", args.cache]
                    for i in range(jobs)]
        # pure=False: a job's result lives in the cache folder, not only in Dask's memory.
        futures = [client.submit(run_job, c, project, key="spark-bake-job-%d-of-%d" % (i, jobs), pure=False,
                                 retries=2) for i, c in enumerate(commands)]
        index = {f.key: i for i, f in enumerate(futures)}
        results = [None] * jobs
        tiles_done = 0
        for future in as_completed(futures):
            r = future.result()
            i = index[future.key]
            r["tiles"] = sum(1 for line in r["manifest"].splitlines() if line.strip())
            r["baked"] = r["manifest"].count('"baked":true')
            results[i] = r
            tiles_done += r["tiles"]
            if not args.quiet:
                elapsed = time.monotonic() - start
                eta = elapsed / tiles_done * (total - tiles_done) if tiles_done else 0.0
                sys.stderr.write("dask_bake: %d/%d tiles (%d%%), %d/%d jobs, %.1f s, ETA %.1f s\n" % (
                    tiles_done, total, 100 * tiles_done // max(total, 1), sum(1 for x in results if x), jobs,
                    elapsed, eta))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    paths = []
    for i, r in enumerate(results):
        path = os.path.join(manifests, "job-%d.jsonl" % i)
        with open(os.path.join(project, path), "w") as f:
            f.write(r["manifest"])
        paths.append(path)
    baked = sum(r["baked"] for r in results)
    by_worker = {}
    for r in results:
        w = by_worker.setdefault(str(r["worker"]), {"jobs": 0, "tiles": 0, "seconds": 0.0,
                                                    "job_peak_rss_kb": 0, "worker_peak_rss_kb": 0})
        w["jobs"] += 1
        w["tiles"] += r["tiles"]
        w["seconds"] += r["seconds"]
        w["job_peak_rss_kb"] = max(w["job_peak_rss_kb"], r["job_peak_rss_kb"])
        w["worker_peak_rss_kb"] = max(w["worker_peak_rss_kb"], r["worker_peak_rss_kb"])
    if args.report:  # before the merge, so a failed merge still leaves the jobs' figures
        with open(args.report, "w") as f:
            json.dump({"tiles": total, "jobs": jobs, "baked": baked, "jobs_wall_seconds": time.monotonic() - start,
                       "workers": by_worker,
                       "job_list": [{k: v for k, v in r.items() if k != "manifest"} for r in results]},
                      f, indent=1, sort_keys=True)
    merged = run([spark, "bake", "merge", "--project", project, "--plan", plan, "--manifest"] + paths +
                 ["-o", args.output], project)
    wall = time.monotonic() - start
    sys.stdout.write(merged.stdout)
    print("dask_bake: %d tiles in %d jobs, %d baked, %d from the cache, %.2f s; jobs per worker: %s" % (
        total, jobs, baked, total - baked, wall,
        ", ".join("%s %d" % (w, v["jobs"]) for w, v in sorted(by_worker.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
