#pragma once
/// \file test_runner.h
/// `spark test PATH...`: runs `.test.json` files
/// `{"version": 1, "name", "tests": [{"name", "scenario": PATH} | {"name", "steps": [...]}]}`
/// (a folder: every `*.test.json` below it, in path order). Each test runs in a
/// fresh session with results checked against their schemas; one line per test,
/// then `N passed, N failed` alone on the last line.

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace spark::cli
{

struct TestRunOptions
{
    std::vector<std::string> paths;          ///< Files or folders, relative to the project.
    std::filesystem::path projectRoot = "."; ///< Root of every path.
    bool updateGoldens = false;              ///< Write goldens instead of comparing.
    std::string junitPath;                   ///< Write a JUnit XML report here when set.
    /// Write one recording per test into this folder (relative to the project) when set:
    /// `<file stem>-<test number>.rec.gz`, test numbers from 1 in file order.
    std::string recordDir;
    /// "I/N": run only shard I of N (0 <= I < N <= 1000): the tests whose id
    /// (`FILE :: NAME`, FILE relative to the project) hashes (XXH3-64) to I mod
    /// N, so a test keeps its shard when others are added or removed.
    std::string shard;
    bool list = false; ///< Print the selected tests' ids instead of running them.
};

/// The shard (0..count-1) of the test with id `id` among `count` shards.
uint32_t testShard(const std::string& id, uint32_t count);

/// Runs the tests; returns the exit code (0 all passed, 1 any failed, 2 nothing to run / bad usage).
int runTests(const TestRunOptions& options, std::ostream& out, std::ostream& err);

} // namespace spark::cli
