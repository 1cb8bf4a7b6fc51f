// The one translation unit that holds Asio's compiled implementation
// (BOOST_ASIO_SEPARATE_COMPILATION is set for the library and its users).
#include <boost/asio/impl/src.hpp>
// Asio's TLS layer (OpenSSL), for the HTTPS server and client.
#include <boost/asio/ssl/impl/src.hpp>
