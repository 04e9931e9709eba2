/// \file physics_bench.cpp
/// libscene's physics subset on samples/space3d/ragdoll-wall.space3d.json:
/// seeded ray casts against the scene's static world, against Bullet's
/// btCollisionWorld::rayTest on the same triangles in the same run (Debian's
/// libbullet-dev, a comparison only; the libraries never link it), and
/// character controllers walking the arena.
///
/// Ray casts, three sides, the same rays for all:
///  - world: scene::World::raycast on a World holding the sample's static
///    objects only (fixed, non-sensor bodies; the dynamic crates, the ball and
///    the player are left out, so it is the world Bullet gets). This is what a
///    game calls: boxes, spheres and capsules answered analytically, the
///    trimesh pillar as its model's triangles, plus World's own checks (range,
///    ignore list) around physics::CollisionWorld::raycast.
///  - triangles: physics::CollisionWorld::raycast (our BVH, Möller–Trumbore
///    two-sided triangles, double precision) over the triangle soup of
///    scene::collectColliderTriangles(defaultColliderDef()) — the fixed
///    non-sensor colliders in world space, boxes 12 triangles, spheres and
///    capsules tessellated (kRoundSlices × kRoundStacks) — one Triangle shape
///    per triangle, all owned by one owner (Bullet sees one object).
///  - bullet: the same triangles (as float, exactly the values collected) in a
///    btTriangleMesh → btBvhTriangleMeshShape (quantized BVH), one
///    btCollisionObject at the identity in a btCollisionWorld with
///    btDbvtBroadphase + btDefaultCollisionConfiguration +
///    btCollisionDispatcher; rayTest with ClosestRayResultCallback (default
///    flags: two-sided triangles). Debian's default single-precision build
///    (libBulletCollision, not the -float64 one).
/// Fairness: "triangles" against "bullet" is like for like (same triangles, a
/// BVH each, closest hit, two-sided); "world" answers a different question
/// (exact round shapes, and a ray starting inside a solid hits it at fraction
/// 0, as Godot's hit_from_inside, while a triangle soup is hit where the ray
/// leaves). Ours is double precision inside, Bullet's single: both get the
/// same float end points. Neither side allocates per ray.
/// Rays: --rays segments (default 10^6), both ends uniform in the arena box
/// x ∈ [−15, 15], y ∈ [0, 3], z ∈ [−10, 10] (seeded spark::Rng, rounded to
/// float once). Time: thread CPU time (CLOCK_THREAD_CPUTIME_ID) of the whole
/// batch per side, µs per ray; the median over --repeats repeats (never the
/// minimum); the side that goes first rotates with the repeat. Building the
/// trees is untimed. Quality (untimed, from the last repeat's answers): hits
/// per side; triangles vs bullet: rays hit by one side only, the largest
/// |fraction difference| on rays both hit, and for every ray where they
/// differ by more than 1e-5 (or one side hits alone) how far Bullet's hit
/// point lies outside the triangle it reports (recast with a callback that
/// records the triangle; exact distance by physics::coreDistance). Bullet's
/// btTriangleRaycastCallback accepts points outside an edge by up to 1e-4 ×
/// the triangle's height over that edge (its edge_tolerance: about a
/// millimetre on the arena's long walls) and ours does not, so grazes of an
/// edge hit there and miss here, or hit a face further on; the largest
/// difference on the other rays is the float-against-double figure (~1e-5,
/// from rays nearly parallel to a face). World: rays starting inside a solid.
///
/// Characters (ours only: Bullet's btKinematicCharacterController is a
/// different controller — a pair-caching ghost object, convex sweeps, its own
/// penetration recovery, step and slope rules — so there is no like-for-like
/// Bullet figure): the
/// sample (all of it: crates, ball and player too) loaded into a World with
/// makeObjModelLoader, N objects each with a default CharacterController
/// (r 0.4, h 1.8) and a Transform3D at y = 0.95 (feet 0.05 m above the floor)
/// on free floor spots: a 1 m lattice over the arena floor, a spot kept when
/// 17 vertical rays (its centre and 16 points 0.5 m around it, from y = 5)
/// all land on the floor (y = 0), so no capsule overlaps anything, falling
/// crates included. The arena has 350 such spots and some 520 m² of free
/// floor, and 1,000 capsules of radius 0.4 need about 555 m² even packed
/// hexagonally touching: they do not fit on one sample floor, so N is
/// spread over ceil(N / --per-arena) copies of the sample side by side
/// (32 m apart along x, names suffixed "#k"), --per-arena (default 100) per
/// copy, each copy's spots a seeded draw: 100 is the sample itself, 1,000 is
/// ten samples at the same density (so the figures scale N, not crowding).
/// Each character gets a seeded wanted velocity (uniform in the disc of
/// 3 m/s, horizontal) by World::moveCharacter, redrawn every 60 steps; then
/// 600 × World::step(kFixedStep). Time: thread CPU time of each step alone
/// (moveCharacter untimed), ms per step: per repeat the median and the mean
/// of the 600 steps, then the median of those over --repeats repeats; each
/// repeat starts from a freshly loaded world, so every repeat does the same
/// work. After the run: characters grounded and mean distance walked (a
/// check that they walked, and none fell through the floor).
///
/// Options: --rays=1000000 --repeats=5 --side=all|world|triangles|bullet
///          --characters=100,1000 (empty or 0: none) --per-arena=100
/// Run from anywhere: build/<dir>/bench/physics_bench (the sample is read from
/// the current directory when it is there, else from SPARK_SOURCE_DIR).
/// Instruction counts of one side's rays alone (the batch functions are kept
/// out of line): valgrind --tool=callgrind --collect-atstart=no
///   --toggle-collect='*runBulletRays*' physics_bench --side=bullet
///   --rays=10000 --repeats=1 --characters=0 (also *runTriangleRays* with
///   --side=triangles, *runWorldRays* with --side=world); divide by --rays.
///   Characters: --toggle-collect='spark::scene::World::step(double)' --rays=0
///   --repeats=1 --characters=100; divide by 600 steps.

