#pragma once
/// \file bake.h
/// `spark bake INPUT -o OUT [settings]`: offline baking of an `.obj`,
/// `.space3d.json` or `.scene2d.json` into the navmesh document `nav.import`
/// reads (docs/surface.md "The `spark` executable").
///
/// An `.obj` is read from INPUT as given on the command line (relative to the
/// working directory, like any file argument) and baked one-sided (its
/// winding says which side is up). Scene files are loaded with
/// `space3d.load` / `scene2d.load` and baked with `nav.bake`, so their paths
/// (and the models they name) are relative to the project and stay inside it.
/// The document is written by `nav.export` to OUT, relative to the project.
/// Progress goes to stderr only when stderr is a terminal; the summary (path,
/// polygons, vertices, hash) to stdout.

#include "spark/nav/bake.h"

#include <filesystem>
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

namespace spark::cli
{

/// Options of `spark bake`. The settings default to docs/navmesh.md "The 3D bake" (`defaultBakeDef()`).
struct BakeCliOptions
{
    std::string input;                    ///< .obj, .space3d.json or .scene2d.json.
    std::string output;                   ///< Navmesh document to write, relative to the project.
    std::filesystem::path projectRoot = "."; ///< Project folder (`--project`).
    std::string meshName = "default";     ///< Mesh name inside the session (and the answer).
    bool verbose = false;                 ///< Also print the bake's counters and wall time.

    nav::BakeDef def;                     ///< The settings (`def.tileRange` comes from `tiles`).
    std::string tiles;                    ///< "X0:X1,Z0:Z1": bake only these tiles (empty: all).
};

/// The meshes a bake of `o` makes, one per radius: `o.meshName`, then
/// `name@<radius>` for the further radii of `o.def.agentRadii` (as nav.bake).
std::vector<std::string> radiusMeshNames(const BakeCliOptions& o);

/// Where `spark bake -o OUTPUT --agent-radii ...` writes a further radius's
/// document: "@<radius>" before the first dot of the file name
/// (out/level.navmesh.json → out/level@0.6.navmesh.json).
std::string radiusOutputPath(const std::string& output, float radius);

/// Options of `spark bake merge IN... -o OUT` or `spark bake merge --plan P --manifest M... -o OUT`.
struct BakeMergeOptions
{
    std::vector<std::string> inputs;         ///< Tiled navmesh documents (subset bakes), relative to the project.
    std::string output;                      ///< Merged document to write, relative to the project.
    std::filesystem::path projectRoot = "."; ///< Project folder (`--project`).
    std::string plan;                        ///< `spark bake plan`'s file: the tiles and keys to expect.
    std::vector<std::string> manifests;      ///< `spark bake job` manifests, relative to the project.
};

/// Options of `spark bake plan INPUT -o PLAN` and `spark bake job INPUT --cache DIR`
/// (docs/distributed-bake.md). `bake.output` is the plan file; `bake.tiles` the range.
struct BakeJobOptions
{
    BakeCliOptions bake;  ///< Level, settings (tiled), project, `--tiles` range.
    bool plan = false;    ///< Only list the tiles and their input keys.
    std::string share;    ///< "I/N": the I-th of N equal runs of the range's tiles in tile order.
    std::string cache;    ///< Job: folder of tile documents named by input key (skipped when present).
    std::string manifest; ///< Job: manifest lines file (default stdout).
};

/// The bake settings of `o` (tile range included).
nav::BakeDef bakeDefFromOptions(const BakeCliOptions& o);

/// Runs `spark bake plan` or `spark bake job`: each tile with triangles in the
/// range (or share) is clipped to its own input; its input key is XXH3-64 of
/// the builder version, the settings, the tile and that input. A plan prints
/// one line per tile `{"tile": [x, z], "key": K}`; a job bakes each tile whose
/// key is not in the cache folder into `<key>.navtile.json` (`<key>.empty`
/// when nothing in it is walkable) and writes a manifest line per tile
/// (`tile`, `key`, `hash`, `file`, `baked`). Exit 0, 1 coded error, 2 usage.
int runBakePlanOrJob(const BakeJobOptions& options);

/// `spark bake merge --plan`: checks that every tile of the plan is in a
/// manifest with the plan's key, its file present and hashing as the manifest
/// says (`E_NAV_TILE_MISSING` / `E_NAV_TILE_MISMATCH`, naming the tile in
/// `error.data.tile`), then merges them as `runBakeMerge`.
int runBakeMergeManifests(const BakeMergeOptions& options);

/// Reads "X0:X1,Z0:Z1" (integers, both ends included). False when malformed.
bool parseTileRange(const std::string& text, int32_t& x0, int32_t& x1, int32_t& z0, int32_t& z1);

/// Runs `spark bake merge`: imports each document, joins their tiles
/// (`nav::mergeTiledNavMeshes`) and exports the result. Exit 0 written, 1 a
/// coded error (printed on stderr), 2 a usage error.
int runBakeMerge(const BakeMergeOptions& options);

class Dispatcher;

/// Joins tiled meshes (`nav::mergeTiledNavMeshes`), writes them with
/// `nav.export` to `output` (relative to the dispatcher's project) and prints
/// `OUT: N polygons, N vertices, hash H` and `note`. Exit 0 or 1 (error printed).
int mergeAndWrite(Dispatcher& dispatcher, const std::vector<std::shared_ptr<const nav::NavMesh>>& parts,
                  const std::string& output, const std::string& note);

/// Runs `spark bake`. Returns the exit code: 0 written, 1 a coded error
/// (printed on stderr), 2 a usage error (unknown input kind).
int runBake(const BakeCliOptions& options);

} // namespace spark::cli
