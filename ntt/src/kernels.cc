#include "kernels.h"

#include "fr_arith.h"

namespace cuzk::ntt::internal {
namespace {

using ff::Fr;

// One DIF butterfly column pair: a[k] and b[k] for k < batch.
template <class A>
inline void dif_pair(Fr* a, Fr* b, size_t batch, const Fr& w, bool unit) {
  for (size_t k = 0; k < batch; ++k) {
    Fr u = a[k], v = b[k];
    a[k] = A::add(u, v);
    b[k] = unit ? A::sub(u, v) : A::mul(A::sub(u, v), w);
  }
}

template <class A>
inline void dit_pair(Fr* a, Fr* b, size_t batch, const Fr& w, bool unit) {
  for (size_t k = 0; k < batch; ++k) {
    Fr u = a[k], v = unit ? b[k] : A::mul(b[k], w);
    a[k] = A::add(u, v);
    b[k] = A::sub(u, v);
  }
}

// Contiguous single sequences (rows): the hot case, kept free of the batch loop.
template <class A>
void dif_contiguous(Fr* x, size_t n, const Fr* stage) {
  for (size_t h = n / 2; h >= 1; h /= 2) {
    const Fr* w = stage + h;
    for (size_t s = 0; s < n; s += 2 * h) {
      Fr* a = x + s;
      Fr* b = a + h;
      Fr u = a[0], v = b[0];
      a[0] = A::add(u, v);
      b[0] = A::sub(u, v);
      for (size_t j = 1; j < h; ++j) {
        u = a[j];
        v = b[j];
        a[j] = A::add(u, v);
        b[j] = A::mul(A::sub(u, v), w[j]);
      }
    }
  }
}

template <class A>
void dit_contiguous(Fr* x, size_t n, const Fr* stage) {
  for (size_t h = 1; h < n; h *= 2) {
    const Fr* w = stage + h;
    for (size_t s = 0; s < n; s += 2 * h) {
      Fr* a = x + s;
      Fr* b = a + h;
      Fr u = a[0], v = b[0];
      a[0] = A::add(u, v);
      b[0] = A::sub(u, v);
      for (size_t j = 1; j < h; ++j) {
        u = a[j];
        v = A::mul(b[j], w[j]);
        a[j] = A::add(u, v);
        b[j] = A::sub(u, v);
      }
    }
  }
}

template <class A>
void dif_strided(Fr* x, int lg, size_t stride, size_t batch, const Fr* stage) {
  size_t n = size_t(1) << lg;
  if (batch == 1 && stride == 1) return dif_contiguous<A>(x, n, stage);
  for (size_t h = n / 2; h >= 1; h /= 2) {
    const Fr* w = stage + h;
    for (size_t s = 0; s < n; s += 2 * h) {
      for (size_t j = 0; j < h; ++j) {
        dif_pair<A>(x + (s + j) * stride, x + (s + j + h) * stride, batch, w[j], j == 0);
      }
    }
  }
}

template <class A>
void dit_strided(Fr* x, int lg, size_t stride, size_t batch, const Fr* stage) {
  size_t n = size_t(1) << lg;
  if (batch == 1 && stride == 1) return dit_contiguous<A>(x, n, stage);
  for (size_t h = 1; h < n; h *= 2) {
    const Fr* w = stage + h;
    for (size_t s = 0; s < n; s += 2 * h) {
      for (size_t j = 0; j < h; ++j) {
        dit_pair<A>(x + (s + j) * stride, x + (s + j + h) * stride, batch, w[j], j == 0);
      }
    }
  }
}

template <class A>
void powers_impl(Fr* x, size_t len, const Fr& w, const Fr* scale) {
  constexpr size_t kSpan = 8;
  Fr table[kSpan];  // table[i] = s·w^i
  table[0] = scale ? *scale : Fr::one();
  for (size_t i = 1; i < kSpan; ++i) table[i] = A::mul(table[i - 1], w);
  Fr w8 = w.pow(kSpan);
  Fr block = Fr::one();  // w^(8k)
  size_t c = 0;
  for (; c + kSpan <= len; c += kSpan) {  // the running power advances once per 8
    for (size_t i = 0; i < kSpan; ++i) x[c + i] = A::mul(x[c + i], A::mul(table[i], block));
    block = A::mul(block, w8);
  }
  for (size_t i = 0; c + i < len; ++i) x[c + i] = A::mul(x[c + i], A::mul(table[i], block));
}

template <class A>
void scaled_table_impl(Fr* x, size_t len, const Fr* table, const Fr& s) {
  for (size_t i = 0; i < len; ++i) x[i] = A::mul(x[i], A::mul(table[i], s));
}

}  // namespace

void dif(Fr* x, int lg, size_t stride, size_t batch, const Fr* stage) {
  if (has_adx()) return dif_strided<AdxArith>(x, lg, stride, batch, stage);
  dif_strided<PortableArith>(x, lg, stride, batch, stage);
}

void dit(Fr* x, int lg, size_t stride, size_t batch, const Fr* stage) {
  if (has_adx()) return dit_strided<AdxArith>(x, lg, stride, batch, stage);
  dit_strided<PortableArith>(x, lg, stride, batch, stage);
}

void mul_by_powers(Fr* x, size_t len, const Fr& w, const Fr* scale) {
  if (has_adx()) return powers_impl<AdxArith>(x, len, w, scale);
  powers_impl<PortableArith>(x, len, w, scale);
}

void mul_by_scaled_table(Fr* x, size_t len, const Fr* table, const Fr& s) {
  if (has_adx()) return scaled_table_impl<AdxArith>(x, len, table, s);
  scaled_table_impl<PortableArith>(x, len, table, s);
}

}  // namespace cuzk::ntt::internal

