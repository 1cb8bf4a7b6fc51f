// Validation of tool arguments (and of a structured result) against the
// schemas derived from the everything demo's argument structs, as the server
// does on every tools/call.

#include <mcp/json/schema.hpp>
#include <mcp/json/validate.hpp>

#include <benchmark/benchmark.h>

#include "everything_demo.hpp"

namespace {

using demo::add_args;
using demo::echo_args;
using demo::sum_result;

template <class Schema>
void validate(benchmark::State& state, const mcp::json::value& instance) {
  const mcp::schema_validator validator(mcp::schema_of<Schema>());
  for (auto _ : state) {
    auto errors = validator.validate(instance);
    benchmark::DoNotOptimize(errors);
  }
}

void validate_echo_arguments(benchmark::State& state) {
  validate<echo_args>(state, mcp::json::object{{"text", "bench 42"}});
}
BENCHMARK(validate_echo_arguments);

void validate_add_arguments(benchmark::State& state) {
  validate<add_args>(state, mcp::json::object{{"a", 2}, {"b", 3.5}});
}
BENCHMARK(validate_add_arguments);

void validate_add_result(benchmark::State& state) {
  validate<sum_result>(state, mcp::json::object{{"sum", 5.5}});
}
BENCHMARK(validate_add_result);

void validate_wrong_arguments(benchmark::State& state) {  // the error path: one message built
  validate<add_args>(state, mcp::json::object{{"a", "two"}});
}
BENCHMARK(validate_wrong_arguments);

}  // namespace
