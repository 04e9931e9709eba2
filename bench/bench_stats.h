#pragma once
// Timing and statistics shared by the benchmark programs: thread CPU time
// (what one side of a comparison costs, not the machine's other load) and the
// median / mean / spread of repeats. Medians, never minima (DEVELOPERS.md).

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace spark::bench
{

/// Thread CPU time. [Units: s]
inline double threadSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Minor page faults taken by this thread so far: first touches of fresh
/// memory, which cost the bakes more than their instructions on some machines.
inline long threadMinorFaults()
{
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt;
}

/// Median (mean of the middle two for an even count; 0 when empty).
inline double median(std::vector<double> v)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Arithmetic mean (0 when empty).
inline double mean(const std::vector<double>& v)
{
    double s = 0.0;
    for (double x : v)
        s += x;
    return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

/// (max − min) / median, in percent: how much the repeats spread.
inline double spreadPercent(const std::vector<double>& v)
{
    if (v.size() < 2)
        return 0.0;
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return 100.0 * (*hi - *lo) / std::max(1e-300, median(v));
}

/// The `totals:` (or `summary:`) count of a callgrind output file; -1 when absent.
inline long long callgrindTotal(const std::string& file)
{
    std::ifstream in(file);
    std::string line;
    long long total = -1;
    while (std::getline(in, line))
        if (line.rfind("totals:", 0) == 0 || (total < 0 && line.rfind("summary:", 0) == 0))
            total = std::atoll(line.c_str() + line.find(':') + 1);
    return total;
}

/// The text after `prefix` when the command-line argument `arg` starts with
/// it (`--repeats=` in `--repeats=5` gives "5"), else nullptr.
inline const char* optionValue(const std::string& arg, const char* prefix)
{
    const size_t n = std::char_traits<char>::length(prefix);
    return arg.compare(0, n, prefix) == 0 ? arg.c_str() + n : nullptr;
}

/// The integers of a comma-separated list ("100,1000"); a piece that is not a
/// number reads as 0 (as atoi), so the caller's range check rejects it.
inline std::vector<int> intList(const std::string& text)
{
    std::vector<int> out;
    for (size_t at = 0; at < text.size();)
    {
        const size_t comma = std::min(text.find(',', at), text.size());
        out.push_back(std::atoi(text.substr(at, comma - at).c_str()));
        at = comma + 1;
    }
    return out;
}

} // namespace spark::bench
