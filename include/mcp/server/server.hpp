#pragma once
// The high-level server: registries of tools, resources, resource templates,
// prompts and completions, serving every server feature of the spec. It is
// one implementation of server_behaviour; serve it with mcp::serve or
// mcp::run_stdio_server like any other.

#include <mcp/export.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/json/schema.hpp>
#include <mcp/server/behaviour.hpp>
#include <mcp/server/content.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/server/skills.hpp>
#include <mcp/server/task_store.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// A tool handler on raw JSON: receives the `arguments` object (already
/// validated against the input schema) and the request's context.
using tool_handler =
    std::function<asio::awaitable<call_tool_result>(const json::object& arguments, request_context& ctx)>;

namespace detail {
/// A typed tool's handler that finishes without waiting (a non_blocking plain
/// function), run where its request arrives.
using tool_handler_at_once =
    std::function<call_tool_result(const json::object& arguments, request_context& ctx)>;
}  // namespace detail

/// A resource handler: returns the contents of `uri` for `resources/read`.
using resource_handler =
    std::function<asio::awaitable<std::vector<resource_contents>>(const std::string& uri, request_context& ctx)>;

/// Variables a URI bound in a template, percent-decoded.
using uri_variables = std::map<std::string, std::string, std::less<>>;

/// A resource template handler: returns the contents of `uri`, which
/// matched the template and bound `variables`.
using resource_template_handler = std::function<asio::awaitable<std::vector<resource_contents>>(
    const std::string& uri, const uri_variables& variables, request_context& ctx)>;

/// Prompt arguments arrive as strings, required ones already checked.
using prompt_arguments = std::map<std::string, std::string, std::less<>>;
/// A prompt handler on raw arguments: returns the prompt's messages for `prompts/get`.
using prompt_handler =
    std::function<asio::awaitable<get_prompt_result>(const prompt_arguments& args, request_context& ctx)>;

/// What `completion/complete` asks about.
struct MCP_API completion_request {
  std::string argument;  ///< the prompt argument or template variable
  std::string value;     ///< what the user typed so far
  /// Values of the other arguments already chosen (2025-06-18 on).
  std::map<std::string, std::string, std::less<>> context;
};

/// Candidate values; the server truncates to the spec's 100 and sets `hasMore`.
using completion_handler =
    std::function<asio::awaitable<std::vector<std::string>>(const completion_request& req, request_context& ctx)>;

/// How the server runs tools whose tool_info::task_support allows tasks
/// (docs/tasks.md).
struct MCP_API task_options {
  /// Where task records live; null: this process's memory
  /// (make_memory_task_store), or, served over HTTP with shared stores
  /// (cluster::make_redis_stores), theirs: every server of a cluster then
  /// answers for any task (docs/scale-out.md).
  std::shared_ptr<task_store> store = {};
  /// 2026-07-28: a call that the client lets become a task is answered
  /// directly when it finishes within this time, as a task otherwise. At 0
  /// a call becomes a task as soon as its handler has to wait.
  std::chrono::milliseconds immediate_window{0};
  /// The ttl of a task whose client asks for none (every task of the
  /// 2026-07-28 extension).
  std::chrono::milliseconds default_ttl = std::chrono::hours(1);
  /// The most a 2025-11-25 client may ask for: a longer ttl is cut to it.
  std::chrono::milliseconds max_ttl = std::chrono::hours(24);
  /// The pollInterval suggested to clients.
  std::chrono::milliseconds poll_interval = std::chrono::seconds(1);
};

