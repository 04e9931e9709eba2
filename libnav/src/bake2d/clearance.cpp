/// \file clearance.cpp
/// Design note — exact Euclidean clearance of a 2D grid, and the agent-radius erosion.
///
/// The clearance of a free cell is the distance from its centre to the nearest
/// point of a blocked cell (a closed square) or of the grid border. The border
/// is modelled as a ring of blocked cells just outside the grid, which gives the
/// same distance. Measured in half-cells, a blocked cell `dx`, `dy` cells away
/// is at squared distance F(dx) + F(dy) with F(t) = max(2|t| − 1, 0)², so the
/// transform is separable, like the classic squared Euclidean distance transform:
///
///   1. per column, G(a, y) = F(distance to the nearest blocked cell of column a);
///   2. per row, D(x, y) = min_a G(a, y) + F(x − a).
///
/// (Columns first, swept row by row, so both passes read memory in order.)
/// Step 2 is a lower envelope. F(x − a) is a parabola in x on each side of a:
/// (2x − (2a + 1))² for a < x and (2x − (2a − 1))² for a > x, and each of the two
/// families is >= the true term on the other side. So D = min(G(x, y), lower
/// envelope of the "+" family, lower envelope of the "−" family), each envelope
/// computed in linear time with the algorithm of P. F. Felzenszwalb and
/// D. P. Huttenlocher, "Distance Transforms of Sampled Functions", Theory of
/// Computing 8 (2012). Every value is an integer and the envelope breakpoints
/// are compared as exact fractions, so the result is exact and the same on any
/// machine. Cost: O(width × height) time, O(width × height) memory.
///
/// Erosion keeps a free cell when its clearance is at least the agent radius:
/// D · (cellSize / 2)² >= radius², i.e. D >= (2 · radius / cellSize)².

