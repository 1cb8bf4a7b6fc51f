// Decimal text read as a double (src/detail/decimal.hpp): what the X-MCP
// headers, the JSON reader and the CLI's forms read, the same with every
// standard library and in every locale.

#include "../../src/detail/decimal.hpp"

#include <gtest/gtest.h>

#include <clocale>
#include <cstring>
#include <limits>

namespace mcp::detail {
namespace {

TEST(DecimalText, ReadsWholeFractionalAndExponentForms) {
  EXPECT_EQ(read_decimal("42"), 42.0);
  EXPECT_EQ(read_decimal("-42.5"), -42.5);
  EXPECT_EQ(read_decimal("4.2e1"), 42.0);
  EXPECT_EQ(read_decimal("4.2E+1"), 42.0);
  EXPECT_EQ(read_decimal("420e-1"), 42.0);
  EXPECT_EQ(read_decimal("4."), 4.0);
  EXPECT_EQ(read_decimal(".5"), 0.5);
}

TEST(DecimalText, IsCorrectlyRounded) {
  // Boost.JSON 1.81's fast path reads these one unit in the last place off.
  EXPECT_EQ(read_decimal("0.1"), 0.1);
  EXPECT_EQ(read_decimal("2.2250738585072014e-308"), std::numeric_limits<double>::min());
  EXPECT_EQ(read_decimal("1.7976931348623157e308"), std::numeric_limits<double>::max());
  EXPECT_EQ(read_decimal("9007199254740993"), 9007199254740992.0);  // a tie: rounds to even
  EXPECT_EQ(read_decimal("0.30000000000000004"), 0.1 + 0.2);
}

TEST(DecimalText, RefusesWhatIsNotADecimal) {
  for (const char* text : {"", "-", ".", "+1", " 1", "1 ", "1e", "1e+", "0x10", "inf", "nan", "Infinity", "1.2.3",
                           "1,5", "e5", "--1"})
    EXPECT_FALSE(read_decimal(text).has_value()) << text;
}

TEST(DecimalText, RefusesWhatNoDoubleHolds) {
  EXPECT_FALSE(read_decimal("1e400").has_value());
  EXPECT_FALSE(read_decimal("-1e400").has_value());
}

TEST(DecimalText, ReadsAPointWhateverTheProgramsLocale) {
  // A program may set a locale whose decimal separator is a comma; a
  // header's "4.5" must still be 4.5. (Skipped where no such locale is installed.)
  const std::string before = std::setlocale(LC_NUMERIC, nullptr);
  bool comma = false;
  for (const char* name : {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "fr_FR"})
    if (std::setlocale(LC_NUMERIC, name) && std::strcmp(std::localeconv()->decimal_point, ",") == 0) {
      comma = true;
      break;
    }
  const auto read = read_decimal("4.5");
  std::setlocale(LC_NUMERIC, before.c_str());
  if (!comma) GTEST_SKIP() << "no locale with a decimal comma is installed";
  EXPECT_EQ(read, 4.5);
}

}  // namespace
}  // namespace mcp::detail
