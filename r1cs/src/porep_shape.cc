// The PoRep-shaped synthetic circuit (synthetic.h, generate_porep_shaped).
//
// Every aux variable j gets its value first, then each row is built from its
// index alone, so that both passes (term counts, then the terms) run in
// parallel. Row r < aux belongs to variable z = aux r:
//   z in A ("A-aux"):  A = z + E, B = ONE or y, C = A when ⟨B⟩ = 1, else empty
//                      (E: 0–3 further aux variables near z; y = aux r+1, in B)
//   z not in A:        A = empty, B = z (+ y), C = empty          (0·B = 0)
// then one row in·ONE = in per public input, then check rows x·ONE = x.
// Exactly (aux − A-aux) variables are left out of A, spread evenly; the
// variables in B are spread evenly among the others.
//
// The values follow a real PoRep partition's witness (docs/perf.md §6: L
// zeros 50.6%, ones 46.5%, tail 2.9%; A tail 2.2%; B tail 8.0%), the "tail"
// being the values that are neither 0 nor 1:
//   - a variable outside A (0.3% of aux, all in B) is a random element;
//   - a B variable in A is "wide" (a random element) when its hash picks it
//     (kBPick) and the hash does not pick aux j−1 as well; aux j−1 is then 0,
//     and its row takes only zero-valued E, so that ⟨A⟩ = 0 and C is empty
//     (0·y = 0); every other B variable in A is a bit, as C = A needs (the
//     out-of-A rows B = z (+ y), the input and the check rows take any value);
//   - any other variable is a random element with probability kPlainTail,
//     else a bit (0 or 1, equal odds).
// B variables are ≈ 25.4% of aux at every lg, so B's tail is ≈ 8%, L's
// ≈ 2.9% and A's aux ≈ 2.6% (at lg < 20 the public inputs, 1/64 of the
// domain and all random, add ≈ 1.6 points to A); the forced zeros make
// zeros ≈ 49% against ≈ 48% ones.
#include <algorithm>
#include <atomic>
#include <cmath>

#include "cuzk/base/random.h"
#include "cuzk/r1cs/synthetic.h"

