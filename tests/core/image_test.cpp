#include "spark/core/image.h"

#include <doctest/doctest.h>

#include <filesystem>

using namespace spark;

TEST_CASE("PNG encode then decode gives the same pixels")
{
    Image img = makeImage(7, 5, 0x102030ffu);
    img.rgba[4 * 3 + 1] = 200;
    auto bytes = encodePng(img);
    REQUIRE(bytes.ok());
    auto back = decodePng(bytes.value());
    REQUIRE(back.ok());
    CHECK(back->width == 7);
    CHECK(back->height == 5);
    CHECK(back->rgba == img.rgba);
}

TEST_CASE("decodePng refuses bytes that are not a PNG with E_FORMAT")
{
    auto r = decodePng({1, 2, 3, 4, 5});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "E_FORMAT");
}

TEST_CASE("readPng of a missing file is E_IO; writePng then readPng round-trips")
{
    auto missing = readPng("/nonexistent/dir/x.png");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == "E_IO");
    const auto path = std::filesystem::temp_directory_path() / "spark_core_image_test.png";
    Image img = makeImage(3, 3, 0xff00ffffu);
    REQUIRE(writePng(path, img).ok());
    auto back = readPng(path);
    REQUIRE(back.ok());
    CHECK(back->rgba == img.rgba);
    std::filesystem::remove(path);
}

TEST_CASE("compareImages applies the 2/255 tolerance on at most 0.1 % of the pixels")
{
    Image a = makeImage(100, 100, 0x808080ffu); // 10,000 pixels: 10 may differ
    Image b = a;
    b.rgba[0] = 130; // within tolerance
    auto d = compareImages(a, b);
    CHECK(d.equal);
    CHECK(d.differing == 0);
    CHECK(d.worst == 2);
    for (int i = 0; i < 10; ++i)
        b.rgba[static_cast<size_t>(i) * 4 + 1] = 0;
    d = compareImages(a, b);
    CHECK(d.equal);
    CHECK(d.differing == 10);
    b.rgba[40 * 4 + 2] = 0;
    d = compareImages(a, b);
    CHECK_FALSE(d.equal);
    CHECK(d.differing == 11);
    CHECK(d.worst == 128);
    CHECK(d.diff.rgba[40 * 4] == 255);
    Image c = makeImage(10, 10);
    d = compareImages(a, c);
    CHECK_FALSE(d.equal);
    CHECK(d.sizeMismatch);
}
