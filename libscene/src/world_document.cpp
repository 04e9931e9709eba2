// The 3D scene document: object lookup and the canonical scene hash.
//
// An object's hash feeds every field in a fixed order with explicit widths
// (floats by bit pattern), optional components and fields behind a presence
// byte; the blackboard is fed as its canonical JSON text (nlohmann's objects are
// ordered by key, so equal blackboards give equal text). The scene hash combines
// the gravity and the objects' hashes in scene order, so a world that keeps
// per-object hashes answers it without re-reading every object.

#include "spark/scene/world_document.h"

namespace spark::scene
{
namespace
{

void addVec3(Hasher& h, const glm::vec3& v)
{
    h.addF32(v.x);
    h.addF32(v.y);
    h.addF32(v.z);
}

void addOptionalFloat(Hasher& h, const std::optional<float>& v)
{
    h.addBool(v.has_value());
    if (v)
        h.addF32(*v);
}

void addOptionalString(Hasher& h, const std::optional<std::string>& v)
{
    h.addBool(v.has_value());
    if (v)
        h.addString(*v);
}

} // namespace

void hashObject3D(Hasher& h, const Object3D& o)
{
    h.addString(o.name);
    h.addBool(o.transform.has_value());
    if (o.transform)
    {
        addVec3(h, o.transform->position);
        h.addF32(o.transform->rotation.x);
        h.addF32(o.transform->rotation.y);
        h.addF32(o.transform->rotation.z);
        h.addF32(o.transform->rotation.w);
        addVec3(h, o.transform->scale);
    }
    h.addBool(o.body.has_value());
    if (o.body)
    {
        h.addU8(static_cast<uint8_t>(o.body->kind));
        h.addBool(o.body->sensor);
        const BodyShape& s = o.body->shape;
        h.addU8(static_cast<uint8_t>(s.type));
        // Only the fields of the shape's type: they are all the document holds.
        switch (s.type)
        {
        case ShapeType::Box:
            addVec3(h, s.halfExtents);
            break;
        case ShapeType::Sphere:
            h.addF32(s.radius);
            break;
        case ShapeType::Capsule:
            h.addF32(s.radius);
            h.addF32(s.halfHeight);
            break;
        case ShapeType::ConvexHull:
        case ShapeType::TriMesh:
        case ShapeType::FromMesh:
            h.addString(s.model);
            break;
        }
    }
    h.addBool(o.model.has_value());
    if (o.model)
        h.addString(o.model->path);
    h.addBool(o.characterController.has_value());
    if (o.characterController)
    {
        const CharacterController& c = *o.characterController;
        h.addF32(c.height);
        h.addF32(c.radius);
        h.addF32(c.stepHeight);
        h.addF32(c.maxSlopeDeg);
        h.addF32(c.jumpSpeed);
    }
    h.addBool(o.destructible.has_value());
    if (o.destructible)
    {
        h.addBool(o.destructible->anchored);
        addOptionalString(h, o.destructible->asset);
    }
    h.addBool(o.aiAgent.has_value());
    if (o.aiAgent)
    {
        const AiAgent& a = *o.aiAgent;
        h.addString(a.mesh);
        addOptionalString(h, a.tree);
        addOptionalString(h, a.utility);
        h.addU32(a.period);
        h.addString(a.blackboard.dump());
        addOptionalFloat(h, a.radius);
        addOptionalFloat(h, a.height);
        addOptionalFloat(h, a.maxSpeed);
        addOptionalFloat(h, a.maxAccel);
        addOptionalFloat(h, a.stopDistance);
        addOptionalFloat(h, a.eyeHeight);
        h.addU8(static_cast<uint8_t>(a.drive));
    }
}

uint64_t hashObject3D(const Object3D& object)
{
    Hasher h;
    hashObject3D(h, object);
    return h.digest();
}

uint64_t combineSceneHash(const glm::vec3& gravity, std::span<const uint64_t> objectHashes)
{
    Hasher h;
    h.addString("space3d/2");
    addVec3(h, gravity);
    h.addU64(objectHashes.size());
    // The same bytes as one addU64 per object (the hasher's words are native,
    // little-endian), fed in one call.
    h.addBytes(objectHashes.data(), objectHashes.size() * sizeof(uint64_t));
    return h.digest();
}

const Object3D* findObject(const WorldDocument& scene, std::string_view name)
{
    for (const Object3D& o : scene.objects)
        if (o.name == name)
            return &o;
    return nullptr;
}

Status addObject(WorldDocument& scene, Object3D object)
{
    if (object.name.empty())
        return makeError("E_SCENE_FORMAT", "an object needs a non-empty name", "/name");
    if (object.name.size() > kMaxSceneString)
        return makeError("E_SCENE_FORMAT", "object name too long (at most 1024 bytes)", "/name");
    if (findObject(scene, object.name))
        return makeError("E_SCENE_FORMAT", "an object named \"" + object.name + "\" already exists", "/name",
                         "despawn it first or pick another name");
    if (scene.objects.size() >= kMaxSceneObjects)
        return makeError("E_SCENE_LIMIT", "the scene is full (at most 100000 objects)");
    scene.objects.push_back(std::move(object));
    return Status::success();
}

bool removeObject(WorldDocument& scene, std::string_view name)
{
    for (auto it = scene.objects.begin(); it != scene.objects.end(); ++it)
    {
        if (it->name == name)
        {
            scene.objects.erase(it);
            return true;
        }
    }
    return false;
}

void hashWorldDocument(Hasher& io, const WorldDocument& scene)
{
    io.addU64(hashWorldDocument(scene));
}

uint64_t hashWorldDocument(const WorldDocument& scene)
{
    std::vector<uint64_t> hashes;
    hashes.reserve(scene.objects.size());
    for (const Object3D& o : scene.objects)
        hashes.push_back(hashObject3D(o));
    return combineSceneHash(scene.gravity, hashes);
}

} // namespace spark::scene
