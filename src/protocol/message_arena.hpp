#pragma once
// The storage one parsed message lives in.

#include <boost/json/storage_ptr.hpp>

namespace mcp::detail {

/// An arena for one message: every key, string and container of the message
/// in a few blocks, freed together when the message is done. Its first block
/// is reused, per thread, from the messages before: a block of a kilobyte or
/// more costs glibc a merge of its free chunks on every allocation, which was
/// a tenth of serving a quick request. Not thread safe, like any arena.
boost::json::storage_ptr make_message_arena();

}  // namespace mcp::detail
