#include "task_manager.hpp"

#include "task_wire.hpp"

#include "../../detail/lazy_event.hpp"
#include "../../detail/random.hpp"
#include "../../protocol/input_round.hpp"
#include "../../protocol/invalid_params.hpp"
#include "../../protocol/read_params.hpp"
#include "../../protocol/shaping.hpp"
#include "../../protocol/task_rules.hpp"
#include "../../protocol/finite_json.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>
#include <mcp/server/server.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <boost/system/system_error.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace mcp::detail {

namespace {

// The message bus channel of tasks in a cluster (docs/scale-out.md, "Tasks").
constexpr std::string_view tasks_channel = "tasks";

// A wait of a cancelled coroutine ends as Asio's own operations do.
void throw_if_cancelled(asio::cancellation_type cancelled) {
  if (cancelled != asio::cancellation_type::none)
    throw mcp::error(asio::error::operation_aborted);
}

bool is_extension_era(protocol_version v) { return task_kind_of(v) == task_kind::extension; }

// Who `s` stands for as the owner of a task of `kind` (task_owner).
std::string owner_key(const session& s, task_kind kind) {
  std::string identity;
  if (const auto* who = s.principal()) identity = who->identity();
  return task_owner(kind, s.principal() ? &identity : nullptr, s.id());
}

std::string owner_of(request_context& ctx) { return owner_key(ctx.session(), task_kind_of(ctx.version())); }

}  // namespace

class task_run;

struct task_state : std::enable_shared_from_this<task_state> {
  explicit task_state(const task_options& o)
      : options(o), own_store(o.store ? o.store : make_memory_task_store()), store(own_store) {}

  task_options options;
  const std::shared_ptr<task_store> own_store;  // the options', or memory
  std::mutex mutex;
  std::shared_ptr<task_store> store;  // where tasks are: own_store, or the cluster's
  // In a cluster: the bus that carries tasks/cancel and tasks/update to the
  // node that runs the task, and this node's subscription.
  std::shared_ptr<message_bus> bus;
  std::unique_ptr<message_bus::subscription> subscription;
  std::unordered_map<std::string, std::weak_ptr<task_run>> running;  // tasks this process runs
  std::function<void(const task_record&)> changed;  // task_manager::on_change

  std::shared_ptr<task_store> current_store() {
    std::lock_guard lock(mutex);
    return store;
  }
  std::shared_ptr<message_bus> current_bus() {
    std::lock_guard lock(mutex);
    return bus;
  }
  // A signal of the bus, for a task this node may run (after task_run).
  void on_signal(std::string_view text);

  std::shared_ptr<task_run> find_running(const std::string& id) {
    std::lock_guard lock(mutex);
    const auto it = running.find(id);
    return it == running.end() ? nullptr : it->second.lock();
  }
  void forget(const std::string& id) {
    std::lock_guard lock(mutex);
    running.erase(id);
  }
};

namespace {

// The way out of a request that may become a task: the request's own until
// then; afterwards what concerns the task goes to the session, tagged with
// it (2025-11-25), or nowhere (the extension has no notifications of a
// task's own, and no requests but its inputRequests).
class task_link final : public connection_link {
 public:
  task_link(std::shared_ptr<connection_link> origin, task_run& run) : origin_(std::move(origin)), run_(run) {}

  asio::awaitable<void> send_notification(notification n, std::string related) override;
  void post_notification(notification n, std::string related) override;
  void post_broadcast(notification n) override { origin_->post_broadcast(std::move(n)); }
  asio::awaitable<json::object> send_request(std::string method, json::object params,
                                             std::chrono::milliseconds timeout, std::string related) override;
  void close_stream(const std::string& related) override;

  connection_link& origin() noexcept { return *origin_; }

 private:
  // What becomes of a notification of the request: nullopt, dropped.
  std::optional<std::string> route_notification(notification& n, const std::string& related) const;

  std::shared_ptr<connection_link> origin_;
  task_run& run_;
};

}  // namespace

