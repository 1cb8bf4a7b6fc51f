#pragma once
// `caduceus gateway --config FILE`: the options in a YAML file, read as the
// command line would have them, so that the file can say all that the flags
// say and nothing else. (A file of its own, config_file_yaml.cpp, in a build
// with yaml-cpp; config_file_none.cpp refuses the option in one without.)

#include <string>
#include <vector>

namespace caduceus::gateway {

/// The options of a YAML configuration file as command-line words: each key
/// is an option's name without its dashes (`max-sessions: 100` is
/// `--max-sessions 100`), a list gives the option once per item, `true` gives
/// the flag alone and `false` leaves it out. `upstreams` maps names to
/// options of their own: `--upstream NAME` and its options, after the
/// gateway's. Throws usage_error for a file that cannot be read, is not a
/// mapping, or nests deeper.
std::vector<std::string> config_arguments(const std::string& path);

}  // namespace caduceus::gateway
