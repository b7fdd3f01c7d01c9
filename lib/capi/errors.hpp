// No C++ exception crosses the C API: each call runs in guarded(), which turns what it throws into a
// status and keeps the message for retro_last_error() on the calling thread.
#pragma once

#include <stdexcept>
#include <string>

#include "retrograde.h"

namespace retro::capi {

// A null pointer or a value out of range passed by the caller.
class ArgumentError : public std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The status of the exception being handled; a PositionError means bad_position (a bad FEN or bad
// bitboards, as the entry point knows).
retro_status status_of_current_exception(retro_status bad_position);
// Records message as this thread's last error and returns status.
retro_status fail(retro_status status, std::string message);
// Clears this thread's last error (every call starts with it).
void clear_error();
const char* last_error();

template <class Call>
retro_status guarded(retro_status bad_position, Call&& call) noexcept {
    try {
        clear_error();
        return call();
    } catch (...) {
        return status_of_current_exception(bad_position);
    }
}

// *p, or ArgumentError naming the argument when p is null.
template <class T>
T& required(T* p, const char* name) {
    if (!p) throw ArgumentError(std::string(name) + " is null");
    return *p;
}

}  // namespace retro::capi
