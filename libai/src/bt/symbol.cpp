// The process's table of interned strings (symbol.h): entries allocated one
// by one and never freed (they never move, so a symbol is a pointer to its
// entry; no container of entries, whose instantiation would be exported
// from the shared library), found by text
// through a hash index (looked up, never iterated). Only interning takes the
// lock: an entry is never changed once made, and a symbol reaches another
// thread only through whatever hands the value over.
#include "spark/ai/symbol.h"

#include <mutex>
#include <unordered_map>

namespace spark::ai
{

const std::string& Symbol::emptyText()
{
    static const std::string* empty = new std::string(); // never destroyed: symbols may be read during exit
    return *empty;
}

Symbol Symbol::intern(std::string_view text)
{
    if (text.empty())
        return Symbol();
    struct Table
    {
        std::mutex mutex;
        uint32_t count = 0;
        std::unordered_map<std::string_view, const Entry*> byText; ///< Keys view the entries' text.
    };
    static Table* table = new Table(); // never destroyed, as emptyText
    std::lock_guard<std::mutex> lock(table->mutex);
    const auto it = table->byText.find(text);
    if (it != table->byText.end())
        return Symbol(it->second);
    const Entry* e = new Entry{std::string(text), ++table->count};
    table->byText.emplace(e->text, e);
    return Symbol(e);
}

} // namespace spark::ai