// One tools/call that may run as a task: the request, its context and its
// handler, owned here so that they outlive the request that started them.
// Everything but the constructor runs on the session's executor.
class task_run final : public task_inputs, public std::enable_shared_from_this<task_run> {
 public:
  task_run(std::shared_ptr<task_state> state, request_context& origin, task_body body)
      : state_(std::move(state)), store_(state_->current_store()), request_(copy_request(origin)),
        session_(origin.session().shared_from_this()),
        executor_(session_->get_executor()), body_(std::move(body)), settled_event_(executor_),
        changed_(executor_) {
    link_ = std::make_shared<task_link>(session_->link_, *this);
    context_.emplace(request_, *session_, cancelled_);
    context_->round_ = origin.round_;  // request mode: the round of the request (MRTR)
    context_->link_ = link_;
  }

  const asio::any_io_executor& executor() const noexcept { return executor_; }
  bool is_task() const noexcept { return is_task_; }
  bool extension() const noexcept { return is_extension_era(session_->version()); }
  const std::string& task_id() const noexcept { return record_.id; }
  // Where its record lives: the store of the moment it began.
  task_store& store() const noexcept { return *store_; }

  // Starts the handler (in request mode unless begin_task came first).
  void start() {
    asio::co_spawn(executor_, execute(shared_from_this()),
                   asio::bind_cancellation_slot(signal_.slot(), asio::detached));
  }

  /// From now on the request is a task with this record.
  void begin_task(task_record record) {
    record_ = std::move(record);
    is_task_ = true;
    context_->round_ = nullptr;
    context_->task_ = this;
    std::lock_guard lock(state_->mutex);
    state_->running[record_.id] = weak_from_this();
  }
  /// The record is in the store: the run may write it from now on.
  void created() {
    created_ = true;
    changed_.notify();
  }

  // The request is abandoned (cancelled, or its task not created): the
  // handler stops, and no task comes of it.
  void cancel_request() {
    cancelled_ = true;
    abandoned_ = true;
    context_->round_ = nullptr;  // the request's, gone with it
    signal_.emit(asio::cancellation_type::all);
    changed_.notify();
  }

  // Request mode: waits up to `window` for the handler; true when it settled.
  asio::awaitable<bool> settles_within(std::chrono::milliseconds window) {
    // One turn first: the handler runs until it first has to wait.
    co_await asio::post(executor_, asio::use_awaitable);
    if (!settled_ && window.count() > 0) {
      auto& timer = settled_event_.timer();
      timer.expires_after(window);
      co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
      // (Cancelled by settle or by the request's cancellation: either is checked below.)
      const auto state = co_await asio::this_coro::cancellation_state;
      throw_if_cancelled(state.cancelled());
    }
    co_return settled_;
  }
  json::object take_result() {
    if (error_) std::rethrow_exception(error_);
    return std::move(result_);
  }

  // tasks/cancel, on the run's executor: the handler is cancelled and the
  // task is cancelled at once (2025-11-25 says before the answer).
  asio::awaitable<void> cancel() {
    if (!detail::cancel(record_, "Cancelled by the client")) co_return;
    cancelled_ = true;
    signal_.emit(asio::cancellation_type::all);
    co_await save();
    saved_end_ = true;
    changed_.notify();
  }

  // tasks/update, on the run's executor: answers to outstanding input
  // requests (others are ignored, as the extension asks). An answered
  // request leaves inputRequests at once, even while others still wait.
  asio::awaitable<void> deliver(json::object responses) {
    bool taken = false;
    for (auto& [key, answer] : responses) {
      const auto it = pending_.find(key);
      if (it == pending_.end() || it->second.answer || !answers_input(it->second.method, answer)) continue;
      it->second.answer = std::move(answer.get_object());
      record_.input_requests.erase(key);
      taken = true;
    }
    if (!taken) co_return;
    if (input_wait_) input_wait_->cancel();
    co_await save();
  }