/// How an mcp::server serves (the constructor's `settings`).
struct MCP_API server_options {
  /// The `instructions` of the `initialize` (and 2026-07-28 `server/discover`)
  /// result: how to use the server, for the client's model. Unset: none.
  std::optional<std::string> instructions = {};
  /// Items per page of every list method; 0 sends everything in one page.
  std::size_t page_size = 100;
  /// Merged over the capabilities inferred from what is registered.
  json::object capabilities = {};
  /// Threads of the pool that runs plain-function handlers.
  std::size_t worker_threads = 4;
  /// The revisions served: both eras by default. Leave out the legacy ones
  /// (`initialize`) or the modern one (2026-07-28) to refuse those clients.
  std::vector<protocol_version> protocol_versions{all_versions().begin(), all_versions().end()};
  /// The caching hint (2026-07-28) of list pages and resources/read for
  /// items that set none: a page gets the shortest ttl of its items, and is
  /// `public` only when all of them are.
  cache_hint cache = {};
  /// Tasks, for the tools that allow them.
  task_options tasks = {};
  /// Sends the SDK's log lines tied to a session (their session_id field) to
  /// that session's client as notifications/message, at the level it set
  /// (docs/observability.md, "Logs"). Lines about transports, clients and the
  /// access log stay local.
  bool log_to_clients = false;
};

/// The high-level server: tools, resources, resource templates, prompts,
/// completions, skills and tasks, registered at any time from any thread.
/// Serve it with mcp::serve, mcp::run_stdio_server or an http_server.
///
/// @par Thread safety
/// Thread safe, but for the overloads that take a session&. Each registry
/// (tools, resources, templates, prompts, completions, skills) is copied on
/// write under a mutex, and a request reads the snapshot it found: add_,
/// remove_ and notify_ may be called from any thread while the server
/// serves, and a request keeps the entry it found (a tool removed meanwhile
/// finishes its call). The sessions to notify and their subscriptions are
/// kept under a mutex, and notifications are posted to each session's
/// executor; the capability flags are atomics; worker_executor() starts the
/// pool once (std::call_once). The session& overloads use the session's
/// state<T>(): call them from that session's executor. One server serves
/// every session at once (see server_behaviour), so its handlers run
/// concurrently: coroutines on their sessions' executors (over HTTP, several
/// threads at once), plain functions on the worker pool (several at once,
/// even for one session). What they share needs their own synchronisation.
class MCP_API server : public server_behaviour {
 public:
  /// `info` is the `serverInfo` (name, version...); the default options.
  explicit server(implementation info);
  /// `info` is the `serverInfo` (name, version...).
  server(implementation info, server_options settings);
  ~server() override;

  // Tools. Adding a tool whose name exists replaces it. Every change sends
  // notifications/tools/list_changed to the sessions it concerns. Arguments
  // are validated against the input schema before a handler sees them; a
  // failure is a tool result with `isError: true` naming the field.

  /// A typed tool: the schema comes from the handler's argument struct, and a
  /// described result struct gives outputSchema and structuredContent.
  /// Handler shapes: (Args), (Args, request_context&), (request_context&) or
  /// (); returning std::string, call_tool_result, a described struct or
  /// tool_result<T>, directly or as an asio::awaitable. Coroutines run on the
  /// session's executor and may co_await the context; plain functions run on
  /// the worker pool (they may read the request's own data and poll
  /// cancelled(): see request_context's thread safety).
  template <class F>
    requires(!std::is_convertible_v<F, tool_handler>)
  void add_tool(std::string name, std::string description, F handler);
  /// As above, with title, annotations and the rest; the schemas are derived.
  template <class F>
    requires(!std::is_convertible_v<F, tool_handler>)
  void add_tool(tool_info info, F handler);
  /// A tool on raw JSON, with the schemas given in `info`.
  void add_tool(tool_info info, tool_handler handler);
  /// Removes the tool of that name (sending list_changed); false when there was none.
  bool remove_tool(std::string_view name);
  /// Tells clients the tool list changed when it did behind the server's
  /// back (a handler that filters tools by time or by a database, say).
  void notify_tools_changed();
  /// A tool only `s` sees (and that hides a global one of the same name).
  /// Like session::state<T>(), call it from the session's executor (from a
  /// coroutine handler serving the session, say); `s` hears tools/list_changed.
  void add_tool(session& s, tool_info info, tool_handler handler);
  /// Removes a tool added for `s` alone; false when it had none of that name.
  bool remove_tool(session& s, std::string_view name);