namespace cuzk::r1cs {
namespace {

// Filecoin's 32 GiB PoRep partition (rust-fil-proofs' figures as cuzk's
// design records them): rows with the per-input rows, inputs, aux, and the
// aux variables that A and B touch.
constexpr uint64_t kRows27 = 130'278'869, kInputs27 = 328, kAux27 = 130'169'893;
constexpr uint64_t kAAux27 = 129'753'292, kBAux27 = 33'112'281;

uint64_t scaled(uint64_t v, int lg) { return uint64_t(std::llround(double(v) * std::ldexp(1.0, lg - 27))); }

// Exactly k of the j in [0, n) are true, evenly spread.
bool spread(uint64_t j, uint64_t k, uint64_t n) { return n != 0 && ((j + 1) * k) / n > (j * k) / n; }

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A hash as a uniform number in [0, 1).
double unit(uint64_t h) { return double(h >> 11) * 0x1p-53; }

// The share of B variables in A that the hash picks to be wide (a pick whose
// predecessor is picked too stays a bit, so slightly fewer end up wide), and
// the tail share of the variables that are neither in B nor forced to 0;
// chosen so that, with the variables outside A, B's tail is ≈ 8% and L's
// ≈ 2.9% (measured at lg 14 to 22).
constexpr double kBPick = 0.0686, kPlainTail = 0.0119;

struct Layout {
  PorepShape s;
  uint64_t seed = 0;
  uint64_t not_a = 0;   // aux variables outside A
  uint64_t b_count = 0; // spread parameter of the B variables
  uint64_t circuit_rows = 0;
  bool out_of_a(uint64_t j) const { return spread(j, not_a, s.num_aux); }
  bool in_b(uint64_t j) const { return j >= 1 && j < s.num_aux && !out_of_a(j) && spread(j * 7 % s.num_aux, b_count, s.num_aux); }
  bool b_pick(uint64_t j) const { return in_b(j) && unit(mix(seed ^ 0x5b1de ^ (j * 0xd1342543de82ef95ull))) < kBPick; }
  // A B variable in A that holds a random element (in_b(j) implies j >= 1).
  bool b_wide(uint64_t j) const { return b_pick(j) && !b_pick(j - 1); }
  // Aux j in A, forced to 0 because its row's y = aux j+1 is wide.
  bool zeroed(uint64_t j) const { return j + 1 < s.num_aux && !out_of_a(j) && b_wide(j + 1); }
  uint64_t var(uint64_t aux) const { return s.num_inputs + aux; }
};

constexpr uint32_t kOne = 0, kMinusOne = 1;  // coefficient table indices
constexpr uint32_t kCoeffs = 2 + 8 + 64;     // 1, −1, 2^1..2^8, 64 constants

uint32_t pick_coeff(uint64_t h) {
  const uint64_t p = h % 100;
  if (p < 50) return kOne;
  if (p < 70) return kMinusOne;
  if (p < 80) return 2 + uint32_t((h >> 8) % 8);
  return 10 + uint32_t((h >> 16) % 64);
}

struct Row {
  Term a[4], b[2], c[4];
  int na = 0, nb = 0, nc = 0;
};

// The row r of the circuit (w: the witness, for C's choice).
void make_row(const Layout& L, std::span<const Fr> w, uint64_t r, Row* row) {
  *row = Row{};
  const uint64_t n = L.s.num_aux;
  const uint64_t publics = L.s.num_inputs - 1;
  if (r >= n) {
    const bool binding = r < n + publics;
    const uint64_t h = mix(L.seed ^ (r * 0x2545f4914f6cdd1dull));
    uint64_t x = binding ? (r - n + 1) : L.var(h % n);
    while (!binding && L.out_of_a(x - L.s.num_inputs)) x = L.var((x - L.s.num_inputs + 1) % n);
    row->a[row->na++] = {uint32_t(x), kOne};
    row->b[row->nb++] = {0, kOne};
    row->c[row->nc++] = {uint32_t(x), kOne};
    return;
  }
  const uint64_t z = L.var(r);
  const bool y_in = r + 1 < n && L.in_b(r + 1);
  if (L.out_of_a(r)) {
    row->b[row->nb++] = {uint32_t(z), kOne};
    if (y_in) row->b[row->nb++] = {uint32_t(z + 1), kOne};
    return;
  }
  // y wide: z is 0 (make_witness) and E takes only zero-valued variables.
  const bool zero_row = y_in && L.b_wide(r + 1);
  uint64_t h = mix(L.seed + r);
  const int extra = int(h % 20 < 5 ? 0 : h % 20 < 11 ? 1 : h % 20 < 17 ? 2 : 3);
  row->a[row->na++] = {uint32_t(z), kOne};
  for (int e = 0; e < extra; ++e) {
    h = mix(h);
    const uint64_t back = 1 + h % 4096;
    uint64_t j = (r + n - back % n) % n;
    if (zero_row) {
      int k = 0;
      for (; k < 64 && (L.out_of_a(j) || !w[L.var(j)].is_zero()); ++k) j = (j + n - 1) % n;
      if (k == 64) continue;
    } else {
      if (L.out_of_a(j)) j = (j + 1) % n;
      if (L.out_of_a(j)) continue;
    }
    const uint32_t v = uint32_t(L.var(j));
    bool dup = false;
    for (int k = 0; k < row->na; ++k) dup |= row->a[k].var == v;
    if (!dup) row->a[row->na++] = {v, pick_coeff(h >> 20)};
  }
  std::sort(row->a, row->a + row->na, [](const Term& x, const Term& y) { return x.var < y.var; });
  bool b_one = true;
  if (y_in) {
    row->b[row->nb++] = {uint32_t(z + 1), kOne};
    b_one = w[z + 1].is_one();
  } else {
    row->b[row->nb++] = {0, kOne};
  }
  if (b_one) {
    std::copy(row->a, row->a + row->na, row->c);
    row->nc = row->na;
  }
}

std::vector<Fr> make_witness(const Layout& L, ThreadPool& pool) {
  std::vector<Fr> w(L.s.num_inputs + L.s.num_aux);
  pool.parallel_for(w.size(), 1 << 14, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) {
      TestRng rng(mix(L.seed ^ 0xabcdef ^ (i * 0x9e3779b97f4a7c15ull)));
      if (i == 0) {
        w[i] = Fr::one();
      } else if (i < L.s.num_inputs) {
        w[i] = Fr::random(rng);
      } else {
        const uint64_t j = i - L.s.num_inputs;
        const uint64_t h = rng();
        bool wide = L.out_of_a(j) || L.b_wide(j);
        if (!wide && L.zeroed(j)) {
          w[i] = Fr::zero();
          continue;
        }
        wide = wide || (!L.in_b(j) && unit(h) < kPlainTail);
        if (!wide) w[i] = h & 1 ? Fr::one() : Fr::zero();
        else do w[i] = Fr::random(rng); while (w[i].is_zero() || w[i].is_one());
      }
    }
  });
  return w;
}

