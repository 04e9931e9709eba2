#pragma once
/// \file symbol.h
/// Interned strings. A `Symbol` stands for one string for the life of the
/// process: interning the same text twice gives the same symbol, so symbols
/// compare by identity, copy as a pointer and allocate nothing. libai interns
/// the strings of a tree when it loads (leaf parameters, literals) and the
/// strings of blackboard values when they are made (value.h); a tick compares
/// and copies symbols, never strings, and hands a host the symbol of a named
/// target (World::findTarget), whose `id()` a host may use as an index.
///
/// Interned text is never freed: a process that makes strings without bound
/// (a blackboard key set to a new name every frame) grows the table without
/// bound. Interning is thread-safe; reading a symbol's text needs no lock.

#include <cstdint>
#include <string>
#include <string_view>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// An interned string (see the file comment). The default symbol is the empty string.
class Symbol
{
  public:
    /// The symbol of `text` (interned on first use).
    static Symbol intern(std::string_view text);

    /// The empty string.
    Symbol() = default;

    /// The text.
    const std::string& name() const { return m_entry ? m_entry->text : emptyText(); }
    /// A small number unique to the text in this process (1, 2, ... in the order
    /// the texts were first interned; 0 for the empty string): a host may keep
    /// what it resolved a name to in an array indexed by it. Never part of a
    /// result: it depends on what the process interned before.
    uint32_t id() const { return m_entry ? m_entry->id : 0; }
    bool empty() const { return m_entry == nullptr; }

    /// Same text.
    friend bool operator==(Symbol a, Symbol b) { return a.m_entry == b.m_entry; }

  private:
    struct Entry
    {
        std::string text;
        uint32_t id = 0;
    };
    explicit Symbol(const Entry* entry) : m_entry(entry) {}

    static const std::string& emptyText();
    const Entry* m_entry = nullptr; ///< Never freed (see the file comment); nullptr: "".
};

} // namespace spark::ai
SPARK_AI_API_END
