// Groth16 data: proving key (as snarkjs lays it out), verification key, proof.
#pragma once

#include <cstdint>
#include <vector>

#include "io/host_array.hpp"

namespace cuzk::groth16 {

// One non-zero entry of the A or B matrix, value already decoded to a field element (snarkjs stores
// value·R² in the .zkey; the reader removes that factor).
template <class Curve>
struct MatrixEntry {
  std::uint32_t matrix;      // 0 = A, 1 = B
  std::uint32_t constraint;  // row
  std::uint32_t signal;      // column (wire)
  typename Curve::Fr value;
};

template <class Curve>
struct VerifyingKey {
  using G1 = typename Curve::G1;
  using G2 = typename Curve::G2;
  G1 alpha1;
  G2 beta2, gamma2, delta2;
  std::vector<G1> ic;  // nPublic + 1 points
  std::uint32_t n_public() const { return static_cast<std::uint32_t>(ic.size() - 1); }
};

template <class Curve>
struct ProvingKey {
  using G1 = typename Curve::G1;
  using G2 = typename Curve::G2;
  std::uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  G1 alpha1, beta1, delta1;
  G2 beta2, gamma2, delta2;
  std::vector<G1> ic;                     // nPublic + 1
  // The big arrays: owned, or views of a shared key image (io/host_array.hpp).
  io::HostArray<MatrixEntry<Curve>> coefs;  // A and B entries incl. the public-input binding rows
  io::HostArray<G1> a, b1;                  // nVars
  io::HostArray<G2> b2;                     // nVars
  io::HostArray<G1> c;                      // nVars - nPublic - 1
  io::HostArray<G1> h;                      // domainSize (odd-coset Lagrange points / δ)

  VerifyingKey<Curve> verifying_key() const { return {alpha1, beta2, gamma2, delta2, ic}; }
};

template <class Curve>
struct Proof {
  typename Curve::G1 a;
  typename Curve::G2 b;
  typename Curve::G1 c;
  bool operator==(const Proof&) const = default;
};

}  // namespace cuzk::groth16