  // tasks/result (2025-11-25), on the run's executor: waits for the end;
  // meanwhile the task's requests to the client go on `route`'s stream.
  asio::awaitable<void> wait_for_end(std::string route) {
    result_routes_.push_back(route);
    try {
      while (!saved_end_) {
        co_await changed_.timer().async_wait(asio::as_tuple(asio::use_awaitable));
        const auto state = co_await asio::this_coro::cancellation_state;
        throw_if_cancelled(state.cancelled());
      }
    } catch (...) {
      std::erase(result_routes_, route);
      throw;
    }
    std::erase(result_routes_, route);
  }

  // task_inputs: what the handler asks of the client while it is a task.
  asio::awaitable<input_responses> ask(input_requests requests, std::chrono::milliseconds timeout) override {
    if (extension()) co_return co_await ask_by_input_requests(std::move(requests), timeout);
    co_return co_await ask_by_requests(std::move(requests), timeout);
  }

  // The stream a request of the task goes on (2025-11-25): the newest
  // waiting tasks/result, or none (the session's own stream).
  std::string route() const { return result_routes_.empty() ? std::string() : result_routes_.back(); }

 private:
  static request copy_request(request_context& origin) {
    request copy;
    copy.id = origin.id();
    copy.method = origin.method();
    copy.params = origin.params();
    return copy;
  }

  const json::object& arguments() const {
    static const json::object none;
    const auto* given = request_.params.if_contains("arguments");
    return given && given->is_object() ? given->get_object() : none;
  }

  static asio::awaitable<void> execute(std::shared_ptr<task_run> self) {
    json::object result;
    std::exception_ptr failure;
    try {
      result = co_await self->body_(self->arguments(), *self->context_);
    } catch (...) {
      failure = std::current_exception();
    }
    co_await asio::this_coro::reset_cancellation_state();
    if (!self->is_task_) {
      self->result_ = std::move(result);
      self->error_ = failure;
      self->settled_ = true;
      self->settled_event_.notify();
      co_return;
    }
    co_await self->finish(std::move(result), failure);
  }

  asio::awaitable<void> finish(json::object result, std::exception_ptr failure) {
    while (!created_ && !abandoned_) co_await changed_.timer().async_wait(asio::as_tuple(asio::use_awaitable));
    if (abandoned_) co_return;
    if (failure) {
      rpc_error error{errc::internal_error, "Internal error", nullptr};
      try {
        std::rethrow_exception(failure);
      } catch (const protocol_error& e) {
        error = e.error();
      } catch (const std::exception& e) {
        error.message = std::string("Internal error: ") + e.what();
      } catch (...) {
        // (input_required cannot reach here: a task's context has no round.)
      }
      fail(record_, error);  // (a cancelled task stays cancelled)
    } else {
      complete(record_, std::move(result), task_kind_of(session_->version()));
    }
    co_await save();
    saved_end_ = true;
    changed_.notify();
    state_->forget(record_.id);
  }

  // Writes the record and tells the client (2025-11-25: notifications/tasks/status).
  asio::awaitable<void> save() {
    record_.last_updated_at = std::chrono::system_clock::now();
    try {
      co_await store_->put(record_);
    } catch (const std::exception& e) {
      sdk_log(log_category::server, log_level::warn, "a task's record could not be saved",
              {{"task_id", record_.id}, {"error", e.what()}});
    }
    if (!extension())
      link_->origin().post_notification(notification{methods::notifications_tasks_status, task_json(record_)}, {});
    else if (state_->changed)
      state_->changed(record_);
  }

