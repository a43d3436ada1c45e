#include "cuzk/groth16/setup.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "cuzk/base/log.h"
#include "cuzk/base/random.h"
#include "cuzk/ec/fixed_base.h"
#include "cuzk/r1cs/density.h"

namespace cuzk::groth16 {
namespace {

// out[i] = [scalars[i]]·G, in parallel, in affine form.
template <class C>
std::vector<ec::Affine<C>> fixed_base_batch(const ec::FixedBaseTable<C>& table, std::span<const Fr> scalars,
                                            ThreadPool& pool, const std::function<void(size_t)>& done) {
  std::vector<ec::Affine<C>> out(scalars.size());
  constexpr size_t kChunk = 4096;
  size_t chunks = (scalars.size() + kChunk - 1) / kChunk;
  pool.parallel_for(chunks, 1, [&](size_t cb, size_t ce) {
    for (size_t ch = cb; ch < ce; ++ch) {
      size_t b = ch * kChunk, e = std::min(scalars.size(), b + kChunk);
      table.mul_batch(scalars.subspan(b, e - b), std::span<ec::Affine<C>>(out.data() + b, e - b));
      if (done) done(e - b);
    }
  });
  return out;
}

Fr derive(uint64_t seed, uint64_t domain) {
  TestRng rng(seed * 0x9e3779b97f4a7c15ull + domain);
  for (;;) {
    Fr f = Fr::random(rng);
    if (!f.is_zero()) return f;
  }
}

// L_i(τ) for i < n over the domain with generator ω:
// L_i(τ) = ω^i·(τ^n − 1) / (n·(τ − ω^i)). Cost: n M + one batch inversion.
// In chunks on the pool, each starting from ω^begin.
std::vector<Fr> lagrange_at(const Fr& tau, int lg_n, const Fr& omega, ThreadPool& pool) {
  uint64_t n = uint64_t(1) << lg_n;
  std::vector<Fr> num(n);
  const Fr z = tau.pow(n) - Fr::one();
  const Fr n_fr = Fr::from_uint(n);
  pool.parallel_for(n, 1 << 14, [&](size_t lo, size_t hi) {
    std::vector<Fr> den(hi - lo);
    Fr w = omega.pow(uint64_t(lo));
    for (size_t i = lo; i < hi; ++i) {
      den[i - lo] = n_fr * (tau - w);
      num[i] = w * z;
      w *= omega;
    }
    Fr::batch_inverse(den);
    for (size_t i = lo; i < hi; ++i) num[i] *= den[i - lo];
  });
  return num;
}

struct QapAtTau {
  std::vector<Fr> u, v, w;  // A_j(τ), B_j(τ), C_j(τ) for every variable j
};

// A_j(τ) = Σ_rows A[row][j]·ℓ_row(τ), and likewise for B and C. Each task
// owns one matrix and one range of variables and scans that matrix's rows,
// adding only the terms of its variables: no two tasks write the same
// value, and every core works (the matrices are read once per range, which
// costs far less than the multiplications at any size worth parallelising).
QapAtTau evaluate_qap(const r1cs::Circuit& circuit, std::span<const Fr> lag, ThreadPool& pool) {
  QapAtTau q;
  const uint64_t nv = circuit.num_vars();
  std::vector<Fr>* dst[3] = {&q.u, &q.v, &q.w};
  for (std::vector<Fr>* d : dst) d->resize(nv);
  pool.parallel_for(nv, 1 << 16, [&](size_t lo, size_t hi) {
    for (std::vector<Fr>* d : dst) std::fill(d->begin() + long(lo), d->begin() + long(hi), Fr::zero());
  });
  const size_t parts = std::max<size_t>(1, std::min<size_t>(pool.size(), nv / 4096 + 1));
  pool.parallel_for(3 * parts, 1, [&](size_t tb, size_t te) {
    for (size_t t = tb; t < te; ++t) {
      const auto m = r1cs::Matrix(t / parts);
      const size_t part = t % parts;
      const uint64_t lo = nv * part / parts, width = nv * (part + 1) / parts - lo;
      std::vector<Fr>& d = *dst[t / parts];
      for (uint64_t row = 0; row < circuit.num_constraints(); ++row)
        for (const r1cs::Term& term : circuit.row(row, m))
          if (uint64_t(term.var) - lo < width) d[term.var] += circuit.coeff(term) * lag[row];
    }
  });
  // The per-input rows: A has input s at row num_constraints + s.
  for (uint64_t s = 0; s < circuit.num_inputs(); ++s) q.u[s] += lag[circuit.num_constraints() + s];
  return q;
}

std::vector<Fr> select_by_density(std::span<const Fr> values, const r1cs::Bitmap& density) {
  std::vector<Fr> out;
  out.reserve(density.popcount);
  for (uint64_t i = 0; i < density.bit_len; ++i)
    if (density.test(i)) out.push_back(values[i]);
  return out;
}

r1cs::Bitmap concat_bitmaps(const r1cs::Bitmap& inputs, const r1cs::Bitmap& aux) {
  r1cs::Bitmap out(inputs.bit_len + aux.bit_len);
  for (uint64_t i = 0; i < inputs.bit_len; ++i)
    if (inputs.test(i)) out.words[i / 64] |= uint64_t(1) << (i % 64);
  for (uint64_t i = 0; i < aux.bit_len; ++i) {
    uint64_t j = inputs.bit_len + i;
    if (aux.test(i)) out.words[j / 64] |= uint64_t(1) << (j % 64);
  }
  out.popcount = inputs.popcount + aux.popcount;
  return out;
}

// H query scalars: bellperson τ^i·Z(τ)/δ (i < n − 1); snarkjs L'_{2j+1}(τ)/δ
// over the 2n-domain (j < n).
std::vector<Fr> h_scalars(KeyLayout layout, const Fr& tau, int lg_n, const Fr& delta_inv, ThreadPool& pool) {
  uint64_t n = uint64_t(1) << lg_n;
  std::vector<Fr> out;
  if (layout == KeyLayout::kBellperson) {
    out.resize(n - 1);
    const Fr z = (tau.pow(n) - Fr::one()) * delta_inv;
    pool.parallel_for(n - 1, 1 << 14, [&](size_t lo, size_t hi) {
      Fr t = tau.pow(uint64_t(lo)) * z;
      for (size_t i = lo; i < hi; ++i, t *= tau) out[i] = t;
    });
  } else {
    std::vector<Fr> lag2 =
        lagrange_at(tau, lg_n + 1, ff::root_of_unity(lg_n + 1, ff::RootConvention::kSnarkjs), pool);
    out.resize(n);
    pool.parallel_for(n, 1 << 14, [&](size_t lo, size_t hi) {
      for (size_t j = lo; j < hi; ++j) out[j] = lag2[2 * j + 1] * delta_inv;
    });
  }
  return out;
}

}  // namespace

ToxicWaste ToxicWaste::from_seed(uint64_t seed) {
  return ToxicWaste{derive(seed, 1), derive(seed, 2), derive(seed, 3), derive(seed, 4), derive(seed, 5)};
}

int domain_lg_for_rows(uint64_t rows) {
  int k = 0;
  while ((uint64_t(1) << k) < rows) ++k;
  return std::max(k, 1);
}

StatusOr<r1cs::Circuit> append_input_rows(const r1cs::Circuit& circuit, bool keep_c) {
  r1cs::CircuitBuilder builder(circuit.num_inputs(), circuit.num_aux());
  std::vector<r1cs::LinTerm> lc[3];
  for (uint64_t row = 0; row < circuit.num_constraints(); ++row) {
    for (int m = 0; m < 3; ++m) {
      lc[m].clear();
      if (m == 2 && !keep_c) continue;
      for (const r1cs::Term& t : circuit.row(row, r1cs::Matrix(m))) lc[m].push_back({t.var, circuit.coeff(t)});
    }
    RETURN_IF_ERROR(builder.add_row(lc[0], lc[1], lc[2]));
  }
  for (uint64_t s = 0; s < circuit.num_inputs(); ++s) {
    r1cs::LinTerm one{s, Fr::one()};
    RETURN_IF_ERROR(builder.add_row(r1cs::LinComb(&one, 1), {}, {}));
  }
  return std::move(builder).build();
}

StatusOr<ProvingKey> dev_setup(const r1cs::Circuit& circuit, const DevSetupOptions& options) {
  ThreadPool& pool = options.pool ? *options.pool : default_thread_pool();
  uint64_t rows = circuit.num_constraints() + circuit.num_inputs();
  int lg_n = domain_lg_for_rows(rows);
  if (lg_n > 28) return invalid_argument("dev setup: circuit needs a domain of 2^" + std::to_string(lg_n) + " (> 2^28)");
  using Clock = std::chrono::steady_clock;
  auto mark = Clock::now();
  std::string phases;  // "name seconds" of each phase, logged at the end
  auto phase = [&](const char* name) {
    const auto now = Clock::now();
    char b[64];
    std::snprintf(b, sizeof b, "%s%s %.1f s", phases.empty() ? "" : ", ", name,
                  std::chrono::duration<double>(now - mark).count());
    phases += b;
    mark = now;
  };
  ToxicWaste tw = ToxicWaste::from_seed(options.seed);
  std::vector<Fr> lag = lagrange_at(tw.tau, lg_n, ff::root_of_unity(lg_n, root_convention(options.layout)), pool);
  QapAtTau q = evaluate_qap(circuit, lag, pool);
  std::vector<Fr>().swap(lag);
  phase("QAP at tau");

  ProvingKey pk;
  pk.layout = options.layout;
  pk.lg_n = lg_n;
  pk.num_inputs = circuit.num_inputs();
  pk.num_aux = circuit.num_aux();
  r1cs::DensityBitmaps d = r1cs::compute_density(circuit, {.include_input_rows = true}, &pool);
  pk.a_density = concat_bitmaps(d.a_input, d.a_aux);
  pk.b_density = concat_bitmaps(d.b_input, d.b_aux);

  Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  std::vector<Fr> ic(pk.num_inputs), l(pk.num_aux);
  pool.parallel_for(circuit.num_vars(), 1 << 14, [&](size_t lo, size_t hi) {
    for (size_t j = lo; j < hi; ++j) {
      Fr k = tw.beta * q.u[j] + tw.alpha * q.v[j] + q.w[j];
      if (j < pk.num_inputs) ic[j] = k * gamma_inv;
      else l[j - pk.num_inputs] = k * delta_inv;
    }
  });
  if (options.layout == KeyLayout::kBellperson) {
    for (uint64_t j = 0; j < l.size(); ++j)
      if (l[j].is_zero()) return invalid_argument("dev setup: L point of aux variable " + std::to_string(j) + " would be infinity (the variable is unconstrained)");
  }
  std::vector<Fr> a = select_by_density(q.u, pk.a_density);
  std::vector<Fr> b = select_by_density(q.v, pk.b_density);
  std::vector<Fr> h = h_scalars(options.layout, tw.tau, lg_n, delta_inv, pool);
  q = QapAtTau{};
  phase("scalars");

  ec::FixedBaseTable<ec::G1Curve> g1(ec::g1_generator());
  ec::FixedBaseTable<ec::G2Curve> g2(ec::g2_generator());
  size_t total = ic.size() + l.size() + a.size() + 2 * b.size() + h.size(), done = 0;
  auto progress = [&](size_t k) {
    done += k;  // parallel_for chunks run concurrently; progress is approximate
    if (options.progress) options.progress(double(done) / double(total ? total : 1));
  };
  std::mutex progress_mu;
  auto tick = [&](size_t k) {
    std::lock_guard<std::mutex> lock(progress_mu);
    progress(k);
  };
  auto mul_g1 = [&](std::vector<Fr>& k, std::vector<G1Affine>* out) -> Status {
    if (options.fixed_base_g1) {
      ASSIGN_OR_RETURN(*out, options.fixed_base_g1(k));
      tick(k.size());
    } else {
      *out = fixed_base_batch(g1, k, pool, tick);
    }
    std::vector<Fr>().swap(k);
    return ok_status();
  };
  phase("tables");
  pk.vk.ic = fixed_base_batch(g1, ic, pool, tick);
  RETURN_IF_ERROR(mul_g1(l, &pk.l));
  RETURN_IF_ERROR(mul_g1(a, &pk.a));
  if (options.fixed_base_g2) {
    ASSIGN_OR_RETURN(pk.b_g2, options.fixed_base_g2(b));
    tick(b.size());
  } else {
    pk.b_g2 = fixed_base_batch(g2, b, pool, tick);
  }
  phase("IC, L, A, B2 points");
  RETURN_IF_ERROR(mul_g1(b, &pk.b_g1));
  RETURN_IF_ERROR(mul_g1(h, &pk.h));
  phase("B1, H points");

  pk.vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
  pk.vk.beta_g1 = g1.mul(tw.beta).to_affine();
  pk.vk.beta_g2 = g2.mul(tw.beta).to_affine();
  pk.vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
  pk.vk.delta_g1 = g1.mul(tw.delta).to_affine();
  pk.vk.delta_g2 = g2.mul(tw.delta).to_affine();
  RETURN_IF_ERROR(pk.check_shape());
  CUZK_LOG(Info) << "development setup of domain 2^" << lg_n << ": " << phases;
  return pk;
}

}  // namespace cuzk::groth16
