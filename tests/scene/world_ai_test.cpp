// scene::World's AI stages (world_ai.cpp) and its line of sight: AiAgent
// components become crowd agents with brains once their mesh and tree exist
// and go with their object; brains see through the physics (walls, pillars,
// crates block; the looker's own body does not; the view cone and the range
// limit what is seen), directly through World::lineOfSight and through a
// brain running the `can_see` condition.
//
// The scene is the ragdoll-wall sample (the guard demo's arena), baked once as
// `nav.bake` does it (bakeWorldDocument → NavWorld::putMesh), trees compiled and put
// as `ai.tree.load` does it.

#include "spark/scene/world.h"
#include "world_util.h"

#include "spark/ai/brain.h"
#include "spark/ai/tree.h"
#include "spark/scene/scene_bake.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::scene;

namespace
{

using json = ai::json;

const std::string kRoot = SPARK_SOURCE_DIR;
using test::kRagdollSample;
using test::ragdollWorld; // with the project's model loader (the trimesh pillar is real)
using test::spawnOk;

// The sample's mesh as `nav.bake {name: arena, agent_radius: 0.4, agent_height: 1.8}`
// bakes it; baked once, shared by every test (meshes are immutable).
std::shared_ptr<const nav::NavMesh> arenaMesh()
{
    static const std::shared_ptr<const nav::NavMesh> mesh = []
    {
        auto scene = loadWorldDocumentFile(kRagdollSample);
        REQUIRE(scene.ok());
        SceneBakeDef def = defaultSceneBakeDef();
        def.bake.agentRadius = 0.4f;
        def.bake.agentHeight = 1.8f;
        auto baked = bakeWorldDocument(scene.value(), def, makeObjModelLoader(kRoot));
        REQUIRE(baked.ok());
        REQUIRE(baked->approximatedColliders == 0);
        return baked->mesh;
    }();
    return mesh;
}

// Puts (or replaces) the mesh "arena", as nav.bake does.
nav::MeshId putArena(World& w)
{
    nav::MeshDef def = nav::defaultMeshDef();
    def.name = "arena";
    def.source = "space3d";
    def.mesh = arenaMesh();
    auto id = w.nav().putMesh(std::move(def));
    REQUIRE(id.ok());
    return id.value();
}

// Compiles a tree document and puts it in the world's AI state, as ai.tree.load does.
void putTree(World& w, const json& doc)
{
    std::vector<ai::Problem> problems;
    auto tree = ai::compileTree(doc, ai::builtinLeafRegistry(), &problems);
    INFO(doc.dump());
    REQUIRE(tree.ok());
    ai::putTree(w.ai(), std::move(tree.value()));
}

// A tree that stops the agent and succeeds at every tick.
json idleTree(const std::string& name = "idle")
{
    return {{"version", 1}, {"name", name}, {"root", {{"type", "action"}, {"name", "stop"}}}};
}

// A tree that is one `can_see` condition on `target` (a name or a point).
json lookTree(const json& target, double range, double fovDeg, double eyeHeight = 1.6)
{
    return {{"version", 1},
            {"name", "look"},
            {"root",
             {{"type", "condition"},
              {"name", "can_see"},
              {"params",
               {{"target", target}, {"range", range}, {"fov_deg", fovDeg}, {"eye_height", eyeHeight}}}}}};
}

// A guard like the demo's: a character on the "arena" mesh running `tree`.
Object3D guard(const std::string& name, glm::vec3 position, const std::string& tree)
{
    Object3D o;
    o.name = name;
    o.transform = Transform3D{};
    o.transform->position = position;
    o.characterController = CharacterController{};
    o.characterController->height = 1.8f;
    o.characterController->radius = 0.4f;
    o.aiAgent = AiAgent{};
    o.aiAgent->mesh = "arena";
    o.aiAgent->tree = tree;
    return o;
}

// An object that is only a place (no body: nothing of it blocks a ray).
Object3D marker(const std::string& name, glm::vec3 position)
{
    Object3D o;
    o.name = name;
    o.transform = Transform3D{};
    o.transform->position = position;
    return o;
}

// A box body (fixed or dynamic) centred at `position`.
Object3D crate(const std::string& name, glm::vec3 position, glm::vec3 halfExtents, BodyKind kind)
{
    Object3D o;
    o.name = name;
    o.transform = Transform3D{};
    o.transform->position = position;
    o.body = Body{};
    o.body->kind = kind;
    o.body->shape.type = ShapeType::Box;
    o.body->shape.halfExtents = halfExtents;
    return o;
}


size_t countSceneEvents(const World& w, const std::string& kind, const std::string& object)
{
    size_t n = 0;
    for (const SceneEvent& e : w.sceneEvents())
        n += (e.kind == kind && e.object == object) ? 1 : 0;
    return n;
}

size_t countAiEvents(const World& w, const std::string& kind, const std::string& agent)
{
    size_t n = 0;
    for (const ai::AiEvent& e : w.ai().events.events)
        n += (e.kind == kind && e.agent == agent) ? 1 : 0;
    return n;
}

bool hasAgentAndBrain(const World& w, const std::string& name)
{
    const auto it = w.agents().find(name);
    return it != w.agents().end() && w.nav().agent(it->second.agent) != nullptr &&
           w.ai().brains.contains(name);
}

// A guard standing at (x, z) on the open floor with a `look` tree on `target`,
// stepped once: its agent and brain are made and the brain ticks in that step.
struct Looker
{
    World world;
    const ai::Brain& brain() const { return *world.ai().brains.findBrain("Guard"); }
};

Looker lookFrom(glm::vec2 at, const json& target, double range, double fovDeg,
                const std::vector<Object3D>& extras = {})
{
    Looker l{ragdollWorld()};
    putArena(l.world);
    putTree(l.world, lookTree(target, range, fovDeg));
    for (const Object3D& o : extras)
        spawnOk(l.world, o);
    spawnOk(l.world, guard("Guard", {at.x, 0.95f, at.y}, "look"));
    REQUIRE(l.world.step(kFixedStep).ok());
    REQUIRE(hasAgentAndBrain(l.world, "Guard"));
    REQUIRE(l.brain().enabled);
    REQUIRE(l.brain().ticks == 1);
    return l;
}

bool sees(const Looker& l)
{
    // The status and the spotted event agree (a first sighting is spotted).
    const bool seen = l.brain().status == ai::NodeStatus::Success;
    CHECK(countAiEvents(l.world, "spotted", "Guard") == (seen ? 1u : 0u));
    return seen;
}

// The guard's eye: its feet plus `height`.
glm::dvec3 eyeOf(const World& w, const std::string& name, double height = 1.6)
{
    glm::dvec3 feet;
    REQUIRE(w.groundPosition(name, feet));
    return feet + glm::dvec3(0.0, height, 0.0);
}

} // namespace

