#pragma once
// Vectorisable exp for the SE kernel matrices of the marginal-likelihood fit (R&W eq. 5.8 needs
// n (n + 1) / 2 of them per evaluation; libm's exp is called one element at a time). Cephes
// exp.c: x = k ln 2 + r with a two-part Cody-Waite reduction, exp(r) = 1 + 2 r P(r^2) /
// (Q(r^2) - r P(r^2)), then the exponent k added to the bits. Relative error about 1 ulp
// (against std::exp within 4e-16); 0 below -708 (where the true value is < 1e-307), infinity
// above 709, NaN for NaN.
#include <cstddef>

namespace fbosim::gp {

/// e[i] = exp(a[i]) for i < n. The arrays may be the same but must not overlap otherwise.
void fast_exp(const double* a, double* e, std::ptrdiff_t n);

}  // namespace fbosim::gp
