"""Tests of spark_nav (python/tests; run by tests/package/python.sh, CTest
`python_spark_nav`). The dungeon tests compare with the `spark` command
(SPARK_CLI) on data/meshes/dungeon.obj (SPARK_DUNGEON) and are
skipped, saying so, when either is absent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import spark_nav as sn

ROOT = Path(__file__).resolve().parents[2]
DUNGEON = Path(os.environ.get("SPARK_DUNGEON", ROOT.parent / "shared" / "data" / "meshes" / "dungeon.obj"))
CLI = os.environ.get("SPARK_CLI", "")
# Pinned: the dungeon baked with the default settings (what `spark bake` prints),
# and the crowd of test_dungeon_crowd_run_has_the_clis_hash after 120 frames.
DUNGEON_HASH = "b12b19cfc9aa2133"
CROWD_HASH = "187fb6fba8f8c76b"


def floor(width: float = 10.0, depth: float = 10.0, x0: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A flat rectangle as two triangles, counter-clockwise seen from above (+Y)."""
    v = np.array([[x0, 0, 0], [x0 + width, 0, 0], [x0 + width, 0, depth], [x0, 0, depth]], np.float32)
    return v, np.array([[0, 2, 1], [0, 3, 2]], np.uint32)


def hall_with_pillar() -> sn.Mesh:
    """A 12 × 4 hall, one polygon counter-clockwise in (x, z), eroded by 0.3 (obstacles grow by it)."""
    v = [[0, 0, 0], [12, 0, 0], [12, 0, 4], [0, 0, 4]]
    return sn.Mesh.build(v, [[0, 1, 2, 3]], is_2d=True, agent_radius=0.3)


def read_obj(path: Path) -> tuple[np.ndarray, np.ndarray]:
    verts, tris = [], []
    for line in path.read_text().splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            verts.append([float(x) for x in parts[1:4]])
        elif parts[0] == "f":
            idx = [int(p.split("/")[0]) for p in parts[1:]]
            idx = [i - 1 if i > 0 else len(verts) + i for i in idx]
            tris += [[idx[0], idx[k], idx[k + 1]] for k in range(1, len(idx) - 1)]
    return np.array(verts, np.float32), np.array(tris, np.uint32)


# -- meshes ------------------------------------------------------------------------


def test_version_is_the_packages():
    assert sn.version().startswith("0.2.")


def test_bake_from_arrays_is_deterministic_and_round_trips(tmp_path):
    v, i = floor()
    mesh = sn.Mesh.bake(v, i)
    again = sn.Mesh.bake(v.ravel(), i.ravel())  # flat arrays are read as rows of 3
    assert mesh.polygon_count >= 1
    assert mesh.hash == again.hash and len(mesh.hash_hex) == 16
    data = mesh.to_bytes()
    assert sn.Mesh.from_bytes(data).hash == mesh.hash
    mesh.save(str(tmp_path / "floor.navmesh"))
    assert sn.Mesh.load(str(tmp_path / "floor.navmesh")).hash == mesh.hash
    # Settings change the bake: a wider agent erodes more.
    wide = sn.BakeSettings.default()
    assert wide.agent_radius == pytest.approx(0.4)
    wide.agent_radius = 1.5
    assert sn.Mesh.bake(v, i, settings=wide).hash != mesh.hash


def test_errors_carry_the_result_code_and_message():
    with pytest.raises(sn.NavError) as e:
        sn.Mesh.from_bytes(b"not a mesh at all")
    assert e.value.code == sn.Result.FORMAT
    assert e.value.function == "spark_nav_mesh_load"
    assert e.value.message and e.value.message in str(e.value)
    bad = sn.BakeSettings.default()
    bad.cell_size = -1.0
    v, i = floor()
    with pytest.raises(sn.NavError) as e:
        sn.Mesh.bake(v, i, settings=bad)
    assert e.value.code == sn.Result.CONFIG
    # A mesh far below the floor: nothing within the search box.
    mesh = sn.Mesh.bake(v, i)
    with pytest.raises(sn.NavError) as e:
        mesh.nearest((5, -50, 5))
    assert e.value.code == sn.Result.OFF_MESH
    # Shapes are checked before the library is called.
    with pytest.raises(ValueError):
        sn.Mesh.bake(v[:, :2], i)
    with pytest.raises(ValueError):
        mesh.nearest((1, 2))
    with pytest.raises(ValueError):
        sn.Mesh.bake(v, [[0, 1, -1]])


