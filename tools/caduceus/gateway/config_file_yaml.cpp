#include "config_file.hpp"

#include "../failure.hpp"

#include <yaml-cpp/yaml.h>

namespace caduceus::gateway {

namespace {

// One option's words for a scalar value.
void add_option(std::vector<std::string>& words, const std::string& name, const YAML::Node& value) {
  if (!value.IsScalar()) throw usage_error("--config: '" + name + "' must be a value or a list of values");
  const auto& text = value.Scalar();
  if (text == "false") return;
  words.push_back("--" + name);
  if (text != "true") words.push_back(text);
}

// An option's words: once, or once per item of a list.
void add_options(std::vector<std::string>& words, const std::string& name, const YAML::Node& value) {
  if (!value.IsSequence()) return add_option(words, name, value);
  for (const auto& item : value) add_option(words, name, item);
}

}  // namespace

std::vector<std::string> config_arguments(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw usage_error("--config: cannot read " + path + ": " + e.what());
  }
  if (root.IsNull()) return {};
  if (!root.IsMap()) throw usage_error("--config: " + path + " must be a mapping of options to values");
  std::vector<std::string> words;
  // The gateway's own options first: the upstreams' come after them, each
  // after its --upstream.
  for (const auto& entry : root) {
    const auto name = entry.first.as<std::string>();
    if (name == "config") throw usage_error("--config: a configuration file cannot name another");
    if (name != "upstreams") add_options(words, name, entry.second);
  }
  if (const auto upstreams = root["upstreams"]) {
    if (!upstreams.IsMap())
      throw usage_error("--config: 'upstreams' must be a mapping of names to their options");
    for (const auto& upstream : upstreams) {
      if (!upstream.second.IsMap())
        throw usage_error("--config: upstream '" + upstream.first.as<std::string>() + "' must be a mapping of options");
      words.push_back("--upstream");
      words.push_back(upstream.first.as<std::string>());
      for (const auto& entry : upstream.second) add_options(words, entry.first.as<std::string>(), entry.second);
    }
  }
  return words;
}

}  // namespace caduceus::gateway