std::vector<Fr> make_coeffs(uint64_t seed) {
  std::vector<Fr> c{Fr::one(), -Fr::one()};
  for (int k = 1; k <= 8; ++k) c.push_back(Fr::from_uint(uint64_t(1) << k));
  TestRng rng(seed ^ 0xc0ef);
  while (c.size() < kCoeffs) {
    Fr f = Fr::random(rng);
    if (!f.is_zero()) c.push_back(f);
  }
  return c;
}

}  // namespace

PorepShape porep_shape(int lg) {
  PorepShape s;
  s.lg = lg;
  s.rows = lg >= 27 ? kRows27 : scaled(kRows27, lg);
  s.num_inputs = lg >= 20 ? kInputs27 : std::max<uint64_t>(2, std::min<uint64_t>(kInputs27, (uint64_t(1) << lg) / 64));
  if (lg >= 27) {
    s.num_aux = kAux27, s.a_aux = kAAux27, s.b_aux = kBAux27;
    return s;
  }
  // Smaller domains keep the row count's proportion and make room for the
  // input and binding rows, which do not scale, by taking fewer aux.
  s.num_aux = std::min(scaled(kAux27, lg), s.rows - (2 * s.num_inputs - 1));
  s.a_aux = uint64_t(std::llround(double(s.num_aux) * double(kAAux27) / double(kAux27)));
  s.b_aux = uint64_t(std::llround(double(s.num_aux) * double(kBAux27) / double(kAux27)));
  return s;
}

StatusOr<SyntheticCircuit> generate_porep_shaped(int lg, uint64_t seed, ThreadPool* pool_in) {
  if (lg < 8 || lg > 27) return invalid_argument("porep shape: lg " + std::to_string(lg) + " outside 8 .. 27");
  ThreadPool& pool = pool_in ? *pool_in : default_thread_pool();
  Layout L;
  L.s = porep_shape(lg);
  L.seed = seed;
  L.not_a = L.s.num_aux - L.s.a_aux;
  // The B variables are spread among those in A; correct for the overlap.
  L.b_count = uint64_t(double(L.s.b_aux - L.not_a) / (1.0 - double(L.not_a) / double(L.s.num_aux)));
  L.circuit_rows = L.s.rows - L.s.num_inputs;
  SyntheticCircuit out;
  out.witness = make_witness(L, pool);
  const uint64_t m = L.circuit_rows;
  std::vector<uint32_t> offsets(3 * m + 1);
  pool.parallel_for(m, 1 << 14, [&](size_t lo, size_t hi) {
    Row row;
    for (size_t r = lo; r < hi; ++r) {
      make_row(L, out.witness, r, &row);
      offsets[3 * r + 1] = uint32_t(row.na), offsets[3 * r + 2] = uint32_t(row.nb), offsets[3 * r + 3] = uint32_t(row.nc);
    }
  });
  uint64_t total = 0;
  for (size_t k = 1; k < offsets.size(); ++k) {
    total += offsets[k];
    if (total >= (uint64_t(1) << 32)) return invalid_argument("porep shape: more than 2^32 non-zeros");
    offsets[k] = uint32_t(total);
  }
  std::vector<Term> terms(total);
  std::atomic<uint64_t> zero_one{0};
  pool.parallel_for(m, 1 << 14, [&](size_t lo, size_t hi) {
    Row row;
    for (size_t r = lo; r < hi; ++r) {
      make_row(L, out.witness, r, &row);
      std::copy(row.a, row.a + row.na, terms.begin() + offsets[3 * r]);
      std::copy(row.b, row.b + row.nb, terms.begin() + offsets[3 * r + 1]);
      std::copy(row.c, row.c + row.nc, terms.begin() + offsets[3 * r + 2]);
    }
  });
  for (uint64_t j = 0; j < L.s.num_aux; ++j) {
    const Fr& v = out.witness[L.var(j)];
    if (v.is_zero() || v.is_one()) zero_one.fetch_add(1, std::memory_order_relaxed);
  }
  CircuitShape shape{L.s.num_inputs, L.s.num_aux, m};
  ASSIGN_OR_RETURN(out.circuit, Circuit::from_parts(shape, std::move(offsets), std::move(terms), make_coeffs(seed)));
  out.stats.zero_one_aux = zero_one.load();
  return out;
}

}  // namespace cuzk::r1cs
