// Radix-2 evaluation domains of the scalar field, with roots of unity chosen exactly as snarkjs /
// ffjavascript do: r - 1 = 2^s·t, w[s] = 5^t (5 is the smallest quadratic non-residue, used for BLS12-381
// too), w[k-1] = w[k]². Proofs against snarkjs keys depend on this particular choice of root.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ff/field.hpp"

namespace cuzk::poly {

template <class Fr>
Fr root_of_unity(std::size_t log_n) {
  if (log_n > Fr::two_adicity())
    throw std::invalid_argument("domain 2^" + std::to_string(log_n) + " exceeds the field's 2-adicity 2^" +
                                std::to_string(Fr::two_adicity()));
  static const Fr w_max = Fr::from_u64(5).pow(Fr::two_adic_cofactor());
  Fr w = w_max;
  for (std::size_t k = Fr::two_adicity(); k > log_n; --k) w = w.sqr();
  return w;
}

// The same from another generator g: w[s] = g^t. bellperson (Filecoin) uses g = 7 for BLS12-381 Fr, so its
// domains have other roots than snarkjs's, and a .params key fixes which.
template <class Fr>
Fr root_of_unity_from(std::uint64_t g, std::size_t log_n) {
  if (log_n > Fr::two_adicity())
    throw std::invalid_argument("domain 2^" + std::to_string(log_n) + " exceeds the field's 2-adicity");
  Fr w = Fr::from_u64(g).pow(Fr::two_adic_cofactor());
  for (std::size_t k = Fr::two_adicity(); k > log_n; --k) w = w.sqr();
  return w;
}

template <class Fr>
struct Domain {
  std::size_t log_n = 0, n = 1;
  Fr omega, omega_inv, n_inv;

  explicit Domain(std::size_t log_size) : Domain(log_size, root_of_unity<Fr>(log_size)) {}
  Domain(std::size_t log_size, const Fr& root)
      : log_n(log_size),
        n(std::size_t(1) << log_size),
        omega(root),
        omega_inv(omega.inverse()),
        n_inv(Fr::from_u64(n).inverse()) {}

  // Smallest domain with at least `size` points.
  static Domain at_least(std::size_t size) {
    std::size_t k = 0;
    while ((std::size_t(1) << k) < size) ++k;
    return Domain(k);
  }
};

}  // namespace cuzk::poly
