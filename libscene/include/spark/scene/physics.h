#pragma once
/// \file physics.h
/// The physics subset of the reference host (docs/scene.md): the collision shapes of
/// a scene, exact ray casts, swept moves with collide-and-slide, capsule
/// character controllers and falling dynamic bodies. Fixed step, linear motion
/// only, double precision inside, deterministic by docs/determinism.md (only + − × ÷ sqrt,
/// fixed orders, ties broken by index). It exists so the libraries can be run
/// and tested end to end; a game brings its own physics.
///
/// Every shape is a convex *core* (a point, a segment, a box or a triangle)
/// grown by a radius: a sphere is a point with a radius, a capsule a segment
/// with one, boxes and triangles have radius 0. Distances between cores come
/// from GJK (Gilbert, Johnson, Keerthi 1988, with Ericson's closest-point
/// sub-routines, "Real-Time Collision Detection" ch. 5 and 9); a swept core
/// stops short of a contact by conservative advancement (Mirtich 1996), which
/// never overshoots for translations because the distance between two convex
/// sets under a linear motion is a convex function of time. Movers keep a skin
/// of `kSkin` to what they touch, so cores never overlap and GJK never needs a
/// penetration depth.

#include <glm/vec3.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene::physics
{

/// Distance movers keep to what they touch. [Units: m]
inline constexpr double kSkin = 1.0e-4;
/// Contact normals at least this steep upward count as support for dynamic bodies (about 45°).
inline constexpr double kSupportNormalY = 0.7;

/// The core of a shape.
enum class CoreKind : uint8_t
{
    Point,    ///< `center` (a sphere with `radius`).
    Segment,  ///< `center` ± `axis[1]`·`half.y` (a capsule with `radius`).
    Box,      ///< `center` + Σ ±`axis[i]`·`half[i]` (an oriented box).
    Triangle, ///< `vertex[0..2]` (two-sided).
};

/// A collision shape in world space: a convex core grown by `radius`.
struct Shape
{
    CoreKind kind = CoreKind::Point;
    glm::dvec3 center{0.0};                                       ///< Point, segment centre or box centre. [Units: m]
    glm::dvec3 axis[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};       ///< Unit box axes; `axis[1]` is a segment's direction.
    glm::dvec3 half{0.0};                                         ///< Box half sizes; `half.y` is a segment's half length. [Units: m]
    glm::dvec3 vertex[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};     ///< Triangle corners. [Units: m]
    double radius = 0.0;                                          ///< Grown by. [Units: m]
};

/// Axis-aligned bounds.
struct Bounds
{
    glm::dvec3 min{0.0};
    glm::dvec3 max{0.0};
};

/// Bounds of a shape (radius included).
Bounds shapeBounds(const Shape& shape);
/// The shape moved by `offset`.
Shape translated(const Shape& shape, const glm::dvec3& offset);
/// The core's furthest point in direction `dir` (ties go to the first corner in index order).
glm::dvec3 coreSupport(const Shape& shape, const glm::dvec3& dir);

/// Distance between two shapes' cores (GJK).
struct CoreDistance
{
    double distance = 0.0;   ///< 0 when the cores overlap. [Units: m]
    glm::dvec3 onA{0.0};     ///< Closest point of A's core.
    glm::dvec3 onB{0.0};     ///< Closest point of B's core.
    bool overlap = false;    ///< The cores overlap (no normal).
};
/// GJK distance between the cores of `a` and `b` (radii ignored).
CoreDistance coreDistance(const Shape& a, const Shape& b);

/// A ray hit. `fraction` is along `to − from`; a ray that starts inside a solid
/// shape hits at fraction 0 with a zero normal (as Godot's `hit_from_inside`).
struct RayHit
{
    bool hit = false;
    double fraction = 1.0;   ///< In [0, 1].
    glm::dvec3 point{0.0};   ///< [Units: m]
    glm::dvec3 normal{0.0};  ///< Unit outward normal at the hit (zero from inside).
};
/// The first hit of the segment `from` → `to` on `shape`, answered analytically
/// (sphere, capsule, box slabs, two-sided triangle).
RayHit raycastShape(const Shape& shape, const glm::dvec3& from, const glm::dvec3& to);

/// Where a swept shape first comes within `kSkin` of another.
struct SweepHit
{
    bool hit = false;
    double fraction = 1.0;   ///< Of the motion that is free.
    glm::dvec3 normal{0.0};  ///< Unit, from the obstacle towards the mover.
};
/// Sweeps `mover` along `motion` against `obstacle` (conservative advancement).
/// A mover already within `kSkin` hits at 0 only when it moves closer; one
/// whose core overlaps the obstacle's core passes through it (it can get out).
SweepHit sweepShape(const Shape& mover, const glm::dvec3& motion, const Shape& obstacle);

/// Signed gap between two shapes (core distance minus radii), with the normal
/// from `b` towards `a`; `overlap` when the cores overlap.
struct Gap
{
    double gap = 0.0;
    glm::dvec3 normal{0.0};
    bool overlap = false;
};
Gap shapeGap(const Shape& a, const Shape& b);

// ---------------------------------------------------------------------------
// The collision world

/// A shape and the object it belongs to.
struct Collider
{
    Shape shape;
    uint32_t owner = 0;   ///< The owner's index (the host's numbering: scene order).
};

/// A bounding-volume hierarchy over boxes: built top-down, median split on the
/// longest axis of the centroids, ties by index, at most 2 boxes per leaf.
struct BoundsTree
{
    struct Node
    {
        Bounds bounds;
        uint32_t first = 0; ///< Leaf: first index into `order`; inner: left child.
        uint32_t count = 0; ///< Leaf: number of boxes; inner: 0.
        uint32_t right = 0; ///< Inner: right child.
    };
    std::vector<Bounds> boxes;   ///< The boxes, by index.
    std::vector<uint32_t> order; ///< Box indices in leaf order.
    std::vector<Node> nodes;     ///< nodes[0] is the root (empty: no boxes).

    /// Replaces the boxes and builds the tree over them.
    void build(std::vector<Bounds> boxesIn);
};

/// A model's triangles in its own frame with a tree over them: built once per
/// model and shared by every object that uses it, so a thousand objects on one
/// 200,000-triangle model hold one copy of its triangles, not a thousand.
struct TriangleModel
{
    std::vector<glm::dvec3> vertices; ///< Model space. [Units: m]
    std::vector<uint32_t> indices;    ///< Three per triangle.
    BoundsTree tree;                  ///< Over the triangles' model-space bounds.
    Bounds bounds;                    ///< Of every vertex.
    double extent = 0.0;              ///< Largest |coordinate| of a vertex. [Units: m]
};
/// The shared model of `vertices` / `indices` (whole triangles only; every index in range).
std::shared_ptr<const TriangleModel> makeTriangleModel(std::span<const glm::vec3> vertices,
                                                       std::span<const uint32_t> indices);

/// Where an object puts its model: `world = position + Σ axis[k] · (local[k] · scale[k])`.
struct Placement
{
    glm::dvec3 position{0.0};
    glm::dvec3 axis[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}; ///< Unit, orthogonal.
    glm::dvec3 scale{1.0};
};
/// A model-space point placed in the world.
glm::dvec3 placePoint(const Placement& placement, const glm::dvec3& local);

/// One static item of a collision world: a collider, or a model's triangles
/// placed by `placement` (each a two-sided triangle collider of `collider.owner`).
struct StaticItem
{
    Collider collider;                          ///< The shape (when `model` is null) and the owner.
    std::shared_ptr<const TriangleModel> model; ///< Shared triangles, or null.
    Placement placement;                        ///< Where `model` is.
};

/// A bounding-volume hierarchy over static colliders plus a list of moving
/// ones. Static colliders are numbered in item order, a model's triangles in
/// its index order; a placed model's triangles are made when a query needs
/// them, bit for bit as placing them by hand would. Queries answer colliders in ascending index order, so results never
/// depend on the tree's layout.
class CollisionWorld
{
public:
    /// Replaces the static colliders and rebuilds the tree (median split on
    /// the longest axis, ties by index; at most 2 colliders per leaf).
    void setStatic(std::vector<Collider> colliders);
    /// Replaces the static items and rebuilds the tree over them (a placed
    /// model is one box of the tree; its own tree is the model's). The static
    /// colliders number at most UINT32_MAX (the caller keeps under it).
    void setStatic(std::vector<StaticItem> items);
    /// Number of static colliders (a placed model counts its triangles).
    size_t staticCount() const { return m_itemBase.empty() ? 0 : m_itemBase.back(); }
    /// Static collider `index` (< staticCount()); a placed model's triangle is made here.
    Collider staticCollider(uint32_t index) const;
    /// Replaces the moving colliders (kinematic and dynamic bodies, characters),
    /// kept sorted by the low x of their bounds (sweep and prune on one axis).
    void setMoving(std::vector<Collider> colliders);
    /// Moves one moving collider (its place in the sort order moves by neighbour swaps).
    void moveMoving(size_t index, const Shape& shape);
    /// The colliders given to `setStatic(std::vector<Collider>)` (a world with
    /// placed models: `staticCollider`).
    std::span<const Collider> staticColliders() const { return m_plain; }
    std::span<const Collider> movingColliders() const { return m_moving; }

    /// The first hit of `from` → `to` on any collider whose owner is not in
    /// `ignoreOwners` (sorted ascending). Equal fractions go to the lower owner,
    /// then to the lower static index.
    RayHit raycast(const glm::dvec3& from, const glm::dvec3& to, std::span<const uint32_t> ignoreOwners,
                   uint32_t* outOwner) const;
    /// Index of every static collider whose bounds overlap `box`, ascending, into `out` (cleared).
    void queryStatic(const Bounds& box, std::vector<uint32_t>& out) const;
    /// Index of every moving collider whose bounds overlap `box`, ascending, into `out` (cleared).
    void queryMoving(const Bounds& box, std::vector<uint32_t>& out) const;

private:
    /// Static colliders of item `item` overlapping `box`, as static indices, appended to `out`.
    void queryItem(uint32_t item, const Bounds& box, std::vector<uint32_t>& out) const;

    std::vector<Collider> m_plain;       ///< As given to the collider overload.
    std::vector<StaticItem> m_items;     ///< Static items.
    std::vector<uint32_t> m_itemBase;    ///< First static index of each item; one more entry: the count.
    BoundsTree m_tree;                   ///< Over the items' bounds.
    std::vector<Collider> m_moving;
    std::vector<Bounds> m_movingBounds;
    std::vector<uint32_t> m_movingByX;   ///< Moving colliders by (bounds.min.x, index).
    std::vector<uint32_t> m_movingRank;  ///< Position of each in m_movingByX.
    double m_movingMaxWidth = 0.0;       ///< Widest moving bounds on x since setMoving.
    mutable std::vector<uint32_t> m_rayScratch;
};

// ---------------------------------------------------------------------------
// Moving things

/// The result of a collide-and-slide move.
struct SlideResult
{
    glm::dvec3 moved{0.0};        ///< The displacement made. [Units: m]
    uint32_t contacts = 0;        ///< Surfaces hit.
    glm::dvec3 normals[4];        ///< Their normals (first `contacts`).
    bool blocked = false;         ///< Some of the motion was taken away.
};

/// How `slideMove` treats what it hits.
struct SlideDef
{
    /// When positive, upward normals with y below it become horizontal walls
    /// (a grounded character does not slide up steep slopes).
    double steepToWall = 0.0;
    /// A hit whose normal has y at least this ends the move there (landing on
    /// walkable ground does not slide down it). Above 1: never.
    double stopOnNormalY = 2.0;
    /// Most surfaces hit before the rest of the motion is dropped. [Limit: 1..4]
    uint32_t maxHits = 4;
};

/// Moves `shape` by `motion` through the world, sliding along what it hits
/// (along the crease of two). Colliders owned by `self` are skipped. `scratch`
/// is reused between calls.
SlideResult slideMove(const CollisionWorld& world, const Shape& shape, glm::dvec3 motion, uint32_t self,
                      const SlideDef& def, std::vector<uint32_t>& scratch);

/// Pushes `shape` out of colliders it is closer than `kSkin` to (their radii
/// overlapping; cores apart), up to 4 passes. The displacement made.
glm::dvec3 depenetrate(const CollisionWorld& world, const Shape& shape, uint32_t self,
                       std::vector<uint32_t>& scratch);

/// A character controller's settings (from the scene's CharacterController).
struct CharacterDef
{
    double height = 1.8;       ///< [Units: m]
    double radius = 0.4;       ///< [Units: m]
    double stepHeight = 0.4;   ///< [Units: m]
    double maxSlopeCos = 0.7071067811865476; ///< Cosine of the steepest walkable slope.
    double jumpSpeed = 5.0;    ///< [Units: m/s]
};

/// What a character carries from step to step.
struct CharacterMotion
{
    glm::dvec3 wanted{0.0};    ///< Wanted horizontal velocity (y ignored). [Units: m/s]
    double verticalSpeed = 0.0; ///< [Units: m/s]
    bool jump = false;         ///< A jump press waiting for the next grounded step.
    bool grounded = false;     ///< Standing on walkable ground after the last step.
};

/// The capsule of a character whose centre is `center`.
Shape characterShape(const CharacterDef& def, const glm::dvec3& center);
/// One fixed step of a character: jump, gravity, horizontal collide-and-slide
/// with step-up, vertical move, ground snap. Answers the new centre.
glm::dvec3 stepCharacter(const CollisionWorld& world, const CharacterDef& def, uint32_t self,
                         const glm::dvec3& center, CharacterMotion& io, const glm::dvec3& gravity, double dt,
                         std::vector<uint32_t>& scratch);

/// What a dynamic body carries from step to step.
struct BodyMotion
{
    glm::dvec3 velocity{0.0};  ///< [Units: m/s]
    uint32_t restFrames = 0;   ///< Consecutive supported, nearly still steps.
    bool sleeping = false;     ///< At rest: not moved until woken.
};
/// Steps a body needs supported and slower than `kRestSpeed` to fall asleep.
inline constexpr uint32_t kFramesToSleep = 30;
/// Speed under which a supported body counts as still. [Units: m/s]
inline constexpr double kRestSpeed = 0.05;

/// One fixed step of a dynamic body of shape `shape` (its current place):
/// gravity (exact for constant acceleration), collide-and-slide, the velocity
/// into each contact removed, friction on support, sleep. Answers the displacement.
glm::dvec3 stepBody(const CollisionWorld& world, const Shape& shape, uint32_t self, BodyMotion& io,
                    const glm::dvec3& gravity, double dt, std::vector<uint32_t>& scratch);

} // namespace spark::scene::physics
SPARK_SCENE_API_END
