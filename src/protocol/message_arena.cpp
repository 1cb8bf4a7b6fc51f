#include "message_arena.hpp"

#include <boost/json/monotonic_resource.hpp>

#include <cstddef>
#include <memory>
#include <type_traits>

namespace mcp::detail {

namespace {

constexpr std::size_t block_size = 4096;  // a tools/call and its result fit in one
constexpr std::size_t kept_blocks = 8;    // per thread: messages alive at once on it, mostly one

struct block {
  alignas(std::max_align_t) unsigned char bytes[block_size];
};

// The free first blocks of one thread. (A thread's last messages may be
// destroyed after its cache: they then free their block themselves.)
thread_local bool cache_gone = false;

struct block_cache {
  std::unique_ptr<block> free[kept_blocks];
  std::size_t count = 0;
  ~block_cache() { cache_gone = true; }
};
thread_local block_cache cache;

// Under a sanitizer every block comes from the allocator and goes back to
// it: a recycled block would hide a use after free from AddressSanitizer,
// and ThreadSanitizer would see a block's next message race the last reads
// of its previous one on another thread, whose owner let go inside the
// uninstrumented libboost_json.so (test/tsan.supp).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool recycle_blocks = false;
#elif defined(__has_feature)
constexpr bool recycle_blocks = !(__has_feature(address_sanitizer) || __has_feature(thread_sanitizer));
#else
constexpr bool recycle_blocks = true;
#endif

std::unique_ptr<block> take_block() {
  // (Not zeroed: the arena writes a block before it reads it.)
  if (!recycle_blocks || cache_gone || cache.count == 0) return std::make_unique_for_overwrite<block>();
  return std::move(cache.free[--cache.count]);
}

void give_back(std::unique_ptr<block> b) {
  if (recycle_blocks && !cache_gone && cache.count < kept_blocks) cache.free[cache.count++] = std::move(b);
}

// Owns the first block.
struct first_block {
  std::unique_ptr<block> taken = take_block();
  ~first_block() { give_back(std::move(taken)); }
};

}  // namespace

// A monotonic_resource over a recycled first block. (monotonic_resource is
// final: this wraps one.)
class message_arena final : public boost::json::memory_resource {
 private:
  void* do_allocate(std::size_t n, std::size_t align) override { return arena_.allocate(n, align); }
  void do_deallocate(void*, std::size_t, std::size_t) override {}
  bool do_is_equal(const memory_resource& other) const noexcept override { return this == &other; }

  first_block first_;  // declared first, so destroyed after the arena that uses it
  boost::json::monotonic_resource arena_{first_.taken->bytes, block_size};
};

}  // namespace mcp::detail

// As for monotonic_resource: values in the arena are freed with it, so their
// destructors need not walk them.
template <>
struct boost::json::is_deallocate_trivial<mcp::detail::message_arena> : std::true_type {};

namespace mcp::detail {

boost::json::storage_ptr make_message_arena() { return boost::json::make_shared_resource<message_arena>(); }

}  // namespace mcp::detail