#include "spark/core/rng.h"
#include "spark/scene/physics.h"
#include "spark/scene/world_document.h"
#include "spark/scene/scene_colliders.h"
#include "spark/scene/world.h"
#include "bench_stats.h"

#include <btBulletCollisionCommon.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

using namespace spark;
using glm::dvec3;

namespace
{

using spark::bench::threadSeconds;
using spark::bench::median;
using spark::bench::mean;
using spark::bench::spreadPercent;

constexpr const char* kSamplePath = "samples/space3d/ragdoll-wall.space3d.json";
constexpr uint64_t kSeed = 20;
// The arena's inside (the walls' inner faces) and the rays' box.
constexpr double kArenaX = 15.0, kArenaZ = 10.0, kRayTop = 3.0;
// Characters.
constexpr float kSpawnY = 0.95f;       // centre: feet 0.05 m above the floor (h 1.8)
constexpr double kSpotSpacing = 1.0;   // lattice of candidate spots [m]
constexpr double kSpotClearance = 0.5; // probe circle: radius 0.4 + 0.1 [m]
constexpr int kProbeRays = 16;
constexpr double kCopySpacing = 32.0;  // copies of the arena along x [m]
constexpr double kMaxWalkSpeed = 3.0;  // [m/s]
constexpr int kSteps = 600;
constexpr int kRedrawEvery = 60;

struct Options
{
    int rays = 1000000;
    int repeats = 5;
    bool world = true, triangles = true, bullet = true;
    std::vector<int> characters{100, 1000};
    int perArena = 100;
};

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "physics_bench: %s\n", what.c_str());
    std::exit(1);
}

