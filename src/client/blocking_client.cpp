// blocking_client: an mcp::client on an I/O thread of its own. Each call is
// started on that thread (the client is not thread safe; its thread is) and
// waited for with a deadline; a call whose deadline passes is cancelled there.

#include <mcp/client/blocking_client.hpp>
#include <mcp/error.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <future>
#include <thread>
#include <type_traits>

namespace mcp {

namespace {

/// How long a call waits after its deadline for the I/O thread to take its
/// cancellation, before it gives up on it.
constexpr std::chrono::milliseconds cancel_grace{5'000};

}  // namespace

struct blocking_client::impl {
  explicit impl(blocking_client_options options)
      : options(std::move(options)),
        work(io.get_executor()),
        c(std::make_unique<client>(io.get_executor(), this->options.client)),
        thread([this] { io.run(); }) {}

  ~impl() {
    try {
      close();
    } catch (const std::exception&) {
      // Closing is best effort here: the thread stops either way.
    }
    work.reset();
    io.stop();
    thread.join();
  }

  void close() {
    call<void>([](client& c) { return c.close(); }, options.call_timeout);
  }

  bool on_io_thread() const { return std::this_thread::get_id() == thread.get_id(); }

  void refuse_own_thread() const {
    if (on_io_thread())
      throw mcp::invalid_argument("mcp::blocking_client called from its own I/O thread (a callback): it would wait "
                                  "for itself");
  }

  /// Runs `operation(*c)` on the I/O thread and waits for its outcome, at
  /// most `limit`: then it is cancelled, and the call throws timed_out.
  template <class Result>
  Result call(std::function<asio::awaitable<Result>(client&)> operation, std::chrono::milliseconds limit) {
    refuse_own_thread();
    struct pending {
      std::promise<Result> outcome;
      asio::cancellation_signal cancel;  // used on the I/O thread only
    };
    auto p = std::make_shared<pending>();
    auto outcome = p->outcome.get_future();
    asio::post(io, [this, p, operation = std::move(operation)] {
      auto done = [p](std::exception_ptr failure, auto... value) {
        if (failure) p->outcome.set_exception(failure);
        else p->outcome.set_value(std::move(value)...);
      };
      detail::launch<Result>(operation(*c), io.get_executor(),
                             detail::operation_handler<Result>(asio::bind_cancellation_slot(p->cancel.slot(), done)));
    });
    if (outcome.wait_for(limit) == std::future_status::timeout) {
      asio::post(io, [p] { p->cancel.emit(asio::cancellation_type::terminal); });
      // The cancelled operation ends at once; its outcome is dropped.
      outcome.wait_for(cancel_grace);
      throw mcp::error(asio::error::timed_out, "mcp::blocking_client: the call took longer than its " +
                                                   std::to_string(limit.count()) + " ms");
    }
    return outcome.get();
  }

  template <class Result>
  Result call(std::function<asio::awaitable<Result>(client&)> operation) {
    return call<Result>(std::move(operation), options.call_timeout);
  }

  /// Runs `work(*c)` on the I/O thread (at once when already there) and returns what it returns.
  template <class Work>
  auto run(Work work) -> std::invoke_result_t<Work, client&> {
    using result = std::invoke_result_t<Work, client&>;
    if (on_io_thread()) return work(*c);
    std::packaged_task<result()> task([this, &work] { return work(*c); });
    auto done = task.get_future();
    asio::post(io, [&task] { task(); });
    return done.get();
  }