  // The extension: the requests wait in the task's inputRequests (each key
  // unique over the task's life) until tasks/update answers all of them.
  asio::awaitable<input_responses> ask_by_input_requests(input_requests requests,
                                                          std::chrono::milliseconds timeout) {
    for (const auto& [key, input] : requests) {
      if (!is_input_request(input.method)) throw mcp::invalid_argument("not an input request: " + input.method);
      if (!declares_capability_for(input.method, session_->client_capabilities()))
        throw capability_error("the client did not declare the " + std::string(capability_for(input.method)) +
                               " capability");
    }
    std::map<std::string, std::string> keys;  // task key -> the handler's key
    for (auto& [key, input] : requests) {
      auto task_key = key;
      while (!used_keys_.insert(task_key).second) task_key = key + "#" + std::to_string(++renamed_keys_);
      pending_[task_key] = pending_input{input.method, std::nullopt};
      record_.input_requests[task_key] = to_json_value(std::move(input));
      keys[task_key] = key;
    }
    await_input(record_);
    co_await save();

    asio::steady_timer wait(executor_, timeout);
    input_wait_ = &wait;
    std::exception_ptr failure;
    try {
      for (;;) {
        const bool all = std::ranges::all_of(keys, [&](const auto& k) { return pending_.at(k.first).answer.has_value(); });
        if (all) break;
        if (wait.expiry() <= asio::steady_timer::clock_type::now())
          throw mcp::error(asio::error::timed_out, "the client did not answer in time");
        co_await wait.async_wait(asio::as_tuple(asio::use_awaitable));
        const auto state = co_await asio::this_coro::cancellation_state;
        throw_if_cancelled(state.cancelled());
      }
    } catch (...) {
      failure = std::current_exception();
    }
    input_wait_ = nullptr;
    input_responses answers;
    for (const auto& [task_key, key] : keys) {
      if (auto& answer = pending_.at(task_key).answer) answers[key] = std::move(*answer);
      pending_.erase(task_key);
      record_.input_requests.erase(task_key);
    }
    if (!is_terminal(record_.status)) {
      if (record_.input_requests.empty()) resume(record_);
      co_await save();
    }
    if (failure) std::rethrow_exception(failure);
    co_return answers;
  }

  // 2025-11-25: real requests to the client, tagged with the task.
  asio::awaitable<input_responses> ask_by_requests(input_requests requests, std::chrono::milliseconds timeout) {
    const auto& d = dialect_of(session_->version());
    for (const auto& [key, input] : requests)
      if (auto why = legacy_input_refusal(input.method, input.params, d, session_->client_capabilities()))
        throw capability_error(std::move(*why));
    await_input(record_);
    co_await save();
    input_responses answers;
    std::exception_ptr failure;
    try {
      for (auto& [key, input] : requests) {
        shape_input_params(input.params, d);
        tag_with_task(input.params, record_.id);
        auto on_stream = route();
        answers[key] = co_await link_->origin().send_request(std::move(input.method), std::move(input.params),
                                                             timeout, std::move(on_stream));
      }
    } catch (...) {
      failure = std::current_exception();
    }
    if (resume(record_)) co_await save();
    if (failure) std::rethrow_exception(failure);
    co_return answers;
  }

  struct pending_input {
    std::string method;
    std::optional<json::object> answer;
  };

  std::shared_ptr<task_state> state_;
  std::shared_ptr<task_store> store_;
  request request_;
  std::shared_ptr<mcp::session> session_;
  asio::any_io_executor executor_;
  task_body body_;
  std::atomic<bool> cancelled_{false};
  asio::cancellation_signal signal_;
  std::shared_ptr<task_link> link_;
  std::optional<request_context> context_;
  bool is_task_ = false;
  // Request mode: how the handler ended.
  bool settled_ = false;
  json::object result_;
  std::exception_ptr error_;
  lazy_event settled_event_;
  // Task mode.
  task_record record_;
  bool created_ = false;
  bool abandoned_ = false;
  bool saved_end_ = false;  // the terminal status is in the store
  lazy_event changed_;  // created, ended
  std::map<std::string, pending_input> pending_;
  std::set<std::string> used_keys_;
  std::size_t renamed_keys_ = 0;
  asio::steady_timer* input_wait_ = nullptr;
  std::vector<std::string> result_routes_;
};