std::filesystem::path projectRoot()
{
    if (std::filesystem::exists(kSamplePath))
        return std::filesystem::current_path();
    return std::filesystem::path(SPARK_SOURCE_DIR);
}

// The static objects of a scene: those collectColliderTriangles(defaultColliderDef()) takes.
bool isStatic(const scene::Object3D& o)
{
    if (!o.body || o.body->sensor || o.characterController)
        return false;
    if (o.body->kind == scene::BodyKind::Fixed)
        return true;
    return o.destructible && o.destructible->anchored && o.body->kind != scene::BodyKind::Dynamic;
}

// --- Rays -----------------------------------------------------------------------

struct Ray
{
    glm::vec3 from, to;
};

std::vector<Ray> makeRays(int count)
{
    Rng rng = rngFromSeed(kSeed);
    auto point = [&] {
        const float x = static_cast<float>(rngNextRange(rng, -kArenaX, kArenaX));
        const float y = static_cast<float>(rngNextRange(rng, 0.0, kRayTop));
        const float z = static_cast<float>(rngNextRange(rng, -kArenaZ, kArenaZ));
        return glm::vec3(x, y, z);
    };
    std::vector<Ray> rays(static_cast<size_t>(count));
    for (Ray& r : rays)
    {
        r.from = point();
        r.to = point();
    }
    return rays;
}

// One side's answer per ray: the hit fraction, or −1 for a miss.
using Fractions = std::vector<double>;

struct BulletWorld
{
    btTriangleMesh mesh;
    std::unique_ptr<btBvhTriangleMeshShape> shape;
    btCollisionObject object;
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    std::unique_ptr<btCollisionWorld> world;

    explicit BulletWorld(const nav::BakeInput& tris)
    {
        for (size_t t = 0; t + 2 < tris.indices.size(); t += 3)
        {
            btVector3 v[3];
            for (int k = 0; k < 3; ++k)
            {
                const glm::vec3& p = tris.vertices[tris.indices[t + k]];
                v[k] = btVector3(p.x, p.y, p.z);
            }
            mesh.addTriangle(v[0], v[1], v[2]);
        }
        shape = std::make_unique<btBvhTriangleMeshShape>(&mesh, true);
        object.setCollisionShape(shape.get());
        world = std::make_unique<btCollisionWorld>(&dispatcher, &broadphase, &config);
        world->addCollisionObject(&object);
        world->updateAabbs();
    }
    ~BulletWorld() { world->removeCollisionObject(&object); }
};

[[gnu::noinline]] void runWorldRays(const scene::World& world, const std::vector<Ray>& rays, Fractions& out)
{
    for (size_t i = 0; i < rays.size(); ++i)
    {
        const auto h = world.raycast(rays[i].from, rays[i].to, {});
        if (!h.ok())
            fail("World::raycast: " + h.error().message);
        out[i] = h->hit ? h->fraction : -1.0;
    }
}

[[gnu::noinline]] void runTriangleRays(const scene::physics::CollisionWorld& world, const std::vector<Ray>& rays,
                                       Fractions& out)
{
    for (size_t i = 0; i < rays.size(); ++i)
    {
        const scene::physics::RayHit h = world.raycast(dvec3(rays[i].from), dvec3(rays[i].to), {}, nullptr);
        out[i] = h.hit ? h.fraction : -1.0;
    }
}

[[gnu::noinline]] void runBulletRays(const btCollisionWorld& world, const std::vector<Ray>& rays, Fractions& out)
{
    for (size_t i = 0; i < rays.size(); ++i)
    {
        const btVector3 from(rays[i].from.x, rays[i].from.y, rays[i].from.z);
        const btVector3 to(rays[i].to.x, rays[i].to.y, rays[i].to.z);
        btCollisionWorld::ClosestRayResultCallback cb(from, to);
        world.rayTest(from, to, cb);
        out[i] = cb.hasHit() ? static_cast<double>(cb.m_closestHitFraction) : -1.0;
    }
}

