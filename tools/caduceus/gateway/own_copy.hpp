#pragma once
// JSON that crosses from a session's thread to a link's, or to several
// coroutines at once: a request's values live in its message's arena, which
// only one of them may allocate from at a time (copying a value allocates
// from the memory it lives in). Copied into the heap's memory first, it can
// go anywhere.

#include <boost/json/object.hpp>

namespace caduceus::gateway {

/// `value` copied into memory of its own (the default resource's).
inline boost::json::object own_copy(const boost::json::object& value) {
  return boost::json::object(value, boost::json::storage_ptr());
}

}  // namespace caduceus::gateway
