"""A walk through spark_nav, notebook style: run it cell by cell (# %% marks
the cells in editors that know them) or as a script. Needs only numpy.

    python3 python/examples/walkthrough.py
"""

# %% A floor with a wall across it, as vertex and index arrays
import numpy as np

import spark_nav as sn

print("libspark_nav", sn.version())


def box(x0, z0, x1, z1, y0=0.0, y1=0.0):
    """The top face of a box (two triangles, counter-clockwise from above)."""
    v = np.array([[x0, y1, z0], [x1, y1, z0], [x1, y1, z1], [x0, y1, z1]], np.float32)
    return v, np.array([[0, 2, 1], [0, 3, 2]], np.uint32)


floor_v, floor_i = box(0, 0, 20, 12)
# A wall 2 m high from z = 0 to z = 8: its four sides, so the floor under it is not walkable.
wall_v = np.array([[9, 0, 0], [11, 0, 0], [11, 0, 8], [9, 0, 8], [9, 2, 0], [11, 2, 0], [11, 2, 8], [9, 2, 8]],
                  np.float32)
wall_i = np.array([[0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7],
                   [4, 5, 6], [4, 6, 7]], np.uint32) + len(floor_v)
vertices = np.vstack([floor_v, wall_v])
indices = np.vstack([floor_i, wall_i])

# %% Bake (Recast's rcConfig is BakeSettings) and look at the result
settings = sn.BakeSettings.default()
settings.agent_radius = 0.5
mesh = sn.Mesh.bake(vertices, indices, settings=settings, one_sided=False)
print(mesh)

# %% Queries: nearest point, a path round the wall, a raycast into it, random points
print("nearest to (5, 3, 5):", mesh.nearest((5, 3, 5)))
path = mesh.path((2, 0, 4), (18, 0, 4))
print(f"path: {len(path.points)} corners, {path.length:.2f} m, complete={path.complete}")
print(path.points.round(2))
hit = mesh.raycast((2, 0, 4), (18, 0, 4))
print(f"raycast: hit={hit.hit} after {hit.fraction:.2f} at {hit.point.round(2)}, normal {hit.normal.round(2)}")
print("random points:\n", mesh.random_points(3, seed=1).round(2))

# %% Save and load the mesh's canonical bytes
data = mesh.to_bytes()
assert sn.Mesh.from_bytes(data).hash == mesh.hash
print(f"{len(data)} bytes, hash {mesh.hash_hex}")

# %% A world: carve a crate (dtTileCache's obstacles), a crowd walks past it (dtCrowd)
world = sn.World()
floor_id = world.put_mesh("floor", mesh)
crate = world.add_obstacle(floor_id, sn.Shape.BOX, (0.6, 0.6), (5, 0, 10))
agents = world.add_agents(floor_id, [[2, 0, 10], [2, 0, 9], [18, 0, 10]])
for agent, goal in zip(agents, [[18, 0, 10], [18, 0, 9], [2, 0, 10]]):
    world.set_target(int(agent), goal)
for second in range(1, 9):
    world.step(1 / 60, frames=60)
    where = " ".join(f"({x:.1f}, {z:.1f})" for x, _, z in world.positions(agents))
    print(f"t={second} s {where}", [s.name for s in world.states(agents)])
print("world hash", world.hash_hex)

# %% ORCA avoidance for your own agents (RVO2's doStep): two walkers head-on
avoid = sn.Avoidance()
pos = np.array([[-3.0, 0.1], [3.0, -0.1]])  # not exactly head-on: ORCA keeps a symmetric pair stuck
goal = -pos
vel = np.zeros((2, 2))
for _ in range(150):
    to_goal = goal - pos
    dist = np.linalg.norm(to_goal, axis=1, keepdims=True)
    preferred = to_goal / np.maximum(dist, 1e-9) * np.minimum(dist, 1.2)
    vel = avoid.step_2d(pos, vel, preferred, radius=0.4, max_speed=1.5, dt=1 / 30)
    pos += vel / 30
print("after 5 s:", pos.round(2).tolist(), "(they passed each other)")

# %% A flight volume: fly over a tower
flight = sn.FlightVolume(sn.FlightDef(bounds_min=(0, 0, 0), bounds_max=(20, 12, 20)), boxes=[[8, 0, 8, 12, 10, 12]])
print("voxels", flight.dims, "open", flight.open_voxels)
route = flight.path((2, 2, 10), (18, 2, 10))
print(f"flight path: {len(route.points)} points, partial={route.partial}")

# %% Errors are exceptions with the library's code and message
try:
    mesh.nearest((5, -40, 5))
except sn.NavError as e:
    print("NavError:", e.code.name, "-", e.message)
