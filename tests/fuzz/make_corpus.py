#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/<target>/corpus) and
the JSON dictionary (tests/fuzz/json.dict) from the repository's samples,
scenario tests and schemas. Run from the repository root:

    tests/fuzz/make_corpus.py [--spark build/release/cli/spark]

With --spark, navmesh documents are exported from baked samples for the
navmesh target. Seeds are small on purpose: the fuzzer mutates them, and a slow
seed (a big bake, a golden picture) slows every run derived from it.
"""
import argparse
import glob
import hashlib
import json
import os
import subprocess
import tempfile

ROOT = os.getcwd()
FUZZ = os.path.join(ROOT, "tests", "fuzz")
MAX_LINES = 16  # the command and MCP targets run at most 16 lines per input
# Tests too slow to seed from (3D bakes of the arena take 0.3-18 s each under
# ASan): every input derived from a seed costs about what the seed costs. One
# small 3D bake stays (command: scene3d-bake.jsonl).
SLOW_TESTS = ("bad bakes are refused", "baking is deterministic", "sensors and dynamic bodies join",
              "the arena bakes its static colliders", "a scene too large for its subdivisions",
              "2 x 10 agents swap rooms",  # 1,700 crowd steps of 20 agents
              # The ragdoll-wall arena stepped for hundreds of frames (physics, brains):
              "the quick start runs", "600 steps", "the player walks", "snapshots: take",
              "the guard demo is deterministic", "snapshot mid-chase", "snapshot.save then snapshot.load",
              "brains through the commands", "bad input to every new command", "an AiAgent spawned",
              "a brain whose leaf", "an agent without a controller")


def tests_of(doc):
    return [t for t in doc["tests"] if not t["name"].startswith(SLOW_TESTS)]


def write(target, name, text):
    d = os.path.join(FUZZ, target, "corpus")
    os.makedirs(d, exist_ok=True)
    if isinstance(text, str):
        text = text.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(text)


def slug(s):
    keep = "".join(c if c.isalnum() else "-" for c in s.lower())
    return "-".join(p for p in keep.split("-") if p)[:48]


def compact(j):
    return json.dumps(j, separators=(",", ":"), ensure_ascii=False)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_files():
    return sorted(glob.glob("tests/scenarios/**/*.test.json", recursive=True))


def step_params(step):
    reserved = {"do", "expect", "expect_error", "tolerance", "note"}
    return {k: v for k, v in step.items() if k not in reserved}


def command_seeds():
    n = 0
    for f in test_files():
        for t in tests_of(load(f)):
            steps = t.get("steps", [])
            lines = [compact({"command": s["do"], "params": step_params(s)}) for s in steps]
            for i in range(0, len(lines), MAX_LINES):
                chunk = lines[i:i + MAX_LINES]
                write("command", f"{slug(os.path.basename(f))}-{slug(t['name'])}-{i // MAX_LINES}.jsonl",
                      "\n".join(chunk) + "\n")
                n += 1
    for f in sorted(glob.glob("samples/scenarios/*.scenario.json")):
        lines = [compact({"command": s["do"], "params": step_params(s)}) for s in load(f)["steps"]]
        write("command", slug(os.path.basename(f)) + ".jsonl", "\n".join(lines[:MAX_LINES]) + "\n")
        n += 1
    hand = {
        "version.jsonl": '{"command":"system.version"}\n',
        "commands-prefix.jsonl": '{"command":"system.commands","params":{"prefix":"nav."},"id":1}\n',
        "schema.jsonl": '{"command":"system.schema","params":{"command":"nav.path"}}\n',
        "unknown.jsonl": '{"command":"nav.pth","params":{}}\n',
        "not-json.jsonl": '{"command": "system.version", \n[1,2\n"\\ud800"\n',
        "ai-load.jsonl": '{"command":"ai.tree.load","params":{"path":"samples/ai/guard.bt.json"}}\n'
                         '{"command":"ai.utility.load","params":{"path":"samples/ai/rest-patrol-flee.utility.json"}}\n'
                         '{"command":"ai.tree.list"}\n{"command":"ai.hash"}\n',
        "scene3d-bake.jsonl": '{"command":"space3d.load","params":{"path":"samples/space3d/arena.space3d.json"}}\n'
                              '{"command":"nav.bake","params":{"name":"arena"}}\n'
                              '{"command":"nav.path","params":{"from":[-8,0,8],"to":[8,0,8]}}\n'
                              '{"command":"nav.export","params":{"path":"out/arena.navmesh.json"}}\n'
                              '{"command":"nav.import","params":{"name":"again","path":"out/arena.navmesh.json"}}\n',
        "crowd.jsonl": '{"command":"scene2d.load","params":{"path":"samples/scene2d/maze.scene2d.json"}}\n'
                       '{"command":"nav.bake","params":{"name":"maze","agent_radius":0.3}}\n'
                       '{"command":"nav.agent.add","params":{"position":[1.5,1.5],"target":[9.5,1.5],"radius":0.3}}\n'
                       '{"command":"nav.agent.add","params":{"position":[9.5,1.5],"target":[1.5,1.5],"max_speed":2}}\n'
                       '{"command":"nav.step","params":{"frames":10,"dt":0.05}}\n'
                       '{"command":"nav.agent.set","params":{"agent":1,"velocity":[0.5,0],"stop":false}}\n'
                       '{"command":"nav.agent.get","params":{"agent":1}}\n'
                       '{"command":"nav.agent.list"}\n'
                       '{"command":"nav.agent.remove","params":{"agent":2}}\n'
                       '{"command":"nav.step","params":{"frames":5}}\n'
                       '{"command":"nav.info"}\n',
    }
    for name, text in hand.items():
        write("command", name, text)
        n += 1
    return n


def scenario_seeds():
    n = 0
    for f in sorted(glob.glob("samples/scenarios/*.json")):
        write("scenario", os.path.basename(f), open(f, "rb").read())
        n += 1
    for f in test_files():
        doc = load(f)
        doc["tests"] = tests_of(doc)
        for t in doc["tests"]:
            if "steps" in t:
                sc = {"version": 1, "name": t["name"], "steps": t["steps"][:MAX_LINES]}
                write("scenario", f"{slug(os.path.basename(f))}-{slug(t['name'])}.scenario.json", compact(sc))
                n += 1
        # The test file itself, cut to its first two tests.
        small = dict(doc)
        small["tests"] = doc["tests"][:2]
        write("scenario", os.path.basename(f), compact(small))
        n += 1
    write("scenario", "nested.scenario.json", compact({"version": 1, "name": "outer", "steps": [
        {"do": "ai.scenario.run", "doc": {"version": 1, "name": "inner", "steps": [
            {"do": "system.version"}, {"do": "nav.path", "from": [0, 0], "to": [1, 1], "expect_error": "E_NAV_NO_MESH"}]}},
        {"do": "ai.scenario.run", "path": "samples/scenarios/system.scenario.json"}]}))
    write("scenario", "scenario-by-path.test.json", compact({"version": 1, "name": "paths", "tests": [
        {"name": "system", "scenario": "samples/scenarios/system.scenario.json"},
        {"name": "missing", "scenario": "samples/scenarios/none.scenario.json"}]}))
    return n + 2


def ai_seeds():
    n = 0
    for f in sorted(glob.glob("samples/ai/*.json")):
        write("ai", os.path.basename(f), open(f, "rb").read())
        n += 1
    seen = set()
    for f in test_files():
        for t in tests_of(load(f)):
            for s in t.get("steps", []):
                if s.get("do", "").startswith("ai.") and isinstance(s.get("doc"), dict):
                    text = compact(s["doc"])
                    h = hashlib.sha1(text.encode()).hexdigest()[:10]
                    if h not in seen:
                        seen.add(h)
                        write("ai", f"{slug(s['do'])}-{h}.json", text)
                        n += 1
    return n


def copy_seeds(target, pattern):
    n = 0
    for f in sorted(glob.glob(pattern, recursive=True)):
        write(target, os.path.basename(f), open(f, "rb").read())
        n += 1
    return n


OBJ_SEEDS = {
    "quad-vt-vn.obj": "# quad with texture coordinates and normals\nmtllib q.mtl\no quad\ng floor\n"
                      "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 1 0\n"
                      "usemtl stone\ns off\nf 1/1/1 2/2/1 3/3/1 4/4/1\n",
    "negative.obj": "v 0 0 0\nv 2 0 0\nv 2 0 2\nf -3 -2 -1\nv 0 0 2\nf 1//1 3//1 -1//1\nl 1 2\np 3\n",
    "cube.obj": "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
                "f 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\nf 2 6 7 3\nf 3 7 8 4\nf 5 1 4 8\n",
    "weights-crlf.obj": "v 0.5 1e-3 -2.25 1.0\r\nv 3 0 0\r\nv 0 0 3\r\nf 1/1 2/2 3/3\r\n",
    "bad.obj": "v 0 0\nf 1 2\nvx 1 2 3\nf 0 1 2\n",
}

NAVMESH_2D = {
    "format": "spark.navmesh", "version": 1, "dimensions": 2,
    "settings": {"agent_radius": 0.4, "agent_height": 1.8, "step_height": 0.4, "cell_size": 0.25,
                 "cell_height": 0.2, "max_slope_deg": 45, "link_tolerance": 0.01, "max_poly_verts": 6},
    "vertices": [[0, 0], [4, 0], [4, 4], [0, 4], [8, 0], [8, 2], [4, 2]],
    "polygons": [[0, 3, 2, 1], [1, 6, 5, 4]],
    "areas": [0, 1],
}

MCP_SEEDS = {
    "initialize.jsonl": [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2024-11-05", "capabilities": {},
                                                                      "clientInfo": {"name": "fuzz", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"}],
    "tools-list.jsonl": [{"jsonrpc": "2.0", "id": "a", "method": "tools/list"}],
    "tools-call.jsonl": [
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "system_version", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "scene2d_load", "arguments": {"path": "samples/scene2d/maze.scene2d.json"}}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "nav_bake", "arguments": {"name": "maze", "agent_radius": 0.3}}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "nav_path", "arguments": {"from": [1.5, 1.5], "to": [30.5, 15.5]}}},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "nav_path", "arguments": {"from": [1.5, 1.5], "to": [1.5, 5000]}}}],
    "tools-call-ai.jsonl": [
        {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "ai_tree_load", "arguments": {"path": "samples/ai/guard.bt.json"}}},
        {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "ai_validate", "arguments": {"path": "samples/ai/many-mistakes.bt.json"}}},
        {"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "ai_scenario_run", "arguments": {"path": "samples/scenarios/system.scenario.json"}}}],
    "errors.jsonl": [
        {"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "nav_nowhere"}},
        {"jsonrpc": "2.0", "id": 12, "method": "resources/list"},
        {"jsonrpc": "1.0", "id": 13, "method": "ping"},
        {"jsonrpc": "2.0", "id": None, "method": "tools/call", "params": {"name": "system_schema", "arguments": None}}],
}


def navmesh_seeds(spark):
    write("navmesh", "two-rooms-2d.navmesh.json", compact(NAVMESH_2D))
    n = 1
    if not spark:
        return n
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, "build")) as tmp:
        for name, lines in {
            "maze-2d.navmesh.json": ['{"command":"scene2d.load","params":{"path":"samples/scene2d/maze.scene2d.json"}}',
                                     '{"command":"nav.bake","params":{"name":"m","agent_radius":0.3}}'],
            "arena-3d.navmesh.json": ['{"command":"space3d.load","params":{"path":"samples/space3d/arena.space3d.json"}}',
                                      '{"command":"nav.bake","params":{"name":"m"}}'],
        }.items():
            out = os.path.join(tmp, name)
            lines = lines + [compact({"command": "nav.export", "params": {"path": os.path.relpath(out, ROOT)}})]
            subprocess.run([spark, "run", "-", "--project", ROOT], input="\n".join(lines) + "\n", text=True,
                           check=True, capture_output=True)
            write("navmesh", name, compact(load(out)))
            n += 1
    return n


def mcp_seeds():
    for name, msgs in MCP_SEEDS.items():
        write("mcp", name, "\n".join(compact(m) for m in msgs) + "\n")
    return len(MCP_SEEDS)


def dictionary():
    words = set()

    def walk(j):
        if isinstance(j, dict):
            for k, v in j.items():
                words.add(k)
                walk(v)
        elif isinstance(j, list):
            for v in j:
                walk(v)
        elif isinstance(j, str) and len(j) <= 40 and " " not in j:
            words.add(j)

    for f in sorted(glob.glob("schemas/**/*.json", recursive=True)):
        doc = load(f)
        if "id" in doc:
            words.add(doc["id"])
            words.add(doc["id"].replace(".", "_"))
        for part in ("params", "result"):
            if part in doc:
                walk(doc[part])
        for code in doc.get("errors", []):
            words.add(code)
    for f in sorted(glob.glob("samples/**/*.json", recursive=True)) + test_files():
        walk(load(f))
    words.update(["command", "params", "id", "steps", "do", "expect", "expect_error", "tolerance", "note",
                   "tests", "scenario", "jsonrpc", "2.0", "method", "initialize", "tools/list", "tools/call",
                   "ping", "arguments", "notifications/initialized", "spark.navmesh"])
    # Schema noise that is no input key.
    words -= {"$schema", "description", "additionalProperties", "patternProperties", "exclusiveMinimum",
              "minItems", "maxItems", "minLength", "maxLength", "uniqueItems", "properties", "required"}
    lines = ["# Keys, command ids, codes and enum values of Spark's JSON inputs (tests/fuzz/make_corpus.py)."]
    for w in sorted(words):
        if not w or len(w.encode()) > 60 or w[0] in "#$":
            continue
        token = json.dumps(w, ensure_ascii=True)  # the word as it appears in JSON, quotes included
        lines.append('"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"')
    with open(os.path.join(FUZZ, "json.dict"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines) - 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spark", help="a built spark binary, to export navmesh seeds")
    args = ap.parse_args()
    counts = {
        "command": command_seeds(),
        "obj": copy_seeds("obj", "samples/space3d/models/*.obj"),
        "scene3d": copy_seeds("scene3d", "samples/space3d/*.space3d.json") +
                   copy_seeds("scene3d", "tests/scenarios/space3d/data/*.json"),
        "scene2d": copy_seeds("scene2d", "samples/scene2d/*.json"),
        "navmesh": navmesh_seeds(args.spark),
        "ai": ai_seeds(),
        "scenario": scenario_seeds(),
        "mcp": mcp_seeds(),
    }
    for name, text in OBJ_SEEDS.items():
        write("obj", name, text)
        counts["obj"] += 1
    counts["dictionary entries"] = dictionary()
    for k, v in counts.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