namespace {

std::optional<std::string> task_link::route_notification(notification& n, const std::string& related) const {
  if (!run_.is_task() || related.empty()) return related;
  if (run_.extension()) return std::nullopt;
  tag_with_task(n.params, run_.task_id());
  return std::string();
}

asio::awaitable<void> task_link::send_notification(notification n, std::string related) {
  auto route = route_notification(n, related);
  if (route) co_await origin_->send_notification(std::move(n), std::move(*route));
}

void task_link::post_notification(notification n, std::string related) {
  if (auto route = route_notification(n, related)) origin_->post_notification(std::move(n), std::move(*route));
}

asio::awaitable<json::object> task_link::send_request(std::string method, json::object params,
                                                      std::chrono::milliseconds timeout, std::string related) {
  if (!run_.is_task())
    co_return co_await origin_->send_request(std::move(method), std::move(params), timeout, std::move(related));
  if (run_.extension())
    throw capability_error("a task of the tasks extension sends no request but its input requests, not " + method);
  tag_with_task(params, run_.task_id());
  auto route = run_.route();
  co_return co_await origin_->send_request(std::move(method), std::move(params), timeout, std::move(route));
}

void task_link::close_stream(const std::string& related) {
  if (!run_.is_task()) origin_->close_stream(related);
}

task_record new_record(request_context& ctx, const task_options& options, std::string node) {
  task_record record;
  record.id = random_hex(16);
  record.status = task_status::working;
  record.created_at = record.last_updated_at = std::chrono::system_clock::now();
  record.ttl = task_ttl(task_kind_of(ctx.version()), ctx.params(), options.default_ttl, options.max_ttl);
  record.poll_interval = options.poll_interval;
  record.owner = owner_of(ctx);
  record.version = std::string(to_string(ctx.version()));
  record.node = std::move(node);
  return record;
}

// Runs `op` on `run`'s executor and waits for it.
asio::awaitable<void> on_run(const std::shared_ptr<task_run>& run, asio::awaitable<void> op) {
  co_await asio::co_spawn(run->executor(), std::move(op), asio::use_awaitable);
}

// What a signal of the bus does on the run's executor.
asio::awaitable<void> cancel_run(std::shared_ptr<task_run> run) { co_await run->cancel(); }
asio::awaitable<void> deliver_to_run(std::shared_ptr<task_run> run, json::object responses) {
  co_await run->deliver(std::move(responses));
}

// A task that another node ran, once that node is dead (its heartbeat has
// expired, message_bus::node_alive), would stay unfinished until its ttl:
// the first node that reads it fails it instead. Returns the record as it
// now is (nullopt: gone meanwhile).
asio::awaitable<std::optional<task_record>> settle_orphan(std::shared_ptr<message_bus> bus, task_store& store,
                                                          task_record task) {
  if (!bus || task.node.empty() || task.node == bus->node_id() || is_terminal(task.status)) co_return task;
  bool alive = true;
  try {
    auto node = task.node;
    alive = co_await bus->node_alive(std::move(node));
  } catch (const store_unavailable&) {
    // (Unknown for now: asked again next time.)
  }
  if (alive) co_return task;
  const rpc_error stopped{errc::internal_error,
                          "The server process running this task stopped before the task finished", nullptr};
  fail(task, stopped);
  task.last_updated_at = std::chrono::system_clock::now();
  co_await store.put(task);  // (refused if the task finished meanwhile: it stays as it finished)
  auto id = task.id;
  auto now = co_await store.find(std::move(id));
  co_return now;
}

}  // namespace

task_manager::task_manager(const task_options& options) : state_(std::make_shared<task_state>(options)) {}

task_manager::~task_manager() = default;

bool task_manager::runs_as_task(task_support support, std::string_view tool, request_context& ctx) const {
  return call_runs_as_task(task_kind_of(ctx.version()), support,
                           declares_tasks_extension(ctx.session().client_capabilities()),
                           task_asked(ctx.params()) != nullptr, tool);
}

