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

    FakeAgent& agent(std::string_view name) { return agents.find(name)->second; }

    bool agentExists(std::string_view agent) const override { return agents.find(agent) != agents.end(); }
    bool findPosition(std::string_view name, Vec3& out) const override
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
    Vec3 agentVelocity(std::string_view agent) const override { return agents.find(agent)->second.velocity; }
    Vec3 agentForward(std::string_view agent) const override { return agents.find(agent)->second.forward; }
    MoveState moveState(std::string_view agent) const override { return agents.find(agent)->second.state; }
    void requestMove(std::string_view agent, const Vec3& target, double stopDistance) override
    {
        FakeAgent& a = agents.find(agent)->second;
        a.moveRequests += 1;
        a.target = target;
        a.stopDistance = stopDistance;
        a.state = reachable(target) ? MoveState::Moving : MoveState::NoPath;
    }
    void stop(std::string_view agent) override
    {
        FakeAgent& a = agents.find(agent)->second;
        a.stops += 1;
        a.state = MoveState::Idle;
        a.velocity = Vec3(0, 0, 0);
    }
    void face(std::string_view agent, const Vec3& direction) override
    {
        const double len = std::sqrt(direction.x * direction.x + direction.z * direction.z);
        agents.find(agent)->second.forward = Vec3(direction.x / len, 0, direction.z / len);
    }
    void setSpeed(std::string_view agent, double speed) override { agents.find(agent)->second.speed = speed; }
    bool lineOfSight(std::string_view, const Vec3& from, const Vec3& to) const override
    {
        for (const FakeWall& w : walls)
            if (segmentHitsBox(from, to, w))
                return false;
        return true;
    }
    bool hasPath(std::string_view, const Vec3& to) const override { return reachable(to); }

    // Resolved agents: the ref holds the agent's record (looked up by name once
    // per brain tick; the tests change `agents` between ticks). An unresolved
    // ref (id 0) acts as its name.
    bool findAgent(std::string_view agent, AgentRef& io) const override
    {
        io.name = agent;
        io.tag = 0;
        const auto it = agents.find(agent);
        io.id = it == agents.end() ? 0 : static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&it->second));
        return io.id != 0;
    }
    bool findPosition(const AgentRef& agent, Vec3& out) const override
    {
        if (!agent.id)
            return findPosition(agent.name, out);
        out = record(agent).position;
        return true;
    }
    Vec3 agentVelocity(const AgentRef& agent) const override
    {
        return agent.id ? record(agent).velocity : agentVelocity(agent.name);
    }
    Vec3 agentForward(const AgentRef& agent) const override
    {
        return agent.id ? record(agent).forward : agentForward(agent.name);
    }
    MoveState moveState(const AgentRef& agent) const override
    {
        return agent.id ? record(agent).state : moveState(agent.name);
    }
    void requestMove(const AgentRef& agent, const Vec3& target, double stopDistance) override
    {
        if (!agent.id)
            return requestMove(agent.name, target, stopDistance);
        FakeAgent& a = record(agent);
        a.moveRequests += 1;
        a.target = target;
        a.stopDistance = stopDistance;
        a.state = reachable(target) ? MoveState::Moving : MoveState::NoPath;
    }
    void stop(const AgentRef& agent) override
    {
        if (!agent.id)
            return stop(agent.name);
        FakeAgent& a = record(agent);
        a.stops += 1;
        a.state = MoveState::Idle;
        a.velocity = Vec3(0, 0, 0);
    }
    void face(const AgentRef& agent, const Vec3& direction) override
    {
        if (!agent.id)
            return face(agent.name, direction);
        const double len = std::sqrt(direction.x * direction.x + direction.z * direction.z);
        record(agent).forward = Vec3(direction.x / len, 0, direction.z / len);
    }
    void setSpeed(const AgentRef& agent, double speed) override
    {
        if (!agent.id)
            return setSpeed(agent.name, speed);
        record(agent).speed = speed;
    }
    bool lineOfSight(const AgentRef& agent, const Vec3& from, const Vec3& to) const override
    {
        return lineOfSight(agent.name, from, to);
    }
    bool hasPath(const AgentRef&, const Vec3& to) const override { return reachable(to); }

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
    static FakeAgent& record(const AgentRef& agent)
    {
        return *reinterpret_cast<FakeAgent*>(static_cast<uintptr_t>(agent.id));
    }
    bool reachable(const Vec3& p) const { return std::abs(p.x) <= reachLimit && std::abs(p.z) <= reachLimit; }

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