  // Resources.
  /// A resource, listed by resources/list and read by `handler`. Adding one
  /// whose URI exists replaces it; sends resources/list_changed.
  void add_resource(resource_info info, resource_handler handler);
  /// Removes the resource of that URI (sending list_changed); false when there was none.
  bool remove_resource(std::string_view uri);
  /// A resource template (RFC 6570): a resources/read of a URI that no
  /// resource has goes to the first template, in the order added, that
  /// matches it. One with the same template text is replaced. Throws
  /// mcp::invalid_argument for a malformed template.
  void add_resource_template(resource_template_info info, resource_template_handler handler);
  /// Removes the template of that text (sending list_changed); false when there was none.
  bool remove_resource_template(std::string_view uri_template);
  /// A resource only `s` sees (and that hides a global one of the same URI);
  /// the session hears resources/list_changed. It stays with this server.
  /// Call it from the session's executor, as add_tool(session&, ...).
  void add_resource(session& s, resource_info info, resource_handler handler);
  /// Removes a resource added for `s` alone; false when it had none of that URI.
  bool remove_resource(session& s, std::string_view uri);
  /// As notify_tools_changed(), for resources and templates.
  void notify_resources_changed();
  /// Sends notifications/resources/updated to every session subscribed to `uri`.
  void notify_resource_updated(std::string_view uri);

  // Prompts.

  /// A typed prompt: its arguments come from the handler's argument struct
  /// (string or optional string members; descriptions from the mcp_fields
  /// hook). Handler shapes as for tools; returning std::string (one user
  /// message), std::vector<prompt_message> or get_prompt_result.
  template <class F>
    requires(!std::is_convertible_v<F, prompt_handler>)
  void add_prompt(std::string name, std::string description, F handler);
  /// As above, with title and the rest in `info`; its arguments are derived
  /// from the handler's argument struct (replacing `info.arguments`).
  template <class F>
    requires(!std::is_convertible_v<F, prompt_handler>)
  void add_prompt(prompt_info info, F handler);
  /// A prompt with its arguments declared in `info`.
  void add_prompt(prompt_info info, prompt_handler handler);
  /// Removes the prompt of that name (sending list_changed); false when there was none.
  bool remove_prompt(std::string_view name);
  /// A prompt only `s` sees (and that hides a global one of the same name).
  /// Call it from the session's executor, as add_tool(session&, ...).
  void add_prompt(session& s, prompt_info info, prompt_handler handler);
  /// Removes a prompt added for `s` alone; false when it had none of that name.
  bool remove_prompt(session& s, std::string_view name);
  /// As notify_tools_changed(), for prompts.
  void notify_prompts_changed();

  // Completions, for a prompt's argument or a template's variable.
  /// Answers `completion/complete` for `argument` of `prompt` (ref/prompt);
  /// replaces an earlier handler of the pair. An argument of a known prompt
  /// without a handler completes to nothing.
  void add_prompt_completion(std::string prompt, std::string argument, completion_handler handler);
  /// Answers `completion/complete` for `variable` of the template whose
  /// text is `uri_template` (ref/resource); replaces an earlier handler.
  void add_template_completion(std::string uri_template, std::string variable,
                               completion_handler handler);