asio::awaitable<json::object> task_manager::call(request_context& ctx, task_body body) {
  auto run = std::make_shared<task_run>(state_, ctx, std::move(body));
  const bool extension = is_extension_era(ctx.version());
  if (extension) {
    run->start();
    bool settled = false;
    try {
      settled = co_await run->settles_within(state_->options.immediate_window);
    } catch (...) {
      run->cancel_request();  // the request was cancelled while it ran
      throw;
    }
    if (settled) co_return run->take_result();
  }
  const auto bus = state_->current_bus();
  auto record = new_record(ctx, state_->options, bus ? bus->node_id() : std::string());
  run->begin_task(record);
  std::string refused;
  try {
    co_await run->store().create(record);
  } catch (const std::length_error& e) {
    refused = e.what();
  } catch (const store_unavailable&) {
    run->cancel_request();
    state_->forget(record.id);
    throw;
  }
  if (!refused.empty()) {
    run->cancel_request();
    state_->forget(record.id);
    throw protocol_error(errc::internal_error, "Internal error: the task was not created (" + refused + ")");
  }
  run->created();
  if (!extension) run->start();
  co_return created_task_json(record);
}

bool task_manager::is_tasks_method(std::string_view method) noexcept {
  return method == methods::tasks_get || method == methods::tasks_update || method == methods::tasks_cancel ||
         method == methods::tasks_list || method == methods::tasks_result;
}

asio::awaitable<json::object> task_manager::handle(const request& req, request_context& ctx) {
  const auto& m = req.method;
  admit_tasks_method(m, ctx.version(), declares_tasks_extension(ctx.session().client_capabilities()));
  const auto kind = task_kind_of(ctx.version());
  const bool extension = kind == task_kind::extension;

  const auto store_in_use = state_->current_store();
  auto& store = *store_in_use;
  const auto bus = state_->current_bus();
  const auto owner = owner_of(ctx);
  if (m == methods::tasks_list) {
    auto from = read_params_of<method::tasks_list>(req.params).cursor.value_or(std::string());
    task_record_page page;
    try {
      page = co_await store.list(owner, std::move(from), 100);
    } catch (const mcp::invalid_argument&) {
      invalid_params("invalid cursor");
    }
    list_tasks_result listed;
    for (const auto& task : page.tasks) listed.tasks.push_back(legacy_task(task));
    listed.next_cursor = std::move(page.next_cursor);
    co_return to_json_value(std::move(listed)).as_object();
  }

  // (tasks/get, tasks/update, tasks/cancel and tasks/result all name their task so.)
  const auto id = read_params_of<method::tasks_get>(req.params).task_id;
  auto found = co_await store.find(id);
  // Another principal's (or session's) task is as unknown as a made-up id.
  if (!found || found->owner != owner || is_extension_task(*found) != extension) task_not_found();
  auto run = state_->find_running(id);
  if (!run) {
    found = co_await settle_orphan(bus, store, std::move(*found));
    if (!found) task_not_found();
  }

  if (m == methods::tasks_get) co_return extension ? detailed_task_json(*found) : task_json(*found);

  if (m == methods::tasks_update) {
    auto update = read_params_of<method::tasks_extension::tasks_update>(req.params);
    if (run) {
      auto delivery = run->deliver(std::move(update.input_responses));  // (named: see docs/compilers.md)
      co_await on_run(run, std::move(delivery));
    } else if (bus && !is_terminal(found->status)) {
      // Another node runs it (or ran it): that one takes the answers.
      bus->publish(std::string(tasks_channel), "update " + id + "\n" + json::serialize(update.input_responses));
    }
    co_return json::object{};
  }

  if (m == methods::tasks_cancel) {
    if (is_terminal(found->status)) {
      check_cancel_of_ended(found->status, kind);
      co_return json::object{};  // (the extension's ack)
    }
    if (run) {
      auto cancellation = run->cancel();
      co_await on_run(run, std::move(cancellation));
    } else {
      // Another node runs it, or its process is gone: the record says
      // cancelled at once (the put loses if the task ended meanwhile), and
      // the node that runs it, if any, stops it.
      cancel(*found, "Cancelled by the client");
      found->last_updated_at = std::chrono::system_clock::now();
      co_await store.put(*found);
      if (bus) bus->publish(std::string(tasks_channel), "cancel " + id);
    }
    if (extension) co_return json::object{};
    auto now = co_await store.find(id);
    co_return task_json(now ? *now : *found);
  }

  // tasks/result (2025-11-25): blocks until the task ends.
  while (!is_terminal(found->status)) {
    if (run) {
      auto end = run->wait_for_end(to_json_text(req.id));
      co_await on_run(run, std::move(end));
      run.reset();
    } else {
      const auto executor = co_await asio::this_coro::executor;
      asio::steady_timer pause(executor, state_->options.poll_interval);
      co_await pause.async_wait(asio::use_awaitable);
    }
    found = co_await store.find(id);
    if (!found) task_not_found();
    run = state_->find_running(id);
    if (!run) {
      found = co_await settle_orphan(bus, store, std::move(*found));
      if (!found) task_not_found();
    }
  }
  co_return finished_task_result(*found);
}

