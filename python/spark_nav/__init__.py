"""spark_nav: Spark's navigation library (libnav) from Python.

A thin layer over the C API (``spark/nav_c.h``) through ctypes: numpy arrays
in and out, one exception for every failure, objects that free their C
handles when collected (or at once with ``close()`` / ``with``).

Points are ``(x, y, z)`` in metres with +Y up; arrays of points have shape
``(n, 3)``. Meshes, crowds and avoidance compute in float32 like the library;
flight volumes and avoidance in double. Everything is deterministic: the same
calls give the same bits, and the same hashes as the ``spark`` command.

    >>> import numpy as np, spark_nav
    >>> floor = np.array([[0, 0, 0], [10, 0, 0], [10, 0, 10], [0, 0, 10]], np.float32)
    >>> mesh = spark_nav.Mesh.bake(floor, [[0, 2, 1], [0, 3, 2]])
    >>> mesh.path((1, 0, 1), (9, 0, 9)).complete
    True
"""

from __future__ import annotations

import ctypes
import enum
from ctypes import byref, c_double, c_float, c_int, c_int64, c_size_t, c_uint8, c_uint32, c_uint64, c_void_p
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _capi
from ._capi import lib as _lib

__all__ = [
    "Result",
    "NavError",
    "BakeSettings",
    "Mesh",
    "Path",
    "RayHit",
    "World",
    "AgentSettings",
    "AgentState",
    "Agent",
    "Shape",
    "LinkKind",
    "Avoidance",
    "AvoidanceDef",
    "AvoidObstacle",
    "FlightDef",
    "FlightVolume",
    "FlightPath",
    "version",
]

ArrayLike = npt.ArrayLike
DEFAULT_EXTENTS = (2.0, 4.0, 2.0)  #: the search box (half sizes) used to find a point's polygon


class Result(enum.IntEnum):
    """The C API's ``spark_nav_result`` codes."""

    OK = 0
    INVALID_ARGUMENT = 1
    BUFFER_TOO_SMALL = 2
    OFF_MESH = 3
    NO_GEOMETRY = 4
    LIMIT = 5
    FORMAT = 6
    CONFIG = 7
    UNKNOWN_ID = 8
    INTERNAL = 9


class NavError(Exception):
    """A call the library refused. ``code`` is the :class:`Result`, ``message``
    the library's description of it, ``function`` the C function that answered.
    A failed call changed nothing."""

    def __init__(self, code: int, function: str):
        self.code = Result(code) if code in Result._value2member_map_ else code
        self.function = function
        self.message = _lib.spark_nav_result_string(int(code)).decode()
        super().__init__(f"{function}: {self.message} ({getattr(self.code, 'name', code)})")


def _check(code: int, function: str) -> None:
    if code != Result.OK:
        raise NavError(code, function)


def version() -> str:
    """The loaded library's version, ``"major.minor.patch"``."""
    return _lib.spark_nav_version().decode()


if not version().startswith(_capi.ABI_VERSION + "."):
    raise ImportError(f"spark_nav {_capi.ABI_VERSION} found libspark_nav {version()}")


# -- array helpers -------------------------------------------------------------


def _f32(a: ArrayLike, cols: int = 3, name: str = "points") -> np.ndarray:
    arr = np.ascontiguousarray(a, dtype=np.float32)
    if arr.ndim == 1 and arr.size % cols == 0:
        arr = arr.reshape(-1, cols)
    if arr.ndim != 2 or arr.shape[1] != cols:
        raise ValueError(f"{name}: expected an array of shape (n, {cols}), got {np.shape(a)}")
    return arr


def _f64(a: ArrayLike, cols: int, name: str) -> np.ndarray:
    arr = np.ascontiguousarray(a, dtype=np.float64)
    if arr.ndim == 1 and arr.size % cols == 0:
        arr = arr.reshape(-1, cols)
    if arr.ndim != 2 or arr.shape[1] != cols:
        raise ValueError(f"{name}: expected an array of shape (n, {cols}), got {np.shape(a)}")
    return arr


def _point(p: ArrayLike, name: str = "point") -> ctypes.Array:
    v = np.asarray(p, dtype=np.float32).reshape(-1)
    if v.size != 3:
        raise ValueError(f"{name}: expected 3 numbers (x, y, z), got {np.shape(p)}")
    return (c_float * 3)(*v.tolist())


def _point_d(p: ArrayLike, name: str = "point") -> ctypes.Array:
    v = np.asarray(p, dtype=np.float64).reshape(-1)
    if v.size != 3:
        raise ValueError(f"{name}: expected 3 numbers (x, y, z), got {np.shape(p)}")
    return (c_double * 3)(*v.tolist())


def _ptr(arr: Optional[np.ndarray], ctype):
    return None if arr is None else arr.ctypes.data_as(ctypes.POINTER(ctype))


