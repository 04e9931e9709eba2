// The physics part of the runtime world: the collision world built from the
// scene's bodies, the physics stage of the step, characters, transforms and
// ray casts.
//
// Shapes from components: a box is an oriented box (half extents × |scale|), a
// sphere a point with radius × the largest |scale|, a capsule a segment along
// the rotated +Y (half height × |scale.y|, radius × the larger of |scale.x|,
// |scale.z|); fixed convex_hull and trimesh shapes are the model's triangles
// (scaled, rotated, moved as `transformPoint` does), from_mesh shapes the
// model's bounding box. A dynamic or kinematic body with a model shape moves as
// the model's bounding box (the core of a moving shape must be convex). An
// object with a CharacterController is its capsule (its Body, if any, is not
// simulated). Sensors never block.
//
// Order: objects step in document order; each sees those before it where
// they have already moved this step. Moving colliders are refreshed as objects
// move, so no step reads a stale place.

#include "spark/scene/world.h"

#include "spark/core/det_math.h"
#include "spark/core/work.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace spark::scene
{
namespace
{

using glm::dvec3;
using physics::Collider;
using physics::CoreKind;
using physics::Shape;

struct Frame
{
    dvec3 position{0.0};
    dvec3 axis[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    dvec3 scale{1.0};
};

// Rotation columns of the normalised quaternion (x, y, z, w).
Frame frameOf(const Object3D& o)
{
    Frame f;
    const Transform3D t = o.transform.value_or(Transform3D{});
    f.position = dvec3(t.position);
    f.scale = dvec3(t.scale);
    const double x = t.rotation.x, y = t.rotation.y, z = t.rotation.z, w = t.rotation.w;
    const double len = std::sqrt(x * x + y * y + z * z + w * w);
    if (!(len > 0.0))
        return f;
    const double qx = x / len, qy = y / len, qz = z / len, qw = w / len;
    f.axis[0] = dvec3(1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qw * qz), 2 * (qx * qz - qw * qy));
    f.axis[1] = dvec3(2 * (qx * qy - qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qw * qx));
    f.axis[2] = dvec3(2 * (qx * qz + qw * qy), 2 * (qy * qz - qw * qx), 1 - 2 * (qx * qx + qy * qy));
    return f;
}

dvec3 toWorld(const Frame& f, const dvec3& local)
{
    const dvec3 s = local * f.scale;
    return f.position + f.axis[0] * s.x + f.axis[1] * s.y + f.axis[2] * s.z;
}

Shape boxShape(const Frame& f, const dvec3& localCenter, const dvec3& half)
{
    Shape s;
    s.kind = CoreKind::Box;
    s.center = toWorld(f, localCenter);
    for (int i = 0; i < 3; ++i)
        s.axis[i] = f.axis[i];
    s.half = half * glm::abs(f.scale);
    return s;
}

// The model path of a body shape: its own, else the object's Model.
const std::string& modelPathOf(const Object3D& o, const BodyShape& bs)
{
    return !bs.model.empty() ? bs.model : (o.model ? o.model->path : bs.model);
}

// The box around a model's vertices, in the object's frame.
Shape modelBoundsShape(const Frame& f, const ColliderMesh& mesh)
{
    glm::vec3 lo = mesh.vertices[0], hi = mesh.vertices[0];
    for (const glm::vec3& v : mesh.vertices)
    {
        lo = glm::min(lo, v);
        hi = glm::max(hi, v);
    }
    return boxShape(f, (dvec3(lo) + dvec3(hi)) * 0.5, (dvec3(hi) - dvec3(lo)) * 0.5);
}

// A body's convex shape: boxes, spheres and capsules exactly; a model shape
// as the model's bounding box (`model`, or the half-0.5 box without one).
Shape convexBodyShape(const Frame& f, const BodyShape& bs, const ColliderMesh* model)
{
    Shape s;
    switch (bs.type)
    {
    case ShapeType::Box:
        return boxShape(f, dvec3(0.0), dvec3(bs.halfExtents));
    case ShapeType::Sphere:
        s.kind = CoreKind::Point;
        s.center = f.position;
        s.radius = bs.radius * std::max({std::abs(f.scale.x), std::abs(f.scale.y), std::abs(f.scale.z)});
        return s;
    case ShapeType::Capsule:
        s.kind = CoreKind::Segment;
        s.center = f.position;
        s.axis[1] = f.axis[1];
        s.half = dvec3(0.0, bs.halfHeight * std::abs(f.scale.y), 0.0);
        s.radius = bs.radius * std::max(std::abs(f.scale.x), std::abs(f.scale.z));
        return s;
    default:
        return model ? modelBoundsShape(f, *model) : boxShape(f, dvec3(0.0), dvec3(0.5));
    }
}

bool isCharacter(const Object3D& o) { return o.characterController.has_value(); }

bool blocks(const Object3D& o) { return o.body && !o.body->sensor && !isCharacter(o); }

physics::CharacterDef characterDef(const CharacterController& c)
{
    physics::CharacterDef d;
    d.height = c.height;
    d.radius = c.radius;
    d.stepHeight = c.stepHeight;
    d.maxSlopeCos = std::clamp(det::cos(det::radians(c.maxSlopeDeg)), 0.0, 1.0); // libcore's deterministic cosine
    d.jumpSpeed = c.jumpSpeed;
    return d;
}

dvec3 centerOf(const Object3D& o) { return o.transform ? dvec3(o.transform->position) : dvec3(0.0); }

bool finiteIn(const glm::vec3& v)
{
    for (int i = 0; i < 3; ++i)
        if (!std::isfinite(v[i]) || std::abs(v[i]) > kMaxSceneNumber)
            return false;
    return true;
}

} // namespace

void World::setModelLoader(ModelLoader loader)
{
    m_loader = std::move(loader);
    m_models.clear();
    m_triangleModels.clear();
    m_staticDirty = true;
    m_movingDirty = true;
}

const ColliderMesh* World::modelMesh(const std::string& path) const
{
    auto it = m_models.find(path);
    if (it == m_models.end())
    {
        std::optional<ColliderMesh> mesh;
        if (m_loader && !path.empty())
        {
            auto loaded = m_loader(path);
            if (loaded.ok() && !loaded.value().indices.empty())
                mesh = std::move(loaded.value());
        }
        it = m_models.emplace(path, std::move(mesh)).first;
    }
    return it->second ? &*it->second : nullptr;
}

std::shared_ptr<const physics::TriangleModel> World::triangleModel(const std::string& path) const
{
    auto it = m_triangleModels.find(path);
    if (it == m_triangleModels.end())
    {
        const ColliderMesh* mesh = modelMesh(path);
        it = m_triangleModels.emplace(path, mesh ? physics::makeTriangleModel(mesh->vertices, mesh->indices) : nullptr)
                 .first;
    }
    return it->second;
}

void World::ensureCollision() const
{
    if (m_staticDirty)
    {
        m_approximatedModels = 0;
        // Every object on a model shares its triangles (one copy per model,
        // whatever the number of objects); they count one static collider each.
        std::vector<physics::StaticItem> items;
        uint64_t staticCount = 0;
        const auto& objects = m_objects.document.objects;
        for (uint32_t i = 0; i < objects.size(); ++i)
        {
            const Object3D& o = objects[i];
            if (!blocks(o) || o.body->kind != BodyKind::Fixed)
                continue;
            const Frame f = frameOf(o);
            const BodyShape& bs = o.body->shape;
            physics::StaticItem item;
            item.collider.owner = i;
            if (bs.type == ShapeType::Box || bs.type == ShapeType::Sphere || bs.type == ShapeType::Capsule)
            {
                item.collider.shape = convexBodyShape(f, bs, nullptr);
                items.push_back(std::move(item));
                ++staticCount;
                continue;
            }
            const ColliderMesh* mesh = modelMesh(modelPathOf(o, bs));
            std::shared_ptr<const physics::TriangleModel> model =
                mesh && bs.type != ShapeType::FromMesh ? triangleModel(modelPathOf(o, bs)) : nullptr;
            // Past kMaxStaticShapes a model shape is its bounding box (as an unreadable model is a box).
            if (model && staticCount + model->indices.size() / 3 > kMaxStaticShapes)
            {
                model = nullptr;
                ++m_approximatedModels;
            }
            if (!mesh)
                ++m_approximatedModels;
            if (!model)
            {
                item.collider.shape = convexBodyShape(f, bs, mesh);
                items.push_back(std::move(item));
                ++staticCount;
                continue;
            }
            staticCount += model->indices.size() / 3;
            item.model = std::move(model);
            item.placement = {f.position, {f.axis[0], f.axis[1], f.axis[2]}, f.scale};
            items.push_back(std::move(item));
        }
        m_collision.setStatic(std::move(items));
        m_staticDirty = false;
        m_movingDirty = true;
    }
    if (m_movingDirty)
        refreshMoving();
}

void World::refreshMoving() const
{
    std::vector<Collider> moving;
    const auto& objects = m_objects.document.objects;
    m_movingOf.assign(objects.size(), UINT32_MAX);
    for (uint32_t i = 0; i < objects.size(); ++i)
    {
        const Object3D& o = objects[i];
        const Frame f = frameOf(o);
        Shape s;
        if (isCharacter(o))
            s = physics::characterShape(characterDef(*o.characterController), f.position);
        else if (blocks(o) && o.body->kind != BodyKind::Fixed)
        {
            const BodyShape& bs = o.body->shape;
            const ColliderMesh* mesh = nullptr;
            if (bs.type != ShapeType::Box && bs.type != ShapeType::Sphere && bs.type != ShapeType::Capsule)
                mesh = modelMesh(modelPathOf(o, bs)); // a moving model shape is its bounding box
            s = convexBodyShape(f, bs, mesh);
        }
        else
            continue;
        m_movingOf[i] = static_cast<uint32_t>(moving.size());
        moving.push_back({s, i});
    }
    m_collision.setMoving(std::move(moving));
    m_movingDirty = false;
}

void World::stepPhysics(double dt)
{
    if (m_objects.order.empty())
        return; // nothing to move (a world of 2D meshes and crowds only)
    ensureCollision();
    // Moving colliders start every step from the document, so the step depends
    // on the saved state alone (a restored world steps exactly as the original).
    refreshMoving();
    const dvec3 gravity(m_objects.document.gravity);
    auto& objects = m_objects.document.objects;
    for (uint32_t i = 0; i < objects.size(); ++i)
    {
        const uint32_t slot = m_movingOf[i];
        if (slot == UINT32_MAX)
            continue;
        Object3D& o = objects[i];
        ObjectMotion& m = m_objects.motion[i];
        dvec3 moved(0.0);
        const dvec3 center = centerOf(o);
        if (isCharacter(o))
        {
            const physics::CharacterDef def = characterDef(*o.characterController);
            const dvec3 next = physics::stepCharacter(m_collision, def, i, center, m.character, gravity, dt, m_scratch);
            moved = next - center;
        }
        else if (o.body->kind == BodyKind::Dynamic)
        {
            moved = physics::stepBody(m_collision, m_collision.movingColliders()[slot].shape, i, m.body, gravity, dt,
                                      m_scratch);
        }
        else
            continue; // kinematic: moved by its transform
        if (moved == dvec3(0.0))
            continue;
        Transform3D t = o.transform.value_or(Transform3D{});
        t.position = glm::vec3(center + moved);
        o.transform = t;
        m_objects.stale[i] = 1;
        // The collider follows the rounded position the document keeps.
        const dvec3 delta = dvec3(t.position) - center;
        m_collision.moveMoving(slot, physics::translated(m_collision.movingColliders()[slot].shape, delta));
    }
}

Status World::stepFrames(uint32_t frames, double dt)
{
    if (frames == 0 || frames > kMaxStepFrames)
        return makeError("E_SCENE_RANGE", "frames must be in 1..100000", "/frames");
    if (!std::isfinite(dt) || dt <= 0.0 || dt > kMaxStep)
        return makeError("E_SCENE_RANGE", "the step must be a finite time in (0, 1] seconds", "/dt");
    // Safe points between frames (spark/core/work.h). Frames done are undone when the work
    // is stopped, so a stopped step changes nothing; the copy is taken only when stopping
    // is possible at all and there is more than one frame to undo.
    std::optional<WorldState> start;
    if (frames > 1 && workCancellable())
        start = saveState();
    for (uint32_t f = 0; f < frames; ++f)
    {
        if (!workCheckpoint("frames", f, frames))
        {
            if (start)
                restoreState(std::move(*start));
            return cancelledError("frame " + std::to_string(f + 1) + " of " + std::to_string(frames));
        }
        SPARK_TRY(step(dt));
    }
    return Status::success();
}

Status World::setTransform(ObjectId object, const Transform3D& transform)
{
    const uint32_t* position = m_objects.positions.get(object);
    if (!position)
        return makeError("E_SCENE_UNKNOWN_OBJECT", "no such object (the handle is stale)");
    if (!finiteIn(transform.position))
        return makeError("E_SCENE_RANGE", "the position must be finite and within 1e6 m", "/position");
    const glm::vec4& q = transform.rotation;
    if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z) || !std::isfinite(q.w) ||
        std::abs(q.x) > 1e6f || std::abs(q.y) > 1e6f || std::abs(q.z) > 1e6f || std::abs(q.w) > 1e6f ||
        !(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 1e-12f))
        return makeError("E_SCENE_RANGE", "the rotation must be a finite quaternion of non-zero length", "/rotation");
    if (!finiteIn(transform.scale) || transform.scale.x == 0.0f || transform.scale.y == 0.0f ||
        transform.scale.z == 0.0f)
        return makeError("E_SCENE_RANGE", "the scale must be finite and non-zero on every axis", "/scale");
    Object3D& o = m_objects.document.objects[*position];
    o.transform = transform;
    m_objects.hashes[*position] = hashObject3D(o);
    if (blocks(o) && o.body->kind == BodyKind::Fixed)
        m_staticDirty = true;
    m_movingDirty = true;
    for (ObjectMotion& m : m_objects.motion)
        m.body.sleeping = false, m.body.restFrames = 0; // what rested on it may fall
    return Status::success();
}

