/// \file regions.cpp
/// Stage 4 of the 3D bake: monotone regions.
///
/// Design note. The partition is the monotone one of Recast's
/// `rcBuildRegionsMonotone` (M. Mononen, Recast Navigation,
/// `RecastRegion.cpp`), chosen over watershed for being linear, simple and free
/// of holes (see reference "Choices"). Rows are swept along +z. In a row,
/// consecutive connected spans of the same area form a run; a run continues
/// the region of the row behind it when every link it has to that row goes to
/// one region and no other run of the row links to that region. Otherwise the
/// run opens a new region. Each region is therefore a stack of runs, one per
/// row, each overlapping the previous: a simply connected shape without holes,
/// and no two regions share a span.
///
/// After the sweep, connected islands (regions joined through the rings
/// below) with fewer spans than min_region_area are dropped, so a stray box
/// top does not become a mesh of its own. Islands share no link with anything
/// else, so the sweep cuts the rest of the floor the same way with or without
/// them.
///
/// After the sweep, regions are merged as in Recast's `mergeAndFilterRegions`:
/// each region knows the ring of regions round its outline (walked once, with
/// the boundary on one hand) and the regions stacked above or below it in its
/// columns. A region with fewer spans than merge_region_area, or one that
/// touches no wall at all, joins the smallest neighbour of its area that it
/// meets along exactly one stretch (both ways round) and shares no column
/// with; the two rings are spliced where they meet. Two simply connected
/// regions glued along one stretch are simply connected, so merged regions
/// stay free of holes and overlaps. Passes repeat until nothing merges; ids
/// are then renumbered densely in their old order. Monotone sweeps cut open
/// floors into many slivers under every obstacle; merging gives the few large
/// regions, and so the few polygons, Recast users expect.

