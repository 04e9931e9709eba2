#pragma once
// A fake world of points for libai's tests and benchmark: agents move straight
// towards their move target at their speed, walls are axis-aligned boxes in the
// ground plane that block sight, targets beyond `reachLimit` have no path.
// Every call is recorded so tests can check what the leaves asked for.
#include "spark/ai/world.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spark::ai::test
{

struct FakeAgent
{
    Vec3 position{0, 0, 0};
    Vec3 velocity{0, 0, 0};
    Vec3 forward{0, 0, 1};
    double speed = 2.0;
    Vec3 target{0, 0, 0};
    double stopDistance = 0.1;
    MoveState state = MoveState::Idle;
    int moveRequests = 0;
    int stops = 0;
};

struct FakeWall
{
    double minX, minZ, maxX, maxZ;
};

class FakeWorld final : public World
{
public:
    std::map<std::string, FakeAgent, std::less<>> agents;
    std::map<std::string, Vec3, std::less<>> objects;
    std::vector<FakeWall> walls;
    double reachLimit = 1e9; ///< |x| or |z| beyond this has no path.
    std::vector<std::string> keyNames; ///< Key k names the agent keyNames[k - 1] (see keyOf).
    std::map<std::string, uint64_t, std::less<>> keyIndex; ///< keyNames[k - 1] → k.

    FakeAgent& agent(std::string_view name) { return agents.find(name)->second; }

    /// The key of the agent named `name` (whether or not it exists yet): the
    /// fake keys by name, so a brain follows whichever agent has its name, as
    /// a host that re-binds keys by name does. Copies of the world keep the keys.
    AgentKey keyOf(std::string_view name)
    {
        if (const auto it = keyIndex.find(name); it != keyIndex.end())
            return AgentKey{it->second};
        keyNames.emplace_back(name);
        keyIndex.emplace(std::string(name), keyNames.size());
        return AgentKey{keyNames.size()};
    }
    /// The agent of a key, or nullptr (unknown key, or no agent has its name now).
    const FakeAgent* find(AgentKey key) const
    {
        if (key.value == 0 || key.value > keyNames.size())
            return nullptr;
        const auto it = agents.find(keyNames[key.value - 1]);
        return it == agents.end() ? nullptr : &it->second;
    }
    FakeAgent* find(AgentKey key) { return const_cast<FakeAgent*>(std::as_const(*this).find(key)); }

    bool agentExists(AgentKey agent) const override { return find(agent) != nullptr; }
    bool agentPosition(AgentKey agent, Vec3& out) const override
    {
        const FakeAgent* a = find(agent);
        if (a)
            out = a->position;
        return a != nullptr;
    }
    bool findTarget(Symbol name, Vec3& out) const override { return findPosition(name.name(), out); }
    /// Position of an agent, else an object, by name (what findTarget answers).
    bool findPosition(std::string_view name, Vec3& out) const
    {
        if (auto a = agents.find(name); a != agents.end())
        {
            out = a->second.position;
            return true;
        }
        if (auto o = objects.find(name); o != objects.end())
        {
            out = o->second;
            return true;
        }
        return false;
    }
    Vec3 agentVelocity(AgentKey agent) const override
    {
        const FakeAgent* a = find(agent);
        return a ? a->velocity : Vec3(0, 0, 0);
    }
    Vec3 agentForward(AgentKey agent) const override
    {
        const FakeAgent* a = find(agent);
        return a ? a->forward : Vec3(0, 0, 1);
    }
    MoveState moveState(AgentKey agent) const override
    {
        const FakeAgent* a = find(agent);
        return a ? a->state : MoveState::NoPath;
    }
    void requestMove(AgentKey agent, const Vec3& target, double stopDistance) override
    {
        if (FakeAgent* a = find(agent))
            requestMove(*a, target, stopDistance);
    }
    /// What requestMove does to an agent's record.
    void requestMove(FakeAgent& a, const Vec3& target, double stopDistance) const
    {
        a.moveRequests += 1;
        a.target = target;
        a.stopDistance = stopDistance;
        a.state = reachable(target) ? MoveState::Moving : MoveState::NoPath;
    }
    void stop(AgentKey agent) override
    {
        if (FakeAgent* a = find(agent))
            stop(*a);
    }
    /// What stop does to an agent's record.
    static void stop(FakeAgent& a)
    {
        a.stops += 1;
        a.state = MoveState::Idle;
        a.velocity = Vec3(0, 0, 0);
    }
    void face(AgentKey agent, const Vec3& direction) override
    {
        if (FakeAgent* a = find(agent))
            face(*a, direction);
    }
    /// What face does to an agent's record.
    static void face(FakeAgent& a, const Vec3& direction)
    {
        const double len = std::sqrt(direction.x * direction.x + direction.z * direction.z);
        a.forward = Vec3(direction.x / len, 0, direction.z / len);
    }
    void setSpeed(AgentKey agent, double speed) override
    {
        if (FakeAgent* a = find(agent))
            a->speed = speed;
    }
    bool lineOfSight(AgentKey, const Vec3& from, const Vec3& to) const override { return clearSight(from, to); }
    /// True when no wall blocks the segment.
    bool clearSight(const Vec3& from, const Vec3& to) const
    {
        for (const FakeWall& w : walls)
            if (segmentHitsBox(from, to, w))
                return false;
        return true;
    }
    bool hasPath(AgentKey, const Vec3& to) const override { return reachable(to); }
    bool reachable(const Vec3& p) const { return std::abs(p.x) <= reachLimit && std::abs(p.z) <= reachLimit; }

    /// Moves every agent for `dt` seconds.
    void step(double dt)
    {
        for (auto& [name, a] : agents)
        {
            if (a.state != MoveState::Moving)
            {
                a.velocity = Vec3(0, 0, 0);
                continue;
            }
            Vec3 d = a.target - a.position;
            d.y = 0;
            const double dist = std::sqrt(d.x * d.x + d.z * d.z);
            if (dist <= a.stopDistance)
            {
                a.state = MoveState::Arrived;
                a.velocity = Vec3(0, 0, 0);
                continue;
            }
            const double stepLen = std::min(dist - a.stopDistance * 0.5, a.speed * dt);
            const Vec3 dir = d / dist;
            a.position += dir * stepLen;
            a.velocity = dir * (stepLen / dt);
            a.forward = dir;
        }
    }

private:

    /// Slab test of the segment (ground plane) against a box.
    static bool segmentHitsBox(const Vec3& a, const Vec3& b, const FakeWall& w)
    {
        double t0 = 0, t1 = 1;
        const double d[2] = {b.x - a.x, b.z - a.z};
        const double o[2] = {a.x, a.z};
        const double lo[2] = {w.minX, w.minZ}, hi[2] = {w.maxX, w.maxZ};
        for (int i = 0; i < 2; ++i)
        {
            if (std::abs(d[i]) < 1e-12)
            {
                if (o[i] < lo[i] || o[i] > hi[i])
                    return false;
                continue;
            }
            double ta = (lo[i] - o[i]) / d[i], tb = (hi[i] - o[i]) / d[i];
            if (ta > tb)
                std::swap(ta, tb);
            t0 = std::max(t0, ta);
            t1 = std::min(t1, tb);
            if (t0 > t1)
                return false;
        }
        return true;
    }
};

} // namespace spark::ai::test