// -- Lifecycle ------------------------------------------------------------------------

TEST_CASE("an AiAgent spawned before its mesh exists gets no agent; the first step after the bake makes "
          "agent, brain "
          "and an agent_created event")
{
    World w = ragdollWorld();
    putTree(w, idleTree());
    spawnOk(w, guard("Guard", {-12.0f, 0.95f, 6.0f}, "idle"));
    REQUIRE(w.stepFrames(3).ok());
    CHECK(w.agents().empty());
    CHECK(w.ai().brains.empty());
    CHECK(w.nav().agentCount() == 0);
    CHECK(w.sceneEvents().empty());

    putArena(w);
    CHECK(w.agents().empty()); // not before the next step
    REQUIRE(w.step(kFixedStep).ok());
    REQUIRE(w.agents().size() == 1);
    CHECK(hasAgentAndBrain(w, "Guard"));
    CHECK(w.agents().at("Guard").fromComponent);
    CHECK(w.nav().agentCount() == 1);
    const ai::Brain& brain = *w.ai().brains.findBrain("Guard");
    CHECK(brain.tree == "idle");
    CHECK(brain.ticks == 1); // made and ticked in the same step
    REQUIRE(w.sceneEvents().size() == 1);
    const SceneEvent& e = w.sceneEvents()[0];
    CHECK(e.kind == "agent_created");
    CHECK(e.object == "Guard");
    CHECK(e.seq == 0);
    CHECK(e.frame == 3);
    CHECK(e.message.find("arena") != std::string::npos);

    // The agent stands where the guard's feet are, on the mesh.
    const nav::CrowdAgent* a = w.nav().agent(w.agents().at("Guard").agent);
    REQUIRE(a != nullptr);
    CHECK(std::abs(a->position.x - -12.0f) < 0.05f);
    CHECK(std::abs(a->position.z - 6.0f) < 0.05f);

    // Later steps make no second agent.
    REQUIRE(w.stepFrames(10).ok());
    CHECK(w.agents().size() == 1);
    CHECK(countSceneEvents(w, "agent_created", "Guard") == 1);
}