#include "bake_stages.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace spark::nav::bake
{
namespace
{

constexpr uint32_t kManyRegions = std::numeric_limits<uint32_t>::max();

bool contains(const std::vector<uint32_t>& v, uint32_t x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

/// One region while small ones are merged into their neighbours.
struct RegionRecord
{
    uint32_t spans = 0;            ///< Spans in the region (0 once merged away).
    uint8_t area = kNullArea;
    bool stacked = false;          ///< Holds two spans of one column: never merged.
    uint32_t into = 0;             ///< The region it was merged into, 0 while it lives.
    bool dropped = false;          ///< Part of an island under the minimum area.
    std::vector<uint32_t> ring;    ///< Regions across its outline, in walking order (0 = nothing walkable).
    std::vector<uint32_t> floors;  ///< Regions with a span in one of its columns (above or below).
    uint32_t start = 0;            ///< Its first span in storage order, and that span's column:
    uint32_t startColumn = 0;      ///< where the walk round its outline starts.
};

/// Notes in the records the regions stacked in one column (the spans
/// [first, last), two at least, whose regions are final).
void noteStacked(const OpenField& f, uint32_t first, uint32_t last, std::vector<RegionRecord>& regs)
{
    for (uint32_t i = first; i < last; ++i)
    {
        const uint32_t r = f.region[i];
        if (r == 0)
            continue;
        RegionRecord& rec = regs[r];
        for (uint32_t j = first; j < last; ++j)
        {
            const uint32_t o = f.region[j];
            if (j == i || o == 0)
                continue;
            if (o == r)
                rec.stacked = true;
            else if (!contains(rec.floors, o))
                rec.floors.push_back(o);
        }
    }
}

/// The regions across region r's outline, walked from `start` (a span of r
/// in column `column` whose -x side is not r), with repeats next to each
/// other removed. The walk steps between columns by their index.
void walkRing(const OpenField& f, uint32_t r, uint32_t start, uint32_t column, std::vector<uint32_t>& out)
{
    out.clear();
    const std::array<int64_t, 4> step = columnSteps(f.grid.width);
    uint32_t i = start;
    int64_t c = column;
    int dir = 0;
    const size_t maxSteps = f.spanCount() * 8 + 16;
    for (size_t steps = 0; steps < maxSteps; ++steps)
    {
        const uint32_t link = connectionOf(f, i, dir);
        const uint32_t a = link == kNoConnection ? UINT32_MAX : f.cellFirst[c + step[dir]] + link;
        const uint32_t far = a == UINT32_MAX ? 0 : f.region[a];
        if (far != r)
        {
            if (out.empty() || out.back() != far)
                out.push_back(far);
            dir = (dir + 1) & 3;
        }
        else
        {
            c += step[dir];
            i = a;
            dir = (dir + 3) & 3;
        }
        if (i == start && dir == 0)
            break;
    }
    while (out.size() > 1 && out.front() == out.back())
        out.pop_back();
}

void removeRepeats(std::vector<uint32_t>& ring)
{
    size_t n = 0;
    for (size_t k = 0; k < ring.size(); ++k)
        if (n == 0 || ring[n - 1] != ring[k])
            ring[n++] = ring[k];
    ring.resize(n);
    while (ring.size() > 1 && ring.front() == ring.back())
        ring.pop_back();
}

/// True when `a` may absorb `b`: same area, they meet along exactly one
/// stretch of a's outline, and they never share a column.
bool canMerge(const RegionRecord& a, const RegionRecord& b, uint32_t bId)
{
    if (a.area != b.area)
        return false;
    int runs = 0;
    for (uint32_t n : a.ring)
        runs += n == bId ? 1 : 0;
    return runs == 1 && !contains(a.floors, bId);
}

/// Region `t` absorbs region `b`: the outlines are spliced where they meet.
void absorb(std::vector<RegionRecord>& regs, uint32_t t, uint32_t b)
{
    RegionRecord& rt = regs[t];
    RegionRecord& rb = regs[b];
    const auto at = std::find(rt.ring.begin(), rt.ring.end(), b);
    const auto bt = std::find(rb.ring.begin(), rb.ring.end(), t);
    const size_t nt = rt.ring.size(), nb = rb.ring.size();
    const size_t it = static_cast<size_t>(at - rt.ring.begin()), ib = static_cast<size_t>(bt - rb.ring.begin());
    std::vector<uint32_t> ring;
    ring.reserve(nt + nb);
    for (size_t k = 1; k < nt; ++k)
        ring.push_back(rt.ring[(it + k) % nt]);
    for (size_t k = 1; k < nb; ++k)
        ring.push_back(rb.ring[(ib + k) % nb]);
    removeRepeats(ring);
    rt.ring = std::move(ring);
    for (uint32_t fl : rb.floors)
        if (!contains(rt.floors, fl))
            rt.floors.push_back(fl);
    rt.spans += rb.spans;

    // Every neighbour and floor of b now meets t instead.
    auto rename = [&](std::vector<uint32_t>& v) {
        for (uint32_t& x : v)
            if (x == b)
                x = t;
    };
    for (uint32_t n : rb.ring)
        if (n != 0 && n != t)
        {
            rename(regs[n].ring);
            removeRepeats(regs[n].ring);
        }
    for (uint32_t fl : rb.floors)
    {
        std::vector<uint32_t>& v = regs[fl].floors;
        v.erase(std::remove(v.begin(), v.end(), b), v.end());
        if (!contains(v, t))
            v.push_back(t);
    }
    rb.spans = 0;
    rb.into = t;
    rb.ring.clear();
    rb.floors.clear();
}

/// Recast's `mergeAndFilterRegions` over the monotone regions. First, islands
/// (regions joined through their rings) with fewer than `minCells` spans in
/// all are dropped. Then, when `mergeCells` > 0, a region smaller than that,
/// or one that touches no unwalkable border, joins its smallest neighbour that
/// it meets along one stretch, until no region can. The union of two simply
/// connected regions glued along one stretch is simply connected, so outlines
/// stay free of holes. `regs` holds every region's record as the sweep noted
/// it (noteColumn); the rings are walked here, once every span has its region.
void mergeAndFilterRegions(OpenField& f, std::vector<RegionRecord>& regs, uint32_t minCells, uint32_t mergeCells)
{
    const uint32_t count = f.regionCount;
    for (uint32_t r = 1; r <= count; ++r)
        walkRing(f, r, regs[r].start, regs[r].startColumn, regs[r].ring);

    if (minCells > 1)
    {
        // Islands: union–find over the rings, spans summed per island.
        std::vector<uint32_t> island(count + 1);
        for (uint32_t r = 0; r <= count; ++r)
            island[r] = r;
        auto find = [&](uint32_t x) {
            while (island[x] != x)
            {
                island[x] = island[island[x]];
                x = island[x];
            }
            return x;
        };
        for (uint32_t r = 1; r <= count; ++r)
            for (uint32_t n : regs[r].ring)
                if (n != 0)
                {
                    const uint32_t a = find(r), b = find(n);
                    if (a != b)
                        island[std::max(a, b)] = std::min(a, b);
                }
        std::vector<uint64_t> islandSpans(count + 1, 0);
        for (uint32_t r = 1; r <= count; ++r)
            islandSpans[find(r)] += regs[r].spans;
        for (uint32_t r = 1; r <= count; ++r)
            if (islandSpans[find(r)] < minCells)
            {
                regs[r].dropped = true;
                regs[r].spans = 0;
            }
    }

    for (bool merged = mergeCells > 0; merged;)
    {
        merged = false;
        for (uint32_t r = 1; r <= count; ++r)
        {
            RegionRecord& rec = regs[r];
            if (rec.spans == 0 || rec.stacked)
                continue;
            if (rec.spans > mergeCells && contains(rec.ring, 0u))
                continue;
            uint32_t best = 0;
            uint32_t bestSpans = UINT32_MAX;
            for (uint32_t n : rec.ring)
            {
                if (n == 0 || regs[n].stacked || regs[n].spans >= bestSpans)
                    continue;
                if (canMerge(rec, regs[n], n) && canMerge(regs[n], rec, r))
                {
                    best = n;
                    bestSpans = regs[n].spans;
                }
            }
            if (best == 0)
                continue;
            absorb(regs, best, r);
            merged = true;
        }
    }

    // Number the survivors 1.. in order and relabel the spans.
    std::vector<uint32_t> newId(count + 1, 0);
    uint32_t next = 0;
    for (uint32_t r = 1; r <= count; ++r)
        if (regs[r].into == 0 && !regs[r].dropped)
            newId[r] = ++next;
    for (uint32_t r = 1; r <= count; ++r)
    {
        uint32_t t = r;
        while (regs[t].into != 0)
            t = regs[t].into;
        newId[r] = newId[t];
    }
    // A live region's survivor is live, so id 0 marks the spans of dropped
    // islands (and those of no region, whose area is null already): one
    // look-up in newId per span instead of a second in the records.
    // Local pointers: a byte store may alias anything, and would have the
    // vectors' pointers reloaded every span.
    uint32_t* region = f.region.data();
    uint8_t* area = f.area.data();
    const uint32_t* idOf = newId.data();
    const size_t n = f.region.size();
    for (size_t i = 0; i < n; ++i)
    {
        const uint32_t id = idOf[region[i]];
        if (id == 0)
            area[i] = kNullArea;
        region[i] = id;
    }
    f.regionCount = next;
}

} // namespace

void buildRegions(OpenField& ioField, const CellSettings& cells)
{
    OpenField& f = ioField;
    const Grid& g = f.grid;
    uint32_t regionCount = 0;

    // Scratch per row: sweeps, and per previous-row region the number of links into it.
    std::vector<uint32_t> sweepNeighbour;
    std::vector<uint32_t> sweepLinks;
    std::vector<uint32_t> sweepRegion;
    std::vector<uint32_t> linksInto(1, 0);
    std::vector<uint32_t> touched;
    const bool merge = cells.minRegionCells > 1 || cells.mergeRegionCells > 0;
    std::vector<RegionRecord> regs(1); // the merge's, one per region id
    // The sweep reads the field through local pointers (a byte store may
    // alias anything, and would have the vectors' pointers reloaded) and
    // steps between columns by their index.
    const uint32_t* cellFirst = f.cellFirst.data();
    const uint32_t* used = f.usedColumns.data();
    const uint32_t* con = f.con.data();
    const uint8_t* area = f.area.data();
    uint32_t* region = f.region.data();
    const int64_t width = g.width;
    // Per run of the row: its spans, its first span and that span's column.
    std::vector<uint32_t> sweepSpans;
    std::vector<std::pair<uint32_t, uint32_t>> sweepFirst;
    std::vector<uint32_t> stackedColumns; // the row's columns of several spans, for the merge's records
    sweepNeighbour.reserve(static_cast<size_t>(g.width));
    sweepLinks.reserve(static_cast<size_t>(g.width));
    sweepRegion.reserve(static_cast<size_t>(g.width));

    for (int z = 0; z < g.depth; ++z)
    {
        sweepNeighbour.clear();
        sweepLinks.clear();
        sweepSpans.clear();
        sweepFirst.clear();
        stackedColumns.clear();
        touched.clear();
        for (uint32_t k = f.rowStart[static_cast<size_t>(z)]; k < f.rowStart[static_cast<size_t>(z) + 1]; ++k)
        {
            const uint32_t c = used[k];
            const uint32_t first = cellFirst[c];
            const uint32_t last = cellFirst[c + 1];
            if (merge && last - first > 1)
                stackedColumns.push_back(c);
            for (uint32_t i = first; i < last; ++i)
            {
                const uint8_t here = area[i];
                if (here == kNullArea)
                {
                    region[i] = 0; // every span is visited here: no pass that clears them first
                    continue;
                }
                const uint32_t links = con[i];
                // Continue the run of the -x neighbour, or open a new one.
                uint32_t sweep = UINT32_MAX;
                const uint32_t toA = connectionIn(links, 0);
                if (toA != kNoConnection)
                {
                    const uint32_t a = cellFirst[c - 1] + toA;
                    if (area[a] == here && region[a] != 0)
                        sweep = region[a] - 1;
                }
                if (sweep == UINT32_MAX)
                {
                    sweep = static_cast<uint32_t>(sweepNeighbour.size());
                    sweepNeighbour.push_back(0);
                    sweepLinks.push_back(0);
                    sweepSpans.push_back(0);
                    sweepFirst.emplace_back(i, c);
                }
                region[i] = sweep + 1; // sweep id while the row is open
                ++sweepSpans[sweep];

                // Link to the row behind.
                const uint32_t toB = connectionIn(links, 3);
                if (toB == kNoConnection)
                    continue;
                const uint32_t b = cellFirst[c - width] + toB;
                if (area[b] != here)
                    continue;
                const uint32_t r = region[b];
                if (r == 0)
                    continue;
                if (sweepNeighbour[sweep] == 0 || sweepNeighbour[sweep] == r)
                {
                    sweepNeighbour[sweep] = r;
                    ++sweepLinks[sweep];
                    if (linksInto[r] == 0)
                        touched.push_back(r);
                    ++linksInto[r];
                }
                else
                {
                    sweepNeighbour[sweep] = kManyRegions;
                }
            }
        }

        // Each run takes its neighbour's region when it alone links to it.
        // The merge's records take the runs here, not in one more pass over
        // every span: a region's first span (where its ring's walk starts)
        // is the first of the run that opens it, as a region has one run a row.
        sweepRegion.resize(sweepNeighbour.size());
        for (size_t s = 0; s < sweepNeighbour.size(); ++s)
        {
            const uint32_t r = sweepNeighbour[s];
            if (r != 0 && r != kManyRegions && linksInto[r] == sweepLinks[s])
            {
                sweepRegion[s] = r;
                if (merge)
                    regs[r].spans += sweepSpans[s];
            }
            else
            {
                sweepRegion[s] = ++regionCount;
                linksInto.push_back(0);
                if (merge)
                {
                    RegionRecord& rec = regs.emplace_back();
                    rec.spans = sweepSpans[s];
                    rec.start = sweepFirst[s].first;
                    rec.area = area[rec.start];
                    rec.startColumn = sweepFirst[s].second;
                }
            }
        }
        for (uint32_t r : touched)
            linksInto[r] = 0;

        const uint32_t* sweepToRegion = sweepRegion.data();
        const SpanRange row = rowSpans(f, z);
        for (uint32_t i = row.first; i < row.last; ++i)
            if (region[i] != 0)
                region[i] = sweepToRegion[region[i] - 1];
        for (const uint32_t c : stackedColumns)
            noteStacked(f, cellFirst[c], cellFirst[c + 1], regs);
    }
    f.regionCount = regionCount;
    if (merge && regionCount > 0)
        mergeAndFilterRegions(f, regs, static_cast<uint32_t>(std::max(cells.minRegionCells, 0)),
                              static_cast<uint32_t>(cells.mergeRegionCells));
}

} // namespace spark::nav::bake