  blocking_client_options options;
  asio::io_context io{1};
  asio::executor_work_guard<asio::io_context::executor_type> work;
  std::unique_ptr<client> c;  // destroyed before io, after the thread stopped
  std::thread thread;
};

blocking_client::blocking_client() : blocking_client(blocking_client_options{}) {}

blocking_client::blocking_client(blocking_client_options options)
    : impl_(std::make_unique<impl>(std::move(options))) {}

blocking_client::~blocking_client() = default;

asio::any_io_executor blocking_client::get_executor() const noexcept { return impl_->io.get_executor(); }

initialize_result blocking_client::connect(std::unique_ptr<message_transport> transport) {
  // shared: std::function needs a copyable function object.
  auto held = std::make_shared<std::unique_ptr<message_transport>>(std::move(transport));
  return impl_->call<initialize_result>([held](client& c) { return c.connect(std::move(*held)); });
}

initialize_result blocking_client::connect(transport_factory factory) {
  return impl_->call<initialize_result>([factory](client& c) { return c.connect(factory); });
}

void blocking_client::close() { impl_->close(); }

connection_state blocking_client::state() const {
  return impl_->run([](client& c) { return c.state(); });
}

initialize_result blocking_client::server() const {
  return impl_->run([](client& c) { return c.server(); });
}

json::object blocking_client::request(std::string method, json::object params) {
  return request(std::move(method), std::move(params), call_options{});
}

json::object blocking_client::request(std::string method, json::object params, call_options options) {
  return impl_->call<json::object>(
      [method = std::move(method), params = std::move(params), options = std::move(options)](client& c) mutable {
        return c.request(std::move(method), std::move(params), std::move(options));
      });
}

void blocking_client::notify(std::string method, json::object params) {
  impl_->call<void>([method = std::move(method), params = std::move(params)](client& c) mutable {
    return c.notify(std::move(method), std::move(params));
  });
}

void blocking_client::ping() {
  impl_->call<void>([](client& c) { return c.ping(); });
}

std::vector<tool_info> blocking_client::list_tools() {
  return impl_->call<std::vector<tool_info>>([](client& c) { return c.list_tools(); });
}

call_tool_result blocking_client::call_tool(std::string name, json::object arguments) {
  return call_tool(std::move(name), std::move(arguments), call_options{});
}

call_tool_result blocking_client::call_tool(std::string name, json::object arguments, call_options options) {
  return impl_->call<call_tool_result>(
      [name = std::move(name), arguments = std::move(arguments), options = std::move(options)](client& c) mutable {
        return c.call_tool(std::move(name), std::move(arguments), std::move(options));
      });
}

json::value blocking_client::call_tool_structured(std::string name, json::object arguments) {
  return impl_->call<json::value>([name = std::move(name), arguments = std::move(arguments)](client& c) mutable {
    return c.call_tool_structured(std::move(name), std::move(arguments), call_options{});
  });
}

task_info blocking_client::call_tool_as_task(std::string name, json::object arguments) {
  return impl_->call<task_info>([name = std::move(name), arguments = std::move(arguments)](client& c) mutable {
    return c.call_tool_as_task(std::move(name), std::move(arguments));
  });
}

task_info blocking_client::get_task(std::string id) {
  return impl_->call<task_info>([id = std::move(id)](client& c) mutable { return c.get_task(std::move(id)); });
}

call_tool_result blocking_client::wait_for_task(std::string id, task_wait_options options) {
  const auto limit = options.timeout + cancel_grace;  // the wait's own timeout comes first
  return impl_->call<call_tool_result>(
      [id = std::move(id), options = std::move(options)](client& c) mutable {
        return c.wait_for_task(std::move(id), std::move(options));
      },
      limit);
}

void blocking_client::cancel_task(std::string id) {
  impl_->call<void>([id = std::move(id)](client& c) mutable { return c.cancel_task(std::move(id)); });
}

std::vector<task_info> blocking_client::list_tasks() {
  return impl_->call<std::vector<task_info>>([](client& c) { return c.list_tasks(); });
}

task_page blocking_client::list_tasks_page(std::string cursor) {
  return impl_->call<task_page>(
      [cursor = std::move(cursor)](client& c) mutable { return c.list_tasks_page(std::move(cursor)); });
}

std::vector<resource_info> blocking_client::list_resources() {
  return impl_->call<std::vector<resource_info>>([](client& c) { return c.list_resources(); });
}

std::vector<resource_template_info> blocking_client::list_resource_templates() {
  return impl_->call<std::vector<resource_template_info>>([](client& c) { return c.list_resource_templates(); });
}

std::vector<resource_contents> blocking_client::read_resource(std::string uri) {
  return impl_->call<std::vector<resource_contents>>(
      [uri = std::move(uri)](client& c) mutable { return c.read_resource(std::move(uri)); });
}

void blocking_client::subscribe(std::string uri) {
  impl_->call<void>([uri = std::move(uri)](client& c) mutable { return c.subscribe(std::move(uri)); });
}

void blocking_client::unsubscribe(std::string uri) {
  impl_->call<void>([uri = std::move(uri)](client& c) mutable { return c.unsubscribe(std::move(uri)); });
}

std::vector<prompt_info> blocking_client::list_prompts() {
  return impl_->call<std::vector<prompt_info>>([](client& c) { return c.list_prompts(); });
}

get_prompt_result blocking_client::get_prompt(std::string name, std::map<std::string, std::string> arguments) {
  return impl_->call<get_prompt_result>([name = std::move(name), arguments = std::move(arguments)](client& c) mutable {
    return c.get_prompt(std::move(name), std::move(arguments));
  });
}

completion blocking_client::complete_prompt_argument(std::string prompt, std::string argument, std::string value,
                                                     completion_context context) {
  return impl_->call<completion>([prompt = std::move(prompt), argument = std::move(argument), value = std::move(value),
                                  context = std::move(context)](client& c) mutable {
    return c.complete_prompt_argument(std::move(prompt), std::move(argument), std::move(value), std::move(context));
  });
}

completion blocking_client::complete_template_variable(std::string uri_template, std::string variable,
                                                       std::string value, completion_context context) {
  return impl_->call<completion>([uri_template = std::move(uri_template), variable = std::move(variable),
                                  value = std::move(value), context = std::move(context)](client& c) mutable {
    return c.complete_template_variable(std::move(uri_template), std::move(variable), std::move(value),
                                        std::move(context));
  });
}

void blocking_client::set_logging_level(logging_level level) {
  impl_->call<void>([level](client& c) { return c.set_logging_level(level); });
}

void blocking_client::on_state_change(std::function<void(connection_state)> handler) {
  impl_->run([&](client& c) { c.on_state_change(std::move(handler)); });
}

void blocking_client::on_notification(std::function<void(const notification&)> handler) {
  impl_->run([&](client& c) { c.on_notification(std::move(handler)); });
}

void blocking_client::on_log(std::function<void(const log_message&)> handler) {
  impl_->run([&](client& c) { c.on_log(std::move(handler)); });
}

void blocking_client::on_list_changed(std::function<void(std::string_view what)> handler) {
  impl_->run([&](client& c) { c.on_list_changed(std::move(handler)); });
}

void blocking_client::on_resource_updated(std::function<void(const std::string& uri)> handler) {
  impl_->run([&](client& c) { c.on_resource_updated(std::move(handler)); });
}

void blocking_client::on_task_status(std::function<void(const task_info&)> handler) {
  impl_->run([&](client& c) { c.on_task_status(std::move(handler)); });
}

void blocking_client::on_sampling(server_request_callback handler) {
  impl_->run([&](client& c) { c.on_sampling(std::move(handler)); });
}

void blocking_client::on_elicitation(server_request_callback handler) {
  impl_->run([&](client& c) { c.on_elicitation(std::move(handler)); });
}

void blocking_client::set_roots(std::vector<root> roots) {
  impl_->run([&](client& c) { c.set_roots(std::move(roots)); });
}

void blocking_client::on_roots(server_request_callback handler) {
  impl_->run([&](client& c) { c.on_roots(std::move(handler)); });
}

}  // namespace mcp
