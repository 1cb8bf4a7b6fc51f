#include "run_result.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

namespace loadgen {

std::string to_json_line(const run_result& r) {
  namespace json = boost::json;
  json::object out;
  out["sent"] = r.sent;
  out["checked"] = r.checked;
  out["errors"] = r.errors;
  json::array samples;
  for (const auto& problem : r.error_samples) samples.emplace_back(problem);
  out["error_samples"] = std::move(samples);
  out["measured"] = r.measured;
  out["seconds"] = r.seconds;
  out["per_second"] = r.seconds > 0 ? static_cast<double>(r.measured) / r.seconds : 0.0;
  out["p50_us"] = r.p50_us;
  out["p99_us"] = r.p99_us;
  const double count = r.measured > 0 ? static_cast<double>(r.measured) : 1.0;
  if (r.server_cpu_us) out["server_cpu_us_each"] = *r.server_cpu_us / count;
  out["loadgen_cpu_us_each"] = r.loadgen_cpu_us / count;
  out["loadgen_busy"] = r.seconds > 0 ? r.loadgen_cpu_us / (r.seconds * 1e6) : 0.0;
  for (const auto& [name, value] : r.extra) out[name] = value;
  return json::serialize(out);
}

}  // namespace loadgen