TEST_CASE("an object that drives its transform keeps its centre's height above the ground as it moves")
{
    // A 1 m cart standing on the floor (centre at y 0.5), walking to a point.
    World w = ragdollWorld();
    putArena(w);
    putTree(w, {{"version", 1},
                {"name", "go"},
                {"root", {{"type", "action"}, {"name", "move_to"}, {"params", {{"target", {-6, 0, 2}}}}}}});
    Object3D cart = crate("Cart", {-12.0f, 0.5f, 2.0f}, glm::vec3(0.5f), BodyKind::Kinematic);
    cart.aiAgent = AiAgent{};
    cart.aiAgent->mesh = "arena";
    cart.aiAgent->tree = "go";
    cart.aiAgent->drive = AgentDrive::Transform;
    cart.aiAgent->maxSpeed = 2.0f;
    const ObjectId id = spawnOk(w, cart);
    REQUIRE(w.stepFrames(90).ok());
    const glm::vec3 at = w.object(id)->transform->position;
    CHECK(at.x > -10.0f); // it moved
    CHECK(at.y == doctest::Approx(0.5f)); // not its agent's point on the mesh: half into the floor
    const nav::CrowdAgent* a = w.nav().agent(w.agents().at("Cart").agent);
    REQUIRE(a != nullptr);
    CHECK(at.x == a->position.x);
    CHECK(at.z == a->position.z);
    CHECK(w.agents().at("Cart").lift == doctest::Approx(0.5 - a->position.y));
}

TEST_CASE("despawning the object removes its agent and its brain; the crowd is empty again")
{
    World w = ragdollWorld();
    putArena(w);
    putTree(w, idleTree());
    const ObjectId id = spawnOk(w, guard("Guard", {-12.0f, 0.95f, 6.0f}, "idle"));
    spawnOk(w, guard("Other", {-10.0f, 0.95f, 6.0f}, "idle"));
    REQUIRE(w.step(kFixedStep).ok());
    REQUIRE(hasAgentAndBrain(w, "Guard"));
    REQUIRE(hasAgentAndBrain(w, "Other"));
    const nav::AgentId crowdAgent = w.agents().at("Guard").agent;

    REQUIRE(w.despawn(id).ok());
    CHECK(w.agents().count("Guard") == 0);
    CHECK(!w.ai().brains.contains("Guard"));
    CHECK(w.nav().agent(crowdAgent) == nullptr);
    CHECK(w.nav().agentCount() == 1);
    CHECK(hasAgentAndBrain(w, "Other")); // the other guard is untouched

    REQUIRE(w.stepFrames(5).ok());
    CHECK(w.agents().count("Guard") == 0);
    CHECK(!w.ai().brains.contains("Guard"));
    CHECK(w.agents().size() == 1);
    // Not checked: an agent_removed scene event for the despawn. World::despawn
    // drops the agent itself and the step's "its object or AiAgent is gone"
    // branch never sees it, so no event is logged (reported, not asserted).
}

TEST_CASE("an AiAgent naming a tree that is not loaded gets no agent until the tree is loaded")
{
    World w = ragdollWorld();
    putArena(w);
    spawnOk(w, guard("Guard", {-12.0f, 0.95f, 6.0f}, "later"));
    REQUIRE(w.stepFrames(5).ok());
    CHECK(w.agents().empty());
    CHECK(w.ai().brains.empty());
    CHECK(w.nav().agentCount() == 0);
    CHECK(w.sceneEvents().empty());

    putTree(w, idleTree("other")); // another tree changes nothing
    REQUIRE(w.step(kFixedStep).ok());
    CHECK(w.agents().empty());

    putTree(w, idleTree("later"));
    REQUIRE(w.step(kFixedStep).ok());
    CHECK(hasAgentAndBrain(w, "Guard"));
    CHECK(w.ai().brains.findBrain("Guard")->tree == "later");
    CHECK(countSceneEvents(w, "agent_created", "Guard") == 1);
}