// Records the index of the triangle hit (untimed quality pass only).
struct TriangleRayCallback : btCollisionWorld::ClosestRayResultCallback
{
    using ClosestRayResultCallback::ClosestRayResultCallback;
    int triangle = -1;
    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override
    {
        triangle = result.m_localShapeInfo ? result.m_localShapeInfo->m_triangleIndex : -1;
        return ClosestRayResultCallback::addSingleResult(result, normalInWorldSpace);
    }
};

// Triangles vs bullet, untimed: where they differ by more than 1e-5 (or one
// side hits alone), how far Bullet's hit point lies outside the triangle it
// reports (exact GJK distance): its edge tolerance at work when > 1 µm.
void compareTrianglesWithBullet(const std::vector<Ray>& rays, const Fractions& ft, const Fractions& fb,
                                const scene::physics::CollisionWorld& triWorld, const btCollisionWorld& bullet)
{
    constexpr double kAgree = 1e-5, kOutside = 1e-6;
    const auto triangles = triWorld.staticColliders(); // in triangle order, as Bullet numbers them
    long both = 0, onlyOurs = 0, onlyBullet = 0, differ = 0, tolerance = 0;
    double maxDiff = 0.0, maxOutside = 0.0;
    double maxDiffOther = 0.0; // on rays both hit, less those where Bullet's point is outside its triangle
    for (size_t i = 0; i < rays.size(); ++i)
    {
        const bool a = ft[i] >= 0.0, b = fb[i] >= 0.0;
        both += a && b;
        onlyOurs += a && !b;
        onlyBullet += b && !a;
        const double d = a && b ? std::abs(ft[i] - fb[i]) : 0.0;
        maxDiff = std::max(maxDiff, d);
        if (a == b && d <= kAgree)
        {
            maxDiffOther = std::max(maxDiffOther, d);
            continue;
        }
        ++differ;
        bool outside = false;
        if (b)
        {
            const btVector3 from(rays[i].from.x, rays[i].from.y, rays[i].from.z);
            const btVector3 to(rays[i].to.x, rays[i].to.y, rays[i].to.z);
            TriangleRayCallback cb(from, to);
            bullet.rayTest(from, to, cb);
            if (cb.triangle >= 0 && static_cast<size_t>(cb.triangle) < triangles.size())
            {
                scene::physics::Shape point;
                point.kind = scene::physics::CoreKind::Point;
                point.center = dvec3(rays[i].from) + (dvec3(rays[i].to) - dvec3(rays[i].from)) * fb[i];
                const double out = scene::physics::coreDistance(point, triangles[cb.triangle].shape).distance;
                outside = out > kOutside;
                if (outside)
                    ++tolerance, maxOutside = std::max(maxOutside, out);
            }
        }
        if (!outside && a && b)
            maxDiffOther = std::max(maxDiffOther, d);
    }
    std::printf("\nquality, triangles vs bullet: %ld both hit, %ld ours only, %ld bullet only; |fraction difference| "
                "on rays both hit: max %.3g\n",
                both, onlyOurs, onlyBullet, maxDiff);
    std::printf("  %ld rays differ by more than 1e-5 or hit on one side only; on %ld of them Bullet's hit point lies "
                "outside the triangle it reports, by up to %.3f mm (btTriangleRaycastCallback's edge tolerance: "
                "the exact test misses or hits further on); on the other rays both hit, max |fraction "
                "difference| %.3g\n",
                differ, tolerance, maxOutside * 1e3, maxDiffOther);
}

