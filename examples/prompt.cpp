// prompt: a prompt whose arguments come from a struct (strings, the optional
// ones not required), with completion for one of them.
//
//   build/bin/prompt     (MCP over stdio)

#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>

#include <boost/describe.hpp>

namespace asio = boost::asio;

struct review_args {
  std::string code;
  std::optional<std::string> language;
};
BOOST_DESCRIBE_STRUCT(review_args, (), (code, language))

inline auto mcp_fields(mcp::type_t<review_args>) {
  return std::tuple{mcp::field(&review_args::code, "The code to review"),
                    mcp::field(&review_args::language, "Its programming language")};
}

int main() {
  mcp::server srv({"reviewer", "1.0.0"});
  srv.add_prompt("review", "Asks for a code review", [](const review_args& a) {
    return "Please review this " + a.language.value_or("code") + ":\n\n" + a.code;
  });
  srv.add_prompt_completion("review", "language",
                            [](const mcp::completion_request& req,
                               mcp::request_context&) -> asio::awaitable<std::vector<std::string>> {
                              std::vector<std::string> out;
                              for (std::string lang : {"c", "c++", "go", "python", "rust"})
                                if (lang.starts_with(req.value)) out.push_back(lang);
                              co_return out;
                            });
  return mcp::run_stdio_server(srv);
}
