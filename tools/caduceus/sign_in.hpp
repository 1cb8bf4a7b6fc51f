#pragma once
// OAuth for the command line: `login` signs in through a browser (or
// headlessly), `logout` forgets; every other command over HTTP uses the kept
// token, refreshing it, and says to log in when there is none.

#include "arguments.hpp"

#include <mcp/client/oauth.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <memory>
#include <string>

namespace caduceus {

/// --token-file, else $CADUCEUS_TOKEN_FILE, else ~/.config/caduceus/oauth.json
/// (its folder made, readable by the user only).
std::string token_file_path(const invocation& inv);

/// The authorizer of the HTTP commands: the kept token, refreshed when the
/// server refuses it; a sign-in that needs the user fails with a hint to log in.
std::shared_ptr<mcp::oauth_client> command_authorizer(boost::asio::any_io_executor ex, const invocation& inv);

/// Whether --url wants a sign-in that the kept token cannot give (there is
/// none, or it can no longer be refreshed): a person must sign in.
boost::asio::awaitable<bool> sign_in_needed(const invocation& inv);
/// Signs in to --url through the browser (the authorization URL on stderr;
/// --headless: following it without one) and keeps the token.
boost::asio::awaitable<void> sign_in(const invocation& inv);
/// `login`: signs in to --url and keeps the token. Prints one line on success.
boost::asio::awaitable<int> login(const invocation& inv);
/// `logout`: forgets the token and registration kept for --url.
int logout(const invocation& inv);

}  // namespace caduceus