def test_nearest_path_raycast_walls_and_random_points():
    v, i = floor()
    mesh = sn.Mesh.bake(v, i)
    near = mesh.nearest((5, 1.0, 5))
    assert near.shape == (3,) and near.dtype == np.float32
    assert abs(near[0] - 5) < 1e-3 and abs(near[2] - 5) < 1e-3 and abs(near[1]) < 0.2
    path = mesh.path((1, 0, 1), (9, 0, 9))
    assert path.complete and path.points.shape[1] == 3
    assert path.length == pytest.approx(np.hypot(8, 8), rel=1e-3)
    np.testing.assert_allclose(path.points[-1][[0, 2]], [9, 9], atol=1e-3)
    hit = mesh.raycast((5, 0, 5), (50, 0, 5))  # through the eroded east edge
    assert hit.hit and 0 < hit.fraction < 1 and hit.point[0] < 10
    assert hit.normal[0] > 0.9
    clear = mesh.raycast((2, 0, 5), (8, 0, 5))
    assert not clear.hit and clear.fraction == 1.0
    walls = mesh.walls((5, 0, 1), 6.0)
    assert walls.ndim == 3 and walls.shape[1:] == (3, 3) and len(walls) >= 2
    # A short buffer is grown to what the library asks for: the same walls.
    np.testing.assert_array_equal(mesh.walls((5, 0, 1), 6.0, capacity=1), walls)
    a, b, c = mesh.random_points(50, seed=7), mesh.random_points(50, seed=7), mesh.random_points(50, seed=8)
    assert a.shape == (50, 3)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert (a[:, 0] > 0).all() and (a[:, 0] < 10).all() and (a[:, 2] > 0).all() and (a[:, 2] < 10).all()


def test_grid_bake_and_polygon_build():
    blocked = np.zeros((20, 30), np.uint8)
    blocked[5:15, 10:12] = 1  # a wall in the middle
    mesh = sn.Mesh.bake_grid(blocked, cell_size=0.5, agent_radius=0.25)
    path = mesh.path((1, 0, 5), (14, 0, 5))
    assert path.complete and len(path.points) > 2  # around the wall
    hall = hall_with_pillar()
    assert hall.polygon_count == 1
    with pytest.raises(sn.NavError) as e:
        sn.Mesh.bake_grid(np.ones((4, 4)), cell_size=1.0)
    assert e.value.code == sn.Result.NO_GEOMETRY


# -- worlds: obstacles, links, crowds -----------------------------------------------


def test_obstacles_carve_and_uncarve():
    world = sn.World()
    hall = hall_with_pillar()
    mid = world.put_mesh("hall", hall)
    straight = world.path(mid, (1, 0, 2), (11, 0, 2))
    crate = world.add_obstacle(mid, sn.Shape.BOX, (0.5, 0.5), (6, 0, 2))
    around = world.path(mid, (1, 0, 2), (11, 0, 2))
    assert around.complete and around.length > straight.length + 0.1
    assert world.mesh(mid).polygon_count > 1
    carved = world.hash
    world.move_obstacle(crate, (6, 0, 0.5))
    assert world.hash != carved
    world.remove_obstacle(crate)
    assert world.mesh(mid).hash == hall.hash  # uncarved again
    assert world.path(mid, (1, 0, 2), (11, 0, 2)).length == pytest.approx(straight.length)
    with pytest.raises(sn.NavError) as e:
        world.remove_obstacle(crate)
    assert e.value.code == sn.Result.UNKNOWN_ID
    with pytest.raises(sn.NavError) as e:
        world.add_obstacle(mid + 100, sn.Shape.CIRCLE, (1,), (0, 0, 0))
    assert e.value.code == sn.Result.UNKNOWN_ID


def test_links_join_islands():
    v1, i1 = floor(5, 5)
    v2, i2 = floor(5, 5, x0=8)
    mesh = sn.Mesh.bake(np.vstack([v1, v2]), np.vstack([i1, i2 + 4]))
    world = sn.World()
    mid = world.put_mesh("islands", mesh)
    assert not world.path(mid, (2, 0, 2.5), (11, 0, 2.5)).complete
    link, resolved = world.add_link(mid, (4.2, 0, 2.5), (8.8, 0, 2.5), sn.LinkKind.JUMP, radius=1.0)
    assert resolved
    joined = world.path(mid, (2, 0, 2.5), (11, 0, 2.5))
    assert joined.complete
    world.remove_link(link)
    assert not world.path(mid, (2, 0, 2.5), (11, 0, 2.5)).complete