TEST_CASE("re-baking the mesh under the same name keeps the agent, its handle and its brain")
{
    World w = ragdollWorld();
    const nav::MeshId mesh = putArena(w);
    putTree(w, idleTree());
    spawnOk(w, guard("Guard", {-12.0f, 0.95f, 6.0f}, "idle"));
    REQUIRE(w.stepFrames(2).ok());
    REQUIRE(hasAgentAndBrain(w, "Guard"));
    const nav::AgentId before = w.agents().at("Guard").agent;
    const uint64_t ticks = w.ai().brains.findBrain("Guard")->ticks;

    CHECK(putArena(w) == mesh); // same name: replaced, same handle
    REQUIRE(w.step(kFixedStep).ok());
    CHECK(hasAgentAndBrain(w, "Guard"));
    CHECK(w.agents().at("Guard").agent == before);
    CHECK(w.ai().brains.findBrain("Guard")->ticks == ticks + 1); // the same brain, ticking on
    CHECK(countSceneEvents(w, "agent_created", "Guard") == 1);
    CHECK(countSceneEvents(w, "agent_removed", "Guard") == 0);
}

TEST_CASE("removing the mesh removes the agent and brain at the next step with an agent_removed event")
{
    World w = ragdollWorld();
    const nav::MeshId mesh = putArena(w);
    putTree(w, idleTree());
    spawnOk(w, guard("Guard", {-12.0f, 0.95f, 6.0f}, "idle"));
    REQUIRE(w.step(kFixedStep).ok());
    REQUIRE(hasAgentAndBrain(w, "Guard"));

    REQUIRE(w.nav().removeMesh(mesh).ok());
    REQUIRE(w.step(kFixedStep).ok());
    CHECK(w.agents().empty());
    CHECK(w.ai().brains.empty());
    CHECK(countSceneEvents(w, "agent_removed", "Guard") == 1);

    // Baked again, the object gets a new agent and brain.
    putArena(w);
    REQUIRE(w.step(kFixedStep).ok());
    CHECK(hasAgentAndBrain(w, "Guard"));
    CHECK(countSceneEvents(w, "agent_created", "Guard") == 2);
}

TEST_CASE("a brain whose tick fails is disabled, the scene logs one ai_error, and its agent stays")
{
    World w = ragdollWorld();
    putArena(w);
    // The target comes from a blackboard key the guard's blackboard does not have.
    putTree(w, lookTree(json{{"bb", "missing"}}, 10.0, 120.0));
    spawnOk(w, guard("Guard", {-12.0f, 0.95f, 6.0f}, "look"));
    REQUIRE(w.stepFrames(5).ok());
    REQUIRE(hasAgentAndBrain(w, "Guard"));
    const ai::Brain& brain = *w.ai().brains.findBrain("Guard");
    CHECK_FALSE(brain.enabled);
    CHECK(brain.error.code == "E_AI_PARAMS");
    CHECK(brain.ticks == 0);
    REQUIRE(countSceneEvents(w, "ai_error", "Guard") == 1);
    for (const SceneEvent& e : w.sceneEvents())
        if (e.kind == "ai_error")
        {
            CHECK(e.frame == 0);
            CHECK(e.message.rfind("E_AI_PARAMS: ", 0) == 0);
        }
}