  // Skills (SEP-2640, the io.modelcontextprotocol/skills extension;
  // <mcp/server/skills.hpp>, docs/server.md "Skills"). A skill is read when
  // it is added and served from memory; adding one with the same URI again
  // replaces it. Each returns the entry skills/list sends. Adding reads the
  // SKILL.md's YAML frontmatter: these are in caduceus::skills, an optional
  // part (yaml-cpp; docs/platforms.md); link it to call them.
  /// The skill in `directory`: its SKILL.md (whose frontmatter names it)
  /// and every file below it. Symbolic links that lead outside the
  /// directory and files other than regular ones are left out.
  /// @throws mcp::invalid_argument (no SKILL.md, a frontmatter without a
  ///         valid name and description, a skill over the limits) or
  ///         std::filesystem::filesystem_error
  skill_entry add_skill(const std::filesystem::path& directory);
  /// As above, served as `options` say (prefix, limits...).
  skill_entry add_skill(const std::filesystem::path& directory, const skill_options& options);
  /// A skill given in memory; one of the files is "SKILL.md".
  skill_entry add_skill(std::vector<skill_source_file> files, const skill_options& options);
  /// Every skill below `root`: each directory holding a SKILL.md, at most 8
  /// levels down, the directories on the way becoming its prefix
  /// (root/acme/refunds/SKILL.md is skill://acme/refunds/SKILL.md).
  std::vector<skill_entry> add_skills_directory(const std::filesystem::path& root);
  /// As above; `options.prefix`, when set, comes before each skill's prefix.
  std::vector<skill_entry> add_skills_directory(const std::filesystem::path& root, const skill_options& options);
  /// `uri`: the skill's SKILL.md.
  bool remove_skill(std::string_view uri);

  /// Where plain-function handlers run: a pool of `worker_threads` threads,
  /// started on first use.
  asio::any_io_executor worker_executor();

  // server_behaviour
  implementation server_info() const override;
  json::object modern_server_info() const override;
  json::object capabilities() const override;
  std::span<const protocol_version> supported_versions() const override;
  std::optional<std::string> instructions() const override;
  void init(session& s) override;
  void terminate(session& s) override;
  /// From then on notify_* (and every change of the registries) reach the
  /// sessions of every server in the cluster: list_changed once per session,
  /// resources/updated to the sessions subscribed to the resource through
  /// any server.
  /// Tasks too: a tasks/cancel or tasks/update that reaches another server
  /// reaches the one that runs the task, and a task whose server died is
  /// failed by the others (docs/scale-out.md, "Tasks").
  asio::awaitable<void> join_cluster(std::shared_ptr<message_bus> bus) override;
  void leave_cluster() override;
  /// Tasks created from now on are kept in `store` (null: the server's own
  /// again), unless task_options::store names one.
  void share_task_store(std::shared_ptr<task_store> store) override;
  asio::awaitable<json::object> handle_request(const request& req, request_context& ctx) override;
  /// Every method but the ones whose handler may wait: tools/call of a tool
  /// that is a non_blocking plain function is served here too.
  std::optional<json::object> handle_request_at_once(const request& req, request_context& ctx) override;

 private:
  // A typed tool that also has a handler to call where its request arrives.
  void add_tool(tool_info info, tool_handler handler, detail::tool_handler_at_once at_once);

  struct state;
  std::shared_ptr<state> state_;
  std::shared_ptr<detail::skill_catalog> skills_ = detail::make_skill_catalog();
};

/// The user's answer to a typed form elicitation.
template <class T>
struct elicited {
  std::string action;        ///< "accept", "decline" or "cancel"
  std::optional<T> content;  ///< the form's values, when accepted
  /// Whether the user accepted and sent the form's values.
  bool accepted() const noexcept { return action == "accept" && content.has_value(); }
};

/// Form-mode elicitation whose requested schema is derived from `T` (a flat
/// described struct of strings, numbers, booleans and enums, as the spec
/// allows); the answer is parsed back into `T`. Refused with capability_error
/// when the session cannot elicit (see request_context::elicit).
/// Cancellation: request_context::elicit's.
template <class T>
asio::awaitable<elicited<T>> elicit(request_context& ctx, std::string message,
                                    std::chrono::milliseconds timeout = std::chrono::minutes(5));

}  // namespace mcp

#include <mcp/server/impl/elicit.hpp>
#include <mcp/server/impl/typed_prompt.hpp>
#include <mcp/server/impl/typed_tool.hpp>
