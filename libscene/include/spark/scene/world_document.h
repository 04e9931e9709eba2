#pragma once
/// \file world_document.h
/// The world's document (`.space3d.json`, docs/scene.md): named objects with
/// components, as plain data, which `World::loadScene` loads into a world. This part is the document only — loading with
/// full validation, saving back what was loaded, lookup, and the scene hash;
/// physics and AI read these structs.
///
/// File format (metres, seconds, +Y up):
///
///     {"version": 1, "gravity": [0, -9.81, 0],
///      "objects": [{"name": "Floor", "components": {
///          "Transform3D": {"position": [0, -0.5, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]},
///          "Body": {"kind": "fixed", "shape": {"type": "box", "half_extents": [20, 0.5, 20]},
///                   "sensor": false}}}]}
///
/// Every field of a component is optional unless marked "required"; missing
/// fields take the documented default and are written back when saving (so a
/// saved file is the canonical form of the loaded one). Unknown components or
/// fields, wrong types, non-finite or out-of-range numbers and duplicate names
/// are `E_SCENE_FORMAT` with the JSON pointer of the offending value.
/// Objects keep the order of the file; spawned objects are appended.

#include "spark/core/hash.h"
#include "spark/core/result.h"

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

/// Largest magnitude of any number in a scene file. [Units: m, m/s, …]
inline constexpr double kMaxSceneNumber = 1.0e6;
/// Most objects in one scene (`E_SCENE_LIMIT` beyond).
inline constexpr size_t kMaxSceneObjects = 100000;
/// Largest scene file read. [Units: bytes]
inline constexpr size_t kMaxSceneFileBytes = 256u * 1024u * 1024u;
/// Longest object name, model path or other string. [Units: bytes]
inline constexpr size_t kMaxSceneString = 1024;

/// Position, orientation and scale of an object.
struct Transform3D
{
    /// World position. [Units: m]
    glm::vec3 position{0.0f};
    /// Quaternion (x, y, z, w); normalised when used. [Limit: non-zero length]
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};
    /// Per-axis scale of the object's shape. [Limit: non-zero]
    glm::vec3 scale{1.0f};

    bool operator==(const Transform3D&) const = default;
};

/// How a body moves.
enum class BodyKind : uint8_t
{
    Fixed,     ///< Never moves: a static collider, baked into navmeshes.
    Dynamic,   ///< Falls and rests under gravity.
    Kinematic, ///< Moved by writing its transform.
};

/// The collision shape of a body.
enum class ShapeType : uint8_t
{
    Box,        ///< `half_extents`.
    Sphere,     ///< `radius`.
    Capsule,    ///< `radius` and `half_height` (of the cylinder part), along local +Y.
    ConvexHull, ///< The triangles of an OBJ model.
    TriMesh,    ///< The triangles of an OBJ model.
    FromMesh,   ///< The bounding box of an OBJ model.
};

/// A collision shape. Only the fields of its `type` are read and written.
struct BodyShape
{
    ShapeType type = ShapeType::Box;
    glm::vec3 halfExtents{0.5f}; ///< Box half sizes. [Limit: > 0] [Units: m]
    float radius = 0.5f;         ///< Sphere / capsule radius. [Limit: > 0] [Units: m]
    float halfHeight = 0.5f;     ///< Half the capsule's cylinder length. [Limit: >= 0] [Units: m]
    /// OBJ path relative to the project (model shapes; default: the object's `Model.path`).
    std::string model;

    bool operator==(const BodyShape&) const = default;
};

/// A physics body.
struct Body
{
    BodyKind kind = BodyKind::Fixed; ///< `"fixed"`, `"dynamic"` or `"kinematic"`.
    BodyShape shape;                 ///< Required.
    bool sensor = false;             ///< A trigger volume: detects, never blocks.

    bool operator==(const Body&) const = default;
};

/// A visual / collision model loaded from an OBJ file.
struct Model
{
    std::string path; ///< Required. OBJ path relative to the project.

    bool operator==(const Model&) const = default;
};

/// A capsule character controller (data only here; the physics part runs it).
struct CharacterController
{
    float height = 1.8f;       ///< Total height. [Limit: > 0] [Units: m]
    float radius = 0.4f;       ///< Capsule radius. [Limit: > 0] [Units: m]
    float stepHeight = 0.4f;   ///< Highest step climbed. [Limit: >= 0] [Units: m]
    float maxSlopeDeg = 45.0f; ///< Steepest walkable slope. [Limit: 0..90] [Units: degrees]
    float jumpSpeed = 5.0f;    ///< Upward speed of a jump. [Limit: >= 0] [Units: m/s]

    bool operator==(const CharacterController&) const = default;
};

/// A breakable object. Anchored, non-dynamic ones are baked at their initial shape.
struct Destructible
{
    bool anchored = true;             ///< Fixed in place until broken.
    std::optional<std::string> asset; ///< Fracture asset file, if any (baked as the shape's box).

    bool operator==(const Destructible&) const = default;
};

/// How an AI agent moves its object.
enum class AgentDrive : uint8_t
{
    Auto,      ///< Character controller if there is one, else the transform.
    Character, ///< Feed the crowd velocity to the character controller.
    Transform, ///< Write the transform.
};