Status World::moveCharacter(ObjectId object, const glm::vec3& velocity, bool jump)
{
    const uint32_t* position = m_objects.positions.get(object);
    if (!position)
        return makeError("E_SCENE_UNKNOWN_OBJECT", "no such object (the handle is stale)");
    const Object3D& o = m_objects.document.objects[*position];
    if (!o.characterController)
        return makeError("E_SCENE_NO_CONTROLLER", "object \"" + o.name + "\" has no CharacterController", "/object");
    for (int i = 0; i < 3; ++i)
        if (!std::isfinite(velocity[i]) || std::abs(velocity[i]) > kMaxCharacterSpeed)
            return makeError("E_SCENE_RANGE", "the velocity must be finite and at most 1000 m/s on each axis",
                             "/velocity/" + std::to_string(i));
    physics::CharacterMotion& m = m_objects.motion[*position].character;
    m.wanted = dvec3(velocity.x, 0.0, velocity.z);
    if (jump)
        m.jump = true;
    return Status::success();
}

Result<SceneRayHit> World::raycast(const glm::vec3& from, const glm::vec3& to, std::span<const ObjectId> ignore) const
{
    if (!finiteIn(from))
        return makeError("E_SCENE_RANGE", "the ray's start must be finite and within 1e6 m", "/from");
    if (!finiteIn(to))
        return makeError("E_SCENE_RANGE", "the ray's end must be finite and within 1e6 m", "/to");
    ensureCollision();
    std::vector<uint32_t>& skip = m_skipScratch; // reused: line of sight casts many rays per step
    skip.clear();
    for (ObjectId id : ignore)
        if (const uint32_t* p = m_objects.positions.get(id))
            skip.push_back(*p);
    std::sort(skip.begin(), skip.end());
    uint32_t owner = UINT32_MAX;
    const physics::RayHit h = m_collision.raycast(dvec3(from), dvec3(to), skip, &owner);
    SceneRayHit out;
    if (!h.hit)
    {
        out.point = dvec3(to);
        return out;
    }
    out.hit = true;
    out.fraction = h.fraction;
    out.point = h.point;
    out.normal = h.normal;
    out.object = m_objects.order[owner];
    return out;
}

