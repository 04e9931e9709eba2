// Fuzz target: the C API (spark/nav_c.h) called as a careless or hostile C
// program would. An input is decoded into a sequence of up to 64 calls over
// every handle kind (meshes, corridors, avoidance, flight volumes, worlds) and
// id kind (meshes, obstacles, links, agents, kept after their removal, and
// made up), with hostile arguments: NaN, infinities, 1e38, counts past every
// limit (2^28 .. SIZE_MAX, given with arrays of a few elements), enum values
// out of range (negative too, through fuzz_capi_shim.c), NULL pointers and
// handles destroyed on the way (their slots pass NULL afterwards: a freed
// pointer would be the caller's undefined behaviour, not ours).
//
// Every input's work is small and bounded, so a long run reaches millions of
// inputs: each input starts with a small baked mesh in slot 0 (baked once per
// process, then loaded from its saved bytes: queries, corridors and worlds
// need not spend calls on a bake first), and the bakes an input asks for run
// on a coarse grid (0.5 m cells unless the input picks a size).
//
// Oracles, beside ASan and UBSan: no call answers SPARK_NAV_INTERNAL; a count
// past its limit is SPARK_NAV_LIMIT (or INVALID_ARGUMENT for another argument)
// and nothing was read; a failed call leaves its `out` handle untouched and a
// world's hash unchanged.

#include "spark/nav_c.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

extern "C" {
const char* fuzz_capi_result_string(int result);
spark_nav_result fuzz_capi_obstacle_add(spark_nav_world* world, uint64_t mesh_id, int shape, const float size[2],
                                        float angle_deg, const float position[3], uint64_t* out_id);
spark_nav_result fuzz_capi_link_add(spark_nav_world* world, uint64_t mesh_id, const float start[3],
                                    const float end[3], int kind, float radius, int bidirectional, float cost,
                                    float speed, float arc_height, uint64_t* out_id, int* out_resolved);
}

namespace
{

constexpr int kMaxCalls = 64;
constexpr size_t kSlots = 3;

[[noreturn]] void finding(const char* what, int line, int result)
{
    std::fprintf(stderr, "fuzz_capi finding at line %d: %s (result %d: %s)\n", line, what, result,
                 fuzz_capi_result_string(result));
    std::abort();
}

/// A result that must never come: INTERNAL is a bug (docs/surface.md).
#define EXPECT_NOT_INTERNAL(r)                                                                                         \
    do                                                                                                                 \
    {                                                                                                                  \
        const spark_nav_result r_ = (r);                                                                               \
        if (r_ == SPARK_NAV_INTERNAL)                                                                                  \
            finding("SPARK_NAV_INTERNAL", __LINE__, r_);                                                               \
    } while (0)

/// A count past its limit: LIMIT (or INVALID_ARGUMENT when another argument is bad), never OK or INTERNAL.
#define EXPECT_REFUSED(r)                                                                                              \
    do                                                                                                                 \
    {                                                                                                                  \
        const spark_nav_result r_ = (r);                                                                               \
        if (r_ != SPARK_NAV_LIMIT && r_ != SPARK_NAV_INVALID_ARGUMENT)                                                 \
            finding("a count past its limit was not refused", __LINE__, r_);                                          \
    } while (0)

/// Counts past every limit of the API (2^24 items, 3 * 2^24 indices, 2^22 polygons, 2^20 avoidance items).
constexpr std::array<size_t, 6> kHostileCounts = {size_t{1} << 28, (size_t{1} << 32) + 3, size_t{1} << 40,
                                                  (size_t{1} << 40) * 3, std::numeric_limits<size_t>::max(),
                                                  std::numeric_limits<size_t>::max() - 2};

struct Input
{
    FuzzedDataProvider& in;

