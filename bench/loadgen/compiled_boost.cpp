// Boost.Asio and Boost.Beast compiled once for the generator rather than in
// every file that uses them (BOOST_ASIO_SEPARATE_COMPILATION and
// BOOST_BEAST_SEPARATE_COMPILATION are set for its sources).
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