/// An AI agent bound to this object (data only here; the AI part runs it).
/// Optional numbers left out take the defaults of the agent/brain the AI part creates.
struct AiAgent
{
    std::string mesh;                   ///< Required. Name of the navmesh the agent walks.
    std::optional<std::string> tree;    ///< Behaviour tree name (at most one of tree / utility).
    std::optional<std::string> utility; ///< Utility document name.
    uint32_t period = 1;                ///< Brain ticks every `period` steps. [Limit: 1..1000000]
    nlohmann::json blackboard = nlohmann::json::object(); ///< Initial blackboard (an object; numbers finite).
    /// Agent radius. [Limit: > 0] [Units: m] (default: the controller's, else the mesh's)
    std::optional<float> radius;
    /// Agent height. [Limit: > 0] [Units: m] (default: the controller's, else the mesh's)
    std::optional<float> height;
    std::optional<float> maxSpeed;     ///< Top speed. [Limit: >= 0] [Units: m/s]
    std::optional<float> maxAccel;     ///< Top acceleration. [Limit: >= 0] [Units: m/s²]
    std::optional<float> stopDistance; ///< Arrival distance. [Limit: >= 0] [Units: m]
    std::optional<float> eyeHeight;    ///< Eye height for line of sight. [Limit: >= 0] [Units: m]
    AgentDrive drive = AgentDrive::Auto;

    bool operator==(const AiAgent&) const = default;
};

/// A named object and its components (each one optional).
struct Object3D
{
    std::string name; ///< Unique in the scene, non-empty.
    std::optional<Transform3D> transform;
    std::optional<Body> body;
    std::optional<Model> model;
    std::optional<CharacterController> characterController;
    std::optional<Destructible> destructible;
    std::optional<AiAgent> aiAgent;

    bool operator==(const Object3D&) const = default;
};

/// A 3D scene document.
struct WorldDocument
{
    glm::vec3 gravity{0.0f, -9.81f, 0.0f}; ///< [Units: m/s²]
    std::vector<Object3D> objects;         ///< File order, then spawn order; names unique.

    bool operator==(const WorldDocument&) const = default;
};

// ---------------------------------------------------------------------------
// Loading and saving

/// Builds a scene from a parsed document. `E_SCENE_FORMAT` (field = JSON pointer)
/// for anything that does not match the format; `E_SCENE_LIMIT` for too many objects.
Result<WorldDocument> parseWorldDocument(const nlohmann::json& doc);
/// Parses scene text: `E_FORMAT` when it is not JSON, else as `parseWorldDocument`.
Result<WorldDocument> parseWorldDocumentText(std::string_view text);
/// Reads and parses a scene file (`E_IO` when it cannot be read).
Result<WorldDocument> loadWorldDocumentFile(const std::filesystem::path& path);

/// Validates one object's components (the `components` object of the file or of
/// `space3d.spawn`). `pointer` is the JSON pointer of `components`, used in errors.
Result<Object3D> parseObject3D(std::string name, const nlohmann::json& components, std::string_view pointer);

/// The canonical document of a scene (fixed key order, every field written).
nlohmann::ordered_json worldDocumentToJson(const WorldDocument& scene);
/// The canonical `components` object of one object.
nlohmann::ordered_json componentsToJson(const Object3D& object);
/// The canonical document as text (2-space indent, trailing newline).
std::string worldDocumentToText(const WorldDocument& scene);
/// Writes the canonical document (`E_IO` on failure).
Status saveWorldDocumentFile(const std::filesystem::path& path, const WorldDocument& scene);

// ---------------------------------------------------------------------------
// Objects

/// The object with this name, or null.
const Object3D* findObject(const WorldDocument& scene, std::string_view name);
/// Appends an object. `E_SCENE_FORMAT` (field `/name`) for an empty or taken
/// name, `E_SCENE_LIMIT` when the scene is full.
Status addObject(WorldDocument& scene, Object3D object);
/// Removes the object with this name; false if there is none.
bool removeObject(WorldDocument& scene, std::string_view name);

/// Text of enums, as written in files.
std::string_view bodyKindName(BodyKind kind);
std::string_view shapeTypeName(ShapeType type);
std::string_view agentDriveName(AgentDrive drive);

// ---------------------------------------------------------------------------
// Hashing

/// Feeds one object canonically (field by field) into a hasher.
void hashObject3D(Hasher& io, const Object3D& object);
/// XXH3-64 of one object.
uint64_t hashObject3D(const Object3D& object);
/// The scene hash from the gravity and the objects' `hashObject3D` in scene order.
uint64_t combineSceneHash(const glm::vec3& gravity, std::span<const uint64_t> objectHashes);
/// Feeds the scene hash (`hashWorldDocument(scene)`) into a hasher.
void hashWorldDocument(Hasher& io, const WorldDocument& scene);
/// XXH3-64 of the scene document: `combineSceneHash` of its gravity and objects.
uint64_t hashWorldDocument(const WorldDocument& scene);

} // namespace spark::scene
SPARK_SCENE_API_END
