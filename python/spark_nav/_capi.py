"""The C API of libnav (spark/nav_c.h) as ctypes declarations, and where the
shared library is found. Internal: use the classes of :mod:`spark_nav`."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from ctypes import POINTER, c_char_p, c_double, c_float, c_int, c_int64, c_size_t, c_uint8, c_uint32, c_uint64, c_void_p
from pathlib import Path

#: The library's major.minor this package speaks (its SONAME is libspark_nav.so.<this>).
ABI_VERSION = "0.2"
SONAME = f"libspark_nav.so.{ABI_VERSION}"


def _candidates() -> list[str]:
    found = []
    env = os.environ.get("SPARK_NAV_LIBRARY")
    if env:  # an explicit path wins (the tests point it at the build tree)
        return [env]
    here = Path(__file__).resolve().parent
    found.append(str(here / SONAME))  # the copy `pip install` put beside this file
    found.append(SONAME)  # an installed copy the dynamic loader finds (ldconfig, LD_LIBRARY_PATH)
    name = ctypes.util.find_library("spark_nav")
    if name:
        found.append(name)
    return found


def _load() -> ctypes.CDLL:
    errors = []
    for candidate in _candidates():
        try:
            return ctypes.CDLL(candidate)
        except OSError as e:
            errors.append(f"{candidate}: {e}")
    raise ImportError(
        "spark_nav: cannot load libspark_nav (build it with CMake, then `pip install ./python "
        "--no-build-isolation`, or set SPARK_NAV_LIBRARY to the library's path): " + "; ".join(errors)
    )


lib = _load()

# Opaque handles.
Mesh_p = c_void_p
World_p = c_void_p
Avoidance_p = c_void_p
Flight_p = c_void_p
F3 = POINTER(c_float)
D3 = POINTER(c_double)


class BakeSettings(ctypes.Structure):
    _fields_ = [
        ("cell_size", c_float),
        ("cell_height", c_float),
        ("agent_radius", c_float),
        ("agent_height", c_float),
        ("step_height", c_float),
        ("max_slope_deg", c_float),
        ("max_simplification_error", c_float),
        ("max_edge_len", c_float),
        ("max_verts_per_poly", c_int),
        ("min_region_area", c_float),
        ("merge_region_area", c_float),
        ("tile_size", c_int),
        ("threads", c_int),
    ]


class AvoidanceDef(ctypes.Structure):
    _fields_ = [
        ("max_agents", c_int),
        ("max_obstacles", c_int),
        ("max_obstacle_points", c_int),
        ("neighbor_distance", c_double),
        ("max_neighbors", c_int),
        ("time_horizon", c_double),
        ("time_horizon_obstacles", c_double),
        ("overlap_tolerance", c_double),
    ]


class AvoidAgent(ctypes.Structure):
    _fields_ = [
        ("position", c_double * 2),
        ("velocity", c_double * 2),
        ("preferred", c_double * 2),
        ("radius", c_double),
        ("max_speed", c_double),
        ("priority", c_double),
        ("id", c_uint32),
        ("layers", c_uint32),
        ("ignores", c_uint32),
        ("max_neighbors", c_int),
    ]


class AvoidObstacle(ctypes.Structure):
    _fields_ = [
        ("shape", c_int),
        ("center", c_double * 2),
        ("radius", c_double),
        ("points", POINTER(c_double)),
        ("point_count", c_size_t),
        ("velocity", c_double * 2),
    ]


class AvoidAgent3D(ctypes.Structure):
    _fields_ = [
        ("position", c_double * 3),
        ("velocity", c_double * 3),
        ("preferred", c_double * 3),
        ("radius", c_double),
        ("max_speed", c_double),
        ("priority", c_double),
        ("id", c_uint32),
        ("layers", c_uint32),
        ("ignores", c_uint32),
    ]


class AvoidSphere(ctypes.Structure):
    _fields_ = [("center", c_double * 3), ("radius", c_double), ("velocity", c_double * 3)]


class FlightDef(ctypes.Structure):
    _fields_ = [
        ("bounds_min", c_double * 3),
        ("bounds_max", c_double * 3),
        ("voxel_size", c_double),
        ("flier_radius", c_double),
        ("max_voxels", c_int64),
    ]


class AgentSettings(ctypes.Structure):
    _fields_ = [
        ("radius", c_float),
        ("height", c_float),
        ("max_speed", c_float),
        ("max_accel", c_float),
        ("stop_distance", c_float),
        ("slow_radius", c_float),
        ("priority", c_float),
        ("max_neighbors", c_int),
    ]


P = POINTER
_R = c_int  # spark_nav_result
_SIGNATURES = {
    # name: (restype, argtypes)
    "spark_nav_result_string": (c_char_p, [c_int]),
    "spark_nav_version": (c_char_p, []),
    "spark_nav_bake_settings_default": (BakeSettings, []),
    "spark_nav_mesh_bake": (_R, [F3, c_size_t, P(c_uint32), c_size_t, P(c_uint8), c_int, P(BakeSettings), P(Mesh_p)]),
    "spark_nav_mesh_build": (
        _R,
        [F3, c_size_t, P(c_uint32), P(c_uint32), c_size_t, P(c_uint8), c_int, c_float, P(Mesh_p)],
    ),
    "spark_nav_mesh_bake_grid": (
        _R,
        [P(c_uint8), P(c_uint8), c_int, c_int, c_float, c_float, c_float, c_float, P(Mesh_p)],
    ),
    "spark_nav_mesh_save": (_R, [Mesh_p, P(c_uint8), c_size_t, P(c_size_t)]),
    "spark_nav_mesh_load": (_R, [P(c_uint8), c_size_t, P(Mesh_p)]),
    "spark_nav_mesh_destroy": (None, [Mesh_p]),
    "spark_nav_mesh_polygon_count": (_R, [Mesh_p, P(c_uint32)]),
    "spark_nav_mesh_hash": (_R, [Mesh_p, P(c_uint64)]),
    "spark_nav_nearest": (_R, [Mesh_p, F3, F3, F3]),
    "spark_nav_path": (_R, [Mesh_p, F3, F3, F3, F3, c_size_t, P(c_size_t), P(c_float), P(c_int)]),
    "spark_nav_raycast": (_R, [Mesh_p, F3, F3, F3, P(c_int), P(c_float), F3, F3]),
    "spark_nav_walls": (_R, [Mesh_p, F3, c_float, F3, c_size_t, P(c_size_t)]),
    "spark_nav_random_points": (_R, [Mesh_p, c_uint64, c_size_t, F3]),
    "spark_nav_avoidance_def_default": (AvoidanceDef, []),
    "spark_nav_avoidance_create": (_R, [P(AvoidanceDef), P(Avoidance_p)]),
    "spark_nav_avoidance_destroy": (None, [Avoidance_p]),
    "spark_nav_avoid": (
        _R,
        [Avoidance_p, P(AvoidAgent), c_size_t, P(AvoidObstacle), c_size_t, c_double, D3],
    ),
    "spark_nav_avoid_3d": (
        _R,
        [Avoidance_p, P(AvoidAgent3D), c_size_t, P(AvoidSphere), c_size_t, c_double, D3],
    ),
    "spark_nav_flight_def_default": (FlightDef, []),
    "spark_nav_flight_build": (
        _R,
        [P(FlightDef), D3, c_size_t, P(c_uint32), c_size_t, D3, c_size_t, P(Flight_p)],
    ),
    "spark_nav_flight_destroy": (None, [Flight_p]),
    "spark_nav_flight_info": (_R, [Flight_p, P(c_int), P(c_int64)]),
    "spark_nav_flight_raycast": (_R, [Flight_p, D3, D3, P(c_int), P(c_double), D3]),
    "spark_nav_flight_path": (_R, [Flight_p, D3, D3, D3, c_size_t, P(c_size_t), P(c_int)]),
    "spark_nav_world_create": (_R, [P(World_p)]),
    "spark_nav_world_destroy": (None, [World_p]),
    "spark_nav_world_put_mesh": (_R, [World_p, c_char_p, Mesh_p, P(c_uint64)]),
    "spark_nav_world_mesh": (_R, [World_p, c_uint64, P(Mesh_p)]),
    "spark_nav_world_hash": (_R, [World_p, P(c_uint64)]),
    "spark_nav_obstacle_add": (_R, [World_p, c_uint64, c_int, F3, c_float, F3, P(c_uint64)]),
    "spark_nav_obstacle_move": (_R, [World_p, c_uint64, F3, c_float]),
    "spark_nav_obstacle_remove": (_R, [World_p, c_uint64]),
    "spark_nav_link_add": (
        _R,
        [World_p, c_uint64, F3, F3, c_int, c_float, c_int, c_float, c_float, c_float, P(c_uint64), P(c_int)],
    ),
    "spark_nav_link_remove": (_R, [World_p, c_uint64]),
    "spark_nav_world_path": (
        _R,
        [World_p, c_uint64, F3, F3, F3, F3, c_size_t, P(c_size_t), P(c_float), P(c_int)],
    ),
    "spark_nav_agent_settings_default": (AgentSettings, []),
    "spark_nav_agent_add": (_R, [World_p, c_uint64, F3, P(AgentSettings), P(c_uint64)]),
    "spark_nav_agent_set_target": (_R, [World_p, c_uint64, F3]),
    "spark_nav_agent_set_settings": (_R, [World_p, c_uint64, P(AgentSettings)]),
    "spark_nav_agent_remove": (_R, [World_p, c_uint64]),
    "spark_nav_agent_get": (_R, [World_p, c_uint64, F3, F3, P(c_int)]),
    "spark_nav_world_set_plan_budget": (_R, [World_p, c_uint32]),
    "spark_nav_world_get_plan_budget": (_R, [World_p, P(c_uint32)]),
    "spark_nav_world_step": (_R, [World_p, c_double]),
    "spark_nav_world_crowd_hash": (_R, [World_p, c_uint64, P(c_uint64)]),
}

for _name, (_restype, _argtypes) in _SIGNATURES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _restype
    _fn.argtypes = _argtypes
