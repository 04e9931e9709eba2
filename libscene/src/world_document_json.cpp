// The `.space3d.json` document: validation on load, canonical form on save.
//
// Every value is checked where it is read, and the first problem found is
// reported as E_SCENE_FORMAT with the RFC 6901 JSON pointer of that value, so a
// user can go straight to it. Floats are written with the shortest decimal that
// reads back to the same float, so "0.1" stays "0.1" through load → save.

#include "spark/scene/world_document.h"

#include "spark/core/charconv.h"
#include "spark/core/path.h"
#include "spark/core/text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <set>
#include <string>

namespace spark::scene
{
namespace
{

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// RFC 6901: '~' → "~0", '/' → "~1".
std::string pointerToken(std::string_view key)
{
    std::string out;
    out.reserve(key.size());
    for (char c : key)
    {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string child(std::string_view pointer, std::string_view key)
{
    std::string out(pointer);
    out += '/';
    out += pointerToken(key);
    return out;
}

std::string child(std::string_view pointer, size_t index)
{
    return std::string(pointer) + "/" + std::to_string(index);
}

Error formatError(std::string message, std::string pointer)
{
    return makeError("E_SCENE_FORMAT", std::move(message), std::move(pointer));
}

const char* typeName(const json& v)
{
    switch (v.type())
    {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::string:
        return "a string";
    case json::value_t::array:
        return "an array";
    case json::value_t::object:
        return "an object";
    case json::value_t::discarded:
        return "nothing";
    default:
        return "a number";
    }
}

// Fails on any key of `obj` not in `allowed`.
Status checkKeys(const json& obj, std::string_view pointer, std::initializer_list<std::string_view> allowed)
{
    for (auto it = obj.begin(); it != obj.end(); ++it)
    {
        bool known = false;
        for (std::string_view a : allowed)
            known = known || (a == it.key());
        if (!known)
        {
            std::string list;
            for (std::string_view a : allowed)
                list += (list.empty() ? "" : ", ") + std::string(a);
            return formatError("unknown field \"" + it.key() + "\" (expected one of: " + list + ")",
                               child(pointer, it.key()));
        }
    }
    return Status::success();
}

Status expectObject(const json& v, std::string_view pointer, std::string_view what)
{
    if (!v.is_object())
        return formatError(std::string(what) + " must be an object, not " + typeName(v),
                           std::string(pointer));
    return Status::success();
}

// A finite number within ±kMaxSceneNumber, as a float.
Result<float> readNumber(const json& v, std::string_view pointer)
{
    if (!v.is_number())
        return formatError(std::string("expected a number, not ") + typeName(v), std::string(pointer));
    const double d = v.get<double>();
    if (!std::isfinite(d))
        return formatError("numbers must be finite", std::string(pointer));
    if (std::fabs(d) > kMaxSceneNumber)
        return formatError("number out of range (|x| <= 1e6)", std::string(pointer));
    return static_cast<float>(d);
}

enum class Bound
{
    Any,
    Positive,    // > 0
    NonNegative, // >= 0
};

Result<float> readBounded(const json& v, std::string_view pointer, Bound bound)
{
    auto r = readNumber(v, pointer);
    if (!r)
        return r;
    const float x = *r;
    if (bound == Bound::Positive && !(x > 0.0f))
        return formatError("must be greater than 0", std::string(pointer));
    if (bound == Bound::NonNegative && !(x >= 0.0f))
        return formatError("must not be negative", std::string(pointer));
    return x;
}

template <int N> Result<std::array<float, N>> readVector(const json& v, std::string_view pointer, Bound bound)
{
    if (!v.is_array() || v.size() != N)
        return formatError("expected an array of " + std::to_string(N) + " numbers", std::string(pointer));
    std::array<float, N> out{};
    for (int i = 0; i < N; ++i)
    {
        auto r = readBounded(v[static_cast<size_t>(i)], child(pointer, static_cast<size_t>(i)), bound);
        if (!r)
            return r.error();
        out[static_cast<size_t>(i)] = *r;
    }
    return out;
}

Result<glm::vec3> readVec3(const json& v, std::string_view pointer, Bound bound)
{
    auto r = readVector<3>(v, pointer, bound);
    if (!r)
        return r.error();
    return glm::vec3((*r)[0], (*r)[1], (*r)[2]);
}

Result<bool> readBool(const json& v, std::string_view pointer)
{
    if (!v.is_boolean())
        return formatError(std::string("expected a boolean, not ") + typeName(v), std::string(pointer));
    return v.get<bool>();
}

Result<std::string> readString(const json& v, std::string_view pointer)
{
    if (!v.is_string())
        return formatError(std::string("expected a string, not ") + typeName(v), std::string(pointer));
    std::string s = v.get<std::string>();
    if (s.empty())
        return formatError("must not be empty", std::string(pointer));
    if (s.size() > kMaxSceneString)
        return formatError("string too long (at most 1024 bytes)", std::string(pointer));
    if (s.find('\0') != std::string::npos)
        return formatError("must not contain a NUL character", std::string(pointer));
    return s;
}

// Checks a free-form JSON value (the blackboard): numbers finite, bounded depth.
Status checkFreeValue(const json& v, std::string_view pointer, int depth)
{
    if (depth > 32)
        return formatError("nested too deeply (at most 32 levels)", std::string(pointer));
    if (v.is_number_float() && !std::isfinite(v.get<double>()))
        return formatError("numbers must be finite", std::string(pointer));
    if (v.is_object())
        for (auto it = v.begin(); it != v.end(); ++it)
            SPARK_TRY(checkFreeValue(it.value(), child(pointer, it.key()), depth + 1));
    if (v.is_array())
        for (size_t i = 0; i < v.size(); ++i)
            SPARK_TRY(checkFreeValue(v[i], child(pointer, i), depth + 1));
    return Status::success();
}

// Reads `key` from `obj` into `out` with `reader` when present.
#define SCENE_READ(obj, pointer, key, out, reader)                                                           \
    do                                                                                                       \
    {                                                                                                        \
        if (auto it_ = (obj).find(key); it_ != (obj).end())                                                  \
        {                                                                                                    \
            auto r_ = reader(*it_, child(pointer, key));                                                     \
            if (!r_)                                                                                         \
                return r_.error();                                                                           \
            out = *r_;                                                                                       \
        }                                                                                                    \
    } while (false)

Result<Transform3D> parseTransform(const json& v, const std::string& p)
{
    SPARK_TRY(expectObject(v, p, "Transform3D"));
    SPARK_TRY(checkKeys(v, p, {"position", "rotation", "scale"}));
    Transform3D t;
    auto anyVec3 = [](const json& x, const std::string& q) { return readVec3(x, q, Bound::Any); };
    SCENE_READ(v, p, "position", t.position, anyVec3);
    if (auto it = v.find("rotation"); it != v.end())
    {
        const std::string q = child(p, "rotation");
        auto r = readVector<4>(*it, q, Bound::Any);
        if (!r)
            return r.error();
        const auto& a = *r;
        const double len2 =
            double(a[0]) * a[0] + double(a[1]) * a[1] + double(a[2]) * a[2] + double(a[3]) * a[3];
        if (!(len2 > 1e-12))
            return formatError("the rotation quaternion must not be zero", q);
        t.rotation = glm::vec4(a[0], a[1], a[2], a[3]);
    }
    if (auto it = v.find("scale"); it != v.end())
    {
        const std::string q = child(p, "scale");
        auto r = readVec3(*it, q, Bound::Any);
        if (!r)
            return r.error();
        for (int i = 0; i < 3; ++i)
            if ((*r)[i] == 0.0f)
                return formatError("scale must not be zero", child(q, static_cast<size_t>(i)));
        t.scale = *r;
    }
    return t;
}

Result<BodyShape> parseShape(const json& v, const std::string& p)
{
    SPARK_TRY(expectObject(v, p, "shape"));
    auto typeIt = v.find("type");
    if (typeIt == v.end())
        return formatError("shape needs a \"type\" (box, sphere, capsule, convex_hull, trimesh, from_mesh)",
                           child(p, "type"));
    auto typeText = readString(*typeIt, child(p, "type"));
    if (!typeText)
        return typeText.error();
    BodyShape s;
    auto positive = [](const json& x, const std::string& q) { return readBounded(x, q, Bound::Positive); };
    auto nonNegative = [](const json& x, const std::string& q)
    { return readBounded(x, q, Bound::NonNegative); };
    const std::string& t = *typeText;
    if (t == "box")
    {
        s.type = ShapeType::Box;
        SPARK_TRY(checkKeys(v, p, {"type", "half_extents"}));
        auto positiveVec3 = [](const json& x, const std::string& q)
        { return readVec3(x, q, Bound::Positive); };
        SCENE_READ(v, p, "half_extents", s.halfExtents, positiveVec3);
    }
    else if (t == "sphere")
    {
        s.type = ShapeType::Sphere;
        SPARK_TRY(checkKeys(v, p, {"type", "radius"}));
        SCENE_READ(v, p, "radius", s.radius, positive);
    }
    else if (t == "capsule")
    {
        s.type = ShapeType::Capsule;
        SPARK_TRY(checkKeys(v, p, {"type", "radius", "half_height"}));
        SCENE_READ(v, p, "radius", s.radius, positive);
        SCENE_READ(v, p, "half_height", s.halfHeight, nonNegative);
    }
    else if (t == "convex_hull" || t == "trimesh" || t == "from_mesh")
    {
        s.type = t == "convex_hull" ? ShapeType::ConvexHull
                 : t == "trimesh"   ? ShapeType::TriMesh
                                    : ShapeType::FromMesh;
        SPARK_TRY(checkKeys(v, p, {"type", "model"}));
        SCENE_READ(v, p, "model", s.model, readString);
    }
    else
    {
        return formatError("unknown shape type \"" + t +
                               "\" (box, sphere, capsule, convex_hull, trimesh, from_mesh)",
                           child(p, "type"));
    }
    return s;
}

Result<Body> parseBody(const json& v, const std::string& p)
{
    SPARK_TRY(expectObject(v, p, "Body"));
    SPARK_TRY(checkKeys(v, p, {"kind", "shape", "sensor"}));
    Body b;
    if (auto it = v.find("kind"); it != v.end())
    {
        auto k = readString(*it, child(p, "kind"));
        if (!k)
            return k.error();
        if (*k == "fixed")
            b.kind = BodyKind::Fixed;
        else if (*k == "dynamic")
            b.kind = BodyKind::Dynamic;
        else if (*k == "kinematic")
            b.kind = BodyKind::Kinematic;
        else
            return formatError("unknown body kind \"" + *k + "\" (fixed, dynamic, kinematic)",
                               child(p, "kind"));
    }
    auto shapeIt = v.find("shape");
    if (shapeIt == v.end())
        return formatError("Body needs a \"shape\"", child(p, "shape"));
    auto shape = parseShape(*shapeIt, child(p, "shape"));
    if (!shape)
        return shape.error();
    b.shape = std::move(*shape);
    SCENE_READ(v, p, "sensor", b.sensor, readBool);
    return b;
}

Result<Model> parseModel(const json& v, const std::string& p)
{
    SPARK_TRY(expectObject(v, p, "Model"));
    SPARK_TRY(checkKeys(v, p, {"path"}));
    if (!v.contains("path"))
        return formatError("Model needs a \"path\"", child(p, "path"));
    Model m;
    SCENE_READ(v, p, "path", m.path, readString);
    return m;
}

Result<CharacterController> parseController(const json& v, const std::string& p)
{
    SPARK_TRY(expectObject(v, p, "CharacterController"));
    SPARK_TRY(checkKeys(v, p, {"height", "radius", "step_height", "max_slope_deg", "jump_speed"}));
    CharacterController c;
    auto positive = [](const json& x, const std::string& q) { return readBounded(x, q, Bound::Positive); };
    auto nonNegative = [](const json& x, const std::string& q)
    { return readBounded(x, q, Bound::NonNegative); };
    SCENE_READ(v, p, "height", c.height, positive);
    SCENE_READ(v, p, "radius", c.radius, positive);
    SCENE_READ(v, p, "step_height", c.stepHeight, nonNegative);
    SCENE_READ(v, p, "max_slope_deg", c.maxSlopeDeg, nonNegative);
    SCENE_READ(v, p, "jump_speed", c.jumpSpeed, nonNegative);
    if (c.maxSlopeDeg > 90.0f)
        return formatError("max_slope_deg must be within 0..90", child(p, "max_slope_deg"));
    return c;
}

Result<Destructible> parseDestructible(const json& v, const std::string& p)
{
    SPARK_TRY(expectObject(v, p, "Destructible"));
    SPARK_TRY(checkKeys(v, p, {"anchored", "asset"}));
    Destructible d;
    SCENE_READ(v, p, "anchored", d.anchored, readBool);
    SCENE_READ(v, p, "asset", d.asset, readString);
    return d;
}

Result<AiAgent> parseAgent(const json& v, const std::string& p)
{
    SPARK_TRY(expectObject(v, p, "AiAgent"));
    SPARK_TRY(checkKeys(v, p,
                        {"mesh", "tree", "utility", "period", "blackboard", "radius", "height", "max_speed",
                         "max_accel", "stop_distance", "eye_height", "drive"}));
    AiAgent a;
    if (!v.contains("mesh"))
        return formatError("AiAgent needs a \"mesh\"", child(p, "mesh"));
    SCENE_READ(v, p, "mesh", a.mesh, readString);
    SCENE_READ(v, p, "tree", a.tree, readString);
    SCENE_READ(v, p, "utility", a.utility, readString);
    if (a.tree && a.utility)
        return formatError("AiAgent takes a tree or a utility document, not both", child(p, "utility"));
    if (auto it = v.find("period"); it != v.end())
    {
        const std::string q = child(p, "period");
        if (!it->is_number_integer() || it->get<int64_t>() < 1 || it->get<int64_t>() > 1000000)
            return formatError("period must be an integer within 1..1000000", q);
        a.period = static_cast<uint32_t>(it->get<int64_t>());
    }
    if (auto it = v.find("blackboard"); it != v.end())
    {
        const std::string q = child(p, "blackboard");
        SPARK_TRY(expectObject(*it, q, "blackboard"));
        SPARK_TRY(checkFreeValue(*it, q, 0));
        a.blackboard = *it;
    }
    auto positive = [](const json& x, const std::string& q) { return readBounded(x, q, Bound::Positive); };
    auto nonNegative = [](const json& x, const std::string& q)
    { return readBounded(x, q, Bound::NonNegative); };
    SCENE_READ(v, p, "radius", a.radius, positive);
    SCENE_READ(v, p, "height", a.height, positive);
    SCENE_READ(v, p, "max_speed", a.maxSpeed, nonNegative);
    SCENE_READ(v, p, "max_accel", a.maxAccel, nonNegative);
    SCENE_READ(v, p, "stop_distance", a.stopDistance, nonNegative);
    SCENE_READ(v, p, "eye_height", a.eyeHeight, nonNegative);
    if (auto it = v.find("drive"); it != v.end())
    {
        const std::string q = child(p, "drive");
        auto d = readString(*it, q);
        if (!d)
            return d.error();
        if (*d == "auto")
            a.drive = AgentDrive::Auto;
        else if (*d == "character")
            a.drive = AgentDrive::Character;
        else if (*d == "transform")
            a.drive = AgentDrive::Transform;
        else
            return formatError("unknown drive \"" + *d + "\" (auto, character, transform)", q);
    }
    return a;
}

#undef SCENE_READ

// Shortest decimal that reads back to the same float, as a double.
double floatForJson(float f)
{
    return spark::shortestDecimalAsDouble(f);
}

ojson vec3Json(const glm::vec3& v)
{
    return ojson::array({floatForJson(v.x), floatForJson(v.y), floatForJson(v.z)});
}

ojson shapeJson(const BodyShape& s)
{
    ojson out = ojson::object();
    out["type"] = shapeTypeName(s.type);
    switch (s.type)
    {
    case ShapeType::Box:
        out["half_extents"] = vec3Json(s.halfExtents);
        break;
    case ShapeType::Sphere:
        out["radius"] = floatForJson(s.radius);
        break;
    case ShapeType::Capsule:
        out["radius"] = floatForJson(s.radius);
        out["half_height"] = floatForJson(s.halfHeight);
        break;
    case ShapeType::ConvexHull:
    case ShapeType::TriMesh:
    case ShapeType::FromMesh:
        if (!s.model.empty())
            out["model"] = s.model;
        break;
    }
    return out;
}

} // namespace

std::string_view bodyKindName(BodyKind kind)
{
    switch (kind)
    {
    case BodyKind::Fixed:
        return "fixed";
    case BodyKind::Dynamic:
        return "dynamic";
    case BodyKind::Kinematic:
        return "kinematic";
    }
    return "fixed";
}

std::string_view shapeTypeName(ShapeType type)
{
    switch (type)
    {
    case ShapeType::Box:
        return "box";
    case ShapeType::Sphere:
        return "sphere";
    case ShapeType::Capsule:
        return "capsule";
    case ShapeType::ConvexHull:
        return "convex_hull";
    case ShapeType::TriMesh:
        return "trimesh";
    case ShapeType::FromMesh:
        return "from_mesh";
    }
    return "box";
}

std::string_view agentDriveName(AgentDrive drive)
{
    switch (drive)
    {
    case AgentDrive::Auto:
        return "auto";
    case AgentDrive::Character:
        return "character";
    case AgentDrive::Transform:
        return "transform";
    }
    return "auto";
}

Result<Object3D> parseObject3D(std::string name, const nlohmann::json& components, std::string_view pointer)
{
    const std::string p(pointer);
    SPARK_TRY(expectObject(components, p, "components"));
    SPARK_TRY(checkKeys(components, p,
                        {"Transform3D", "Body", "Model", "CharacterController", "Destructible", "AiAgent"}));
    Object3D o;
    o.name = std::move(name);
    if (auto it = components.find("Transform3D"); it != components.end())
    {
        auto r = parseTransform(*it, child(p, "Transform3D"));
        if (!r)
            return r.error();
        o.transform = *r;
    }
    if (auto it = components.find("Body"); it != components.end())
    {
        auto r = parseBody(*it, child(p, "Body"));
        if (!r)
            return r.error();
        o.body = std::move(*r);
    }
    if (auto it = components.find("Model"); it != components.end())
    {
        auto r = parseModel(*it, child(p, "Model"));
        if (!r)
            return r.error();
        o.model = std::move(*r);
    }
    if (auto it = components.find("CharacterController"); it != components.end())
    {
        auto r = parseController(*it, child(p, "CharacterController"));
        if (!r)
            return r.error();
        o.characterController = *r;
    }
    if (auto it = components.find("Destructible"); it != components.end())
    {
        auto r = parseDestructible(*it, child(p, "Destructible"));
        if (!r)
            return r.error();
        o.destructible = std::move(*r);
    }
    if (auto it = components.find("AiAgent"); it != components.end())
    {
        auto r = parseAgent(*it, child(p, "AiAgent"));
        if (!r)
            return r.error();
        o.aiAgent = std::move(*r);
    }
    // A model shape without its own path uses the object's Model.
    if (o.body)
    {
        const ShapeType t = o.body->shape.type;
        const bool modelShape =
            t == ShapeType::ConvexHull || t == ShapeType::TriMesh || t == ShapeType::FromMesh;
        if (modelShape && o.body->shape.model.empty() && !o.model)
            return formatError("a " + std::string(shapeTypeName(t)) +
                                   " shape needs a \"model\" (or a Model component on the object)",
                               child(child(p, "Body"), "shape"));
    }
    return o;
}

Result<WorldDocument> parseWorldDocument(const nlohmann::json& doc)
{
    SPARK_TRY(expectObject(doc, "", "a scene document"));
    SPARK_TRY(checkKeys(doc, "", {"version", "gravity", "objects"}));
    auto versionIt = doc.find("version");
    if (versionIt == doc.end())
        return formatError("a scene document needs \"version\": 1", "/version");
    if (!versionIt->is_number_integer() || versionIt->get<int64_t>() != 1)
        return formatError("unsupported version (this is version 1)", "/version");
    WorldDocument scene;
    if (auto it = doc.find("gravity"); it != doc.end())
    {
        auto g = readVec3(*it, "/gravity", Bound::Any);
        if (!g)
            return g.error();
        scene.gravity = *g;
    }
    auto objectsIt = doc.find("objects");
    if (objectsIt == doc.end())
        return scene;
    if (!objectsIt->is_array())
        return formatError(std::string("objects must be an array, not ") + typeName(*objectsIt), "/objects");
    if (objectsIt->size() > kMaxSceneObjects)
        return makeError("E_SCENE_LIMIT", "too many objects (at most 100000)", "/objects");
    scene.objects.reserve(objectsIt->size());
    std::set<std::string_view> names; // views into scene.objects' names (reserved: never reallocated)
    for (size_t i = 0; i < objectsIt->size(); ++i)
    {
        const json& entry = (*objectsIt)[i];
        const std::string p = child("/objects", i);
        SPARK_TRY(expectObject(entry, p, "an object entry"));
        SPARK_TRY(checkKeys(entry, p, {"name", "components"}));
        auto nameIt = entry.find("name");
        if (nameIt == entry.end())
            return formatError("an object needs a \"name\"", child(p, "name"));
        auto name = readString(*nameIt, child(p, "name"));
        if (!name)
            return name.error();
        if (names.count(*name))
            return formatError("duplicate object name \"" + *name + "\"", child(p, "name"));
        static const json kNoComponents = json::object();
        auto compIt = entry.find("components");
        auto object = parseObject3D(std::move(*name), compIt == entry.end() ? kNoComponents : *compIt,
                                    child(p, "components"));
        if (!object)
            return object.error();
        scene.objects.push_back(std::move(*object));
        names.insert(scene.objects.back().name);
    }
    return scene;
}

Result<WorldDocument> parseWorldDocumentText(std::string_view text)
{
    SPARK_TRY(checkJsonText(text));
    json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded())
        return makeError("E_FORMAT", "the scene file is not valid JSON");
    return parseWorldDocument(doc);
}

Result<WorldDocument> loadWorldDocumentFile(const std::filesystem::path& path)
{
    FileReadDef def = defaultFileReadDef();
    def.maxBytes = kMaxSceneFileBytes;
    def.limitCode = "E_SCENE_LIMIT";
    auto text = readTextFile(path, def);
    if (!text)
        return text.error();
    return parseWorldDocumentText(*text);
}

nlohmann::ordered_json componentsToJson(const Object3D& o)
{
    ojson c = ojson::object();
    if (o.transform)
    {
        const Transform3D& t = *o.transform;
        c["Transform3D"] = {
            {"position", vec3Json(t.position)},
            {"rotation", ojson::array({floatForJson(t.rotation.x), floatForJson(t.rotation.y),
                                       floatForJson(t.rotation.z), floatForJson(t.rotation.w)})},
            {"scale", vec3Json(t.scale)}};
    }
    if (o.body)
        c["Body"] = {{"kind", bodyKindName(o.body->kind)},
                     {"shape", shapeJson(o.body->shape)},
                     {"sensor", o.body->sensor}};
    if (o.model)
        c["Model"] = {{"path", o.model->path}};
    if (o.characterController)
    {
        const CharacterController& k = *o.characterController;
        c["CharacterController"] = {{"height", floatForJson(k.height)},
                                    {"radius", floatForJson(k.radius)},
                                    {"step_height", floatForJson(k.stepHeight)},
                                    {"max_slope_deg", floatForJson(k.maxSlopeDeg)},
                                    {"jump_speed", floatForJson(k.jumpSpeed)}};
    }
    if (o.destructible)
    {
        ojson d = {{"anchored", o.destructible->anchored}};
        if (o.destructible->asset)
            d["asset"] = *o.destructible->asset;
        c["Destructible"] = d;
    }
    if (o.aiAgent)
    {
        const AiAgent& a = *o.aiAgent;
        ojson j = ojson::object();
        j["mesh"] = a.mesh;
        if (a.tree)
            j["tree"] = *a.tree;
        if (a.utility)
            j["utility"] = *a.utility;
        j["period"] = a.period;
        j["blackboard"] = ojson(a.blackboard);
        auto opt = [&j](const char* key, const std::optional<float>& v)
        {
            if (v)
                j[key] = floatForJson(*v);
        };
        opt("radius", a.radius);
        opt("height", a.height);
        opt("max_speed", a.maxSpeed);
        opt("max_accel", a.maxAccel);
        opt("stop_distance", a.stopDistance);
        opt("eye_height", a.eyeHeight);
        j["drive"] = agentDriveName(a.drive);
        c["AiAgent"] = j;
    }
    return c;
}

nlohmann::ordered_json worldDocumentToJson(const WorldDocument& scene)
{
    ojson doc = ojson::object();
    doc["version"] = 1;
    doc["gravity"] = vec3Json(scene.gravity);
    ojson objects = ojson::array();
    for (const Object3D& o : scene.objects)
        objects.push_back(ojson{{"name", o.name}, {"components", componentsToJson(o)}});
    doc["objects"] = std::move(objects);
    return doc;
}

std::string worldDocumentToText(const WorldDocument& scene)
{
    return worldDocumentToJson(scene).dump(2) + "\n";
}

Status saveWorldDocumentFile(const std::filesystem::path& path, const WorldDocument& scene)
{
    return writeTextFile(path, worldDocumentToText(scene));
}

} // namespace spark::scene