TEST_CASE("a guard snapshotted mid-chase and restored steps on with the same hashes and the same AI events")
{
    // The guard demo: the sample tree, the player walking out from behind the wall.
    World w = ragdollWorld();
    putArena(w);
    std::ifstream file(kRoot + "/samples/ai/guard.bt.json");
    REQUIRE(file.good());
    putTree(w, json::parse(file));
    Object3D g = guard("Guard", {-12.0f, 0.95f, 6.0f}, "guard");
    g.aiAgent->maxSpeed = 3.5f;
    g.aiAgent->blackboard = {{"target", "Player"}};
    spawnOk(w, g);
    REQUIRE(w.moveCharacter(w.findObject("Player"), {0.0f, 0.0f, 3.0f}, false).ok());
    uint32_t frames = 0;
    while (countAiEvents(w, "spotted", "Guard") == 0 && frames < 600)
    {
        REQUIRE(w.step(kFixedStep).ok());
        ++frames;
    }
    REQUIRE(countAiEvents(w, "spotted", "Guard") == 1);
    REQUIRE(w.moveCharacter(w.findObject("Player"), {0.0f, 0.0f, 0.0f}, false).ok());
    REQUIRE(w.stepFrames(30).ok());
    REQUIRE(w.ai().brains.findBrain("Guard")->status == ai::NodeStatus::Running);

    const WorldState mid = w.saveState();
    const uint64_t eventsAtSnapshot = w.ai().events.nextSeq;
    std::vector<uint64_t> first;
    for (int f = 0; f < 240; ++f)
    {
        REQUIRE(w.step(kFixedStep).ok());
        first.push_back(w.hashState());
    }
    const std::vector<ai::AiEvent> firstEvents = w.ai().events.events;
    REQUIRE(w.ai().events.nextSeq > eventsAtSnapshot); // the chase recorded something after the snapshot

    w.restoreState(mid);
    CHECK(w.ai().events.nextSeq == eventsAtSnapshot);
    for (int f = 0; f < 240; ++f)
    {
        REQUIRE(w.step(kFixedStep).ok());
        REQUIRE(w.hashState() == first[static_cast<size_t>(f)]);
    }
    REQUIRE(w.ai().events.events.size() == firstEvents.size());
    for (size_t i = 0; i < firstEvents.size(); ++i)
    {
        const ai::AiEvent& a = w.ai().events.events[i];
        const ai::AiEvent& b = firstEvents[i];
        CHECK((a.seq == b.seq && a.frame == b.frame && a.kind == b.kind && a.agent == b.agent &&
               a.data == b.data));
    }
    CHECK(hasAgentAndBrain(w, "Guard"));
}

// -- Line of sight: World::lineOfSight ---------------------------------------------

TEST_CASE("lineOfSight: the wall, both pillars and a spawned crate block; open floor does not")
{
    World w = ragdollWorld();
    // Open floor south of everything.
    CHECK(w.lineOfSight("", {-10.0, 1.5, 2.0}, {-10.0, 1.5, 7.0}));
    // The wall (x = 0 ± 0.25, z in [-10, 1]).
    CHECK_FALSE(w.lineOfSight("", {-3.0, 1.5, -4.0}, {3.0, 1.5, -4.0}));
    // The capsule pillar PillarWest at (-5, 1.5, 8.5).
    CHECK_FALSE(w.lineOfSight("", {-8.0, 1.5, 8.5}, {-2.0, 1.5, 8.5}));
    // The trimesh pillar PillarStone at (-8, 0, -1), 2 m tall: blocks at 1 m, not over its top.
    CHECK_FALSE(w.lineOfSight("", {-11.0, 1.0, -1.0}, {-5.0, 1.0, -1.0}));
    CHECK(w.lineOfSight("", {-11.0, 2.5, -1.0}, {-5.0, 2.5, -1.0}));
    // A crate spawned on the open line.
    spawnOk(w, crate("Crate", {-10.0f, 1.0f, 4.5f}, {0.5f, 1.0f, 0.5f}, BodyKind::Fixed));
    CHECK_FALSE(w.lineOfSight("", {-10.0, 1.5, 2.0}, {-10.0, 1.5, 7.0}));
}

TEST_CASE(
    "lineOfSight ignores the looker's own body but not another's; a body at the target point is the target")
{
    World w = ragdollWorld();
    putArena(w);
    putTree(w, idleTree());
    spawnOk(w, guard("Guard", {-10.0f, 0.95f, 2.0f}, "idle"));
    REQUIRE(w.step(kFixedStep).ok());
    const glm::dvec3 eye = eyeOf(w, "Guard");
    const glm::dvec3 ahead{-10.0, 1.0, 7.0};
    // The ray starts inside the guard's capsule.
    auto inside = w.raycast(glm::vec3(eye), glm::vec3(ahead), {});
    REQUIRE(inside.ok());
    CHECK(inside->hit);
    CHECK(inside->object == w.findObject("Guard"));
    CHECK_FALSE(w.lineOfSight("", eye, ahead));       // nobody's eyes: the capsule blocks
    CHECK_FALSE(w.lineOfSight("Player", eye, ahead)); // someone else's: still blocks
    CHECK(w.lineOfSight("Guard", eye, ahead));        // its own eyes: it does not

    // A dynamic crate between blocks, but a look at the crate itself sees it.
    spawnOk(w, crate("Box", {-10.0f, 1.0f, 4.5f}, {0.5f, 1.0f, 0.5f}, BodyKind::Dynamic));
    CHECK_FALSE(w.lineOfSight("Guard", eye, ahead));
    CHECK(w.lineOfSight("Guard", eye, {-10.0, 1.0, 4.0})); // on the crate's near face
}