void benchRays(const Options& opt, const scene::WorldDocument& sample, const std::filesystem::path& root)
{
    // The three worlds (untimed).
    scene::WorldDocument statics;
    statics.gravity = sample.gravity;
    for (const scene::Object3D& o : sample.objects)
        if (isStatic(o))
            statics.objects.push_back(o);
    scene::World world;
    world.setModelLoader(scene::makeObjModelLoader(root));
    if (auto s = world.loadScene(statics); !s.ok())
        fail("World::loadScene: " + s.error().message);
    const scene::PhysicsInfo info = world.physicsInfo(); // builds the collision world

    const scene::ColliderTriangles collected =
        scene::collectColliderTriangles(sample, scene::defaultColliderDef(), scene::makeObjModelLoader(root));
    if (collected.approximatedColliders != 0)
        fail("a collider of the sample was approximated (model not found?)");
    const nav::BakeInput& tris = collected.input;
    std::vector<scene::physics::Collider> colliders;
    colliders.reserve(tris.indices.size() / 3);
    for (size_t t = 0; t + 2 < tris.indices.size(); t += 3)
    {
        scene::physics::Shape s;
        s.kind = scene::physics::CoreKind::Triangle;
        for (int k = 0; k < 3; ++k)
            s.vertex[k] = dvec3(tris.vertices[tris.indices[t + k]]);
        s.center = (s.vertex[0] + s.vertex[1] + s.vertex[2]) / 3.0;
        colliders.push_back({s, 0});
    }
    scene::physics::CollisionWorld triWorld;
    triWorld.setStatic(std::move(colliders));
    BulletWorld bullet(tris);

    std::printf("static world: %zu objects; world: %u shapes (analytic boxes/spheres/capsules + model triangles); "
                "triangles and bullet: %zu triangles of %u colliders\n",
                statics.objects.size(), info.staticShapes, tris.indices.size() / 3, collected.colliders);
    std::printf("rays: %d segments, both ends uniform in x [-%g, %g], y [0, %g], z [-%g, %g], seed %llu\n\n",
                opt.rays, kArenaX, kArenaX, kRayTop, kArenaZ, kArenaZ, static_cast<unsigned long long>(kSeed));
    std::fflush(stdout);

    const std::vector<Ray> rays = makeRays(opt.rays);
    const size_t n = rays.size();
    Fractions fw(n, -1.0), ft(n, -1.0), fb(n, -1.0);
    std::vector<double> tw, tt, tb; // seconds per batch, per repeat
    const char* names[3] = {"world", "triangles", "bullet"};
    const bool enabled[3] = {opt.world, opt.triangles, opt.bullet};
    for (int rep = 0; rep < opt.repeats; ++rep)
        for (int k = 0; k < 3; ++k)
        {
            const int side = (k + rep) % 3;
            if (!enabled[side])
                continue;
            std::fprintf(stderr, "rays: repeat %d, %s\n", rep + 1, names[side]);
            const double t0 = threadSeconds();
            if (side == 0)
                runWorldRays(world, rays, fw);
            else if (side == 1)
                runTriangleRays(triWorld, rays, ft);
            else
                runBulletRays(*bullet.world, rays, fb);
            const double dt = threadSeconds() - t0;
            (side == 0 ? tw : side == 1 ? tt : tb).push_back(dt);
        }

    auto hits = [](const Fractions& f) {
        return std::count_if(f.begin(), f.end(), [](double x) { return x >= 0.0; });
    };
    const double perRay = 1e6 / static_cast<double>(std::max<size_t>(n, 1));
    const double bulletUs = median(tb) * perRay;
    std::printf("thread CPU time per ray, median over %d repeats (spread = (max - min) / median)\n\n", opt.repeats);
    std::printf("| side | what | us per ray | spread | vs bullet | hits |\n");
    std::printf("|---|---|---:|---:|---:|---:|\n");
    const char* what[3] = {"World::raycast, analytic shapes", "CollisionWorld::raycast, triangle soup",
                           "btCollisionWorld::rayTest, triangle soup"};
    const std::vector<double>* times[3] = {&tw, &tt, &tb};
    const Fractions* fr[3] = {&fw, &ft, &fb};
    for (int side = 0; side < 3; ++side)
    {
        if (!enabled[side])
            continue;
        const double us = median(*times[side]) * perRay;
        char ratio[32] = "-";
        if (opt.bullet && side != 2)
            std::snprintf(ratio, sizeof ratio, "%.2fx", us / std::max(1e-12, bulletUs));
        std::printf("| %s | %s | %.3f | %.1f%% | %s | %ld |\n", names[side], what[side], us,
                    spreadPercent(*times[side]), ratio, static_cast<long>(hits(*fr[side])));
    }

    if (opt.triangles && opt.bullet)
        compareTrianglesWithBullet(rays, ft, fb, triWorld, *bullet.world);
    if (opt.world)
    {
        const long inside = std::count_if(fw.begin(), fw.end(), [](double x) { return x == 0.0; });
        std::printf("quality, world: %ld rays start inside a solid (hit at fraction 0)", inside);
        if (opt.triangles)
        {
            long agree = 0;
            for (size_t i = 0; i < n; ++i)
                agree += (fw[i] >= 0.0) == (ft[i] >= 0.0);
            std::printf("; hit/miss agrees with the triangle soup on %ld of %zu rays (round shapes are "
                        "tessellated there)",
                        agree, n);
        }
        std::printf("\n");
    }
    std::printf("\n");
}

