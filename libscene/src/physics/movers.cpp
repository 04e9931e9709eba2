// Things that move: collide-and-slide, depenetration, the capsule character
// controller and dynamic bodies.
//
// Collide-and-slide (Fauerby, "Improved Collision detection and Response",
// 2003; the same loop as Godot's move_and_slide): sweep the whole motion, stop
// a skin short of the first hit, remove the remaining motion's component into
// the hit normal and sweep again; a second hit slides along the crease of the
// two planes. The character adds what players expect from Unity's and
// Godot's controllers: steep slopes are walls while grounded, obstacles up to
// `step_height` are climbed by an up–forward–down move, and a grounded
// character stays on the ground walking down ramps and steps (ground snap).
// Vertical motion integrates constant gravity exactly (v·dt + ½·g·dt²), so a
// jump's apex is v²/2g up to the sampling of the fixed step.

#include "spark/scene/physics.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace spark::scene::physics
{
namespace
{

using glm::dvec3;

Bounds sweptBounds(const Shape& shape, const dvec3& motion)
{
    const Bounds b = shapeBounds(shape);
    const dvec3 pad(2.0 * kSkin);
    return {glm::min(b.min, b.min + motion) - pad, glm::max(b.max, b.max + motion) + pad};
}

// The first hit of `shape` moving by `motion`: static colliders in index
// order, then moving ones; equal fractions keep the first found.
SweepHit firstHit(const CollisionWorld& world, const Shape& shape, const dvec3& motion, uint32_t self,
                  std::vector<uint32_t>& scratch)
{
    SweepHit best;
    const Bounds area = sweptBounds(shape, motion);
    world.queryStatic(area, scratch);
    for (uint32_t i : scratch)
    {
        const Collider c = world.staticCollider(i);
        if (c.owner == self)
            continue;
        const SweepHit h = sweepShape(shape, motion, c.shape);
        if (h.hit && (!best.hit || h.fraction < best.fraction))
            best = h;
    }
    world.queryMoving(area, scratch);
    const auto moving = world.movingColliders();
    for (uint32_t i : scratch)
    {
        if (moving[i].owner == self)
            continue;
        const SweepHit h = sweepShape(shape, motion, moving[i].shape);
        if (h.hit && (!best.hit || h.fraction < best.fraction))
            best = h;
    }
    return best;
}

dvec3 horizontal(const dvec3& v) { return {v.x, 0.0, v.z}; }

// Is the surface a character touches with normal `n` walkable? A face is when
// its normal is steep enough; an edge or corner under the round bottom gives
// a tilted contact normal, so look at the face beside it: a short ray straight
// down just inside the contact point (the way Unity's and Godot's controllers
// stand on stair edges).
bool walkableContact(const CollisionWorld& world, const CharacterDef& def, uint32_t self, const dvec3& center,
                     const dvec3& n)
{
    if (n.y >= def.maxSlopeCos)
        return true;
    if (n.y <= 0.0)
        return false;
    const dvec3 bottom = center - dvec3(0, std::max(0.0, 0.5 * def.height - def.radius), 0);
    const dvec3 contact = bottom - n * def.radius;
    const dvec3 h = horizontal(n);
    const double len = glm::length(h);
    const dvec3 inward = len > 0.0 ? h * (-0.01 / len) : dvec3(0.0);
    const uint32_t ignore[1] = {self};
    const RayHit hit = world.raycast(contact + inward + dvec3(0, 0.05, 0), contact + inward - dvec3(0, 0.05, 0),
                                     ignore, nullptr);
    return hit.hit && hit.normal.y >= def.maxSlopeCos;
}

} // namespace

SlideResult slideMove(const CollisionWorld& world, const Shape& shape, dvec3 motion, uint32_t self,
                      const SlideDef& def, std::vector<uint32_t>& scratch)
{
    SlideResult r;
    const uint32_t maxHits = std::clamp<uint32_t>(def.maxHits, 1, 4);
    for (uint32_t round = 0; round < maxHits; ++round)
    {
        if (glm::dot(motion, motion) <= 1e-24)
            break;
        const Shape here = translated(shape, r.moved);
        const SweepHit hit = firstHit(world, here, motion, self, scratch);
        r.moved += motion * hit.fraction;
        if (!hit.hit)
            return r;
        r.blocked = true;
        dvec3 n = hit.normal;
        if (def.steepToWall > 0.0 && n.y > 0.0 && n.y < def.steepToWall)
        {
            const dvec3 h = horizontal(n);
            const double len = glm::length(h);
            if (len > 0.0)
                n = h / len;
        }
        r.normals[r.contacts++] = hit.normal;
        if (hit.normal.y >= def.stopOnNormalY)
            return r;
        dvec3 rest = motion * (1.0 - hit.fraction);
        rest -= n * glm::dot(rest, n);
        if (r.contacts >= 2)
        {
            const dvec3 prev = r.normals[r.contacts - 2];
            if (glm::dot(rest, prev) < 0.0)
            {
                // Along the crease of the two planes.
                const dvec3 crease = glm::cross(prev, n);
                const double len = glm::length(crease);
                rest = len > 1e-12 ? crease * (glm::dot(rest, crease) / (len * len)) : dvec3(0.0);
            }
        }
        motion = rest;
    }
    return r;
}

dvec3 depenetrate(const CollisionWorld& world, const Shape& shape, uint32_t self, std::vector<uint32_t>& scratch)
{
    dvec3 moved(0.0);
    for (int pass = 0; pass < 4; ++pass)
    {
        bool pushed = false;
        auto push = [&](const Collider& c) {
            if (c.owner == self)
                return;
            const Gap g = shapeGap(translated(shape, moved), c.shape);
            if (g.overlap || g.gap >= 0.5 * kSkin)
                return;
            moved += g.normal * (kSkin - g.gap);
            pushed = true;
        };
        const Bounds area = sweptBounds(shape, moved);
        world.queryStatic(area, scratch);
        for (uint32_t i : scratch)
            push(world.staticCollider(i));
        world.queryMoving(area, scratch);
        const auto moving = world.movingColliders();
        for (uint32_t i : scratch)
            push(moving[i]);
        if (!pushed)
            break;
    }
    return moved;
}

Shape characterShape(const CharacterDef& def, const dvec3& center)
{
    Shape s;
    s.kind = CoreKind::Segment;
    s.center = center;
    s.axis[1] = dvec3(0, 1, 0);
    s.half = dvec3(0.0, std::max(0.0, 0.5 * def.height - def.radius), 0.0);
    s.radius = def.radius;
    return s;
}

dvec3 stepCharacter(const CollisionWorld& world, const CharacterDef& def, uint32_t self, const dvec3& start,
                    CharacterMotion& io, const dvec3& gravity, double dt, std::vector<uint32_t>& scratch)
{
    dvec3 center = start;
    center += depenetrate(world, characterShape(def, center), self, scratch);

    const bool wasGrounded = io.grounded;
    bool jumped = false;
    if (io.jump && io.grounded)
    {
        io.verticalSpeed = def.jumpSpeed;
        io.grounded = false;
        jumped = true;
    }
    io.jump = false; // a press is used by the next step, grounded or not

    // 1. Horizontal: collide-and-slide; steep slopes are walls while grounded.
    const dvec3 wanted = horizontal(io.wanted) * dt;
    dvec3 walked(0.0);
    if (glm::dot(wanted, wanted) > 0.0)
    {
        SlideDef walk;
        walk.steepToWall = wasGrounded ? def.maxSlopeCos : 0.0;
        const SlideResult r = slideMove(world, characterShape(def, center), wanted, self, walk, scratch);
        walked = r.moved;
        if (wasGrounded && !jumped && r.blocked && def.stepHeight > 0.0)
        {
            // Step up: lift, walk, put down on walkable ground; keep it if it got further.
            SlideDef lift;
            lift.maxHits = 1;
            const SlideResult up = slideMove(world, characterShape(def, center), dvec3(0, def.stepHeight, 0), self,
                                             lift, scratch);
            const SlideResult over =
                slideMove(world, characterShape(def, center + up.moved), wanted, self, walk, scratch);
            SlideDef land;
            land.maxHits = 1;
            const dvec3 lifted = up.moved + over.moved;
            const SlideResult down = slideMove(world, characterShape(def, center + lifted),
                                               dvec3(0, -(up.moved.y + 2.0 * kSkin), 0), self, land, scratch);
            const dvec3 stepped = lifted + down.moved;
            // The new support must be walkable and at most step_height above the old feet.
            const double half = std::max(0.0, 0.5 * def.height - def.radius);
            const bool onWalkable =
                down.contacts > 0 && walkableContact(world, def, self, center + stepped, down.normals[0]) &&
                (center.y + stepped.y - half - down.normals[0].y * def.radius) - (center.y - 0.5 * def.height) <=
                    def.stepHeight + 1e-6;
            const double farther = glm::dot(horizontal(stepped), horizontal(stepped));
            const double plain = glm::dot(horizontal(walked), horizontal(walked));
            if (onWalkable && farther > plain + 1e-12)
                walked = stepped;
        }
        center += walked;
    }

    // 2. Vertical: fall or rise under gravity, or stay on the ground (snap).
    if (!wasGrounded || jumped)
    {
        const double v = io.verticalSpeed;
        const double dy = v * dt + 0.5 * gravity.y * dt * dt;
        io.verticalSpeed = v + gravity.y * dt;
        SlideDef fall;
        fall.stopOnNormalY = def.maxSlopeCos;
        const SlideResult r = slideMove(world, characterShape(def, center), dvec3(0, dy, 0), self, fall, scratch);
        center += r.moved;
        for (uint32_t i = 0; i < r.contacts; ++i)
        {
            const dvec3& n = r.normals[i];
            if (dy < 0.0 && walkableContact(world, def, self, center, n))
            {
                io.grounded = true;
                io.verticalSpeed = 0.0;
            }
            if (dy > 0.0 && n.y < -0.5)
                io.verticalSpeed = std::min(io.verticalSpeed, 0.0); // head hit a ceiling
        }
    }
    else
    {
        SlideDef snap;
        snap.maxHits = 1;
        const double reach = def.stepHeight + glm::length(horizontal(walked)) + 2.0 * kSkin;
        const SlideResult r = slideMove(world, characterShape(def, center), dvec3(0, -reach, 0), self, snap, scratch);
        if (r.contacts > 0 && walkableContact(world, def, self, center + r.moved, r.normals[0]))
        {
            center += r.moved;
            io.grounded = true;
            io.verticalSpeed = 0.0;
        }
        else
        {
            io.grounded = false; // walked off a ledge or onto a steep slope: fall from the next step
            io.verticalSpeed = 0.0;
        }
    }
    return center;
}

dvec3 stepBody(const CollisionWorld& world, const Shape& shape, uint32_t self, BodyMotion& io,
               const dvec3& gravity, double dt, std::vector<uint32_t>& scratch)
{
    if (io.sleeping)
        return dvec3(0.0);
    const dvec3 out = depenetrate(world, shape, self, scratch);
    const dvec3 motion = io.velocity * dt + gravity * (0.5 * dt * dt);
    io.velocity += gravity * dt;
    const SlideResult r = slideMove(world, translated(shape, out), motion, self, SlideDef{}, scratch);
    bool supported = false;
    for (uint32_t i = 0; i < r.contacts; ++i)
    {
        const dvec3& n = r.normals[i];
        const double into = glm::dot(io.velocity, n);
        if (into < 0.0)
            io.velocity -= n * into; // inelastic: the velocity into the surface is gone
        if (n.y >= kSupportNormalY)
            supported = true;
    }
    if (supported)
    {
        // Coulomb friction on the support, μ = 0.5.
        const dvec3 h = horizontal(io.velocity);
        const double speed = glm::length(h);
        const double drop = 0.5 * glm::length(gravity) * dt;
        const dvec3 kept = speed <= drop ? dvec3(0.0) : h * ((speed - drop) / speed);
        io.velocity = dvec3(kept.x, io.velocity.y, kept.z);
    }
    if (supported && glm::length(io.velocity) < kRestSpeed)
        ++io.restFrames;
    else
        io.restFrames = 0;
    if (io.restFrames >= kFramesToSleep)
    {
        io.sleeping = true;
        io.velocity = dvec3(0.0);
    }
    return out + r.moved;
}

} // namespace spark::scene::physics