// -- Line of sight through a brain: the can_see condition ---------------------------------

TEST_CASE("can_see through a brain: a target on open floor ahead is seen and spotted once")
{
    Looker l = lookFrom({-10.0f, 2.0f}, json::array({-10.0, 1.0, 7.0}), 10.0, 120.0);
    CHECK(sees(l));
    // It keeps seeing it; spotted is recorded once, on the change.
    REQUIRE(l.world.stepFrames(5).ok());
    CHECK(l.brain().status == ai::NodeStatus::Success);
    CHECK(countAiEvents(l.world, "spotted", "Guard") == 1);
}

TEST_CASE("can_see through a brain: the guard's own capsule does not hide what is ahead")
{
    // The eye ray starts inside the guard's own capsule (eye at 1.6 m, capsule up to 1.8 m).
    Looker l = lookFrom({-10.0f, 2.0f}, json::array({-10.0, 1.0, 7.0}), 10.0, 360.0);
    const glm::dvec3 eye = eyeOf(l.world, "Guard");
    auto inside = l.world.raycast(glm::vec3(eye), glm::vec3(-10.0f, 1.0f, 7.0f), {});
    REQUIRE(inside.ok());
    REQUIRE(inside->object == l.world.findObject("Guard"));
    CHECK(sees(l));
}

TEST_CASE("can_see through a brain: the wall blocks")
{
    Looker l = lookFrom({-3.0f, -4.0f}, json::array({3.0, 1.0, -4.0}), 10.0, 360.0);
    CHECK_FALSE(sees(l));
    // The same look from the wall's open end (z > 1) sees.
    Looker open = lookFrom({-3.0f, 4.0f}, json::array({3.0, 1.0, 4.0}), 10.0, 360.0);
    CHECK(sees(open));
}

TEST_CASE("can_see through a brain: the capsule pillar and the trimesh pillar block")
{
    Looker capsule = lookFrom({-8.0f, 8.5f}, json::array({-2.0, 1.0, 8.5}), 10.0, 360.0);
    CHECK_FALSE(sees(capsule));
    // South of the capsule pillar (it spans z 8..9), the same distance is clear.
    Looker pastCapsule = lookFrom({-8.0f, 7.0f}, json::array({-2.0, 1.0, 7.0}), 10.0, 360.0);
    CHECK(sees(pastCapsule));
    Looker trimesh = lookFrom({-11.0f, -1.0f}, json::array({-5.0, 1.0, -1.0}), 10.0, 360.0);
    CHECK_FALSE(sees(trimesh));
    // Beside the trimesh pillar (it is 0.6 m in radius), the same distance is clear.
    Looker beside = lookFrom({-11.0f, 0.5f}, json::array({-5.0, 1.0, 0.5}), 10.0, 360.0);
    CHECK(sees(beside));
}

TEST_CASE("can_see through a brain: a fixed crate and a dynamic crate spawned between block")
{
    const json ahead = json::array({-10.0, 1.0, 7.0});
    Looker fixed = lookFrom({-10.0f, 2.0f}, ahead, 10.0, 360.0,
                            {crate("Crate", {-10.0f, 1.0f, 4.5f}, {0.5f, 1.0f, 0.5f}, BodyKind::Fixed)});
    CHECK_FALSE(sees(fixed));
    Looker dynamic = lookFrom({-10.0f, 2.0f}, ahead, 10.0, 360.0,
                              {crate("Crate", {-10.0f, 1.0f, 4.5f}, {0.5f, 1.0f, 0.5f}, BodyKind::Dynamic)});
    CHECK_FALSE(sees(dynamic));
}