// --- Characters ---------------------------------------------------------------

struct Spot
{
    float x, z;
};

// Free floor spots of one sample arena: lattice points whose capsule footprint
// (grown by 0.1 m) sees nothing but the floor from above.
std::vector<Spot> freeSpots(const scene::WorldDocument& sample, const std::filesystem::path& root)
{
    scene::World probe;
    probe.setModelLoader(scene::makeObjModelLoader(root));
    if (auto s = probe.loadScene(sample); !s.ok())
        fail("World::loadScene: " + s.error().message);
    std::vector<Spot> spots;
    for (double x = -kArenaX + 0.5; x <= kArenaX - 0.5; x += kSpotSpacing)
        for (double z = -kArenaZ + 0.5; z <= kArenaZ - 0.5; z += kSpotSpacing)
        {
            bool free = true;
            for (int k = 0; k <= kProbeRays && free; ++k)
            {
                double px = x, pz = z;
                if (k > 0)
                {
                    const double a = 2.0 * 3.14159265358979323846 * (k - 1) / kProbeRays;
                    px += kSpotClearance * std::cos(a);
                    pz += kSpotClearance * std::sin(a);
                }
                const auto h = probe.raycast(glm::vec3(float(px), 5.0f, float(pz)),
                                             glm::vec3(float(px), -0.5f, float(pz)), {});
                free = h.ok() && h->hit && h->point.y <= 1e-3;
            }
            if (free)
                spots.push_back({static_cast<float>(x), static_cast<float>(z)});
        }
    return spots;
}

// `copies` copies of the sample side by side along x (copy 0 is the sample itself).
scene::WorldDocument arenaCopies(const scene::WorldDocument& sample, int copies)
{
    scene::WorldDocument out;
    out.gravity = sample.gravity;
    for (int c = 0; c < copies; ++c)
        for (scene::Object3D o : sample.objects)
        {
            if (c > 0)
            {
                o.name += "#" + std::to_string(c);
                scene::Transform3D t = o.transform.value_or(scene::Transform3D{});
                t.position.x += static_cast<float>(kCopySpacing * c);
                o.transform = t;
            }
            out.objects.push_back(std::move(o));
        }
    return out;
}

struct CharacterRun
{
    std::vector<double> stepSeconds;
    int grounded = 0;
    int fell = 0;         // below the floor at the end
    double walked = 0.0;  // mean horizontal distance from the spawn spot [m]
};