    uint8_t byte() { return in.ConsumeIntegral<uint8_t>(); }
    bool flag() { return in.ConsumeBool(); }
    /// Mostly small coordinates on a few-metre scene, sometimes a hostile value.
    float real()
    {
        static constexpr float kSpecial[] = {0.0f,   -0.0f, 1.0f,   -1.0f,  0.5f,   1e-7f,  1e38f, -1e38f,
                                             1e6f,   1.0001e6f, 3.4e38f, 1e-42f, 0.25f, 100.0f, 4096.0f, -4.0f};
        const uint8_t b = byte();
        if (b < 200)
            return (static_cast<float>(b) - 40.0f) * 0.125f; // -5 .. 20
        if (b < 216)
            return kSpecial[b - 200];
        if (b < 220)
            return std::numeric_limits<float>::quiet_NaN();
        if (b < 224)
            return b & 1 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
        return in.ConsumeFloatingPoint<float>();
    }
    double dreal() { return static_cast<double>(real()); }
    void point(float p[3])
    {
        p[0] = real();
        p[1] = flag() ? 0.0f : real();
        p[2] = real();
    }
    /// A count of at most `max` (the array handed over holds that many), or a hostile one.
    size_t count(size_t max, bool& hostile)
    {
        hostile = byte() >= 240;
        if (hostile)
            return kHostileCounts[byte() % kHostileCounts.size()];
        return in.ConsumeIntegralInRange<size_t>(0, max);
    }
    /// An enum argument: mostly a valid value, else anything (negative too).
    int enumValue(int valid)
    {
        const uint8_t b = byte();
        if (b < 160)
            return b % valid;
        static constexpr int kOdd[] = {-1, std::numeric_limits<int>::min(), 0x7FFFFFFF, 2, 3, 9, 10, -2};
        return b < 240 ? kOdd[b % 8] : in.ConsumeIntegral<int>();
    }
};

struct State
{
    std::array<spark_nav_mesh*, kSlots> meshes{};
    std::array<spark_nav_corridor*, kSlots> corridors{};
    std::array<spark_nav_avoidance*, 2> avoidances{};
    std::array<spark_nav_flight*, 2> flights{};
    std::array<spark_nav_world*, 2> worlds{};
    std::vector<uint64_t> ids; ///< Every id any world handed out (of any kind, removed ones included).

