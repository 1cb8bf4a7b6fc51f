// The official TypeScript SDK client (ts_client_cluster.mjs) against three
// everything-server replicas sharing a redis-server, behind HAProxy balancing
// each request round robin (test/support/everything_replicas.hpp): one
// session whose requests every node serves. Skipped without redis-server or
// haproxy.

#include "child_process.hpp"
#include "everything_replicas.hpp"
#include "node_process.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace mcp::test {
namespace {

using namespace std::chrono_literals;

TEST(ClusterTsClient, OneSessionServedByEveryNode) {
  if (const auto why = everything_replicas::missing(); !why.empty()) GTEST_SKIP() << why;
  everything_replicas cluster(3);
  std::vector<long> before;
  for (const auto& stat : cluster.proxy->stats()) before.push_back(stat.total);

  const auto r = run_command({node_program(), std::string(CADUCEUS_INTEROP_DIR) + "/ts_client_cluster.mjs", cluster.url()},
                             90s);
  EXPECT_TRUE(r.finished) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << "\n" << cluster.logs();
  EXPECT_NE(r.out.find(" 0 failed"), std::string::npos) << r.out;

  const auto after = cluster.proxy->stats();
  for (std::size_t i = 0; i < after.size(); ++i)
    EXPECT_GE(after[i].total - before[i], 5) << "HAProxy gave " << after[i].name << " few of the session's requests";
  for (std::size_t i = 0; i < cluster.size(); ++i) EXPECT_TRUE(cluster.node(i).running()) << cluster.logs();
}

}  // namespace
}  // namespace mcp::test