void task_manager::on_change(std::function<void(const task_record&)> hook) { state_->changed = std::move(hook); }

bool task_manager::visible_to(const task_record& task, const session& s) {
  return may_see_task(task.owner, owner_key(s, task_kind_of(s.version())));
}

void task_manager::add_capabilities(json::object& capabilities) const {
  capabilities["tasks"] = {{"list", json::object{}},
                           {"cancel", json::object{}},
                           {"requests", {{"tools", {{"call", json::object{}}}}}}};
  auto& extensions = capabilities["extensions"];
  if (!extensions.is_object()) extensions = json::object{};
  extensions.get_object()[tasks_extension_id] = json::object{};
}

void task_manager::use_store(std::shared_ptr<task_store> store) {
  if (state_->options.store) return;  // the server's own choice stands
  std::lock_guard lock(state_->mutex);
  state_->store = store ? std::move(store) : state_->own_store;
}

asio::awaitable<void> task_manager::join_cluster(std::shared_ptr<message_bus> bus) {
  std::weak_ptr<task_state> weak = state_;
  message_bus::handler on_message = [weak](std::string_view text) {
    if (const auto st = weak.lock()) st->on_signal(text);
  };
  // (A signal lost while the bus reconnects is lost: a cancellation is in
  // the store already, and the client sends its answers again.)
  std::function<void()> no_recovery;
  auto channel = std::string(tasks_channel);
  auto subscription = co_await bus->subscribe(std::move(channel), std::move(on_message), std::move(no_recovery));
  std::unique_ptr<message_bus::subscription> previous;
  std::lock_guard lock(state_->mutex);
  previous = std::exchange(state_->subscription, std::move(subscription));
  state_->bus = std::move(bus);
}

void task_manager::leave_cluster() {
  std::unique_ptr<message_bus::subscription> subscription;
  std::lock_guard lock(state_->mutex);
  subscription = std::move(state_->subscription);
  state_->bus.reset();
}

// "cancel <id>", or "update <id>\n<inputResponses>": acted on by the node
// that runs the task, ignored by the others. On the bus's strand: it only
// hands the work to the run's executor.
void task_state::on_signal(std::string_view text) {
  const auto space = text.find(' ');
  if (space == std::string_view::npos) return;
  const auto verb = text.substr(0, space);
  auto id = text.substr(space + 1);
  std::string_view body;
  if (const auto cut = id.find('\n'); cut != std::string_view::npos) {
    body = id.substr(cut + 1);
    id = id.substr(0, cut);
  }
  const auto run = find_running(std::string(id));
  if (!run || !run->is_task()) return;
  if (verb == "cancel") {
    asio::co_spawn(run->executor(), cancel_run(run), asio::detached);
  } else if (verb == "update") {
    boost::system::error_code ec;
    auto responses = detail::parse_stored_json(body, ec);
    if (ec || !responses.is_object()) return;
    asio::co_spawn(run->executor(), deliver_to_run(run, std::move(responses.get_object())), asio::detached);
  }
}

}  // namespace mcp::detail