def run_crowd(mesh: sn.Mesh, starts: np.ndarray, goals: np.ndarray, frames: int) -> tuple[sn.World, np.ndarray]:
    world = sn.World()
    mid = world.put_mesh("crowd", mesh)
    ids = world.add_agents(mid, starts)
    for agent, goal in zip(ids, goals):
        world.set_target(int(agent), goal)
    world.step(1.0 / 60.0, frames)
    return world, ids


def test_crowd_walks_deterministically():
    v, i = floor(20, 20)
    mesh = sn.Mesh.bake(v, i)
    starts = np.array([[2, 0, 2 + 3 * k] for k in range(5)], np.float32)
    goals = np.array([[18, 0, 18 - 3 * k] for k in range(5)], np.float32)
    world, ids = run_crowd(mesh, starts, goals, 600)
    assert ids.dtype == np.uint64 and len(ids) == 5
    pos = world.positions(ids)
    assert pos.shape == (5, 3) and pos.dtype == np.float32
    assert all(s == sn.AgentState.ARRIVED for s in world.states(ids))
    assert np.linalg.norm(pos[:, [0, 2]] - goals[:, [0, 2]], axis=1).max() < 0.5
    again, _ = run_crowd(mesh, starts, goals, 600)
    assert again.hash == world.hash
    assert world.velocities(ids).shape == (5, 3)
    slow = sn.AgentSettings.default()
    slow.max_speed = 0.5
    world.set_agent_settings(int(ids[0]), slow)
    world.remove_agent(int(ids[0]))
    with pytest.raises(sn.NavError) as e:
        world.agent(int(ids[0]))
    assert e.value.code == sn.Result.UNKNOWN_ID
    with pytest.raises(sn.NavError) as e:
        world.step(0.0)
    assert e.value.code == sn.Result.INVALID_ARGUMENT


def test_add_agents_is_all_or_nothing():
    world = sn.World()
    mid = world.put_mesh("floor", sn.Mesh.bake(*floor()))
    before = world.hash
    with pytest.raises(sn.NavError):
        world.add_agents(mid, [[1, 0, 1], [2, 0, 2], [500, 0, 500]])
    assert world.hash == before


# -- avoidance and flight --------------------------------------------------------------


def test_avoidance_2d_and_3d():
    avoid = sn.Avoidance()
    pos = np.array([[-2.0, 0.0], [2.0, 0.0]])
    pref = np.array([[1.0, 0.0], [-1.0, 0.0]])
    out = avoid.step_2d(pos, pref, pref, radius=0.5, max_speed=1.5)
    assert out.shape == (2, 2)
    assert abs(out[0, 1]) > 1e-3 or abs(out[1, 1]) > 1e-3  # head-on: someone turns
    np.testing.assert_array_equal(out, avoid.step_2d(pos, pref, pref, radius=0.5, max_speed=1.5))
    wall = sn.AvoidObstacle("segment", points=[[-0.5, -3.0], [-0.5, 3.0]])
    blocked = avoid.step_2d(pos[:1], pref[:1], pref[:1], radius=0.5, obstacles=[wall], dt=0.1)
    assert blocked[0, 0] < 1.0
    with pytest.raises(ValueError):
        avoid.step_2d(pos, pref[:1], pref)
    pos3 = np.array([[0.0, 5.0, -2.0], [0.0, 5.0, 2.0]])
    pref3 = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]])
    out3 = avoid.step_3d(pos3, pref3, pref3, radius=0.5, spheres=[[0.0, 5.0, 0.0, 0.2]])
    assert out3.shape == (2, 3)
    assert np.abs(out3[:, :2]).max() > 1e-3
    bad = sn.AvoidanceDef.default()
    bad.max_agents = -1
    with pytest.raises(sn.NavError) as e:
        sn.Avoidance(bad)
    assert e.value.code in (sn.Result.CONFIG, sn.Result.INVALID_ARGUMENT)