[[gnu::noinline]] void runCharacters(const scene::WorldDocument& sample, const std::filesystem::path& root,
                                     const std::vector<Spot>& spots, int count, int perArena, CharacterRun& out)
{
    const int copies = (count + perArena - 1) / perArena;
    scene::World world;
    world.setModelLoader(scene::makeObjModelLoader(root));
    if (auto s = world.loadScene(arenaCopies(sample, copies)); !s.ok())
        fail("World::loadScene: " + s.error().message);

    // Spawn: per copy a seeded draw of its share of the spots.
    Rng rng = rngFromSeed(kSeed, 1);
    std::vector<scene::ObjectId> ids;
    std::vector<glm::vec2> start;
    for (int c = 0; c < copies; ++c)
    {
        const int share = count / copies + (c < count % copies ? 1 : 0);
        if (share > static_cast<int>(spots.size()))
            fail("not enough free spots: " + std::to_string(spots.size()) + " per arena, " + std::to_string(share) +
                 " asked (lower --per-arena)");
        std::vector<Spot> pool = spots;
        for (int i = 0; i < share; ++i)
        {
            const uint32_t j = i + rngNextBelow(rng, static_cast<uint32_t>(pool.size() - i));
            std::swap(pool[i], pool[j]);
            scene::Object3D o;
            o.name = "Walker" + std::to_string(ids.size());
            scene::Transform3D t;
            t.position = glm::vec3(pool[i].x + static_cast<float>(kCopySpacing * c), kSpawnY, pool[i].z);
            o.transform = t;
            o.characterController = scene::CharacterController{};
            auto id = world.spawn(std::move(o));
            if (!id.ok())
                fail("World::spawn: " + id.error().message);
            ids.push_back(*id);
            start.emplace_back(t.position.x, t.position.z);
        }
    }

    Rng walk = rngFromSeed(kSeed, 2);
    out.stepSeconds.clear();
    out.stepSeconds.reserve(kSteps);
    for (int step = 0; step < kSteps; ++step)
    {
        if (step % kRedrawEvery == 0)
            for (scene::ObjectId id : ids)
            {
                double vx, vz;
                do
                {
                    vx = rngNextRange(walk, -kMaxWalkSpeed, kMaxWalkSpeed);
                    vz = rngNextRange(walk, -kMaxWalkSpeed, kMaxWalkSpeed);
                } while (vx * vx + vz * vz > kMaxWalkSpeed * kMaxWalkSpeed);
                if (auto s = world.moveCharacter(id, glm::vec3(float(vx), 0.0f, float(vz)), false); !s.ok())
                    fail("World::moveCharacter: " + s.error().message);
            }
        const double t0 = threadSeconds();
        const Status s = world.step(scene::kFixedStep);
        out.stepSeconds.push_back(threadSeconds() - t0);
        if (!s.ok())
            fail("World::step: " + s.error().message);
    }

    out.grounded = out.fell = 0;
    double walked = 0.0;
    for (size_t i = 0; i < ids.size(); ++i)
    {
        const scene::Object3D* o = world.object(ids[i]);
        const glm::vec3 p = o->transform->position;
        walked += std::hypot(double(p.x) - start[i].x, double(p.z) - start[i].y);
        out.fell += p.y < 0.0f;
        out.grounded += world.motion(ids[i])->character.grounded;
    }
    out.walked = ids.empty() ? 0.0 : walked / static_cast<double>(ids.size());
}

