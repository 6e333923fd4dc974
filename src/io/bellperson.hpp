// Filecoin / bellperson Groth16 parameter files (../shared/reference/filecoin-formats.md §2):
//
//   .params: α1 β1 β2 γ2 δ1 δ2 (uncompressed zcash points), u32-BE ic_len, ic[ic_len],
//            then h, l, a, b_g1 (G1) and b_g2 (G2), each as u32-BE count + uncompressed points
//   .vk:     the first 868 + 96·ic_len bytes of the same layout
//
// No magic, no version, no padding. The reader memory-maps the file and decodes the big vectors in
// parallel. Checks: every coordinate canonical and every point on its curve; the verifying key and ic
// also in the prime-order subgroup (always), the big vectors only when asked (one scalar multiplication
// per point); infinity is rejected in ic, h, l, a, b_g1 and b_g2; h_len must be 2^k − 1; b_g1 and b_g2
// must have the same length. Errors are io::FormatError naming the file, the vector, the index and the
// byte offset. Bytes after b_g2 are ignored (ceremony files carry an MPC trailer there).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ec/bls12_381.hpp"
#include "io/host_array.hpp"

namespace cuzk::io::bellperson {

using G1 = Bls12_381::G1;
using G2 = Bls12_381::G2;

struct VerifyingKey {
  G1 alpha1, beta1;
  G2 beta2, gamma2;
  G1 delta1;
  G2 delta2;
  std::vector<G1> ic;  // one per public input, ONE included
  bool operator==(const VerifyingKey&) const = default;
};

struct Params {
  VerifyingKey vk;
  // The big arrays: owned, or views of a shared key image (io/host_array.hpp).
  HostArray<G1> h;        // m − 1 points, m = the FFT domain
  HostArray<G1> l;        // one per aux variable
  HostArray<G1> a, b_g1;  // inputs then aux with a non-zero A (B) polynomial
  HostArray<G2> b_g2;
  // The vectors' lengths; read with `verifying_only`, the vectors stay empty and only these are kept.
  struct Lengths {
    std::size_t h = 0, l = 0, a = 0, b = 0;  // b: of b_g1 and b_g2
    bool operator==(const Lengths&) const = default;
  };
  std::optional<Lengths> lengths_only;
  Lengths lengths() const {
    return lengths_only ? *lengths_only : Lengths{h.size(), l.size(), a.size(), b_g1.size()};
  }
  bool operator==(const Params&) const = default;
};

// verifying_only: the verifying key and the vectors' lengths, the points stepped over (not decoded, not
// held): what a process that only checks proofs and assignments needs (engine.isolation = "process").
// `arrays`: where the big arrays go (a key image being built, io/key_image.hpp); the heap when null.
Params read_params(const std::string& path, bool check_subgroup = false, bool verifying_only = false,
                   ArraySource* arrays = nullptr);
VerifyingKey read_vk(const std::string& path);

void write_params(const std::string& path, const Params& params);
void write_vk(const std::string& path, const VerifyingKey& vk);

// 888 + 96·(ic + h + l + a + b_g1) + 192·b_g2 bytes.
std::size_t params_size(const Params& p);

}  // namespace cuzk::io::bellperson