def _u32(a: ArrayLike, name: str) -> np.ndarray:
    arr = np.asarray(a)
    if arr.size and (not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0 or arr.max() > 0xFFFFFFFF):
        raise ValueError(f"{name}: expected non-negative integers")
    return np.ascontiguousarray(arr, dtype=np.uint32).reshape(-1)


def _areas(a: Optional[ArrayLike], count: int, name: str = "areas") -> Optional[np.ndarray]:
    if a is None:
        return None
    arr = np.ascontiguousarray(a, dtype=np.uint8).reshape(-1)
    if arr.size != count:
        raise ValueError(f"{name}: expected {count} values, got {arr.size}")
    return arr


def _three(v: np.ndarray) -> np.ndarray:
    return np.array(v[:], dtype=np.float32)


def _library_defaults(default_fn) -> dict:
    """The values of a C settings struct the library's ``…_default()`` returns, by field."""
    c = default_fn()
    return {name: getattr(c, name) for name, _ in type(c)._fields_}


class _Settings:
    """A dataclass mirroring a C settings struct (``_struct``): the same
    fields, the library's defaults as its defaults."""

    _struct: type

    @classmethod
    def default(cls):
        """The library's defaults."""
        return cls()

    def _c(self):
        return self._struct(**{name: getattr(self, name) for name, _ in self._struct._fields_})


# -- meshes ----------------------------------------------------------------------


_BAKE = _library_defaults(_lib.spark_nav_bake_settings_default)


@dataclass
class BakeSettings(_Settings):
    """Settings of a triangle bake (Recast's rcConfig; lengths in metres). The
    defaults are the library's (radius 0.4, height 1.8, step 0.4, cells 0.2 × 0.1, slope 45)."""

    _struct = _capi.BakeSettings
    cell_size: float = _BAKE["cell_size"]
    cell_height: float = _BAKE["cell_height"]
    agent_radius: float = _BAKE["agent_radius"]
    agent_height: float = _BAKE["agent_height"]
    step_height: float = _BAKE["step_height"]
    max_slope_deg: float = _BAKE["max_slope_deg"]
    max_simplification_error: float = _BAKE["max_simplification_error"]  #: cells
    max_edge_len: float = _BAKE["max_edge_len"]
    max_verts_per_poly: int = _BAKE["max_verts_per_poly"]  #: 3..6
    min_region_area: float = _BAKE["min_region_area"]  #: m²
    merge_region_area: float = _BAKE["merge_region_area"]  #: m²; 0 = no merging
    tile_size: int = _BAKE["tile_size"]  #: cells; 0 = one grid, else square tiles of this many cells
    threads: int = _BAKE["threads"]  #: threads baking tiles; 0 = the hardware's (same mesh for any count)


@dataclass
class Path:
    """A path's corner points ``(n, 3)``, its length, and whether it reaches the goal
    (otherwise it ends at the closest reachable point)."""

    points: np.ndarray
    length: float
    complete: bool


@dataclass
class RayHit:
    """Where a walk along the mesh stopped: ``hit`` a wall, after ``fraction``
    of the segment, at ``point``; ``normal`` the wall's outward normal."""

    hit: bool
    fraction: float
    point: np.ndarray
    normal: np.ndarray


class _Handle:
    _destroy = None  # the C function that frees the handle

    def __init__(self, handle: c_void_p):
        self._h = handle

    def close(self) -> None:
        """Frees the C object now (it is freed when collected otherwise)."""
        if getattr(self, "_h", None):
            type(self)._destroy(self._h)
            self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def _handle(self) -> c_void_p:
        if not self._h:
            raise ValueError(f"{type(self).__name__} is closed")
        return self._h


def _grown(call, name: str, capacity: int, columns: int, dtype) -> np.ndarray:
    """Runs ``call(out, capacity, count_pointer)`` of a C function that writes
    rows into ``out``; when the capacity was short (the library then writes
    nothing and says how many rows it needs) once more with that many.
    Returns the rows written, ``(count, columns)``."""
    count = c_size_t()
    while True:
        out = np.zeros((capacity, columns), dtype)
        code = call(out, capacity, byref(count))
        if code == Result.BUFFER_TOO_SMALL and count.value > capacity:
            capacity = count.value
            continue
        _check(code, name)
        return out[: count.value].copy()


def _path_call(fn, name: str, head: tuple, start, goal, extents, capacity: int = 64) -> Path:
    """Calls a path function (spark_nav_path, spark_nav_world_path)."""
    a, b, e = _point(start, "start"), _point(goal, "goal"), _point(extents, "extents")
    length, complete = c_float(), c_int()
    points = _grown(
        lambda out, cap, count: fn(*head, a, b, e, _ptr(out, c_float), cap, count, byref(length), byref(complete)),
        name, capacity, 3, np.float32)
    return Path(points, float(length.value), bool(complete.value))


