// Where oauth_client keeps registrations and tokens: in memory, or in a file
// only its owner can read (the CLI's, so a login outlives the process).

#include "../../detail/private_file.hpp"
#include "../../protocol/finite_json.hpp"

#include <mcp/client/oauth.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/json/fields.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/serialize.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace mcp {

BOOST_DESCRIBE_STRUCT(oauth_record, (),
                      (issuer, client_id, client_secret, token_endpoint_auth_method, registration, redirect_uris,
                       access_token, token_type, refresh_token, scope, expires_at, dpop_key))

// Files written before DPoP have no dpop_key.
inline auto mcp_fields(type_t<oauth_record>) { return std::tuple{field(&oauth_record::dpop_key).not_required()}; }

namespace {

class memory_store final : public oauth_store {
 public:
  std::optional<oauth_record> load(const std::string& resource) override {
    const auto it = records_.find(resource);
    if (it == records_.end()) return std::nullopt;
    return it->second;
  }
  void save(const std::string& resource, const oauth_record& record) override { records_[resource] = record; }
  void erase(const std::string& resource) override { records_.erase(resource); }

 private:
  std::map<std::string, oauth_record> records_;
};

// The file is read on every load, so that a login by another process (the
// CLI's `login`, then a later command) is seen.
class file_store final : public oauth_store {
 public:
  explicit file_store(std::string path) : path_(std::move(path)) { (void)read(); }

  std::optional<oauth_record> load(const std::string& resource) override {
    auto records = read();
    const auto it = records.find(resource);
    if (it == records.end()) return std::nullopt;
    return it->second;
  }
  void save(const std::string& resource, const oauth_record& record) override {
    auto records = read();
    records[resource] = record;
    write(records);
  }
  void erase(const std::string& resource) override {
    auto records = read();
    if (records.erase(resource) > 0) write(records);
  }

 private:
  using records = std::map<std::string, oauth_record>;

  records read() const {
    std::ifstream in(path_);
    if (!in) {
      if (errno == ENOENT) return {};
      throw std::runtime_error("cannot read " + path_ + ": " + std::strerror(errno));
    }
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().empty()) return {};
    try {
      return from_json<records>(detail::parse_stored_json(text.str()));
    } catch (const std::exception& e) {
      throw std::runtime_error(path_ + " is not a token file: " + e.what());
    }
  }

  void write(const records& all) const { detail::replace_private_file(path_, boost::json::serialize(to_json_value(all))); }

  std::string path_;
};

}  // namespace

std::shared_ptr<oauth_store> make_memory_oauth_store() { return std::make_shared<memory_store>(); }

std::shared_ptr<oauth_store> make_file_oauth_store(std::string path) {
  return std::make_shared<file_store>(std::move(path));
}

}  // namespace mcp
