// The everything demo: every server feature of the high-level API on one
// mcp::server. everything-server and `caduceus serve-demo` serve it; the
// benchmarks and the interop tests drive it, so its contract is fixed:
// tools echo, add, long_task, sample, confirm, list_roots, emit_logs, media,
// toggle_bonus, touch, fail; resources demo://readme, demo://logo.png and
// demo://items/1..25; the template demo://users/{id}; prompts greeting and
// with_image; completions for greeting's style and the template's id.

#include "everything_demo.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace asio = boost::asio;
namespace json = boost::json;

namespace demo {

namespace {

// A 1x1 PNG and a tiny WAV, base64.
constexpr const char* png =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
constexpr const char* wav = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

struct long_task_args {
  int steps = 5;
  int step_ms = 100;
};
BOOST_DESCRIBE_STRUCT(long_task_args, (), (steps, step_ms))

inline auto mcp_fields(mcp::type_t<long_task_args>) {
  return std::tuple{mcp::field(&long_task_args::steps, "How many steps").range(1, 1000),
                    mcp::field(&long_task_args::step_ms, "Milliseconds per step").range(0, 60000)};
}

struct prompt_args {
  std::string prompt;
};
BOOST_DESCRIBE_STRUCT(prompt_args, (), (prompt))

struct question_args {
  std::string question;
};
BOOST_DESCRIBE_STRUCT(question_args, (), (question))

struct uri_args {
  std::string uri;
};
BOOST_DESCRIBE_STRUCT(uri_args, (), (uri))

// Shortest text that reads back as the same number: 5, 5.5, 0.1.
std::string format_number(double value) {
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

std::vector<std::string> starting_with(std::vector<std::string> candidates, std::string_view prefix) {
  std::erase_if(candidates, [&](const std::string& c) { return !c.starts_with(prefix); });
  return candidates;
}

using contents = std::vector<mcp::resource_contents>;

}  // namespace

void add_tools(mcp::server& srv) {
  // Quick and never blocking: they run inline, not on the worker pool.
  srv.add_tool("echo", "Echoes the text back", mcp::non_blocking([](const echo_args& a) { return a.text; }));

  mcp::tool_info add{"add", "Adds two numbers"};
  add.output_schema = mcp::schema_of<sum_result>();
  srv.add_tool(add, mcp::non_blocking([](const add_args& a) {
    const double sum = a.a + a.b;
    auto result = mcp::call_tool_result::text(format_number(sum));
    result.structured_content = mcp::to_json_value(sum_result{sum});
    return result;
  }));

  srv.add_tool("long_task", "Works in steps, reporting progress; cancellable",
               [](long_task_args a, mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 asio::steady_timer timer(co_await asio::this_coro::executor);
                 for (int step = 1; step <= a.steps; ++step) {
                   timer.expires_after(std::chrono::milliseconds(a.step_ms));
                   co_await timer.async_wait(asio::use_awaitable);  // aborted on cancellation
                   co_await ctx.progress(step, a.steps, "step " + std::to_string(step));
                 }
                 co_return "completed " + std::to_string(a.steps) + " steps";
               });

  srv.add_tool("sample", "Asks the client's model",
               [](prompt_args a, mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 json::object message{{"role", "user"}, {"content", mcp::content::text(a.prompt)}};
                 json::object params{{"messages", json::array{std::move(message)}}, {"maxTokens", 100}};
                 auto reply = co_await ctx.sample(std::move(params));
                 const auto* text = reply.at("content").as_object().if_contains("text");
                 co_return "LLM said: " + std::string(text ? text->as_string() : "(no text)");
               });

  srv.add_tool("confirm", "Asks the user to confirm",
               [](question_args a, mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 json::object schema{{"type", "object"},
                                     {"properties", {{"confirm", {{"type", "boolean"}}}}},
                                     {"required", json::array{"confirm"}}};
                 auto answer = co_await ctx.elicit(a.question, std::move(schema));
                 std::string text = "action=" + std::string(answer.at("action").as_string());
                 if (const auto* content = answer.if_contains("content"))
                   if (const auto* confirm = content->as_object().if_contains("confirm"))
                     text += std::string(", confirm=") + (confirm->as_bool() ? "true" : "false");
                 co_return text;
               });

  srv.add_tool("list_roots", "Lists the client's roots",
               [](mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 auto roots = co_await ctx.roots();
                 co_return json::serialize(roots);
               });

  srv.add_tool("emit_logs", "Logs one message at every level",
               [](mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 for (int level = 0; level <= static_cast<int>(mcp::logging_level::emergency); ++level) {
                   const auto l = static_cast<mcp::logging_level>(level);
                   json::value data(to_string(l));
                   co_await ctx.log(l, std::move(data), "everything");
                 }
                 co_return "emitted";
               });

  srv.add_tool("media", "Returns every kind of content", [] {
    mcp::call_tool_result r;
    r.content = json::array{mcp::content::image(png, "image/png"), mcp::content::audio(wav, "audio/wav"),
                            mcp::content::resource_link("demo://readme", "readme", "text/markdown"),
                            mcp::content::embedded_text("demo://inline", "inline text", "text/plain")};
    return r;
  });

  srv.add_tool("toggle_bonus", "Adds or removes the bonus tool", [&srv] {
    if (srv.remove_tool("bonus")) return std::string("bonus removed");
    srv.add_tool("bonus", "A tool that comes and goes", [] { return std::string("bonus!"); });
    return std::string("bonus added");
  });

  srv.add_tool("touch", "Tells subscribers that a resource changed", [&srv](const uri_args& a) {
    srv.notify_resource_updated(a.uri);
    return std::string("touched ") + a.uri;
  });

  srv.add_tool("fail", "Always fails", []() -> std::string { throw std::runtime_error("this tool always fails"); });
}

void add_resources(mcp::server& srv) {
  srv.add_resource({"demo://readme", "readme", "README", "What this server is", "text/markdown"},
                   [](const std::string& uri, mcp::request_context&) -> asio::awaitable<contents> {
                     co_return contents{mcp::resource_contents::from_text(
                         uri, "# everything-server\nEvery MCP server feature.", "text/markdown")};
                   });
  srv.add_resource({"demo://logo.png", "logo", std::nullopt, "A 1x1 PNG", "image/png"},
                   [](const std::string& uri, mcp::request_context&) -> asio::awaitable<contents> {
                     co_return contents{mcp::resource_contents{uri, "image/png", std::nullopt, png}};
                   });
  for (int n = 1; n <= 25; ++n) {
    const auto uri = "demo://items/" + std::to_string(n);
    srv.add_resource({uri, "item-" + std::to_string(n), std::nullopt, std::nullopt, "text/plain"},
                     [n](const std::string& uri, mcp::request_context&) -> asio::awaitable<contents> {
                       co_return contents{mcp::resource_contents::from_text(uri, "item " + std::to_string(n), "text/plain")};
                     });
  }
  srv.add_resource_template(
      {"demo://users/{id}", "user", std::nullopt, "A user by id", "application/json"},
      [](const std::string& uri, const mcp::uri_variables& vars,
         mcp::request_context&) -> asio::awaitable<contents> {
        const auto& id = vars.at("id");
        json::object user{{"id", id}, {"name", "User " + id}};
        co_return contents{mcp::resource_contents::from_text(uri, json::serialize(user), "application/json")};
      });
  srv.add_template_completion("demo://users/{id}", "id",
                              [](const mcp::completion_request& req,
                                 mcp::request_context&) -> asio::awaitable<std::vector<std::string>> {
                                std::vector<std::string> ids;
                                for (int i = 1; i <= 50; ++i) ids.push_back(std::to_string(i));
                                std::ranges::sort(ids);
                                co_return starting_with(std::move(ids), req.value);
                              });
}

void add_prompts(mcp::server& srv) {
  mcp::prompt_info greeting{"greeting", "Greets someone"};
  greeting.arguments = {{"name", "Who to greet", true}, {"style", "casual, formal or pirate"}};
  srv.add_prompt(greeting, [](const mcp::prompt_arguments& args,
                              mcp::request_context&) -> asio::awaitable<mcp::get_prompt_result> {
    const auto& name = args.at("name");
    const auto style = args.contains("style") ? args.at("style") : std::string("casual");
    const auto text = style == "pirate" ? "Ahoy, " + name + "!"
                      : style == "formal" ? "Good day, " + name + "."
                                          : "Hello, " + name + "!";
    mcp::get_prompt_result result;
    result.messages.push_back({"user", mcp::content::text(text)});
    co_return result;
  });
  srv.add_prompt_completion("greeting", "style",
                            [](const mcp::completion_request& req,
                               mcp::request_context&) -> asio::awaitable<std::vector<std::string>> {
                              co_return starting_with({"casual", "formal", "pirate"}, req.value);
                            });

  srv.add_prompt({"with_image", "Shows an image"},
                 [](const mcp::prompt_arguments&, mcp::request_context&) -> asio::awaitable<mcp::get_prompt_result> {
                   mcp::get_prompt_result result;
                   result.messages.push_back({"user", mcp::content::image(png, "image/png")});
                   result.messages.push_back({"user", mcp::content::text("What is in this image?")});
                   co_return result;
                 });
}

mcp::implementation info() { return {"everything-server", "1.0.0"}; }

mcp::server_options settings() {
  mcp::server_options s;
  s.instructions = "A demo of every MCP server feature.";
  return s;
}

void add_everything(mcp::server& srv) {
  add_tools(srv);
  add_resources(srv);
  add_prompts(srv);
}

}  // namespace demo
