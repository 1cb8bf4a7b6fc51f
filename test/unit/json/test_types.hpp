#pragma once
// Described types shared by the json/ tests: a tool's arguments, an order with
// nested structs, vectors, a map, a variant and raw JSON, a derived struct,
// and hooks in the style a user writes them.

#include <mcp/json/fields.hpp>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

namespace weather {

enum class units { metric, imperial };
BOOST_DESCRIBE_ENUM(units, metric, imperial)

struct forecast_args {
  std::string city;           // required
  std::optional<units> unit;  // optional
  int days = 1;               // a default of its own
  friend bool operator==(const forecast_args&, const forecast_args&) = default;
};
BOOST_DESCRIBE_STRUCT(forecast_args, (), (city, unit, days))

inline auto mcp_fields(mcp::type_t<forecast_args>) {
  return std::tuple{mcp::field(&forecast_args::city, "City name").min_length(1),
                    mcp::field(&forecast_args::days, "Days ahead").range(1, 7)};
}
inline std::string_view mcp_description(mcp::type_t<forecast_args>) {
  return "Where and how far ahead to forecast";
}

}  // namespace weather

namespace shop {

struct address {
  std::string street;
  std::string city;
  std::optional<std::string> zip;
  friend bool operator==(const address&, const address&) = default;
};
BOOST_DESCRIBE_STRUCT(address, (), (street, city, zip))

inline std::string_view mcp_title(mcp::type_t<address>) { return "Postal address"; }

struct line_item {
  std::string name;
  std::uint32_t quantity = 1;
  double unit_price = 0;
  friend bool operator==(const line_item&, const line_item&) = default;
};
BOOST_DESCRIBE_STRUCT(line_item, (), (name, quantity, unit_price))

struct order {
  std::string id;
  address ship_to;
  std::vector<line_item> items;
  std::map<std::string, std::string> tags;
  std::variant<std::int64_t, std::string> reference;
  bool gift = false;  // equal to bool{}: required unless the hook says otherwise
  std::optional<std::vector<std::string>> notes;
  boost::json::value extra;
  friend bool operator==(const order&, const order&) = default;
};
BOOST_DESCRIBE_STRUCT(order, (), (id, ship_to, items, tags, reference, gift, notes, extra))

inline auto mcp_fields(mcp::type_t<order>) {
  return mcp::fields(mcp::field(&order::id, "Order number").pattern("^[A-Z]{3}-[0-9]+$"),
                     mcp::field(&order::items).min_items(1).max_items(50),
                     mcp::field(&order::tags).not_required(),
                     mcp::field(&order::gift).not_required(),
                     mcp::field(&order::extra, "Anything else").not_required());
}

/// A base with its own hook, and a struct derived from it.
struct stamped {
  std::int64_t created_at = 0;
  std::string author;
  friend bool operator==(const stamped&, const stamped&) = default;
};
BOOST_DESCRIBE_STRUCT(stamped, (), (created_at, author))

inline auto mcp_fields(mcp::type_t<stamped>) {
  return std::tuple{mcp::field(&stamped::created_at, "Seconds since the epoch").minimum(0),
                    mcp::field(&stamped::author, "Who wrote it")};
}

struct comment : stamped {
  std::string text;
  friend bool operator==(const comment&, const comment&) = default;
};
BOOST_DESCRIBE_STRUCT(comment, (stamped), (text))

inline auto mcp_fields(mcp::type_t<comment>) {
  return std::tuple{mcp::field(&comment::author, "Author's handle").not_required(),
                    mcp::field(&comment::text).max_length(280)};
}

/// A wire type whose JSON names differ from its members, with members left
/// out while they hold their defaults.
struct listing {
  std::string display_name;
  std::optional<std::string> mime_type;
  bool is_hidden = false;
  std::vector<std::string> labels;
  stamped stamp;
  boost::json::object meta;
  friend bool operator==(const listing&, const listing&) = default;
};
BOOST_DESCRIBE_STRUCT(listing, (), (display_name, mime_type, is_hidden, labels, stamp, meta))

inline auto mcp_fields(mcp::type_t<listing>) {
  return std::tuple{mcp::field(&listing::display_name).key("displayName"),
                    mcp::field(&listing::mime_type).key("mimeType"),
                    mcp::field(&listing::is_hidden).key("isHidden").omit_if_default(),
                    mcp::field(&listing::labels).omit_if_default(),
                    mcp::field(&listing::stamp).not_required(),
                    mcp::field(&listing::meta).key("_meta").omit_if_default()};
}

}  // namespace shop
