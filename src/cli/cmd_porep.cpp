// cuzk prove-porep / verify-porep: Filecoin PoRep C2 from a C1 output, one partition after another as the
// daemon proves them (synthesis in evaluation mode, every row checked, the proof checked against the public
// inputs the seed's challenges give), and the check of such a proof (docs/filecoin.md).
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "cli/commands.hpp"
#include "ff/random.hpp"
#include "filecoin/porep_assignment.hpp"
#include "filecoin/porep_c2.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"
#include "io/error.hpp"
#include "io/whole_file.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/stream.hpp"
#include "groth16/gpu_bellperson.hpp"
#endif

namespace cuzk::cli {

namespace bp = groth16::bellperson;

int run_prove_porep(const ProvePorepArgs& args) {
  const auto t0 = std::chrono::steady_clock::now();
  const filecoin::PorepC2Input in = filecoin::read_porep_c1(io::read_whole_file_bytes(args.c1), args.c1);
  const auto params = io::bellperson::read_params(args.params);
  std::cerr << std::fixed << std::setprecision(2) << "cuzk prove-porep: " << in.proof->name << ", "
            << in.partitions.size() << " partition" << (in.partitions.size() == 1 ? "" : "s")
            << "; C1 and key read in " << seconds_since(t0) << " s\n";
  const std::string backend = resolve_backend(args.backend);
#ifdef CUZK_HAVE_CUDA
  std::unique_ptr<cuda::Stream> stream;
  std::unique_ptr<bp::gpu::ResidentKey> key;
  if (backend == "cuda") {
    stream = std::make_unique<cuda::Stream>();
    key = std::make_unique<bp::gpu::ResidentKey>(params, stream->get());
  }
#endif
  std::vector<std::uint8_t> all;  // written only when every partition proved and verified
  for (std::size_t k = 0; k < in.partitions.size(); ++k) {
    const std::string what = "partition " + std::to_string(k);
    const auto ts = std::chrono::steady_clock::now();
    const bp::Assignment w = filecoin::checked_porep_prover_assignment(in.params(), in.partitions[k], what);
    if (!std::equal(in.public_inputs[k].begin(), in.public_inputs[k].end(), w.inputs.begin() + 1))
      throw filecoin::UnsatisfiedCircuit(what + ": the circuit's public inputs are not its challenges'");
    try {
      bp::check(params, w);
    } catch (const bp::Error& e) {
      throw std::invalid_argument(what + ": " + args.params + " is not this circuit's key: " + e.what());
    }
    const double synth_s = seconds_since(ts);
    const auto tp = std::chrono::steady_clock::now();
    const bp::Fr r = ff::random_nonzero_os<bp::Fr>(), s = ff::random_nonzero_os<bp::Fr>();
    groth16::Proof<bp::Curve> proof;
#ifdef CUZK_HAVE_CUDA
    if (key)
      proof = bp::gpu::prove(params, *key, w, r, s, stream->get());
    else
#endif
      proof = bp::prove(params, w, r, s);
    const double prove_s = seconds_since(tp);
    if (const auto v = bp::verify(params.vk, in.public_inputs[k], proof); !v.valid)
      throw std::runtime_error(what + ": the proof does not verify (" + v.reason + "); nothing was written");
    const auto bytes = bp::encode_proof(proof);
    all.insert(all.end(), bytes.begin(), bytes.end());
    std::cerr << "  " << what << ": synthesized and checked in " << synth_s << " s, proved (" << backend
              << ") and verified in " << prove_s << " s\n";
  }
  std::ofstream out(args.proof_out, std::ios::binary);
  out.write(reinterpret_cast<const char*>(all.data()), static_cast<std::streamsize>(all.size()));
  out.close();
  if (!out) throw std::runtime_error("writing " + args.proof_out + " failed");
  std::cerr << "cuzk prove-porep: " << all.size() << " bytes → " << args.proof_out << " in "
            << seconds_since(t0) << " s\n";
  return kOk;
}

int run_verify_porep(const VerifyPorepArgs& args) {
  filecoin::PorepC2Input in;
  io::bellperson::VerifyingKey vk;
  std::vector<groth16::Proof<bp::Curve>> proofs;
  try {
    in = filecoin::read_porep_c1(io::read_whole_file_bytes(args.c1), args.c1);
    vk = io::bellperson::read_vk(args.vk);
    const auto bytes = io::read_whole_file_bytes(args.proof);
    if (bytes.size() != 192 * in.partitions.size())
      throw io::FormatError(args.proof, std::to_string(bytes.size()) + " bytes, not " +
                                            std::to_string(192 * in.partitions.size()) +
                                            " (192 per partition of " + std::string(in.proof->name) + ")");
    for (std::size_t k = 0; k < in.partitions.size(); ++k)
      proofs.push_back(bp::decode_proof(std::span(bytes).subspan(192 * k, 192), args.proof, k));
    if (vk.ic.size() != in.public_inputs[0].size() + 1)
      throw io::FormatError(args.vk, "the key has " + std::to_string(vk.ic.size() - 1) +
                                         " public inputs; the " + in.params().name + " PoRep circuit has " +
                                         std::to_string(in.public_inputs[0].size()));
  } catch (const std::exception& e) {
    std::cerr << "cuzk verify-porep: " << e.what() << "\n";
    return kBadInput;
  }
  for (std::size_t k = 0; k < proofs.size(); ++k)
    if (const auto v = bp::verify(vk, in.public_inputs[k], proofs[k]); !v.valid) {
      std::cout << "INVALID: partition " << k << ": " << v.reason << "\n";
      return kFailed;
    }
  std::cout << "OK: " << in.proof->name << ", " << proofs.size() << " partition proof"
            << (proofs.size() == 1 ? "" : "s") << " verified against the challenges of its seed\n";
  return kOk;
}

}  // namespace cuzk::cli
