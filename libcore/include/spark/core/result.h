#pragma once
/// \file result.h
/// Errors as codes with a message, `Status` and `[[nodiscard]] Result<T>`.
/// No exception crosses a library API: a function that can fail on user input
/// returns one of these. Partial answers (a path to the closest point) are
/// successes carrying a flag in their value, not errors.

#include <cassert>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// A coded error. `code` is one of the documented `E_*` codes, `message` says what
/// went wrong in a sentence, `field` is the path of the offending input field (a
/// JSON pointer such as `/agents/3/radius`) when one is to blame, else empty.
struct Error
{
    std::string code;    ///< Error code, e.g. `E_NAV_OFF_MESH`.
    std::string message; ///< Human-readable sentence.
    std::string field;   ///< JSON pointer of the bad input field, or empty.
    std::string hint;    ///< Optional suggestion for the fix, or empty.
};

/// Builds an `Error`.
inline Error makeError(std::string code, std::string message, std::string field = {}, std::string hint = {})
{
    return Error{std::move(code), std::move(message), std::move(field), std::move(hint)};
}

/// Success, or an `Error`. A success is one null pointer (checks on hot paths
/// return it cheaply); the error lives on the heap.
class [[nodiscard]] Status
{
public:
    /// A success.
    Status() = default;
    /// A failure.
    Status(Error error) : m_error(std::make_unique<Error>(std::move(error))) {}
    Status(const Status& other) : m_error(other.m_error ? std::make_unique<Error>(*other.m_error) : nullptr) {}
    Status(Status&&) noexcept = default;
    Status& operator=(const Status& other)
    {
        if (this != &other)
            m_error = other.m_error ? std::make_unique<Error>(*other.m_error) : nullptr;
        return *this;
    }
    Status& operator=(Status&&) noexcept = default;
    ~Status() = default;

    /// A success.
    static Status success() { return Status(); }

    /// True on success.
    bool ok() const { return !m_error; }
    explicit operator bool() const { return ok(); }
    /// The error. Only valid when `!ok()`.
    const Error& error() const
    {
        assert(m_error);
        return *m_error;
    }

private:
    std::unique_ptr<Error> m_error;
};

/// A value of type `T`, or an `Error`.
template <class T> class [[nodiscard]] Result
{
public:
    Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}
    Result(Status status) : m_data(std::in_place_index<1>, status.error()) { assert(!status.ok()); }

    /// True when a value is held.
    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() &
    {
        assert(ok());
        return std::get<0>(m_data);
    }
    const T& value() const&
    {
        assert(ok());
        return std::get<0>(m_data);
    }
    T&& value() &&
    {
        assert(ok());
        return std::get<0>(std::move(m_data));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    /// The error. Only valid when `!ok()`.
    const Error& error() const
    {
        assert(!ok());
        return std::get<1>(m_data);
    }
    /// The status of this result (drops the value).
    Status status() const { return ok() ? Status() : Status(error()); }

private:
    std::variant<T, Error> m_data;
};

} // namespace spark

/// Returns the error of a failed `Status`/`Result` expression from the enclosing function.
#define SPARK_TRY(expr)                                                                                      \
    do                                                                                                       \
    {                                                                                                        \
        auto&& sparkTryValue_ = (expr);                                                                      \
        if (!sparkTryValue_.ok())                                                                            \
            return sparkTryValue_.error();                                                                   \
    } while (false)
SPARK_CORE_API_END
