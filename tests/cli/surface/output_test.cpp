#include "surface/output.h"

#include <doctest/doctest.h>

using namespace spark::cli;

TEST_CASE("renderHuman prints keys, short arrays inline and nested objects indented")
{
    const nlohmann::json r = {{"a", 1}, {"p", {1, 2}}, {"o", {{"b", "x"}}}};
    const std::string text = renderHuman(r);
    CHECK(text.find("a: 1\n") != std::string::npos);
    CHECK(text.find("p: [1,2]\n") != std::string::npos);
    CHECK(text.find("o:\n  b: x\n") != std::string::npos);
    CHECK(renderHuman(nlohmann::json::object()) == "ok\n");
}

TEST_CASE("renderHumanError shows the code, each problem path and the hint")
{
    const nlohmann::json e = {{"ok", false},
                              {"error",
                               {{"code", "E_INVALID_PARAMS"},
                                {"message", "2 problems"},
                                {"data", {{"problems", {{{"path", "/a"}, {"message", "bad"}}, {{"path", "/b/0"}, {"message", "worse"}}}}}},
                                {"hint", "see the schema"}}}};
    const std::string text = renderHumanError(e);
    CHECK(text.find("error E_INVALID_PARAMS: 2 problems") == 0);
    CHECK(text.find("at /a: bad") != std::string::npos);
    CHECK(text.find("at /b/0: worse") != std::string::npos);
    CHECK(text.find("hint: see the schema") != std::string::npos);
}