    ~State()
    {
        for (auto* m : meshes)
            spark_nav_mesh_destroy(m);
        for (auto* c : corridors)
            spark_nav_corridor_destroy(c);
        for (auto* a : avoidances)
            spark_nav_avoidance_destroy(a);
        for (auto* f : flights)
            spark_nav_flight_destroy(f);
        for (auto* w : worlds)
            spark_nav_world_destroy(w);
    }
};

/// Any id: one handed out (possibly of another kind or world, possibly removed), or made up.
uint64_t anyId(Input& in, const State& s)
{
    const uint8_t b = in.byte();
    if (!s.ids.empty() && b < 200)
        return s.ids[b % s.ids.size()];
    static constexpr uint64_t kMadeUp[] = {0, 1, 0x100000000ull, 0xffffffffffffffffull, 0x1ffffffffull, 1ull << 20};
    return kMadeUp[b % 6];
}

/// Puts a handle made by a call into its slot (destroying what was there), checking `out` was untouched on failure.
template <class H, class D> void keep(H*& slot, spark_nav_result r, H* made, H* sentinel, D destroy, int line)
{
    EXPECT_NOT_INTERNAL(r);
    if (r != SPARK_NAV_OK)
    {
        if (made != sentinel)
            finding("a failed call wrote its out handle", line, r);
        return;
    }
    if (!made || made == sentinel)
        finding("a successful call gave no handle", line, r);
    destroy(slot);
    slot = made;
}

template <class H> H* sentinelOf()
{
    static char storage;
    return reinterpret_cast<H*>(&storage); // never dereferenced
}

void buildMesh(Input& in, State& s)
{
    // A grid of up to 4 x 4 quads (shared corners), perturbed; or raw indices.
    const int w = 1 + in.byte() % 4, h = 1 + in.byte() % 4;
    std::vector<float> verts;
    for (int z = 0; z <= h; ++z)
        for (int x = 0; x <= w; ++x)
        {
            const bool odd = in.byte() >= 230;
            verts.push_back(odd ? in.real() : static_cast<float>(x) * 2.0f);
            verts.push_back(0.0f);
            verts.push_back(odd ? in.real() : static_cast<float>(z) * 2.0f);
        }
    std::vector<uint32_t> idx, starts{0};
    const uint32_t row = static_cast<uint32_t>(w + 1);
    for (int z = 0; z < h; ++z)
        for (int x = 0; x < w; ++x)
        {
            const uint32_t a = static_cast<uint32_t>(z) * row + static_cast<uint32_t>(x);
            if (in.byte() >= 240) // a raw polygon
            {
                const int n = in.byte() % 8;
                for (int k = 0; k < n; ++k)
                    idx.push_back(in.byte() % (verts.size() / 3 + 2));
            }
            else
                idx.insert(idx.end(), {a, a + row, a + row + 1, a + 1});
            starts.push_back(static_cast<uint32_t>(idx.size()));
        }
    if (in.byte() >= 245 && starts.size() > 2) // offsets out of order
        std::swap(starts[1], starts[2]);
    std::vector<uint8_t> areas(starts.size() - 1);
    for (auto& a : areas)
        a = in.byte() >= 240 ? in.byte() : 0;
    bool hostile = false;
    size_t vertexCount = verts.size() / 3, polyCount = starts.size() - 1;
    if (in.byte() >= 200) // one count hostile, the arrays as they are
    {
        hostile = true;
        (in.flag() ? vertexCount : polyCount) = kHostileCounts[in.byte() % kHostileCounts.size()];
    }
    idx.push_back(0); // never empty: data() is a real pointer
    const float radius = in.byte() >= 240 ? in.real() : 0.0f;
    spark_nav_mesh* made = sentinelOf<spark_nav_mesh>();
    const spark_nav_result r = spark_nav_mesh_build(verts.data(), vertexCount, idx.data(), starts.data(), polyCount,
                                                    in.flag() ? areas.data() : nullptr, in.flag(), radius, &made);
    if (hostile)
        EXPECT_REFUSED(r);
    keep(s.meshes[in.byte() % kSlots], r, made, sentinelOf<spark_nav_mesh>(), spark_nav_mesh_destroy, __LINE__);
}

void bakeMesh(Input& in, State& s)
{
    // A floor of two triangles plus up to 6 more, 3 floats each.
    std::vector<float> verts = {0, 0, 0, 6, 0, 0, 6, 0, 6, 0, 0, 6};
    std::vector<uint32_t> idx = {0, 2, 1, 0, 3, 2};
    const int extra = in.byte() % 7;
    for (int t = 0; t < extra; ++t)
    {
        for (int k = 0; k < 3; ++k)
        {
            float p[3];
            in.point(p);
            verts.insert(verts.end(), p, p + 3);
        }
        const uint32_t base = static_cast<uint32_t>(verts.size() / 3 - 3);
        idx.insert(idx.end(), {base, base + 1, in.byte() >= 240 ? uint32_t(in.byte()) : base + 2});
    }
    std::vector<uint8_t> areas(idx.size() / 3);
    for (auto& a : areas)
        a = in.byte() >= 240 ? in.byte() : 0;
    spark_nav_bake_settings def = spark_nav_bake_settings_default();
    def.cell_size = in.byte() >= 220 ? in.real() : 0.5f;
    def.cell_height = in.byte() >= 230 ? in.real() : def.cell_height;
    def.agent_radius = in.byte() >= 230 ? in.real() : def.agent_radius;
    def.max_slope_deg = in.byte() >= 240 ? in.real() : def.max_slope_deg;
    def.max_verts_per_poly = in.byte() >= 240 ? in.in.ConsumeIntegral<int>() : def.max_verts_per_poly;
    def.merge_region_area = in.byte() >= 240 ? in.real() : def.merge_region_area;
    size_t vertexCount = verts.size() / 3, indexCount = idx.size();
    bool hostile = false;
    if (in.byte() >= 210)
    {
        hostile = true;
        (in.flag() ? vertexCount : indexCount) = kHostileCounts[in.byte() % kHostileCounts.size()];
    }
    else if (in.byte() >= 245)
        indexCount -= 1 + in.byte() % 2; // not a multiple of 3
    spark_nav_mesh* made = sentinelOf<spark_nav_mesh>();
    const spark_nav_result r = spark_nav_mesh_bake(verts.data(), vertexCount, idx.data(), indexCount,
                                                   in.flag() ? areas.data() : nullptr, in.flag(),
                                                   in.byte() >= 250 ? nullptr : &def, &made);
    if (hostile)
        EXPECT_REFUSED(r);
    keep(s.meshes[in.byte() % kSlots], r, made, sentinelOf<spark_nav_mesh>(), spark_nav_mesh_destroy, __LINE__);
}

void bakeGrid(Input& in, State& s)
{
    static constexpr int kOddSides[] = {0, -1, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(),
                                        4097, 1 << 20};
    const bool oddW = in.byte() >= 235, oddH = in.byte() >= 235;
    const int w = oddW ? kOddSides[in.byte() % 6] : 1 + in.byte() % 12;
    const int h = oddH ? kOddSides[in.byte() % 6] : 1 + in.byte() % 12;
    std::vector<uint8_t> blocked(oddW || oddH ? 1 : size_t(w) * size_t(h)), areas(blocked.size());
    for (auto& b : blocked)
        b = in.byte() >= 200;
    for (auto& a : areas)
        a = in.byte() >= 240 ? in.byte() : 0;
    spark_nav_mesh* made = sentinelOf<spark_nav_mesh>();
    const float cell = in.byte() >= 220 ? in.real() : 1.0f;
    const float ox = in.byte() >= 240 ? in.real() : 0.0f, oy = in.byte() >= 240 ? in.real() : 0.0f;
    const float radius = in.byte() >= 200 ? in.real() : 0.0f;
    const spark_nav_result r =
        spark_nav_mesh_bake_grid(in.byte() >= 250 ? nullptr : blocked.data(), in.flag() ? areas.data() : nullptr, w,
                                 h, cell, ox, oy, radius, &made);
    if (oddW || oddH)
        EXPECT_REFUSED(r);
    keep(s.meshes[in.byte() % kSlots], r, made, sentinelOf<spark_nav_mesh>(), spark_nav_mesh_destroy, __LINE__);
}

void saveLoad(Input& in, State& s)
{
    spark_nav_mesh* mesh = s.meshes[in.byte() % kSlots];
    size_t size = 0;
    spark_nav_result r = spark_nav_mesh_save(mesh, nullptr, 0, &size);
    EXPECT_NOT_INTERNAL(r);
    std::vector<uint8_t> bytes;
    if (r == SPARK_NAV_OK)
    {
        bytes.resize(size + 1);
        const size_t capacity = in.flag() ? size : size - std::min<size_t>(size, in.byte() % 4 + 1);
        r = spark_nav_mesh_save(mesh, bytes.data(), capacity, &size);
        EXPECT_NOT_INTERNAL(r);
        bytes.resize(size);
        const int flips = in.byte() >= 128 ? in.byte() % 4 : 0;
        for (int k = 0; k < flips && !bytes.empty(); ++k)
            bytes[in.in.ConsumeIntegralInRange<size_t>(0, bytes.size() - 1)] ^= uint8_t(1u << (in.byte() % 8));
        if (in.byte() >= 200 && !bytes.empty())
            bytes.resize(in.in.ConsumeIntegralInRange<size_t>(0, bytes.size() - 1));
    }
    else
        bytes = in.in.ConsumeBytes<uint8_t>(in.byte());
    bytes.push_back(0);
    spark_nav_mesh* made = sentinelOf<spark_nav_mesh>();
    r = spark_nav_mesh_load(bytes.data(), bytes.size() - 1, &made);
    keep(s.meshes[in.byte() % kSlots], r, made, sentinelOf<spark_nav_mesh>(), spark_nav_mesh_destroy, __LINE__);
}

void queries(Input& in, State& s)
{
    const spark_nav_mesh* mesh = s.meshes[in.byte() % kSlots];
    float a[3], b[3], ext[3], out[3], normal[3];
    in.point(a);
    in.point(b);
    ext[0] = ext[2] = in.byte() >= 230 ? in.real() : 1.0f;
    ext[1] = in.byte() >= 230 ? in.real() : 1.0f;
    std::array<float, 3 * 16> points{};
    size_t count = 0;
    float length = 0;
    int flag = 0;
    uint32_t polys = 0;
    uint64_t hash = 0;
    switch (in.byte() % 7)
    {
    case 0: EXPECT_NOT_INTERNAL(spark_nav_nearest(mesh, a, ext, out)); break;
    case 1:
        EXPECT_NOT_INTERNAL(spark_nav_path(mesh, a, b, ext, points.data(), in.byte() % 17, &count, &length, &flag));
        break;
    case 2: EXPECT_NOT_INTERNAL(spark_nav_raycast(mesh, a, b, ext, &flag, &length, out, normal)); break;
    case 3:
    {
        std::array<float, 9 * 8> walls{};
        EXPECT_NOT_INTERNAL(spark_nav_walls(mesh, a, in.real(), walls.data(), in.byte() % 9, &count));
        break;
    }
    case 4:
    {
        bool hostile = false;
        const size_t n = in.count(16, hostile);
        const spark_nav_result r = spark_nav_random_points(mesh, in.in.ConsumeIntegral<uint64_t>(), n, points.data());
        if (hostile && mesh)
            EXPECT_REFUSED(r);
        EXPECT_NOT_INTERNAL(r);
        break;
    }
    case 5:
        EXPECT_NOT_INTERNAL(spark_nav_mesh_polygon_count(mesh, &polys));
        EXPECT_NOT_INTERNAL(spark_nav_mesh_hash(mesh, &hash));
        break;
    default:
    {
        spark_nav_mesh*& slot = s.meshes[in.byte() % kSlots];
        spark_nav_mesh_destroy(slot);
        slot = nullptr;
        break;
    }
    }
}

void corridors(Input& in, State& s)
{
    // The mesh need not be the one the corridor was planned on (or may have been destroyed and rebuilt).
    const spark_nav_mesh* mesh = s.meshes[in.byte() % kSlots];
    spark_nav_corridor*& corridor = s.corridors[in.byte() % kSlots];
    float a[3], b[3], ext[3] = {1.0f, 1.0f, 1.0f}, out[3];
    in.point(a);
    in.point(b);
    if (in.byte() >= 230)
        ext[in.byte() % 3] = in.real();
    std::array<float, 3 * 20> points{};
    size_t count = 0;
    int flag = 0;
    switch (in.byte() % 9)
    {
    case 0:
    case 1:
    {
        spark_nav_corridor* made = sentinelOf<spark_nav_corridor>();
        const spark_nav_result r = spark_nav_corridor_plan(mesh, a, b, ext, &made);
        keep(corridor, r, made, sentinelOf<spark_nav_corridor>(), spark_nav_corridor_destroy, __LINE__);
        break;
    }
    case 2: EXPECT_NOT_INTERNAL(spark_nav_corridor_info(corridor, out, &count, &flag)); break;
    case 3:
        EXPECT_NOT_INTERNAL(spark_nav_corridor_corners(mesh, corridor, points.data(), in.byte() % 20, &count, &flag));
        break;
    case 4: EXPECT_NOT_INTERNAL(spark_nav_corridor_move(mesh, corridor, a, out)); break;
    case 5: EXPECT_NOT_INTERNAL(spark_nav_corridor_check(mesh, corridor, &flag)); break;
    case 6: EXPECT_NOT_INTERNAL(spark_nav_corridor_replan(mesh, corridor, ext)); break;
    case 7:
        EXPECT_NOT_INTERNAL(spark_nav_corridor_steer(mesh, corridor, in.real(), in.real(), in.real(), out, &flag));
        break;
    default:
        spark_nav_corridor_destroy(corridor);
        corridor = nullptr;
        break;
    }
}

void avoidance(Input& in, State& s)
{
    spark_nav_avoidance*& avoid = s.avoidances[in.byte() % 2];
    const uint8_t op = in.byte() % 4;
    if (op == 0)
    {
        spark_nav_avoidance_def def = spark_nav_avoidance_def_default();
        def.max_agents = in.byte() >= 220 ? in.in.ConsumeIntegral<int>() : 1 + in.byte() % 8;
        def.max_obstacles = in.byte() >= 220 ? in.in.ConsumeIntegral<int>() : in.byte() % 8;
        def.max_obstacle_points = in.byte() >= 220 ? in.in.ConsumeIntegral<int>() : in.byte() % 16;
        def.max_neighbors = in.byte() >= 230 ? in.in.ConsumeIntegral<int>() : def.max_neighbors;
        def.neighbor_distance = in.byte() >= 230 ? in.dreal() : def.neighbor_distance;
        def.time_horizon = in.byte() >= 230 ? in.dreal() : def.time_horizon;
        def.overlap_tolerance = in.byte() >= 230 ? in.dreal() : def.overlap_tolerance;
        spark_nav_avoidance* made = sentinelOf<spark_nav_avoidance>();
        const spark_nav_result r = spark_nav_avoidance_create(&def, &made);
        keep(avoid, r, made, sentinelOf<spark_nav_avoidance>(), spark_nav_avoidance_destroy, __LINE__);
        return;
    }
    if (op == 3)
    {
        spark_nav_avoidance_destroy(avoid);
        avoid = nullptr;
        return;
    }
    bool hostileAgents = false, hostileObstacles = false;
    const size_t agents = in.count(4, hostileAgents), obstacles = in.count(3, hostileObstacles);
    std::array<double, 3 * 4> velocities{};
    if (op == 1)
    {
        std::array<spark_nav_avoid_agent, 4> a{};
        for (auto& g : a)
        {
            g.position[0] = in.dreal(), g.position[1] = in.dreal();
            g.velocity[0] = in.byte() >= 200 ? in.dreal() : 0.0;
            g.preferred[0] = in.dreal(), g.preferred[1] = in.byte() >= 200 ? in.dreal() : 0.0;
            g.radius = in.byte() >= 200 ? in.dreal() : 0.5;
            g.max_speed = in.byte() >= 200 ? in.dreal() : 2.0;
            g.priority = in.byte() >= 220 ? in.dreal() : 1.0;
            g.id = in.byte(), g.layers = in.byte(), g.ignores = in.byte();
            g.max_neighbors = in.byte() >= 220 ? in.in.ConsumeIntegral<int>() : 0;
        }
        std::array<double, 2 * 5> pts{};
        for (auto& p : pts)
            p = in.dreal();
        std::array<spark_nav_avoid_obstacle, 3> o{};
        for (size_t i = 0; i < o.size(); ++i)
        {
            spark_nav_avoid_obstacle& ob = o[i];
            const int shape = in.enumValue(3);
            std::memcpy(&ob.shape, &shape, sizeof shape); // its bits: out of range is the point
            ob.center[0] = in.dreal(), ob.center[1] = in.dreal();
            ob.radius = in.dreal();
            ob.points = in.byte() >= 240 ? nullptr : pts.data();
            bool hostile = false;
            ob.point_count = in.count(5, hostile);
            // A segment or polygon among those passed reads its points: a hostile count must be refused.
            hostileObstacles = hostileObstacles || (hostile && i < obstacles && (shape == 1 || shape == 2));
        }
        const spark_nav_result r =
            spark_nav_avoid(avoid, a.data(), agents, o.data(), obstacles, in.byte() >= 230 ? in.dreal() : 0.1,
                            velocities.data());
        if ((hostileAgents || hostileObstacles) && avoid)
            EXPECT_REFUSED(r);
        EXPECT_NOT_INTERNAL(r);
    }
    else
    {
        std::array<spark_nav_avoid_agent_3d, 4> a{};
        for (auto& g : a)
        {
            g.position[0] = in.dreal(), g.position[1] = in.dreal(), g.position[2] = in.dreal();
            g.preferred[0] = in.dreal(), g.preferred[2] = in.dreal();
            g.radius = in.byte() >= 200 ? in.dreal() : 0.5;
            g.max_speed = in.byte() >= 200 ? in.dreal() : 2.0;
            g.priority = 1.0;
            g.id = in.byte(), g.layers = in.byte(), g.ignores = in.byte();
        }
        std::array<spark_nav_avoid_sphere, 3> sp{};
        for (auto& b : sp)
            b.center[0] = in.dreal(), b.center[1] = in.dreal(), b.radius = in.dreal(), b.velocity[2] = in.dreal();
        const spark_nav_result r =
            spark_nav_avoid_3d(avoid, a.data(), agents, sp.data(), obstacles, in.byte() >= 230 ? in.dreal() : 0.1,
                               velocities.data());
        if ((hostileAgents || hostileObstacles) && avoid)
            EXPECT_REFUSED(r);
        EXPECT_NOT_INTERNAL(r);
    }
}

void flight(Input& in, State& s)
{
    spark_nav_flight*& volume = s.flights[in.byte() % 2];
    const uint8_t op = in.byte() % 5;
    if (op == 0)
    {
        spark_nav_flight_def def = spark_nav_flight_def_default();
        for (int c = 0; c < 3; ++c)
        {
            def.bounds_min[c] = in.byte() >= 230 ? in.dreal() : -4.0;
            def.bounds_max[c] = in.byte() >= 230 ? in.dreal() : 4.0;
        }
        def.voxel_size = in.byte() >= 220 ? in.dreal() : 0.5;
        def.flier_radius = in.byte() >= 220 ? in.dreal() : 0.25;
        def.max_voxels = in.byte() >= 230 ? in.in.ConsumeIntegral<int64_t>() : def.max_voxels;
        std::array<double, 9> verts{};
        for (auto& v : verts)
            v = in.dreal();
        std::array<uint32_t, 3> tri = {0, 1, in.byte() >= 240 ? uint32_t(in.byte()) : 2u};
        std::array<double, 12> boxes{};
        for (auto& b : boxes)
            b = in.dreal();
        bool hv = false, hi = false, hb = false;
        size_t vertexCount = in.count(3, hv), indexCount = in.count(1, hi) * 3, boxCount = in.count(2, hb);
        if (hi)
            indexCount = kHostileCounts[in.byte() % kHostileCounts.size()];
        spark_nav_flight* made = sentinelOf<spark_nav_flight>();
        const spark_nav_result r = spark_nav_flight_build(&def, verts.data(), vertexCount, tri.data(), indexCount,
                                                          boxes.data(), boxCount, &made);
        if (hv || hi || hb)
            EXPECT_REFUSED(r);
        keep(volume, r, made, sentinelOf<spark_nav_flight>(), spark_nav_flight_destroy, __LINE__);
        return;
    }
    double a[3] = {in.dreal(), in.dreal(), in.dreal()}, b[3] = {in.dreal(), in.dreal(), in.dreal()}, out[3];
    int dims[3], flag = 0;
    int64_t open = 0;
    double t = 0;
    std::array<double, 3 * 32> points{};
    size_t count = 0;
    switch (op)
    {
    case 1: EXPECT_NOT_INTERNAL(spark_nav_flight_info(volume, dims, &open)); break;
    case 2: EXPECT_NOT_INTERNAL(spark_nav_flight_raycast(volume, a, b, &flag, &t, out)); break;
    case 3:
        EXPECT_NOT_INTERNAL(spark_nav_flight_path(volume, a, b, points.data(), in.byte() % 33, &count, &flag));
        break;
    default:
        spark_nav_flight_destroy(volume);
        volume = nullptr;
        break;
    }
}

void worlds(Input& in, State& s)
{
    spark_nav_world*& world = s.worlds[in.byte() % 2];
    uint64_t before = 0, after = 0;
    const bool hashed = world && spark_nav_world_hash(world, &before) == SPARK_NAV_OK;
    uint64_t id = 0xdeadbeefull;
    float a[3], b[3], ext[3] = {1.0f, 1.0f, 1.0f};
    in.point(a);
    in.point(b);
    spark_nav_result r = SPARK_NAV_OK;
    bool mutates = true;
    switch (in.byte() % 14)
    {
    case 0:
        if (!world || in.byte() >= 200)
        {
            spark_nav_world_destroy(world);
            world = nullptr;
            EXPECT_NOT_INTERNAL(spark_nav_world_create(&world));
            return;
        }
        [[fallthrough]];
    case 1:
    {
        std::string name = in.in.ConsumeBytesAsString(in.byte() >= 250 ? 400 : in.byte() % 8);
        if (name.empty() && in.flag())
            name = "m";
        r = spark_nav_world_put_mesh(world, in.byte() >= 250 ? nullptr : name.c_str(),
                                     s.meshes[in.byte() % kSlots], &id);
        break;
    }
    case 2:
    {
        spark_nav_mesh* made = sentinelOf<spark_nav_mesh>();
        r = spark_nav_world_mesh(world, anyId(in, s), &made);
        keep(s.meshes[in.byte() % kSlots], r, made, sentinelOf<spark_nav_mesh>(), spark_nav_mesh_destroy, __LINE__);
        mutates = false;
        break;
    }
    case 3:
    {
        const float size[2] = {in.byte() >= 220 ? in.real() : 0.5f, in.byte() >= 220 ? in.real() : 0.5f};
        r = fuzz_capi_obstacle_add(world, anyId(in, s), in.enumValue(2), size, in.real(), a, &id);
        break;
    }
    case 4: r = spark_nav_obstacle_move(world, anyId(in, s), a, in.real()); break;
    case 5: r = spark_nav_obstacle_remove(world, anyId(in, s)); break;
    case 6:
    {
        int resolved = 0;
        r = fuzz_capi_link_add(world, anyId(in, s), a, b, in.enumValue(2), in.byte() >= 220 ? in.real() : 0.5f,
                               in.flag(), in.byte() >= 220 ? in.real() : 1.0f, in.byte() >= 220 ? in.real() : 4.0f,
                               in.byte() >= 220 ? in.real() : 1.0f, &id, &resolved);
        break;
    }
    case 7: r = spark_nav_link_remove(world, anyId(in, s)); break;
    case 8:
    {
        std::array<float, 3 * 16> points{};
        size_t count = 0;
        float length = 0;
        int complete = 0;
        r = spark_nav_world_path(world, anyId(in, s), a, b, ext, points.data(), in.byte() % 17, &count, &length,
                                 &complete);
        mutates = false;
        break;
    }
    case 9:
    {
        spark_nav_agent_settings set = spark_nav_agent_settings_default();
        set.radius = in.byte() >= 220 ? in.real() : set.radius;
        set.max_speed = in.byte() >= 220 ? in.real() : set.max_speed;
        set.max_neighbors = in.byte() >= 230 ? in.in.ConsumeIntegral<int>() : set.max_neighbors;
        set.slow_radius = in.byte() >= 230 ? in.real() : set.slow_radius;
        r = in.flag() ? spark_nav_agent_add(world, anyId(in, s), a, &set, &id)
                      : spark_nav_agent_set_settings(world, anyId(in, s), &set);
        break;
    }
    case 10: r = spark_nav_agent_set_target(world, anyId(in, s), b); break;
    case 11:
    {
        float pos[3], vel[3];
        spark_nav_agent_state state;
        r = in.flag() ? spark_nav_agent_remove(world, anyId(in, s))
                      : spark_nav_agent_get(world, anyId(in, s), pos, vel, &state);
        break;
    }
    case 12:
    {
        static constexpr double kDt[] = {0.1, 0.0, -0.1, 1.0, 1.5, 1e-9, 1.0 / 60.0,
                                         std::numeric_limits<double>::quiet_NaN()};
        const int steps = 1 + in.byte() % 4;
        const double dt = kDt[in.byte() % 8];
        for (int k = 0; k < steps; ++k)
        {
            r = spark_nav_world_step(world, dt);
            EXPECT_NOT_INTERNAL(r);
        }
        mutates = steps == 1; // a failed single step must leave the world as it was
        break;
    }
    default:
        spark_nav_world_destroy(world);
        world = nullptr;
        return;
    }
    EXPECT_NOT_INTERNAL(r);
    if (r == SPARK_NAV_OK && id != 0xdeadbeefull)
        s.ids.push_back(id);
    if (r != SPARK_NAV_OK && id != 0xdeadbeefull)
        finding("a failed call wrote its out id", __LINE__, r);
    if (r != SPARK_NAV_OK && mutates && hashed && spark_nav_world_hash(world, &after) == SPARK_NAV_OK &&
        after != before)
        finding("a failed call changed the world", __LINE__, r);
}

void misc(Input& in)
{
    const char* text = fuzz_capi_result_string(in.enumValue(10));
    if (!text || !*text)
        finding("a result string is empty", __LINE__, 0);
    if (!spark_nav_version())
        finding("no version", __LINE__, 0);
    (void)spark_nav_bake_settings_default();
    (void)spark_nav_flight_def_default();
    (void)spark_nav_avoidance_def_default();
    (void)spark_nav_agent_settings_default();
    // NULL everywhere a handle or output goes.
    EXPECT_NOT_INTERNAL(spark_nav_mesh_build(nullptr, 1, nullptr, nullptr, 1, nullptr, 0, 0.0f, nullptr));
    EXPECT_NOT_INTERNAL(spark_nav_mesh_save(nullptr, nullptr, 0, nullptr));
    EXPECT_NOT_INTERNAL(spark_nav_world_step(nullptr, 0.1));
    EXPECT_NOT_INTERNAL(spark_nav_corridor_info(nullptr, nullptr, nullptr, nullptr));
}

/// The saved bytes of a small baked mesh (a 6 x 6 m floor and a 1 m step), made once per process.
const std::vector<uint8_t>& starterMeshBytes()
{
    static const std::vector<uint8_t> bytes = [] {
        const float verts[] = {0, 0, 0, 6, 0, 0, 6, 0, 6, 0, 0, 6, 2, 0.3f, 2, 4, 0.3f, 2, 4, 0.3f, 4, 2, 0.3f, 4};
        const uint32_t idx[] = {0, 2, 1, 0, 3, 2, 4, 6, 5, 4, 7, 6};
        const spark_nav_bake_settings def = spark_nav_bake_settings_default();
        spark_nav_mesh* mesh = nullptr;
        std::vector<uint8_t> out;
        size_t size = 0;
        if (spark_nav_mesh_bake(verts, 8, idx, 12, nullptr, 0, &def, &mesh) != SPARK_NAV_OK ||
            spark_nav_mesh_save(mesh, nullptr, 0, &size) != SPARK_NAV_OK)
            finding("the starter mesh cannot be baked", __LINE__, 0);
        out.resize(size);
        if (spark_nav_mesh_save(mesh, out.data(), out.size(), &size) != SPARK_NAV_OK)
            finding("the starter mesh cannot be saved", __LINE__, 0);
        spark_nav_mesh_destroy(mesh);
        return out;
    }();
    return bytes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider provider(data, size);
    Input in{provider};
    State s;
    const std::vector<uint8_t>& starter = starterMeshBytes();
    if (spark_nav_mesh_load(starter.data(), starter.size(), &s.meshes[0]) != SPARK_NAV_OK)
        finding("the starter mesh does not load", __LINE__, 0);
    for (int call = 0; call < kMaxCalls && provider.remaining_bytes() > 0; ++call)
    {
        switch (in.byte() % 12)
        {
        case 0: buildMesh(in, s); break;
        case 1: bakeMesh(in, s); break;
        case 2: bakeGrid(in, s); break;
        case 3: saveLoad(in, s); break;
        case 4:
        case 5: queries(in, s); break;
        case 6: corridors(in, s); break;
        case 7: avoidance(in, s); break;
        case 8: flight(in, s); break;
        case 9:
        case 10: worlds(in, s); break;
        default: misc(in); break;
        }
    }
    return 0;
}