class Mesh(_Handle):
    """A navigation mesh (Detour's dtNavMesh with its query): baked, built or
    loaded; queried for nearest points, paths, raycasts, walls and random points."""

    _destroy = _lib.spark_nav_mesh_destroy

    @classmethod
    def bake(
        cls,
        vertices: ArrayLike,
        indices: ArrayLike,
        areas: Optional[ArrayLike] = None,
        *,
        one_sided: bool = True,
        settings: Optional[BakeSettings] = None,
    ) -> "Mesh":
        """Bakes triangles: ``vertices`` ``(n, 3)``, ``indices`` ``(m, 3)`` (or
        flat, 3 per triangle), ``areas`` one per triangle or None (area 0).
        ``one_sided``: only triangles whose counter-clockwise side faces up can
        be walkable (OBJ meshes)."""
        v = _f32(vertices, 3, "vertices")
        i = _u32(indices, "indices")
        if i.size % 3:
            raise ValueError("indices: expected 3 per triangle")
        ar = _areas(areas, i.size // 3)
        s = (settings or BakeSettings.default())._c()
        out = c_void_p()
        _check(
            _lib.spark_nav_mesh_bake(
                _ptr(v, c_float), len(v), _ptr(i, c_uint32), i.size, _ptr(ar, c_uint8), int(one_sided), byref(s),
                byref(out)
            ),
            "spark_nav_mesh_bake",
        )
        return cls(out)

    @classmethod
    def build(
        cls,
        vertices: ArrayLike,
        polygons: Sequence[Sequence[int]],
        areas: Optional[ArrayLike] = None,
        *,
        is_2d: bool = False,
        agent_radius: float = 0.0,
    ) -> "Mesh":
        """Builds a mesh from convex counter-clockwise polygons (lists of
        vertex indices). ``agent_radius`` is what the polygons were eroded by
        (obstacles are grown by it); ``is_2d``: every vertex has y = 0."""
        v = _f32(vertices, 3, "vertices")
        flat = [int(k) for poly in polygons for k in poly]
        starts = np.cumsum([0] + [len(p) for p in polygons]).astype(np.uint32)
        i = _u32(flat, "polygons")
        ar = _areas(areas, len(polygons))
        out = c_void_p()
        _check(
            _lib.spark_nav_mesh_build(
                _ptr(v, c_float), len(v), _ptr(i, c_uint32), _ptr(starts, c_uint32), len(polygons),
                _ptr(ar, c_uint8), int(is_2d), agent_radius, byref(out)
            ),
            "spark_nav_mesh_build",
        )
        return cls(out)

    @classmethod
    def bake_grid(
        cls,
        blocked: ArrayLike,
        *,
        cell_size: float,
        origin: tuple[float, float] = (0.0, 0.0),
        agent_radius: float = 0.0,
        areas: Optional[ArrayLike] = None,
    ) -> "Mesh":
        """Bakes a 2D grid: ``blocked`` has shape ``(height, width)``, non-zero
        = blocked; cell ``[0, 0]`` has its low corner at ``origin`` (x, y of
        the plane, which is x, z in space). Walkable cells are eroded by
        ``agent_radius`` and covered by rectangles."""
        b = np.ascontiguousarray(blocked)
        if b.ndim != 2:
            raise ValueError("blocked: expected a 2D array (height, width)")
        b = np.ascontiguousarray(b != 0, dtype=np.uint8)
        ar = None if areas is None else np.ascontiguousarray(areas, dtype=np.uint8)
        if ar is not None and ar.shape != b.shape:
            raise ValueError("areas: expected the shape of blocked")
        out = c_void_p()
        _check(
            _lib.spark_nav_mesh_bake_grid(
                _ptr(b, c_uint8), _ptr(ar, c_uint8), b.shape[1], b.shape[0], cell_size, origin[0], origin[1],
                agent_radius, byref(out)
            ),
            "spark_nav_mesh_bake_grid",
        )
        return cls(out)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Mesh":
        """A mesh from the canonical bytes :meth:`to_bytes` wrote (checked again)."""
        buf = np.frombuffer(bytes(data), dtype=np.uint8)
        out = c_void_p()
        _check(_lib.spark_nav_mesh_load(_ptr(buf, c_uint8), buf.size, byref(out)), "spark_nav_mesh_load")
        return cls(out)

    def to_bytes(self) -> bytes:
        """The mesh's canonical bytes (what its hash hashes). A carved mesh is refused."""
        size = c_size_t()
        _check(_lib.spark_nav_mesh_save(self._handle, None, 0, byref(size)), "spark_nav_mesh_save")
        buf = np.zeros(size.value, np.uint8)
        _check(_lib.spark_nav_mesh_save(self._handle, _ptr(buf, c_uint8), buf.size, byref(size)), "spark_nav_mesh_save")
        return buf.tobytes()

    @classmethod
    def load(cls, path: str) -> "Mesh":
        """Imports a mesh from a file :meth:`save` wrote."""
        with open(path, "rb") as f:
            return cls.from_bytes(f.read())

    def save(self, path: str) -> None:
        """Exports the mesh's canonical bytes to a file."""
        data = self.to_bytes()
        with open(path, "wb") as f:
            f.write(data)

    @property
    def polygon_count(self) -> int:
        """Walkable polygons."""
        n = c_uint32()
        _check(_lib.spark_nav_mesh_polygon_count(self._handle, byref(n)), "spark_nav_mesh_polygon_count")
        return n.value

    @property
    def hash(self) -> int:
        """XXH3-64 of the canonical bytes (the ``spark`` command prints it as :attr:`hash_hex`)."""
        h = c_uint64()
        _check(_lib.spark_nav_mesh_hash(self._handle, byref(h)), "spark_nav_mesh_hash")
        return h.value

    @property
    def hash_hex(self) -> str:
        """The hash as 16 lower-case hex digits."""
        return f"{self.hash:016x}"

    def nearest(self, point: ArrayLike, extents: ArrayLike = DEFAULT_EXTENTS) -> np.ndarray:
        """The nearest point of the mesh within ``point ± extents``
        (:class:`NavError` ``OFF_MESH`` when there is none)."""
        out = (c_float * 3)()
        _check(
            _lib.spark_nav_nearest(self._handle, _point(point), _point(extents, "extents"), out), "spark_nav_nearest"
        )
        return _three(out)

    def path(self, start: ArrayLike, goal: ArrayLike, extents: ArrayLike = DEFAULT_EXTENTS) -> Path:
        """A path (A* over polygons, then string pulling): Detour's findPath + findStraightPath."""
        return _path_call(_lib.spark_nav_path, "spark_nav_path", (self._handle,), start, goal, extents)

    def raycast(self, start: ArrayLike, end: ArrayLike, extents: ArrayLike = DEFAULT_EXTENTS) -> RayHit:
        """Walks the segment across the mesh and stops at the first wall."""
        hit, frac, point, normal = c_int(), c_float(), (c_float * 3)(), (c_float * 3)()
        _check(
            _lib.spark_nav_raycast(
                self._handle, _point(start, "start"), _point(end, "end"), _point(extents, "extents"), byref(hit),
                byref(frac), point, normal
            ),
            "spark_nav_raycast",
        )
        return RayHit(bool(hit.value), float(frac.value), _three(point), _three(normal))

    def walls(self, point: ArrayLike, range: float, capacity: int = 64) -> np.ndarray:
        """The walls within ``range`` of ``point``, nearest first: an array of
        shape ``(n, 3, 3)`` (start, end, outward normal)."""
        p = _point(point)
        walls = _grown(
            lambda out, cap, count: _lib.spark_nav_walls(self._handle, p, range, _ptr(out, c_float), cap, count),
            "spark_nav_walls", capacity, 9, np.float32)
        return walls.reshape(-1, 3, 3)

    def random_points(self, count: int, seed: int = 0) -> np.ndarray:
        """``count`` points uniform by area, from a generator seeded with ``seed``: ``(count, 3)``."""
        out = np.zeros((count, 3), np.float32)
        _check(
            _lib.spark_nav_random_points(self._handle, seed & 0xFFFFFFFFFFFFFFFF, count, _ptr(out, c_float)),
            "spark_nav_random_points",
        )
        return out

    def __repr__(self) -> str:
        return f"<spark_nav.Mesh {self.polygon_count} polygons, hash {self.hash_hex}>" if self._h else "<closed Mesh>"


# -- worlds: obstacles, links, crowds ---------------------------------------------


class Shape(enum.IntEnum):
    """Obstacle footprints: a circle (``size[0]`` = radius) or a box (half extents x, z)."""

    CIRCLE = 0
    BOX = 1


class LinkKind(enum.IntEnum):
    """Off-mesh links: a jump (an arc) or a drop (down along the line)."""

    JUMP = 0
    DROP = 1


class AgentState(enum.IntEnum):
    IDLE = 0
    MOVING = 1
    ARRIVED = 2
    NO_PATH = 3
    OFF_MESH = 4


_AGENT = _library_defaults(_lib.spark_nav_agent_settings_default)


@dataclass
class AgentSettings(_Settings):
    """A crowd agent (DetourCrowd's dtCrowdAgentParams). The defaults are the
    library's (radius 0.4, height 1.8, speed 3.5, accel 8, ...)."""

    _struct = _capi.AgentSettings
    radius: float = _AGENT["radius"]
    height: float = _AGENT["height"]
    max_speed: float = _AGENT["max_speed"]
    max_accel: float = _AGENT["max_accel"]
    stop_distance: float = _AGENT["stop_distance"]
    slow_radius: float = _AGENT["slow_radius"]
    priority: float = _AGENT["priority"]
    max_neighbors: int = _AGENT["max_neighbors"]


@dataclass
class Agent:
    """An agent's position, velocity and state."""

    position: np.ndarray
    velocity: np.ndarray
    state: AgentState


class World(_Handle):
    """Meshes with carved obstacles (dtTileCache), off-mesh links and crowds
    (dtCrowd). Ids are 64-bit integers; a removed id is never reused."""

    _destroy = _lib.spark_nav_world_destroy

    def __init__(self) -> None:
        out = c_void_p()
        _check(_lib.spark_nav_world_create(byref(out)), "spark_nav_world_create")
        super().__init__(out)

    def put_mesh(self, name: str, mesh: Mesh) -> int:
        """Puts a copy of ``mesh`` under ``name`` (replacing one of that name,
        which keeps its obstacles and agents); returns its id."""
        out = c_uint64()
        _check(
            _lib.spark_nav_world_put_mesh(self._handle, name.encode(), mesh._handle, byref(out)),
            "spark_nav_world_put_mesh",
        )
        return out.value

    def mesh(self, mesh_id: int) -> Mesh:
        """The current mesh (baked minus obstacles) as a new :class:`Mesh`."""
        out = c_void_p()
        _check(_lib.spark_nav_world_mesh(self._handle, mesh_id, byref(out)), "spark_nav_world_mesh")
        return Mesh(out)

    @property
    def hash(self) -> int:
        """The world's state hash (meshes, obstacles, links, agents): what ``nav.step`` prints."""
        h = c_uint64()
        _check(_lib.spark_nav_world_hash(self._handle, byref(h)), "spark_nav_world_hash")
        return h.value

    @property
    def hash_hex(self) -> str:
        return f"{self.hash:016x}"

    def crowd_hash(self, mesh_id: int) -> str:
        """The hash of the crowd on a mesh (its agents: settings, positions,
        velocities, states, targets, corridors) as 16 hex digits: what the
        ``spark`` command's ``nav.hash`` and ``nav.info`` answer as ``crowd_hash``."""
        h = c_uint64()
        _check(_lib.spark_nav_world_crowd_hash(self._handle, mesh_id, byref(h)), "spark_nav_world_crowd_hash")
        return f"{h.value:016x}"

    @property
    def plan_budget(self) -> int:
        """Search nodes each mesh's crowd spends per step on corridor searches
        (new targets, re-plans; first come first served, the rest wait for the
        next step): 1 .. 2**30, default 2**24."""
        n = c_uint32()
        _check(_lib.spark_nav_world_get_plan_budget(self._handle, byref(n)), "spark_nav_world_get_plan_budget")
        return n.value

    @plan_budget.setter
    def plan_budget(self, nodes: int) -> None:
        if not 0 <= int(nodes) < 2**32:  # (ctypes would wrap it; the library checks 1 .. 2**30)
            raise NavError(Result.INVALID_ARGUMENT, "spark_nav_world_set_plan_budget")
        _check(_lib.spark_nav_world_set_plan_budget(self._handle, int(nodes)), "spark_nav_world_set_plan_budget")

    # Obstacles (carving)
    def add_obstacle(
        self, mesh_id: int, shape: Shape, size: Sequence[float], position: ArrayLike, angle_deg: float = 0.0
    ) -> int:
        """Carves an obstacle (its footprint grown by the mesh's agent radius)
        at ``position`` (its base); returns its id."""
        sz = (c_float * 2)(*[float(x) for x in (list(size) + [0.0])[:2]])
        out = c_uint64()
        _check(
            _lib.spark_nav_obstacle_add(
                self._handle, mesh_id, int(shape), sz, angle_deg, _point(position, "position"), byref(out)
            ),
            "spark_nav_obstacle_add",
        )
        return out.value

    def move_obstacle(self, obstacle_id: int, position: ArrayLike, angle_deg: float = 0.0) -> None:
        """Moves (and turns: boxes) an obstacle; only the polygons under its footprints are cut again."""
        _check(
            _lib.spark_nav_obstacle_move(self._handle, obstacle_id, _point(position, "position"), angle_deg),
            "spark_nav_obstacle_move",
        )

    def remove_obstacle(self, obstacle_id: int) -> None:
        _check(_lib.spark_nav_obstacle_remove(self._handle, obstacle_id), "spark_nav_obstacle_remove")

    # Off-mesh links
    def add_link(
        self,
        mesh_id: int,
        start: ArrayLike,
        end: ArrayLike,
        kind: LinkKind = LinkKind.JUMP,
        *,
        radius: float = 0.5,
        bidirectional: bool = True,
        cost: float = 1.0,
        speed: float = 3.0,
        arc_height: float = 1.0,
    ) -> tuple[int, bool]:
        """Adds an off-mesh link (dtOffMeshConnection); returns its id and
        whether both ends snapped to polygons within ``radius``."""
        out, resolved = c_uint64(), c_int()
        _check(
            _lib.spark_nav_link_add(
                self._handle, mesh_id, _point(start, "start"), _point(end, "end"), int(kind), radius,
                int(bidirectional), cost, speed, arc_height, byref(out), byref(resolved)
            ),
            "spark_nav_link_add",
        )
        return out.value, bool(resolved.value)

    def remove_link(self, link_id: int) -> None:
        _check(_lib.spark_nav_link_remove(self._handle, link_id), "spark_nav_link_remove")

    def path(self, mesh_id: int, start: ArrayLike, goal: ArrayLike, extents: ArrayLike = DEFAULT_EXTENTS) -> Path:
        """A path on the current (carved) mesh that takes the resolved off-mesh links."""
        return _path_call(
            _lib.spark_nav_world_path, "spark_nav_world_path", (self._handle, mesh_id), start, goal, extents
        )

    # Crowds
    def add_agent(self, mesh_id: int, position: ArrayLike, settings: Optional[AgentSettings] = None) -> int:
        """Adds a crowd agent at ``position``; returns its id."""
        s = (settings or AgentSettings.default())._c()
        out = c_uint64()
        _check(
            _lib.spark_nav_agent_add(self._handle, mesh_id, _point(position, "position"), byref(s), byref(out)),
            "spark_nav_agent_add",
        )
        return out.value

    def add_agents(
        self, mesh_id: int, positions: ArrayLike, settings: Optional[AgentSettings] = None
    ) -> np.ndarray:
        """Adds one agent per row of ``positions`` ``(n, 3)``; returns their ids
        (uint64). All are added or, on the first refusal, none (the exception says why)."""
        pts = _f32(positions, 3, "positions")
        ids: list[int] = []
        try:
            for p in pts:
                ids.append(self.add_agent(mesh_id, p, settings))
        except NavError:
            for i in ids:
                self.remove_agent(i)
            raise
        return np.array(ids, dtype=np.uint64)

    def set_target(self, agent_id: int, target: ArrayLike) -> None:
        """Sends an agent to ``target`` (it plans a corridor there)."""
        _check(
            _lib.spark_nav_agent_set_target(self._handle, agent_id, _point(target, "target")),
            "spark_nav_agent_set_target",
        )

    def set_agent_settings(self, agent_id: int, settings: AgentSettings) -> None:
        s = settings._c()
        _check(_lib.spark_nav_agent_set_settings(self._handle, agent_id, byref(s)), "spark_nav_agent_set_settings")

    def remove_agent(self, agent_id: int) -> None:
        _check(_lib.spark_nav_agent_remove(self._handle, agent_id), "spark_nav_agent_remove")

    def agent(self, agent_id: int) -> Agent:
        """An agent's position, velocity and state."""
        p, v, s = (c_float * 3)(), (c_float * 3)(), c_int()
        _check(_lib.spark_nav_agent_get(self._handle, agent_id, p, v, byref(s)), "spark_nav_agent_get")
        return Agent(_three(p), _three(v), AgentState(s.value))

    def positions(self, agent_ids: Iterable[int]) -> np.ndarray:
        """The agents' positions as an array ``(n, 3)``, in the order of ``agent_ids``."""
        ids = list(agent_ids)
        out = np.zeros((len(ids), 3), np.float32)
        for row, i in enumerate(ids):
            _check(
                _lib.spark_nav_agent_get(self._handle, int(i), _ptr(out[row], c_float), None, None),
                "spark_nav_agent_get",
            )
        return out

    def velocities(self, agent_ids: Iterable[int]) -> np.ndarray:
        """The agents' velocities ``(n, 3)``."""
        ids = list(agent_ids)
        out = np.zeros((len(ids), 3), np.float32)
        for row, i in enumerate(ids):
            _check(
                _lib.spark_nav_agent_get(self._handle, int(i), None, _ptr(out[row], c_float), None),
                "spark_nav_agent_get",
            )
        return out

    def states(self, agent_ids: Iterable[int]) -> list[AgentState]:
        """The agents' states."""
        return [self.agent(int(i)).state for i in agent_ids]

    def step(self, dt: float = 1.0 / 60.0, frames: int = 1) -> None:
        """Advances every crowd by ``dt`` seconds (0 < dt <= 1), ``frames`` times."""
        for _ in range(frames):
            _check(_lib.spark_nav_world_step(self._handle, dt), "spark_nav_world_step")


# -- avoidance (ORCA): a host's own agents ------------------------------------------


_AVOIDANCE = _library_defaults(_lib.spark_nav_avoidance_def_default)


@dataclass
class AvoidanceDef(_Settings):
    """Capacities and horizons of an :class:`Avoidance` (RVO2's simulator
    settings). The defaults are the library's (1024 agents, 10 neighbours within 15 m, ...)."""

    _struct = _capi.AvoidanceDef
    max_agents: int = _AVOIDANCE["max_agents"]
    max_obstacles: int = _AVOIDANCE["max_obstacles"]
    max_obstacle_points: int = _AVOIDANCE["max_obstacle_points"]
    neighbor_distance: float = _AVOIDANCE["neighbor_distance"]
    max_neighbors: int = _AVOIDANCE["max_neighbors"]
    time_horizon: float = _AVOIDANCE["time_horizon"]
    time_horizon_obstacles: float = _AVOIDANCE["time_horizon_obstacles"]
    overlap_tolerance: float = _AVOIDANCE["overlap_tolerance"]


@dataclass
class AvoidObstacle:
    """An obstacle on the plane: a circle (``center``, ``radius``), a segment
    (2 points) or a counter-clockwise polygon (>= 3 points); points are (x, z)."""

    shape: str  # "circle", "segment", "polygon"
    center: tuple[float, float] = (0.0, 0.0)
    radius: float = 0.0
    points: Optional[ArrayLike] = None
    velocity: tuple[float, float] = (0.0, 0.0)


_AVOID_SHAPES = {"circle": 0, "segment": 1, "polygon": 2}


def _column(value, n: int) -> np.ndarray:
    return np.ascontiguousarray(np.broadcast_to(np.asarray(value, dtype=np.float64), (n,)))


def _avoid_agents(struct, dims: int, positions, velocities, preferred, radius, max_speed, priority):
    """The C array of ``struct`` (AvoidAgent or AvoidAgent3D) for n agents, and n.
    Ids are the rows; every agent is on layer 1 and ignores none."""
    pos = _f64(positions, dims, "positions")
    n = len(pos)
    vel, pref = _f64(velocities, dims, "velocities"), _f64(preferred, dims, "preferred")
    if len(vel) != n or len(pref) != n:
        raise ValueError("positions, velocities and preferred must have the same number of rows")
    rad, spd, pri = _column(radius, n), _column(max_speed, n), _column(priority, n)
    agents = (struct * max(n, 1))()
    for i in range(n):
        a = agents[i]
        a.position[:] = pos[i].tolist()
        a.velocity[:] = vel[i].tolist()
        a.preferred[:] = pref[i].tolist()
        a.radius, a.max_speed, a.priority = float(rad[i]), float(spd[i]), float(pri[i])
        a.id, a.layers, a.ignores = i, 1, 0  # AvoidAgent's max_neighbors stays 0: the definition's
    return agents, n


class Avoidance(_Handle):
    """ORCA velocity selection for a host's own agents, on the plane
    (:meth:`step_2d`, like RVO2) or in space (:meth:`step_3d`, like RVO2-3D)."""

    _destroy = _lib.spark_nav_avoidance_destroy

    def __init__(self, definition: Optional[AvoidanceDef] = None):
        d = (definition or AvoidanceDef.default())._c()
        out = c_void_p()
        _check(_lib.spark_nav_avoidance_create(byref(d), byref(out)), "spark_nav_avoidance_create")
        super().__init__(out)

    def step_2d(
        self,
        positions: ArrayLike,
        velocities: ArrayLike,
        preferred: ArrayLike,
        *,
        radius: Union[float, ArrayLike] = 0.4,
        max_speed: Union[float, ArrayLike] = 2.0,
        priority: Union[float, ArrayLike] = 1.0,
        obstacles: Sequence[AvoidObstacle] = (),
        dt: float = 1.0 / 60.0,
    ) -> np.ndarray:
        """One step for ``n`` agents on the plane: ``positions``, ``velocities``,
        ``preferred`` velocities ``(n, 2)`` as (x, z); ``radius``, ``max_speed`` and
        ``priority`` (> 0; a pair shares the avoidance by it) one per agent or one for all.
        Returns the new velocities ``(n, 2)``."""
        agents, n = _avoid_agents(_capi.AvoidAgent, 2, positions, velocities, preferred, radius, max_speed, priority)
        obs = (_capi.AvoidObstacle * max(len(obstacles), 1))()
        keep = []  # the point arrays must live through the call
        for k, o in enumerate(obstacles):
            if o.shape not in _AVOID_SHAPES:
                raise ValueError(f"obstacles[{k}].shape: one of {sorted(_AVOID_SHAPES)}")
            c = obs[k]
            c.shape = _AVOID_SHAPES[o.shape]
            c.center[:] = [float(x) for x in o.center]
            c.radius = float(o.radius)
            c.velocity[:] = [float(x) for x in o.velocity]
            if o.points is not None:
                pts = _f64(o.points, 2, f"obstacles[{k}].points")
                keep.append(pts)
                c.points, c.point_count = _ptr(pts, c_double), len(pts)
        out = np.zeros((n, 2), np.float64)
        _check(
            _lib.spark_nav_avoid(self._handle, agents, n, obs, len(obstacles), dt, _ptr(out, c_double)),
            "spark_nav_avoid",
        )
        return out

    def step_3d(
        self,
        positions: ArrayLike,
        velocities: ArrayLike,
        preferred: ArrayLike,
        *,
        radius: Union[float, ArrayLike] = 0.5,
        max_speed: Union[float, ArrayLike] = 2.0,
        priority: Union[float, ArrayLike] = 1.0,
        spheres: Optional[ArrayLike] = None,
        dt: float = 1.0 / 60.0,
    ) -> np.ndarray:
        """One step for ``n`` fliers: arrays ``(n, 3)``; ``spheres`` ``(k, 4)``
        (center x, y, z, radius) or ``(k, 7)`` (and velocity). Returns ``(n, 3)``."""
        agents, n = _avoid_agents(_capi.AvoidAgent3D, 3, positions, velocities, preferred, radius, max_speed, priority)
        sph = np.zeros((0, 7)) if spheres is None else np.asarray(spheres, dtype=np.float64)
        if sph.ndim != 2 or sph.shape[1] not in (4, 7):
            raise ValueError("spheres: expected shape (k, 4) or (k, 7)")
        cs = (_capi.AvoidSphere * max(len(sph), 1))()
        for k, row in enumerate(sph):
            cs[k].center[:] = row[:3].tolist()
            cs[k].radius = float(row[3])
            if len(row) == 7:
                cs[k].velocity[:] = row[4:7].tolist()
        out = np.zeros((n, 3), np.float64)
        _check(
            _lib.spark_nav_avoid_3d(self._handle, agents, n, cs, len(sph), dt, _ptr(out, c_double)),
            "spark_nav_avoid_3d",
        )
        return out


# -- flight volumes ------------------------------------------------------------------


_FLIGHT_DEFAULT = _lib.spark_nav_flight_def_default()


@dataclass
class FlightDef:
    """A flight volume's box, voxel size and flier radius (metres); ``max_voxels``
    bounds the work. The defaults are the library's (100 × 20 × 100 m from
    (-50, 0, -50), voxels 0.5 m, radius 0.5)."""

    bounds_min: tuple[float, float, float] = tuple(_FLIGHT_DEFAULT.bounds_min)
    bounds_max: tuple[float, float, float] = tuple(_FLIGHT_DEFAULT.bounds_max)
    voxel_size: float = _FLIGHT_DEFAULT.voxel_size
    flier_radius: float = _FLIGHT_DEFAULT.flier_radius
    max_voxels: int = _FLIGHT_DEFAULT.max_voxels

    @classmethod
    def default(cls) -> "FlightDef":
        return cls()

    def _c(self) -> _capi.FlightDef:
        d = _capi.FlightDef()
        d.bounds_min[:] = [float(x) for x in self.bounds_min]
        d.bounds_max[:] = [float(x) for x in self.bounds_max]
        d.voxel_size, d.flier_radius, d.max_voxels = self.voxel_size, self.flier_radius, int(self.max_voxels)
        return d


@dataclass
class FlightPath:
    """A path through open space ``(n, 3)`` (float64); ``partial`` when it ends nearest an unreachable goal."""

    points: np.ndarray
    partial: bool


class FlightVolume(_Handle):
    """Open space for fliers: solid triangles and boxes voxelised, eroded by the flier radius."""

    _destroy = _lib.spark_nav_flight_destroy

    def __init__(
        self,
        definition: Optional[FlightDef] = None,
        *,
        vertices: Optional[ArrayLike] = None,
        indices: Optional[ArrayLike] = None,
        boxes: Optional[ArrayLike] = None,
    ):
        d = (definition or FlightDef.default())._c()
        v = None if vertices is None else _f64(vertices, 3, "vertices")
        i = None if indices is None else _u32(indices, "indices")
        b = None if boxes is None else _f64(boxes, 6, "boxes")
        out = c_void_p()
        _check(
            _lib.spark_nav_flight_build(
                byref(d), _ptr(v, c_double), 0 if v is None else len(v), _ptr(i, c_uint32), 0 if i is None else i.size,
                _ptr(b, c_double), 0 if b is None else len(b), byref(out)
            ),
            "spark_nav_flight_build",
        )
        super().__init__(out)

    @property
    def dims(self) -> tuple[int, int, int]:
        """Voxels per axis."""
        dims = (c_int * 3)()
        _check(_lib.spark_nav_flight_info(self._handle, dims, None), "spark_nav_flight_info")
        return tuple(dims)

    @property
    def open_voxels(self) -> int:
        """How many voxels are open (after erosion)."""
        n = c_int64()
        _check(_lib.spark_nav_flight_info(self._handle, None, byref(n)), "spark_nav_flight_info")
        return n.value

    def raycast(self, start: ArrayLike, end: ArrayLike) -> tuple[bool, float, np.ndarray]:
        """The first blocked point along a segment: (blocked, fraction before it, point)."""
        blocked, t, p = c_int(), c_double(), (c_double * 3)()
        _check(
            _lib.spark_nav_flight_raycast(
                self._handle, _point_d(start, "start"), _point_d(end, "end"), byref(blocked), byref(t), p
            ),
            "spark_nav_flight_raycast",
        )
        return bool(blocked.value), float(t.value), np.array(p[:], np.float64)

    def path(self, start: ArrayLike, goal: ArrayLike, capacity: int = 256) -> FlightPath:
        """A path through open space (A* over voxels, smoothed by raycasts)."""
        a, b = _point_d(start, "start"), _point_d(goal, "goal")
        partial = c_int()
        points = _grown(
            lambda out, cap, count: _lib.spark_nav_flight_path(
                self._handle, a, b, _ptr(out, c_double), cap, count, byref(partial)),
            "spark_nav_flight_path", capacity, 3, np.float64)
        return FlightPath(points, bool(partial.value))