TEST_CASE("can_see through a brain: a named target is seen, and its own body does not hide it")
{
    // The target is a character (its capsule ends at the ground point the look aims at).
    Object3D target = marker("Target", {-10.0f, 0.95f, 7.0f});
    target.characterController = CharacterController{};
    Looker l = lookFrom({-10.0f, 2.0f}, "Target", 10.0, 120.0, {target});
    CHECK(sees(l));
    // A target that does not exist is not seen (and is no error).
    Looker ghost = lookFrom({-10.0f, 2.0f}, "Ghost", 10.0, 120.0);
    CHECK_FALSE(sees(ghost));
    CHECK(ghost.brain().enabled);
}

TEST_CASE("can_see through a brain: outside the view cone is not seen, inside it is")
{
    // A standing agent faces +z; fov 120 is 60 degrees either side. Targets 5 m
    // away at 50 and 70 degrees off +z, and straight behind.
    const double d = 5.0, pi = 3.14159265358979323846;
    auto at = [&](double deg)
    {
        const double r = deg * pi / 180.0;
        return json::array({-10.0 + d * std::sin(r), 1.0, 2.0 + d * std::cos(r)});
    };
    Looker inside = lookFrom({-10.0f, 2.0f}, at(50.0), 10.0, 120.0);
    CHECK(inside.world.agents().at("Guard").heading == glm::dvec3(0.0, 0.0, 1.0));
    CHECK(sees(inside));
    Looker outside = lookFrom({-10.0f, 2.0f}, at(70.0), 10.0, 120.0);
    CHECK_FALSE(sees(outside));
    Looker behind = lookFrom({-10.0f, 2.0f}, json::array({-10.0, 1.0, -3.0}), 10.0, 120.0);
    CHECK_FALSE(sees(behind));
    // The same points with a full circle of view are seen: only the cone hid them.
    CHECK(sees(lookFrom({-10.0f, 2.0f}, at(70.0), 10.0, 360.0)));
    CHECK(sees(lookFrom({-10.0f, 2.0f}, json::array({-10.0, 1.0, -3.0}), 10.0, 360.0)));
}

TEST_CASE("can_see through a brain: beyond the range is not seen, within it is")
{
    // From (-12, 6) east along open floor; distances are from the feet (y ~ 0) to y = 1.
    Looker near = lookFrom({-12.0f, 6.0f}, json::array({-2.5, 1.0, 6.0}), 10.0, 360.0); // ~9.55 m
    CHECK(sees(near));
    Looker far = lookFrom({-12.0f, 6.0f}, json::array({-1.5, 1.0, 6.0}), 10.0, 360.0); // ~10.55 m
    CHECK_FALSE(sees(far));
    Looker wider = lookFrom({-12.0f, 6.0f}, json::array({-1.5, 1.0, 6.0}), 11.0, 360.0);
    CHECK(sees(wider));
}

TEST_CASE("can_see through a brain: a target that walks behind the wall is lost with one lost_sight event")
{
    // The guard looks north-east across the wall's open end at a point that is
    // then moved behind the wall (a marker's transform, as a host moves objects).
    World w = ragdollWorld();
    putArena(w);
    putTree(w, lookTree("Target", 15.0, 360.0));
    spawnOk(w, marker("Target", {3.0f, 1.0f, 4.0f}));
    spawnOk(w, guard("Guard", {-3.0f, 0.95f, 4.0f}, "look"));
    REQUIRE(w.step(kFixedStep).ok());
    REQUIRE(hasAgentAndBrain(w, "Guard"));
    CHECK(w.ai().brains.findBrain("Guard")->status == ai::NodeStatus::Success);
    Transform3D t = *w.object(w.findObject("Target"))->transform;
    t.position = {3.0f, 1.0f, -4.0f};
    REQUIRE(w.setTransform(w.findObject("Target"), t).ok());
    REQUIRE(w.stepFrames(3).ok());
    CHECK(w.ai().brains.findBrain("Guard")->status == ai::NodeStatus::Failure);
    CHECK(countAiEvents(w, "spotted", "Guard") == 1);
    CHECK(countAiEvents(w, "lost_sight", "Guard") == 1);
}

// -- A world without objects: crowd agents with brains, the same step ---------------------

