// Boost.JSON and Boost.URL compiled into the library from their headers
// (CADUCEUS_BOOST_FROM_HEADERS): for a toolchain whose standard library is
// not the one the system's Boost libraries were built with (libc++ against
// Debian's libstdc++ builds), or where no compiled Boost is at hand.

#include <boost/json/src.hpp>
#include <boost/url/src.hpp>