#include "spark/nav/bake2d.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace spark::nav
{
namespace
{

/// F(t) = max(2|t| − 1, 0)² for a non-negative cell distance t.
int64_t halfCellSquare(int64_t t)
{
    if (t <= 0)
        return 0;
    const int64_t h = 2 * t - 1;
    return h * h;
}

/// A breakpoint of the lower envelope: num / den (den > 0), or ±infinity.
struct Breakpoint
{
    int64_t num = 0;
    int64_t den = 1;
    int8_t inf = 0; ///< -1 = −infinity, +1 = +infinity, 0 = finite.
};

/// a <= b for breakpoints (exact).
bool lessEqual(const Breakpoint& a, const Breakpoint& b)
{
    if (a.inf != 0 || b.inf != 0)
    {
        if (a.inf == b.inf)
            return true;
        return a.inf < b.inf;
    }
    return a.num * b.den <= b.num * a.den;
}

/// breakpoint < value (an integer), exact.
bool lessThanInt(const Breakpoint& a, int64_t value)
{
    if (a.inf != 0)
        return a.inf < 0;
    return a.num < value * a.den;
}

/// Lower envelope of parabolas (Y − c[i])² + g[i] with strictly increasing
/// centres c, evaluated at Y = 2y for y in [0, outCount); the minimum of the
/// envelope and out[y] is stored in out[y]. Scratch vectors are reused.
void lowerEnvelopeMin(const std::vector<int64_t>& centres, const std::vector<int64_t>& values,
                      std::vector<int>& v, std::vector<Breakpoint>& z, std::vector<int64_t>& out)
{
    const int n = static_cast<int>(centres.size());
    v.assign(static_cast<size_t>(n), 0);
    z.assign(static_cast<size_t>(n) + 1, Breakpoint{});
    int k = 0;
    v[0] = 0;
    z[0] = Breakpoint{0, 1, -1};
    z[1] = Breakpoint{0, 1, +1};
    auto intersect = [&](int q, int p) {
        // Where parabola q (right) overtakes parabola p (left).
        const int64_t num = (values[q] + centres[q] * centres[q]) - (values[p] + centres[p] * centres[p]);
        const int64_t den = 2 * (centres[q] - centres[p]);
        return Breakpoint{num, den, 0};
    };
    for (int q = 1; q < n; ++q)
    {
        Breakpoint s = intersect(q, v[k]);
        while (lessEqual(s, z[k]))
        {
            --k;
            s = intersect(q, v[k]);
        }
        ++k;
        v[k] = q;
        z[k] = s;
        z[k + 1] = Breakpoint{0, 1, +1};
    }
    k = 0;
    const int64_t count = static_cast<int64_t>(out.size());
    for (int64_t y = 0; y < count; ++y)
    {
        const int64_t yy = 2 * y;
        while (lessThanInt(z[k + 1], yy))
            ++k;
        const int64_t d = yy - centres[v[k]];
        const int64_t value = d * d + values[v[k]];
        out[y] = std::min(out[y], value);
    }
}

} // namespace

std::vector<uint32_t> computeClearance2D(const Grid2D& grid)
{
    const int w = grid.width;
    const int h = grid.height;
    assert(w > 0 && h > 0 && grid.blocked.size() == static_cast<size_t>(w) * static_cast<size_t>(h));
    const size_t cells = static_cast<size_t>(w) * static_cast<size_t>(h);

    // Step 1 (the separable pass along y, swept row by row so memory is read in
    // order): per cell, the squared half-cell distance to the nearest blocked
    // cell of its column (the border rows y = −1 and y = h count as blocked).
    std::vector<int64_t> colTerm(cells);
    std::vector<int64_t> last(static_cast<size_t>(w), -1);
    for (int y = 0; y < h; ++y)
    {
        const uint8_t* row = grid.blocked.data() + static_cast<size_t>(y) * w;
        int64_t* out = colTerm.data() + static_cast<size_t>(y) * w;
        for (int x = 0; x < w; ++x)
        {
            if (row[x] != 0)
                last[x] = y;
            out[x] = y - last[x]; // rows to the nearest blocked cell above
        }
    }
    std::fill(last.begin(), last.end(), static_cast<int64_t>(h));
    for (int y = h - 1; y >= 0; --y)
    {
        const uint8_t* row = grid.blocked.data() + static_cast<size_t>(y) * w;
        int64_t* out = colTerm.data() + static_cast<size_t>(y) * w;
        for (int x = 0; x < w; ++x)
        {
            if (row[x] != 0)
                last[x] = y;
            out[x] = halfCellSquare(std::min<int64_t>(out[x], last[x] - y));
        }
    }

    // Step 2: per row, lower envelopes over the columns −1 .. w (the border
    // columns are blocked everywhere, term 0).
    const int n = w + 2;
    std::vector<int64_t> centresPlus(static_cast<size_t>(n));
    std::vector<int64_t> centresMinus(static_cast<size_t>(n));
    std::vector<int64_t> values(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
    {
        const int64_t b = i - 1;
        centresPlus[i] = 2 * b + 1;
        centresMinus[i] = 2 * b - 1;
    }
    std::vector<int> v;
    std::vector<Breakpoint> z;
    std::vector<int64_t> line(static_cast<size_t>(w));
    std::vector<uint32_t> clearance(cells);
    for (int y = 0; y < h; ++y)
    {
        const int64_t* terms = colTerm.data() + static_cast<size_t>(y) * w;
        values[0] = 0;
        values[static_cast<size_t>(n) - 1] = 0;
        for (int x = 0; x < w; ++x)
        {
            values[static_cast<size_t>(x) + 1] = terms[x];
            line[x] = terms[x]; // the a = x term, F(0) = 0
        }
        lowerEnvelopeMin(centresPlus, values, v, z, line);
        lowerEnvelopeMin(centresMinus, values, v, z, line);
        uint32_t* out = clearance.data() + static_cast<size_t>(y) * w;
        for (int x = 0; x < w; ++x)
            out[x] = static_cast<uint32_t>(line[x]);
    }
    return clearance;
}

std::vector<uint8_t> erodeGrid2D(const Grid2D& grid, float agentRadius)
{
    assert(agentRadius >= 0.0f);
    const std::vector<uint32_t> clearance = computeClearance2D(grid);
    const double ratio = 2.0 * static_cast<double>(agentRadius) / static_cast<double>(grid.cellSize);
    const double threshold = ratio * ratio; // in (cellSize / 2)² units
    std::vector<uint8_t> walkable(clearance.size(), 0);
    for (size_t i = 0; i < clearance.size(); ++i)
    {
        if (grid.blocked[i] != 0)
            continue;
        walkable[i] = static_cast<double>(clearance[i]) >= threshold ? 1 : 0;
    }
    return walkable;
}

} // namespace spark::nav