def test_flight_volume():
    d = sn.FlightDef(bounds_min=(0, 0, 0), bounds_max=(20, 10, 20), voxel_size=0.5, flier_radius=0.5)
    flight = sn.FlightVolume(d, boxes=[[8, 0, 0, 12, 10, 14]])  # a wall with a gap at z > 14
    assert flight.dims == (40, 20, 40)
    assert 0 < flight.open_voxels < 40 * 20 * 40
    blocked, t, point = flight.raycast((2, 5, 5), (18, 5, 5))
    assert blocked and 0 < t < 1 and point[0] < 8
    path = flight.path((2, 5, 5), (18, 5, 5))
    assert not path.partial and path.points.shape[1] == 3 and path.points.dtype == np.float64
    assert path.points[:, 2].max() > 14  # through the gap
    with pytest.raises(sn.NavError) as e:
        flight.path((10, 5, 5), (18, 5, 5))  # starts inside the wall
    assert e.value.code == sn.Result.OFF_MESH


def test_closed_handles_refuse():
    mesh = sn.Mesh.bake(*floor())
    with mesh:
        pass
    with pytest.raises(ValueError):
        mesh.polygon_count


# -- the dungeon, against the CLI -------------------------------------------------------


def need_dungeon_and_cli():
    if not DUNGEON.is_file():
        pytest.skip(f"{DUNGEON} is absent (the shared data beside the repository)")
    if not CLI or not Path(CLI).is_file():
        pytest.skip("SPARK_CLI does not name the spark executable")


def spark_run(project: Path, requests: list[dict]) -> list[dict]:
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run([CLI, "run", "-", "--project", str(project)], input=lines, capture_output=True, text=True)
    answers = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    assert all(a["ok"] for a in answers), out.stdout
    return [a["result"] for a in answers]


@pytest.fixture(scope="module")
def dungeon_cli(tmp_path_factory):
    need_dungeon_and_cli()
    project = tmp_path_factory.mktemp("cli")
    shutil.copyfile(DUNGEON, project / "dungeon.obj")
    baked = subprocess.run([CLI, "bake", "dungeon.obj", "-o", "dungeon.navmesh.json", "--project", str(project)],
                           cwd=project, capture_output=True, text=True, check=True).stdout
    return project, baked.split("hash ")[1][:16]


def test_dungeon_bake_has_the_clis_hash(dungeon_cli):
    _, cli_hash = dungeon_cli
    mesh = sn.Mesh.bake(*read_obj(DUNGEON))
    assert mesh.hash_hex == cli_hash
    assert mesh.hash_hex == DUNGEON_HASH


def test_dungeon_crowd_run_has_the_clis_hash(dungeon_cli):
    project, _ = dungeon_cli
    mesh = sn.Mesh.bake(*read_obj(DUNGEON))
    points = mesh.random_points(32, seed=11)
    # Eight walks the mesh can make (the dungeon has floors over floors and islands).
    pairs = [(s, g) for s, g in zip(points[:16], points[16:]) if mesh.path(s, g).complete][:8]
    assert len(pairs) >= 4
    world = sn.World()
    mid = world.put_mesh("dungeon", mesh)
    ids = world.add_agents(mid, np.array([s for s, _ in pairs]))
    for agent, (_, goal) in zip(ids, pairs):
        world.set_target(int(agent), goal)
    world.step(1.0 / 60.0, 120)
    assert any(s == sn.AgentState.MOVING for s in world.states(ids))

    # The same session through the CLI: Python's float32 values are passed as
    # the doubles they are (exactly), so the CLI reads the same floats.
    requests: list[dict] = [{"command": "nav.import", "params": {"name": "dungeon", "path": "dungeon.navmesh.json"}}]
    requests += [{"command": "nav.agent.add",
                  "params": {"mesh": "dungeon", "position": [float(x) for x in s], "radius": 0.4, "height": 1.8}}
                 for s, _ in pairs]
    added = spark_run(project, requests)
    cli_ids = [r["agent"] for r in added[1:]]
    requests += [{"command": "nav.agent.set", "params": {"agent": a, "target": [float(x) for x in g]}}
                 for a, (_, g) in zip(cli_ids, pairs)]
    requests.append({"command": "nav.step", "params": {"frames": 120}})
    requests.append({"command": "nav.hash", "params": {"mesh": "dungeon"}})
    requests += [{"command": "nav.agent.get", "params": {"agent": a}} for a in cli_ids]
    results = spark_run(project, requests)
    got = results[-len(cli_ids):]
    # The crowd (settings, positions, velocities, states, targets, corridors)
    # hashes the same. (The world's hash differs by design: it covers each
    # mesh's source, "c" here and "import" there.)
    assert results[-len(cli_ids) - 1]["crowd_hash"] == world.crowd_hash(mid)
    np.testing.assert_array_equal(np.array([g["position"] for g in got], np.float32), world.positions(ids))
    assert world.crowd_hash(mid) == CROWD_HASH