namespace
{

// A crowd agent at (x, z) on the arena mesh of an object-less world, named and given a `look` brain.
void namedLooker(World& w, const std::string& name, glm::vec2 at)
{
    nav::CrowdAgentDef def = nav::defaultCrowdAgentDef();
    def.position = {at.x, 0.0f, at.y};
    auto agent = w.nav().addAgent(w.nav().findMesh("arena"), def);
    REQUIRE(agent.ok());
    HostAgent h;
    h.agent = agent.value();
    w.agentsForBrains().emplace(name, h);
    ai::BrainDef brain = ai::defaultBrainDef();
    brain.agent = name;
    brain.agentKey = spark::scene::agentKey(agent.value());
    brain.tree = "look";
    REQUIRE(ai::attachBrain(w.ai(), brain, w.frame()).ok());
}

} // namespace

TEST_CASE("a world without objects steps its brains on the world's frame and sees along the mesh (walls block)")
{
    World w;
    putArena(w);
    putTree(w, lookTree(json::array({3.0, 1.0, -4.0}), 10.0, 360.0));
    namedLooker(w, "behind-wall", {-3.0f, -4.0f}); // the wall stands between it and the target
    namedLooker(w, "open-end", {3.0f, -9.0f});     // on the target's side, in the open
    REQUIRE(w.stepFrames(3).ok());
    CHECK(w.frame() == 3);
    CHECK(w.ai().brains.findBrain("behind-wall")->ticks == 3);
    CHECK(w.ai().brains.findBrain("behind-wall")->status == ai::NodeStatus::Failure);
    CHECK(w.ai().brains.findBrain("open-end")->status == ai::NodeStatus::Success);
    CHECK(countAiEvents(w, "spotted", "open-end") == 1);
    CHECK(w.nav().crowdSteps() == 3); // the crowds stepped in the same step

    // A removed crowd agent loses its name and brain at the next step, with a scene event.
    REQUIRE(w.nav().removeAgent(w.agents().at("open-end").agent).ok());
    REQUIRE(w.step(kFixedStep).ok());
    CHECK(w.agents().count("open-end") == 0);
    CHECK(!w.ai().brains.contains("open-end"));
    CHECK(countSceneEvents(w, "agent_removed", "open-end") == 1);
}

TEST_CASE("AiHost: a brain's key is its crowd agent's handle; a removed agent's key names no agent")
{
    World w;
    putArena(w);
    putTree(w, lookTree(json::array({3.0, 1.0, -4.0}), 10.0, 360.0));
    namedLooker(w, "a", {3.0f, -9.0f});
    namedLooker(w, "b", {-3.0f, -4.0f});
    const ai::AgentKey a = w.ai().brains.findBrain("a")->agentKey;
    const ai::AgentKey b = w.ai().brains.findBrain("b")->agentKey;
    CHECK(a == spark::scene::agentKey(w.agents().at("a").agent));
    CHECK(!(a == b));
    {
        AiHost host = w.aiHost();
        CHECK(host.agentExists(a));
        CHECK(host.agentExists(b));
        CHECK(!host.agentExists(ai::AgentKey{}));
        ai::Vec3 p;
        REQUIRE(host.agentPosition(a, p));
        CHECK(p.x == doctest::Approx(3.0));
        CHECK(p.z == doctest::Approx(-9.0));
    }
    // A saved and restored world keeps its crowd handles: the keys hold.
    const WorldState saved = w.saveState();
    REQUIRE(w.nav().removeAgent(w.agents().at("a").agent).ok());
    {
        AiHost host = w.aiHost();
        CHECK(!host.agentExists(a)); // gone: answers as an unknown agent
        CHECK(host.moveState(a) == ai::MoveState::NoPath);
        ai::Vec3 p;
        CHECK(!host.agentPosition(a, p));
        CHECK(!host.hasPath(a, ai::Vec3(3.0, 0.0, -9.0)));
        host.stop(a); // changes nothing, does not crash
        CHECK(host.agentExists(b));
    }
    w.restoreState(saved);
    REQUIRE(w.step(kFixedStep).ok());
    AiHost host = w.aiHost();
    CHECK(host.agentExists(a));
    CHECK(w.ai().brains.findBrain("a")->ticks == 1);
    CHECK(w.ai().brains.findBrain("a")->enabled);
}
