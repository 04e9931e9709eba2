// scene::World's physics: twin worlds in lockstep, snapshot → restore → step
// equals step, a pinned hash of the sample after 600 steps, kinematic objects
// moved by their transform, ray casts through the world, and refused input that
// changes nothing.

#include "spark/scene/world.h"
#include "world_util.h"

#include "spark/core/rng.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::scene;

namespace
{

using test::kRagdollSample;
using test::ragdollWorld;

Object3D character(std::string name, glm::vec3 position)
{
    Object3D o;
    o.name = std::move(name);
    o.transform = Transform3D{};
    o.transform->position = position;
    o.characterController = CharacterController{};
    return o;
}

// Spawns `n` characters on open floor west of the wall and gives each a seeded walk.
void addWalkers(World& w, int n, uint64_t seed)
{
    Rng rng = rngFromSeed(seed);
    for (int i = 0; i < n; ++i)
    {
        const float x = static_cast<float>(rngNextRange(rng, -13.5, -1.5));
        const float z = static_cast<float>(rngNextRange(rng, 1.0, 9.0));
        auto id = w.spawn(character("Walker" + std::to_string(i), {x, 0.95f, z}));
        REQUIRE(id.ok());
    }
}

void steer(World& w, int n, Rng& rng)
{
    for (int i = 0; i < n; ++i)
    {
        const glm::vec3 v(static_cast<float>(rngNextRange(rng, -3, 3)), 0.0f, static_cast<float>(rngNextRange(rng, -3, 3)));
        REQUIRE(w.moveCharacter(w.findObject("Walker" + std::to_string(i)), v, rngNextBelow(rng, 5) == 0).ok());
    }
}

} // namespace

TEST_CASE("Two sample worlds with 20 walking characters stay bit-equal for 2,000 steps")
{
    World a = ragdollWorld(), b = ragdollWorld();
    addWalkers(a, 20, 9);
    addWalkers(b, 20, 9);
    Rng ra = rngFromSeed(4), rb = rngFromSeed(4);
    for (int f = 0; f < 2000; ++f)
    {
        if (f % 90 == 0)
        {
            steer(a, 20, ra);
            steer(b, 20, rb);
        }
        REQUIRE(a.step(kFixedStep).ok());
        REQUIRE(b.step(kFixedStep).ok());
        if (f % 100 == 99)
            REQUIRE(a.hashState() == b.hashState());
    }
    CHECK(a.hashState() == b.hashState());
    CHECK(a.document() == b.document());
}

TEST_CASE("Snapshot, step, restore, step again: the same hashes frame by frame")
{
    World w = ragdollWorld();
    addWalkers(w, 10, 21);
    Rng rng = rngFromSeed(5);
    steer(w, 10, rng);
    REQUIRE(w.stepFrames(40).ok()); // crates in the air, characters landing
    const WorldState mid = w.saveState();
    const Rng midRng = rng;
    std::vector<uint64_t> first;
    for (int f = 0; f < 300; ++f)
    {
        if (f % 50 == 0)
            steer(w, 10, rng);
        REQUIRE(w.step(kFixedStep).ok());
        first.push_back(w.hashState());
    }
    w.restoreState(mid);
    rng = midRng;
    for (int f = 0; f < 300; ++f)
    {
        if (f % 50 == 0)
            steer(w, 10, rng);
        REQUIRE(w.step(kFixedStep).ok());
        REQUIRE(w.hashState() == first[f]);
    }
    // Restoring into another world works the same.
    World other;
    other.setModelLoader(makeObjModelLoader("."));
    other.restoreState(mid);
    REQUIRE(other.step(kFixedStep).ok());
    w.restoreState(mid);
    REQUIRE(w.step(kFixedStep).ok());
    CHECK(other.hashState() == w.hashState());
}

TEST_CASE("The sample after 600 steps has a pinned hash, its bodies asleep at rest")
{
    World w = ragdollWorld();
    CHECK(w.hashState() == 0xee9d90f7a962beb6ULL);
    REQUIRE(w.stepFrames(600).ok());
    CHECK(w.hashState() == 0x196167f2b4fa7270ULL);
    const PhysicsInfo info = w.physicsInfo();
    CHECK(info.dynamicBodies == 4);
    CHECK(info.sleepingBodies == 4);
    CHECK(info.characters == 1);
    CHECK(info.approximatedModels == 0);
    const Object3D* crate = w.object(w.findObject("CrateA"));
    CHECK(std::abs(crate->transform->position.y - 0.4f) < 1e-3f);
    CHECK(w.motion(w.findObject("Player"))->character.grounded);
}

