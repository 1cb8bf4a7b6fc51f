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
  for (const auto& entry : root) {
    const auto name = entry.first.as<std::string>();
    if (name == "config") throw usage_error("--config: a configuration file cannot name another");
    if (entry.second.IsSequence()) {
      for (const auto& item : entry.second) add_option(words, name, item);
    } else {
      add_option(words, name, entry.second);
    }
  }
  return words;
}

}  // namespace caduceus::gateway