const ObjectMotion* World::motion(ObjectId object) const
{
    const uint32_t* position = m_objects.positions.get(object);
    return position ? &m_objects.motion[*position] : nullptr;
}

PhysicsInfo World::physicsInfo() const
{
    PhysicsInfo info;
    ensureCollision();
    info.staticShapes = static_cast<uint32_t>(m_collision.staticCount());
    info.approximatedModels = m_approximatedModels;
    const auto& objects = m_objects.document.objects;
    for (size_t i = 0; i < objects.size(); ++i)
    {
        const Object3D& o = objects[i];
        if (isCharacter(o))
            ++info.characters;
        else if (blocks(o) && o.body->kind == BodyKind::Dynamic)
        {
            ++info.dynamicBodies;
            if (m_objects.motion[i].body.sleeping)
                ++info.sleepingBodies;
        }
        else if (blocks(o) && o.body->kind == BodyKind::Kinematic)
            ++info.kinematicBodies;
    }
    return info;
}

uint64_t World::physicsHash() const
{
    Hasher h;
    h.addString("physics/1");
    const auto& objects = m_objects.document.objects;
    for (size_t i = 0; i < objects.size(); ++i)
    {
        const ObjectMotion& m = m_objects.motion[i];
        const Object3D& o = objects[i];
        if (isCharacter(o))
        {
            h.addU32(static_cast<uint32_t>(i));
            for (int k = 0; k < 3; ++k)
                h.addF64(m.character.wanted[k]);
            h.addF64(m.character.verticalSpeed);
            h.addBool(m.character.jump);
            h.addBool(m.character.grounded);
        }
        else if (o.body && o.body->kind == BodyKind::Dynamic)
        {
            h.addU32(static_cast<uint32_t>(i));
            for (int k = 0; k < 3; ++k)
                h.addF64(m.body.velocity[k]);
            h.addU32(m.body.restFrames);
            h.addBool(m.body.sleeping);
        }
    }
    return h.digest();
}

} // namespace spark::scene