TEST_CASE("A kinematic gate moved by its transform blocks characters and rays, and lets them through once moved")
{
    World w = ragdollWorld();
    Object3D gate;
    gate.name = "Gate";
    gate.transform = Transform3D{};
    gate.transform->position = {5.0f, 1.0f, -8.0f};
    gate.body = Body{};
    gate.body->kind = BodyKind::Kinematic;
    gate.body->shape.halfExtents = {0.25f, 1.0f, 1.5f};
    const ObjectId id = w.spawn(gate).value();
    const ObjectId player = w.findObject("Player"); // at (3, 0.95, -8)
    auto hit = w.raycast({1, 1, -8}, {9, 1, -8}, std::vector<ObjectId>{player});
    REQUIRE(hit.ok());
    CHECK(hit.value().object == id);
    CHECK(std::abs(hit.value().point.x - 4.75) < 1e-6);
    // The player walks east into the gate and stops against it.
    REQUIRE(w.moveCharacter(player, {3, 0, 0}, false).ok());
    REQUIRE(w.stepFrames(120).ok());
    CHECK(std::abs(w.object(player)->transform->position.x - (4.75f - 0.4f)) < 1e-3f);
    // Moved away, the gate lets it through (up to the platform's side at x = 6).
    Transform3D open = *w.object(id)->transform;
    open.position.z = -2.0f;
    REQUIRE(w.setTransform(id, open).ok());
    REQUIRE(w.stepFrames(60).ok());
    CHECK(w.object(player)->transform->position.x > 5.5f);
}

TEST_CASE("Refused physics input is a coded error with the field and changes nothing")
{
    World w = ragdollWorld();
    REQUIRE(w.stepFrames(5).ok());
    const uint64_t before = w.hashState();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const ObjectId player = w.findObject("Player");
    const ObjectId crate = w.findObject("CrateA");

    Status st = w.moveCharacter(crate, {1, 0, 0}, false);
    CHECK(st.error().code == "E_SCENE_NO_CONTROLLER");
    CHECK(st.error().field == "/object");
    st = w.moveCharacter(player, {nan, 0, 0}, true);
    CHECK(st.error().code == "E_SCENE_RANGE");
    CHECK(st.error().field == "/velocity/0");
    st = w.moveCharacter(player, {0, 0, 2000}, false);
    CHECK(st.error().field == "/velocity/2");
    st = w.moveCharacter(ObjectId{}, {0, 0, 0}, false);
    CHECK(st.error().code == "E_SCENE_UNKNOWN_OBJECT");

    Transform3D t;
    t.position = {inf, 0, 0};
    CHECK(w.setTransform(crate, t).error().field == "/position");
    t = Transform3D{};
    t.rotation = {0, 0, 0, 0};
    CHECK(w.setTransform(crate, t).error().field == "/rotation");
    t = Transform3D{};
    t.scale = {1, 0, 1};
    CHECK(w.setTransform(crate, t).error().field == "/scale");

    CHECK(w.raycast({nan, 0, 0}, {1, 1, 1}, {}).error().field == "/from");
    CHECK(w.raycast({0, 0, 0}, {0, 2e6f, 0}, {}).error().field == "/to");
    CHECK(w.stepFrames(0).error().field == "/frames");
    CHECK(w.stepFrames(kMaxStepFrames + 1).error().code == "E_SCENE_RANGE");
    CHECK(w.stepFrames(1, 0.0).error().field == "/dt");
    CHECK(w.stepFrames(1, 1.5).error().field == "/dt");
    CHECK(w.stepFrames(1, std::nan("")).error().code == "E_SCENE_RANGE");
    CHECK(w.step(std::nan("")).error().code == "E_SCENE_RANGE");
    CHECK(w.hashState() == before);
}

TEST_CASE("A model that cannot be loaded is a counted box in the physics")
{
    auto scene = loadWorldDocumentFile(kRagdollSample);
    REQUIRE(scene.ok());
    World w;
    REQUIRE(w.loadScene(std::move(scene.value())).ok());
    // No loader: the trimesh pillar becomes a box of half extents 0.5.
    CHECK(w.physicsInfo().approximatedModels == 1);
    auto hit = w.raycast({-8, 3, -1}, {-8, -0.5, -1}, {});
    REQUIRE(hit.ok());
    CHECK(w.object(hit.value().object)->name == "PillarStone");
    CHECK(std::abs(hit.value().point.y - 0.5) < 1e-9);
    w.setModelLoader(makeObjModelLoader("."));
    CHECK(w.physicsInfo().approximatedModels == 0);
}
