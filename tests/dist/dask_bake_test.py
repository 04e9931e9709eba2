"""tools/dask_bake.py end to end on the 1 km terrain sample (docs/distributed-bake.md).

    dask_bake_test.py SPARK SOURCE_DIR LEVEL_DIR MODE

LEVEL_DIR holds terrain-1k.obj and terrain-1k-box.obj (tools/terrain.py, the
CTest fixture). MODE:
  equal  a scheduler and two workers on 127.0.0.1 (free ports), the driver
         with --scheduler: the merged hash is the one-process `spark bake`'s;
  kill   the same, with worker "a" killed (SIGKILL) when it starts its second
         job: its jobs run again on "b", the hash is unchanged;
  cache  the driver's own local cluster: a re-run bakes no tile, the level
         with one more box re-bakes only the tile it meets.
Processes are started and stopped here. Run through with_dask.sh.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SETTINGS = ["--cell-size", "0.5", "--tile-size", "64"]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def hash_of(text):
    found = re.search(r"hash ([0-9a-f]{16})", text)
    if not found:
        fail("no hash in: " + text)
    return found.group(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A dask scheduler and named workers (one thread, no nanny, so a killed worker stays dead)."""

    def __init__(self, names, env_of):
        self.address = "tcp://127.0.0.1:%d" % free_port()
        self.processes = {}
        py = sys.executable
        self.processes["scheduler"] = subprocess.Popen(
            [py, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
             self.address.rsplit(":", 1)[1], "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        for name in names:
            self.processes[name] = subprocess.Popen(
                [py, "-m", "distributed.cli.dask_worker", self.address, "--name", name, "--nthreads", "1",
                 "--no-nanny", "--host", "127.0.0.1", "--no-dashboard"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env_of(name))

    def stop(self):
        for p in self.processes.values():
            if p.poll() is None:
                p.terminate()
        for p in self.processes.values():
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def driver(source, spark, project, level, output, extra):
    report = os.path.join(project, output + ".report.json")
    done = subprocess.run([sys.executable, os.path.join(source, "tools", "dask_bake.py"), level, "-o", output,
                           "--project", project, "--spark", spark, "--report", report, "--quiet"] + extra +
                          ["--"] + SETTINGS, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        fail("dask_bake.py exited %d:\n%s\n%s" % (done.returncode, done.stdout, done.stderr))
    with open(report) as f:
        return hash_of(done.stdout), json.load(f)


def one_process(spark, project, level):
    done = subprocess.run([spark, "bake", level, "-o", level + ".whole.json", "--project", project] + SETTINGS,
                          cwd=project, capture_output=True, text=True)
    if done.returncode != 0:
        fail("spark bake: " + done.stderr)
    return hash_of(done.stdout)


# A stand-in for `spark` on worker "a" (WORKER_TAG=a): it runs the real
# binary for the first job, and kills its worker (its parent) at the second.
# Worker "b" holds its jobs until "a" has finished one, so "a" surely has work;
# the driver's own plan and merge (no tag) run the binary at once.
KILLER = """#!/usr/bin/env bash
marks=%(marks)s
if [ "$WORKER_TAG" = a ]; then
  if [ -e "$marks/a-first-done" ]; then touch "$marks/a-killed"; kill -9 $PPID; exit 1; fi
  %(spark)s "$@"; rc=$?; touch "$marks/a-first-done"; exit $rc
fi
if [ "$WORKER_TAG" = b ]; then
  for _ in $(seq 600); do [ -e "$marks/a-first-done" ] && break; sleep 0.1; done
fi
exec %(spark)s "$@"
"""


def main():
    spark, source, levels, mode = sys.argv[1:5]
    spark = os.path.abspath(spark)
    project = tempfile.mkdtemp(prefix="spark-dask-")
    cluster = None
    try:
        for name in ("terrain-1k.obj", "terrain-1k-box.obj"):
            os.symlink(os.path.join(os.path.abspath(levels), name), os.path.join(project, name))
        whole = one_process(spark, project, "terrain-1k.obj")
        if mode in ("equal", "kill"):
            worker_spark = spark
            if mode == "kill":
                worker_spark = os.path.join(project, "spark-killer.sh")
                with open(worker_spark, "w") as f:
                    f.write(KILLER % {"marks": project, "spark": spark})
                os.chmod(worker_spark, 0o755)
            cluster = Cluster(["a", "b"], lambda name: dict(os.environ, WORKER_TAG=name))
            jobs = 4 if mode == "equal" else 6
            merged, report = driver(source, worker_spark, project, "terrain-1k.obj", "dask.json",
                                    ["--scheduler", cluster.address, "--wait-workers", "2", "--jobs", str(jobs)])
            if merged != whole:
                fail("merged %s, one-process bake %s" % (merged, whole))
            workers = report["workers"]
            if mode == "equal" and sum(w["jobs"] for w in workers.values()) != jobs:
                fail("jobs per worker: %s" % workers)
            if mode == "kill":
                if not os.path.exists(os.path.join(project, "a-killed")):
                    fail("worker a was never killed")
                if cluster.processes["a"].poll() is None:
                    fail("worker a is still running")
                # b ran the killed job again (and a's finished one when its result died with a).
                if workers.get("b", {}).get("jobs", 0) < jobs - 1 or workers.get("a", {}).get("jobs", 0) > 1:
                    fail("expected b to run at least the %d jobs a did not finish: %s" % (jobs - 1, workers))
            print("%s: %d tiles in %d jobs, hash %s = one-process bake; jobs per worker %s" % (
                mode, report["tiles"], jobs, merged, {k: v["jobs"] for k, v in sorted(workers.items())}))
        elif mode == "cache":
            merged, first = driver(source, spark, project, "terrain-1k.obj", "dask.json", ["--jobs", "3"])
            if merged != whole or first["baked"] != first["tiles"]:
                fail("first run: hash %s (whole %s), %d of %d baked" % (merged, whole, first["baked"], first["tiles"]))
            again, second = driver(source, spark, project, "terrain-1k.obj", "dask.json", ["--jobs", "3"])
            if again != whole or second["baked"] != 0:
                fail("re-run: hash %s, %d tiles baked again" % (again, second["baked"]))
            boxed, third = driver(source, spark, project, "terrain-1k-box.obj", "box.json", ["--jobs", "3"])
            whole_box = one_process(spark, project, "terrain-1k-box.obj")
            if boxed != whole_box or boxed == whole or third["baked"] != 1:
                fail("with a box: hash %s (whole %s), %d tiles baked (expected 1)" % (boxed, whole_box, third["baked"]))
            print("cache: %d tiles; re-run baked 0; the box re-baked 1; hashes %s / %s" % (
                first["tiles"], whole, whole_box))
        else:
            fail("unknown mode " + mode)
    finally:
        if cluster is not None:
            cluster.stop()
        if os.environ.get("SPARK_KEEP_TEST_DIR"):
            print("kept " + project)
        else:
            shutil.rmtree(project, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