void benchCharacters(const Options& opt, const scene::WorldDocument& sample, const std::filesystem::path& root)
{
    const std::vector<Spot> spots = freeSpots(sample, root);
    std::printf("characters: default CharacterController (r 0.4, h 1.8, step 0.4, 45 deg), spawned at y %.2f on "
                "seeded free spots (%zu per arena, 1 m lattice), %d per arena copy; wanted velocity uniform in "
                "the 3 m/s disc, redrawn every %d steps; %d steps of 1/60 s\n\n",
                kSpawnY, spots.size(), opt.perArena, kRedrawEvery, kSteps);
    std::fflush(stdout);

    const size_t sizes = opt.characters.size();
    std::vector<std::vector<double>> medians(sizes), means(sizes);
    std::vector<CharacterRun> last(sizes);
    for (int rep = 0; rep < opt.repeats; ++rep)
        for (size_t k = 0; k < sizes; ++k)
        {
            const size_t idx = rep % 2 == 0 ? k : sizes - 1 - k;
            std::fprintf(stderr, "characters: repeat %d, %d\n", rep + 1, opt.characters[idx]);
            CharacterRun run;
            runCharacters(sample, root, spots, opt.characters[idx], opt.perArena, run);
            medians[idx].push_back(median(run.stepSeconds) * 1e3);
            means[idx].push_back(mean(run.stepSeconds) * 1e3);
            last[idx] = run;
        }

    std::printf("thread CPU time of World::step, ms per step: per repeat the median and the mean of the %d steps, "
                "then the median over %d repeats (ours only: no Bullet side)\n\n",
                kSteps, opt.repeats);
    std::printf("| characters | arenas | median ms/step | spread | mean ms/step | us per character-step | "
                "grounded at end | fell | mean walked m |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < sizes; ++k)
    {
        const int n = opt.characters[k];
        const double med = median(medians[k]), mn = median(means[k]);
        std::printf("| %d | %d | %.3f | %.1f%% | %.3f | %.2f | %d | %d | %.1f |\n", n,
                    (n + opt.perArena - 1) / opt.perArena, med, spreadPercent(medians[k]), mn, mn * 1e3 / n,
                    last[k].grounded, last[k].fell, last[k].walked);
    }
    std::printf("\n");
}

/// The positive counts of a comma-separated list (others are dropped).
std::vector<int> parseList(const std::string& s)
{
    std::vector<int> out = spark::bench::intList(s);
    std::erase_if(out, [](int v) { return v <= 0; });
    return out;
}

Options parseOptions(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        auto value = [&](const char* prefix) { return spark::bench::optionValue(a, prefix); };
        if (const char* v = value("--rays="))
            o.rays = std::max(0, std::atoi(v));
        else if (const char* v = value("--repeats="))
            o.repeats = std::max(1, std::atoi(v));
        else if (const char* v = value("--characters="))
            o.characters = parseList(v);
        else if (const char* v = value("--per-arena="))
            o.perArena = std::max(1, std::atoi(v));
        else if (const char* v = value("--side="))
        {
            const std::string s = v;
            if (s != "all" && s != "world" && s != "triangles" && s != "bullet")
                fail("--side must be all, world, triangles or bullet");
            o.world = s == "all" || s == "world";
            o.triangles = s == "all" || s == "triangles";
            o.bullet = s == "all" || s == "bullet";
        }
        else
        {
            std::fprintf(stderr,
                         "unknown option %s\nusage: physics_bench [--rays=1000000] [--repeats=5] "
                         "[--side=all|world|triangles|bullet] [--characters=100,1000] [--per-arena=100]\n",
                         a.c_str());
            std::exit(2);
        }
    }
    return o;
}

} // namespace

int main(int argc, char** argv)
{
    const Options opt = parseOptions(argc, argv);
    std::string command = argv[0];
    for (int i = 1; i < argc; ++i)
        command += std::string(" ") + argv[i];
    std::printf("command: %s\n", command.c_str());

    const std::filesystem::path root = projectRoot();
    auto sample = scene::loadWorldDocumentFile(root / kSamplePath);
    if (!sample.ok())
        fail(std::string("cannot load ") + kSamplePath + ": " + sample.error().message);
    std::printf("scene: %s (%zu objects)\n", kSamplePath, sample->objects.size());

    if (opt.rays > 0)
        benchRays(opt, *sample, root);
    if (!opt.characters.empty())
        benchCharacters(opt, *sample, root);
    return 0;
}
