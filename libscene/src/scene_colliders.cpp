// The scene's colliders as world-space triangles for the 3D bake.
//
// Design note. Round shapes are tessellated as UV spheres: `kRoundSlices`
// longitude segments and `kRoundStacks` latitude bands, one vertex at each
// pole, counter-clockwise seen from outside; a capsule is the same sphere cut
// at its equator with the two halves moved `halfHeight` apart and joined by one
// band (the cylinder). Every angle comes from spark::det::sinCos (never libm's
// trig), so equal scenes give bit-identical triangles on every machine. The
// meshes are closed (each edge used once in each direction), which the
// voxeliser does not need but which makes them valid physics shapes too.
//
// Rotations are applied with the quaternion sandwich written out by hand
// (v' = v + w·t + u × t with t = 2 u × v, u = (x, y, z)), after normalising the
// quaternion; then scale, rotate, translate, as a scene graph does.

#include "spark/scene/scene_colliders.h"

#include "spark/core/det_math.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace spark::scene
{
namespace
{

glm::vec3 cross(const glm::vec3& a, const glm::vec3& b)
{
    return glm::vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

void addTriangle(ColliderMesh& io, uint32_t a, uint32_t b, uint32_t c)
{
    io.indices.push_back(a);
    io.indices.push_back(b);
    io.indices.push_back(c);
}

// A box spanning [lo, hi].
ColliderMesh boxBetween(const glm::vec3& lo, const glm::vec3& hi)
{
    ColliderMesh m;
    m.vertices.reserve(8);
    // Corner i takes hi on axis k when bit k of i is set.
    for (uint32_t i = 0; i < 8; ++i)
        m.vertices.emplace_back((i & 1u) ? hi.x : lo.x, (i & 2u) ? hi.y : lo.y, (i & 4u) ? hi.z : lo.z);
    m.indices.reserve(36);
    for (uint32_t axis = 0; axis < 3; ++axis)
    {
        const uint32_t u = 1u << ((axis + 1) % 3);
        const uint32_t v = 1u << ((axis + 2) % 3);
        for (uint32_t side = 0; side < 2; ++side)
        {
            const uint32_t base = side ? (1u << axis) : 0u;
            // The face's corners in cyclic order; (u, v, axis) is right-handed, so
            // this order is counter-clockwise seen from the +axis side.
            const uint32_t c0 = base, c1 = base | u, c2 = base | u | v, c3 = base | v;
            if (side == 1)
            {
                addTriangle(m, c0, c1, c2);
                addTriangle(m, c0, c2, c3);
            }
            else
            {
                addTriangle(m, c0, c2, c1);
                addTriangle(m, c0, c3, c2);
            }
        }
    }
    return m;
}

// A UV sphere of `radius` whose upper half is lifted and lower half lowered by `halfHeight`.
ColliderMesh roundShape(float radius, float halfHeight)
{
    struct Ring
    {
        double y;
        double r;
    };
    std::vector<Ring> rings;
    const int half = kRoundStacks / 2;
    for (int i = 1; i < kRoundStacks; ++i)
    {
        double s = 0.0, c = 0.0;
        det::sinCos(det::kPi * i / kRoundStacks, s, c);
        const double y = radius * c;
        const double r = radius * s;
        if (i < half)
            rings.push_back({y + halfHeight, r});
        else if (i > half)
            rings.push_back({y - halfHeight, r});
        else if (halfHeight > 0.0f)
        {
            rings.push_back({static_cast<double>(halfHeight), static_cast<double>(radius)});
            rings.push_back({-static_cast<double>(halfHeight), static_cast<double>(radius)});
        }
        else
            rings.push_back({0.0, static_cast<double>(radius)});
    }

    double cosPhi[kRoundSlices], sinPhi[kRoundSlices];
    for (int j = 0; j < kRoundSlices; ++j)
        det::sinCos(det::kTwoPi * j / kRoundSlices, sinPhi[j], cosPhi[j]);

    ColliderMesh m;
    const uint32_t slices = kRoundSlices;
    const uint32_t ringCount = static_cast<uint32_t>(rings.size());
    m.vertices.reserve(2 + ringCount * slices);
    m.vertices.emplace_back(0.0f, radius + halfHeight, 0.0f); // top pole
    for (const Ring& ring : rings)
        for (uint32_t j = 0; j < slices; ++j)
            m.vertices.emplace_back(static_cast<float>(ring.r * cosPhi[j]), static_cast<float>(ring.y),
                                    static_cast<float>(ring.r * sinPhi[j]));
    const uint32_t bottom = static_cast<uint32_t>(m.vertices.size());
    m.vertices.emplace_back(0.0f, -(radius + halfHeight), 0.0f); // bottom pole

    auto at = [slices](uint32_t ring, uint32_t j) { return 1 + ring * slices + (j % slices); };
    for (uint32_t j = 0; j < slices; ++j)
        addTriangle(m, 0, at(0, j + 1), at(0, j));
    for (uint32_t k = 0; k + 1 < ringCount; ++k)
    {
        for (uint32_t j = 0; j < slices; ++j)
        {
            addTriangle(m, at(k, j), at(k, j + 1), at(k + 1, j + 1));
            addTriangle(m, at(k, j), at(k + 1, j + 1), at(k + 1, j));
        }
    }
    for (uint32_t j = 0; j < slices; ++j)
        addTriangle(m, at(ringCount - 1, j), at(ringCount - 1, j + 1), bottom);
    return m;
}

void boundsOf(const ColliderMesh& mesh, glm::vec3& outLo, glm::vec3& outHi)
{
    outLo = mesh.vertices.front();
    outHi = mesh.vertices.front();
    for (const glm::vec3& v : mesh.vertices)
    {
        outLo = glm::vec3(std::min(outLo.x, v.x), std::min(outLo.y, v.y), std::min(outLo.z, v.z));
        outHi = glm::vec3(std::max(outHi.x, v.x), std::max(outHi.y, v.y), std::max(outHi.z, v.z));
    }
}

// A usable model: at least one triangle, every index in range, every vertex finite.
Status checkModel(const ColliderMesh& mesh)
{
    if (mesh.indices.empty() || mesh.indices.size() % 3 != 0)
        return makeError("E_FORMAT", "the model has no triangles");
    for (uint32_t i : mesh.indices)
        if (i >= mesh.vertices.size())
            return makeError("E_FORMAT", "the model has a triangle index out of range");
    for (const glm::vec3& v : mesh.vertices)
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
            return makeError("E_FORMAT", "the model has a non-finite vertex");
    return Status::success();
}

// Loads each model path once.
class ModelCache
{
public:
    explicit ModelCache(const ModelLoader& loader) : m_loader(loader) {}

    const Result<ColliderMesh>& get(const std::string& path)
    {
        auto it = m_models.find(path);
        if (it != m_models.end())
            return it->second;
        Result<ColliderMesh> loaded =
            m_loader ? m_loader(path) : Result<ColliderMesh>(makeError("E_IO", "no model loader given"));
        if (loaded)
        {
            Status usable = checkModel(*loaded);
            if (!usable.ok())
                loaded = Result<ColliderMesh>(usable.error());
        }
        return m_models.emplace(path, std::move(loaded)).first->second;
    }

private:
    const ModelLoader& m_loader;
    std::map<std::string, Result<ColliderMesh>> m_models;
};

bool kindIncluded(const ColliderDef& def, BodyKind kind)
{
    return std::find(def.includeKinds.begin(), def.includeKinds.end(), kind) != def.includeKinds.end();
}

// Whether an object's collider goes into the bake, per docs/navmesh.md "The 3D bake", step 1.
bool colliderIncluded(const Object3D& o, const ColliderDef& def)
{
    const bool anchoredDestructible = o.destructible && o.destructible->anchored;
    if (o.body)
    {
        if (o.body->sensor && !def.includeSensors)
            return false;
        if (anchoredDestructible && o.body->kind != BodyKind::Dynamic)
            return true;
        return kindIncluded(def, o.body->kind);
    }
    // A destructible without a body is its model.
    return anchoredDestructible && o.model.has_value();
}

struct LocalShape
{
    ColliderMesh mesh;
    bool approximated = false;
    std::string code;
    std::string message;
    std::string cause;
};

LocalShape unitBoxFor(const std::string& path, const Error& error)
{
    LocalShape s;
    s.mesh = tessellateBox(glm::vec3(0.5f));
    s.approximated = true;
    s.code = error.code;
    s.cause = "model \"" + path + "\" could not be loaded (" + error.message + ")";
    s.message = s.cause + "; baked as a unit box";
    return s;
}

// The object's collider in its own frame.
LocalShape localShape(const Object3D& o, ModelCache& models)
{
    LocalShape s;
    if (!o.body)
    {
        const Result<ColliderMesh>& m = models.get(o.model->path);
        if (!m)
            return unitBoxFor(o.model->path, m.error());
        s.mesh = *m;
        return s;
    }
    const BodyShape& shape = o.body->shape;
    const std::string& path = !shape.model.empty() ? shape.model : (o.model ? o.model->path : shape.model);
    switch (shape.type)
    {
    case ShapeType::Box:
        s.mesh = tessellateBox(shape.halfExtents);
        break;
    case ShapeType::Sphere:
        s.mesh = tessellateSphere(shape.radius);
        break;
    case ShapeType::Capsule:
        s.mesh = tessellateCapsule(shape.radius, shape.halfHeight);
        break;
    case ShapeType::ConvexHull:
    case ShapeType::TriMesh:
    {
        const Result<ColliderMesh>& m = models.get(path);
        if (!m)
            return unitBoxFor(path, m.error());
        s.mesh = *m;
        break;
    }
    case ShapeType::FromMesh:
    {
        const Result<ColliderMesh>& m = models.get(path);
        if (!m)
            return unitBoxFor(path, m.error());
        glm::vec3 lo, hi;
        boundsOf(*m, lo, hi);
        s.mesh = boxBetween(lo, hi);
        break;
    }
    }
    return s;
}

} // namespace

ColliderMesh tessellateBox(const glm::vec3& halfExtents)
{
    return boxBetween(-halfExtents, halfExtents);
}

ColliderMesh tessellateSphere(float radius)
{
    return roundShape(radius, 0.0f);
}

ColliderMesh tessellateCapsule(float radius, float halfHeight)
{
    return roundShape(radius, std::max(halfHeight, 0.0f));
}

glm::vec3 rotateByQuaternion(const glm::vec4& q, const glm::vec3& v)
{
    const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(len > 0.0f))
        return v;
    const glm::vec3 u(q.x / len, q.y / len, q.z / len);
    const float w = q.w / len;
    const glm::vec3 t = 2.0f * cross(u, v);
    return v + w * t + cross(u, t);
}

glm::vec3 transformPoint(const Transform3D& transform, const glm::vec3& local)
{
    return transform.position + rotateByQuaternion(transform.rotation, transform.scale * local);
}

ColliderDef defaultColliderDef()
{
    return ColliderDef{};
}

ColliderTriangles collectColliderTriangles(const WorldDocument& scene, const ColliderDef& def,
                                           const ModelLoader& loader)
{
    ColliderTriangles out;
    ModelCache models(loader);
    const Transform3D identity;
    for (const Object3D& o : scene.objects)
    {
        if (!colliderIncluded(o, def))
            continue;
        LocalShape shape = localShape(o, models);
        // A fracture asset is not read: the destructible bakes as its shape's box.
        if (o.destructible && o.destructible->asset && !shape.approximated)
        {
            glm::vec3 lo, hi;
            boundsOf(shape.mesh, lo, hi);
            shape.mesh = boxBetween(lo, hi);
            shape.approximated = true;
            shape.code = "E_SCENE_APPROXIMATED";
            shape.cause = "fracture asset \"" + *o.destructible->asset + "\" is not read";
            shape.message = "fracture asset \"" + *o.destructible->asset + "\" baked as the box of its shape";
        }
        const Transform3D& t = o.transform ? *o.transform : identity;
        const uint32_t base = static_cast<uint32_t>(out.input.vertices.size());
        // Every collider is offered as a solid; the bake fills the ones that close up.
        out.input.solids.push_back({static_cast<uint32_t>(out.input.indices.size() / 3),
                                    static_cast<uint32_t>(shape.mesh.indices.size() / 3)});
        for (const glm::vec3& v : shape.mesh.vertices)
            out.input.vertices.push_back(transformPoint(t, v));
        for (uint32_t i : shape.mesh.indices)
            out.input.indices.push_back(base + i);
        ++out.colliders;
        if (shape.approximated)
        {
            ++out.approximatedColliders;
            out.approximations.push_back(
                {o.name, std::move(shape.code), std::move(shape.message), std::move(shape.cause)});
        }
    }
    out.input.areas.assign(out.input.indices.size() / 3, 0);
    return out;
}

} // namespace spark::scene
