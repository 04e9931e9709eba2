#include "spark/core/path.h"

#include <doctest/doctest.h>

#include <filesystem>

using namespace spark;
namespace fs = std::filesystem;

TEST_CASE("resolveInProject keeps paths inside the project and refuses the rest with E_PATH")
{
    const fs::path root = fs::temp_directory_path() / "spark_path_test";
    fs::create_directories(root / "sub");
    auto inside = resolveInProject(root, "sub/a.json");
    REQUIRE(inside.ok());
    CHECK(inside->filename() == "a.json");
    CHECK(resolveInProject(root, "sub/../b.json").ok());
    for (const char* bad : {"../x.json", "sub/../../x.json", "/etc/passwd", ""})
    {
        auto r = resolveInProject(root, bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "E_PATH");
    }
    std::string withNul("a\0b", 3);
    CHECK_FALSE(resolveInProject(root, withNul).ok());
}

TEST_CASE("a symbolic link that leads out of the project is refused")
{
    const fs::path root = fs::temp_directory_path() / "spark_path_test_link";
    fs::remove_all(root);
    fs::create_directories(root);
    std::error_code ec;
    fs::create_directory_symlink("/tmp", root / "out", ec);
    REQUIRE_FALSE(ec);
    auto r = resolveInProject(root, "out/file.json");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "E_PATH");
    fs::remove_all(root);
}

TEST_CASE("readTextFile and writeTextFile round-trip; a missing file is E_IO")
{
    const fs::path p = fs::temp_directory_path() / "spark_path_test_rw" / "deep" / "f.txt";
    REQUIRE(writeTextFile(p, "hello\n").ok());
    auto text = readTextFile(p);
    REQUIRE(text.ok());
    CHECK(text.value() == "hello\n");
    auto missing = readTextFile(p.parent_path() / "none.txt");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == "E_IO");
}
