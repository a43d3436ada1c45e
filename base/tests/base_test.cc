#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <system_error>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/log.h"
#include "cuzk/base/random.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/base/trace.h"

namespace cuzk {
namespace {

StatusOr<int> half(int x) {
  if (x % 2) return invalid_argument("odd: " + std::to_string(x));
  return x / 2;
}

StatusOr<int> quarter(int x) {
  ASSIGN_OR_RETURN(int h, half(x));
  ASSIGN_OR_RETURN(int q, half(h));
  return q;
}

Status check_even(int x) {
  RETURN_IF_ERROR(half(x).status());
  return ok_status();
}

TEST(Status, CodesAndMacros) {
  EXPECT_TRUE(ok_status().ok());
  EXPECT_EQ(quarter(8).value(), 2);
  StatusOr<int> bad = quarter(6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().to_string(), "INVALID_ARGUMENT: odd: 3");
  EXPECT_EQ(check_even(3).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(int(StatusCode::kUnavailable), 14);  // gRPC canonical numbering
  EXPECT_EQ(not_found("x").with_context("loading").message(), "loading: x");
}

TEST(Status, StatusOrFromAnOkStatusIsInternalInEveryBuild) {
  StatusOr<int> from_ok(ok_status());
  EXPECT_FALSE(from_ok.ok());
  EXPECT_EQ(from_ok.status().code(), StatusCode::kInternal);
  Status ok = ok_status();
  StatusOr<std::string> copied(ok);
  EXPECT_EQ(copied.status().code(), StatusCode::kInternal);
  auto passes_on = [](StatusOr<int> r) -> Status {
    ASSIGN_OR_RETURN(int v, std::move(r));
    return v == 1 ? ok_status() : invalid_argument("not 1");
  };
  EXPECT_EQ(passes_on(StatusOr<int>(ok_status())).code(), StatusCode::kInternal);  // never OK without a value
  EXPECT_TRUE(passes_on(1).ok());
}

TEST(Status, QuotedIsBoundedAndEscaped) {
  EXPECT_EQ(bounded_quote("job-1"), "\"job-1\"");
  EXPECT_EQ(bounded_quote("a\"b\\c\n\x01\xff"), "\"a\\\"b\\\\c\\x0a\\x01\\xff\"");
  std::string huge(100'000, 'x');
  std::string q = bounded_quote(huge);
  EXPECT_EQ(q, "\"" + std::string(64, 'x') + "\"...(100000 bytes)");
  EXPECT_EQ(bounded_quote(huge, 3), "\"xxx\"...(100000 bytes)");
  EXPECT_EQ(bounded_quote(""), "\"\"");
}

TEST(ThreadPool, ParallelForCoversEveryIndexOnce) {
  ThreadPool pool(3);
  for (size_t n : {0, 1, 7, 1000, 100003}) {
    std::vector<std::atomic<int>> hits(n);
    pool.parallel_for(n, 16, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) hits[i]++;
    });
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " i=" << i;
  }
}

TEST(ThreadPool, NestedParallelForRunsInline) {
  ThreadPool pool(2);
  std::atomic<long> sum{0};
  pool.parallel_tasks(8, [&](size_t i) {
    pool.parallel_for(100, 1, [&](size_t b, size_t e) {
      for (size_t j = b; j < e; ++j) sum += long(i * 100 + j);
    });
  });
  EXPECT_EQ(sum.load(), 799L * 800 / 2);
}

TEST(ThreadPool, PropagatesExceptions) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.parallel_for(100, 1, [](size_t b, size_t) {
    if (b > 50) throw std::runtime_error("boom");
  }),
               std::runtime_error);
}

TEST(Metrics, SpansFeedHistograms) {
  MetricsRegistry reg;
  {
    TraceSpan span(&reg, "unit.test");
  }
  reg.add_counter("cuzk_proofs_total", 2, "kind=\"x\"");
  reg.set_gauge("cuzk_budget_bytes", 5);
  reg.set_gauge("cuzk_big_bytes", 23129034752.0);  // exact, not 2.31290348e+10
  reg.set_gauge("cuzk_ratio", 0.125);
  HistogramData h = reg.histogram("cuzk_span_seconds", "span=\"unit.test\"");
  EXPECT_EQ(h.count, 1u);
  std::string text = reg.render_prometheus();
  EXPECT_NE(text.find("cuzk_proofs_total{kind=\"x\"} 2"), std::string::npos) << text;
  EXPECT_NE(text.find("cuzk_span_seconds_count{span=\"unit.test\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("# TYPE cuzk_budget_bytes gauge"), std::string::npos) << text;
  EXPECT_NE(text.find("cuzk_big_bytes 23129034752\n"), std::string::npos) << text;
  EXPECT_NE(text.find("cuzk_ratio 0.125\n"), std::string::npos) << text;
  TraceSpan null_span(nullptr, "nothing");  // a null registry is allowed
  EXPECT_GE(null_span.stop(), 0.0);
}

TEST(Bytes, IntegersAndHex) {
  uint8_t buf[8];
  store_u32be(buf, 0x01020304);
  EXPECT_EQ(buf[0], 1);
  EXPECT_EQ(load_u32be(buf), 0x01020304u);
  store_u64le(buf, 0x1122334455667788ull);
  EXPECT_EQ(buf[0], 0x88);
  EXPECT_EQ(load_u64le(buf), 0x1122334455667788ull);
  std::string raw;
  ASSERT_TRUE(from_hex("0xdeadBEEF", &raw));
  EXPECT_EQ(to_hex(ByteSpan(reinterpret_cast<const uint8_t*>(raw.data()), raw.size())), "deadbeef");
  EXPECT_FALSE(from_hex("abc", &raw));
  EXPECT_FALSE(from_hex("zz", &raw));
}

TEST(Random, OsRngVariesAndTestRngRepeats) {
  OsRng os;
  EXPECT_NE(os(), os());  // 2^-64 chance of a false failure
  TestRng a(42), b(42), c(43);
  uint64_t x = a();
  EXPECT_EQ(x, b());
  EXPECT_NE(x, c());
}

long failing_source(void*, size_t, unsigned) {
  errno = ENOSYS;
  return -1;
}

long one_byte_source(void* buf, size_t, unsigned) {
  static_cast<uint8_t*>(buf)[0] = 0xab;
  return 1;
}

TEST(Random, AFailingOsSourceIsAnErrorNeverAnAbort) {
  OsRng failing(failing_source);
  uint8_t b[16];
  Status s = failing.try_fill(b, sizeof b);
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("getrandom"), std::string::npos) << s.message();
  EXPECT_THROW(failing(), std::system_error);
  OsRng trickle(one_byte_source);  // short reads are completed, not taken as failures
  ASSERT_TRUE(trickle.try_fill(b, sizeof b).ok());
  for (uint8_t x : b) EXPECT_EQ(x, 0xab);
  EXPECT_EQ(trickle(), 0xababababababababull);
}

TEST(Log, ParseLevels) {
  log::Level l;
  EXPECT_TRUE(log::parse_level("debug", &l));
  EXPECT_EQ(l, log::Level::kDebug);
  EXPECT_FALSE(log::parse_level("loud", &l));
}

}  // namespace
}  // namespace cuzk
