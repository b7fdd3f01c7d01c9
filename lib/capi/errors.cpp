#include "capi/errors.hpp"

#include <new>

#include "chess/position.hpp"
#include "probe/tablebase.hpp"
#include "store/store_error.hpp"

namespace retro::capi {

namespace {

thread_local std::string message;

}  // namespace

retro_status fail(retro_status status, std::string what) {
    try {
        message = std::move(what);
    } catch (...) {
        message.clear();  // no memory for the message: the status still says what happened
    }
    return status;
}

void clear_error() { message.clear(); }

const char* last_error() { return message.c_str(); }

retro_status status_of_current_exception(retro_status bad_position) {
    try {
        throw;
    } catch (const ArgumentError& e) {
        return fail(RETRO_ERR_ARGUMENT, e.what());
    } catch (const PositionError& e) {
        return fail(bad_position, e.what());
    } catch (const TooManyMenError& e) {
        return fail(RETRO_ERR_TOO_MANY_MEN, e.what());
    } catch (const MissingTableError& e) {
        return fail(RETRO_ERR_MISSING_TABLE, e.what());
    } catch (const ProbeError& e) {
        return fail(RETRO_ERR_DIRECTORY, e.what());  // the other kind: Tablebase::open_directory
    } catch (const StoreError& e) {
        return fail(RETRO_ERR_CORRUPTED, e.what());
    } catch (const std::bad_alloc&) {
        return fail(RETRO_ERR_NO_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return fail(RETRO_ERR_INTERNAL, e.what());
    } catch (...) {
        return fail(RETRO_ERR_INTERNAL, "unknown exception");
    }
}

}  // namespace retro::capi
