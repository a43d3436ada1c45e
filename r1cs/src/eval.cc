#include "cuzk/r1cs/eval.h"

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "internal.h"

namespace cuzk::r1cs {
namespace {

constexpr uint64_t kU32Limit = 0xffffffffull;
constexpr size_t kRowsPerChunk = 4096;

const char* matrix_name(int m) { return m == 0 ? "A" : m == 1 ? "B" : "C"; }

// Keeps the error with the smallest index among those reported by chunks.
class FirstError {
 public:
  void report(uint64_t index, Status s) {
    std::lock_guard<std::mutex> lock(mu_);
    if (index < index_) {
      index_ = index;
      status_ = std::move(s);
    }
  }
  // Whether a chunk starting at `index` can still matter.
  bool relevant(uint64_t index) {
    std::lock_guard<std::mutex> lock(mu_);
    return index < index_;
  }
  Status status() const { return status_; }

 private:
  std::mutex mu_;
  uint64_t index_ = ~uint64_t(0);  // GUARDED_BY(mu_)
  Status status_;                  // GUARDED_BY(mu_)
};

Status validate_table(std::span<const Fr> coeffs) {
  for (size_t k = 0; k < coeffs.size(); ++k) {
    if (limbs_geq_modulus(coeffs[k])) return invalid_argument("coefficient table entry " + std::to_string(k) + " is not reduced (>= r)");
    if (coeffs[k].is_zero()) return invalid_argument("coefficient table entry " + std::to_string(k) + " is zero");
  }
  return ok_status();
}

Status validate_layout(const Circuit& c) {
  const CircuitShape& s = c.shape();
  if (s.num_inputs == 0) return invalid_argument("num_inputs is 0: the ONE input is missing");
  if (s.num_aux > kU32Limit + 1 || s.num_vars() > kU32Limit + 1) {
    return invalid_argument("num_vars " + std::to_string(s.num_vars()) + " exceeds 2^32");
  }
  if (s.num_constraints > kU32Limit || c.offsets().size() != 3 * s.num_constraints + 1) {
    return invalid_argument("offsets has " + std::to_string(c.offsets().size()) + " entries, expected 3·" +
                            std::to_string(s.num_constraints) + " + 1");
  }
  if (c.terms().size() > kU32Limit) return invalid_argument("more than 2^32-1 non-zeros");
  if (c.offsets().front() != 0) return invalid_argument("offsets[0] is not 0");
  if (c.offsets().back() != c.terms().size()) {
    return invalid_argument("offsets end at " + std::to_string(c.offsets().back()) + " but there are " +
                            std::to_string(c.terms().size()) + " terms");
  }
  return ok_status();
}

// Checks rows [begin, end); returns the first problem and its row.
Status validate_rows(const Circuit& c, uint64_t begin, uint64_t end, uint64_t* bad_row) {
  const auto offsets = c.offsets();
  const auto terms = c.terms();
  const uint64_t num_vars = c.num_vars(), table = c.coeffs().size();
  for (uint64_t i = begin; i < end; ++i) {
    *bad_row = i;
    for (int m = 0; m < 3; ++m) {
      const uint64_t lo = offsets[3 * i + m], hi = offsets[3 * i + m + 1];
      auto where = [&] { return "row " + std::to_string(i) + " " + matrix_name(m); };
      if (hi < lo || hi > terms.size()) return invalid_argument(where() + ": offsets are not monotone");
      for (uint64_t k = lo; k < hi; ++k) {
        const Term& t = terms[k];
        if (t.var >= num_vars) {
          return invalid_argument(where() + " term " + std::to_string(k - lo) + ": var " + std::to_string(t.var) +
                                  " >= num_vars " + std::to_string(num_vars));
        }
        if (k > lo && terms[k - 1].var >= t.var) {
          return invalid_argument(where() + " term " + std::to_string(k - lo) + ": vars not strictly increasing");
        }
        if (t.coeff >= table) {
          return invalid_argument(where() + " term " + std::to_string(k - lo) + ": coefficient index " +
                                  std::to_string(t.coeff) + " >= table size " + std::to_string(table));
        }
      }
    }
  }
  return ok_status();
}

}  // namespace

bool limbs_geq_modulus(const Fr& x) { return ff::limbs_geq<4>(x.mont(), Fr::kModulus); }

void run_chunks(ThreadPool* pool, uint64_t n, size_t min_chunk, const std::function<void(size_t, size_t)>& fn) {
  if (n == 0) return;
  if (pool == nullptr || n <= min_chunk) {
    fn(0, size_t(n));
    return;
  }
  pool->parallel_for(size_t(n), min_chunk, fn);
}

CoeffKinds classify_coeffs(std::span<const Fr> coeffs) {
  CoeffKinds kinds(coeffs.size(), kCoeffGeneral);
  const Fr one = Fr::one(), minus_one = -Fr::one();
  for (size_t k = 0; k < coeffs.size(); ++k) {
    if (coeffs[k] == one) kinds[k] = kCoeffOne;
    else if (coeffs[k] == minus_one) kinds[k] = kCoeffMinusOne;
  }
  return kinds;
}

Status validate(const Circuit& circuit, ThreadPool* pool) {
  RETURN_IF_ERROR(validate_layout(circuit));
  RETURN_IF_ERROR(validate_table(circuit.coeffs()));
  FirstError first;
  run_chunks(pool, circuit.num_constraints(), kRowsPerChunk, [&](size_t begin, size_t end) {
    if (!first.relevant(begin)) return;
    uint64_t bad_row = 0;
    Status s = validate_rows(circuit, begin, end, &bad_row);
    if (!s.ok()) first.report(bad_row, std::move(s));
  });
  return first.status();
}

Status is_satisfied(const Circuit& circuit, std::span<const Fr> w, ThreadPool* pool, SatisfiedDetail detail) {
  if (w.size() != circuit.num_vars()) {
    return invalid_argument("witness has " + std::to_string(w.size()) + " values, the circuit has " +
                            std::to_string(circuit.num_vars()) + " variables");
  }
  const bool values = detail == SatisfiedDetail::kValues;
  if (!w.empty() && !w[0].is_one())
    return invalid_argument(values ? "witness[0] is " + w[0].to_hex() + ", not 1 (ONE)" : "witness[0] is not 1 (ONE)");
  const CoeffKinds kinds = classify_coeffs(circuit.coeffs());
  FirstError first;
  run_chunks(pool, circuit.num_constraints(), kRowsPerChunk, [&](size_t begin, size_t end) {
    if (!first.relevant(begin)) return;
    for (size_t i = begin; i < end; ++i) {
      Fr a = row_dot(circuit, circuit.row(i, Matrix::kA), kinds, w);
      Fr b = row_dot(circuit, circuit.row(i, Matrix::kB), kinds, w);
      Fr c = row_dot(circuit, circuit.row(i, Matrix::kC), kinds, w);
      if (a * b != c) {
        std::string m = "constraint " + std::to_string(i) + " is not satisfied";
        if (values) m += ": <A,w>·<B,w> = 0x" + (a * b).to_hex() + " but <C,w> = 0x" + c.to_hex();
        first.report(i, invalid_argument(std::move(m)));
        return;
      }
    }
  });
  return first.status();
}

Status compute_abc(const Circuit& circuit, std::span<const Fr> w, std::span<Fr> a, std::span<Fr> b,
                   std::span<Fr> c, ThreadPool* pool) {
  const uint64_t n = circuit.num_constraints();
  if (w.size() != circuit.num_vars()) {
    return invalid_argument("witness has " + std::to_string(w.size()) + " values, the circuit has " +
                            std::to_string(circuit.num_vars()) + " variables");
  }
  if (a.size() != n || b.size() != n || c.size() != n) {
    return invalid_argument("a, b, c must have num_constraints = " + std::to_string(n) + " entries");
  }
  const CoeffKinds kinds = classify_coeffs(circuit.coeffs());
  run_chunks(pool, n, kRowsPerChunk, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      a[i] = row_dot(circuit, circuit.row(i, Matrix::kA), kinds, w);
      b[i] = row_dot(circuit, circuit.row(i, Matrix::kB), kinds, w);
      c[i] = row_dot(circuit, circuit.row(i, Matrix::kC), kinds, w);
    }
  });
  return ok_status();
}

}  // namespace cuzk::r1cs
