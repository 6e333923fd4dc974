#include <chrono>
#include <iomanip>
#include <iostream>
#include <stdexcept>

#include "cli/commands.hpp"
#include "ff/encoding.hpp"
#include "ff/random.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "io/curve_id.hpp"
#include "io/json.hpp"
#include "io/wtns.hpp"
#include "io/zkey.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#include "cuda/stream.hpp"
#include "groth16/gpu_prover.hpp"
#endif

namespace cuzk::cli {

namespace {

template <class Fr>
std::pair<Fr, Fr> parse_randomness(const std::string& text) {
  auto comma = text.find(',');
  if (comma == std::string::npos)
    throw std::invalid_argument("--randomness expects r,s (two decimal numbers)");
  auto r = ff::from_decimal<Fr>(text.substr(0, comma));
  auto s = ff::from_decimal<Fr>(text.substr(comma + 1));
  if (!r || !s)
    throw std::invalid_argument("--randomness: r and s must be decimal integers below the group order");
  return {*r, *s};
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string resolve_backend(const std::string& requested) {
#ifdef CUZK_HAVE_CUDA
  const bool have_gpu = cuda::device_count() > 0;
  if (requested == "cuda" && !have_gpu)
    throw std::runtime_error("--backend cuda: no CUDA device is available on this machine");
  if (requested == "auto") return have_gpu ? "cuda" : "cpu";
  return requested;
#else
  if (requested == "cuda")
    throw std::runtime_error("--backend cuda: this build of cuzk has no CUDA backend (built without nvcc)");
  return "cpu";
#endif
}

int run_prove(const ProveArgs& args) {
  const auto key_curve = io::peek_curve(args.zkey);
  const auto wtns_curve = io::peek_curve(args.wtns);
  if (key_curve != wtns_curve)
    throw std::invalid_argument(args.wtns + " is a " + std::string(io::curve_display_name(wtns_curve)) +
                                " witness but " + args.zkey + " is a " +
                                std::string(io::curve_display_name(key_curve)) + " key");
  return io::with_curve(key_curve, [&]<class C>() {
    using Fr = typename C::Fr;
    auto t0 = std::chrono::steady_clock::now();
    const auto pk = io::read_zkey<C>(args.zkey);
    const auto witness = io::read_wtns<C>(args.wtns);
    const double load_ms = ms_since(t0);

    auto [r, s] = args.randomness ? parse_randomness<Fr>(*args.randomness)
                                  : std::pair{ff::random_nonzero_os<Fr>(), ff::random_nonzero_os<Fr>()};
    const std::string backend = resolve_backend(args.backend);
    groth16::StageTimings timings;
    groth16::Proof<C> proof;
    if (backend == "cpu") {
      proof = groth16::prove(pk, witness, r, s, &timings);
    } else {
#ifdef CUZK_HAVE_CUDA
      cuda::Stream stream;
      auto tu = std::chrono::steady_clock::now();
      groth16::gpu::ResidentKey<C> key(pk, stream.get());
      timings.stages_ms.emplace_back("upload_key", ms_since(tu));
      proof = groth16::gpu::prove(pk, key, witness, r, s, stream.get(), &timings);
#endif
    }
    const std::vector<Fr> public_inputs(witness.begin() + 1, witness.begin() + 1 + pk.n_public);

    double verify_ms = 0;
    if (args.self_verify) {
      auto tv = std::chrono::steady_clock::now();
      auto result = groth16::verify(pk.verifying_key(), public_inputs, proof);
      verify_ms = ms_since(tv);
      if (!result.valid)
        throw std::runtime_error("the proof does not verify (" + result.reason +
                                 "): the witness does not satisfy the circuit's constraints, or it was "
                                 "computed for another circuit; nothing was written");
    }
    io::write_proof<C>(args.proof_out, proof);
    io::write_public<C>(args.public_out, public_inputs);

    if (args.verbose) {
      std::cerr << std::fixed << std::setprecision(1) << "cuzk prove: " << C::display_name << ", backend "
                << backend << ", nVars " << pk.n_vars << ", domain " << pk.domain_size << "\n"
                << "  load_ms " << load_ms << "\n";
      for (const auto& [name, ms] : timings.stages_ms) std::cerr << "  " << name << "_ms " << ms << "\n";
      std::cerr << "  self_verify_ms " << verify_ms << "\n";
    }
    std::cerr << std::fixed << std::setprecision(1) << "cuzk: proof written (" << C::display_name << ", "
              << backend << ", " << timings.total_ms() << " ms proving, " << verify_ms << " ms self-check)\n";
    return static_cast<int>(kOk);
  });
}

}  // namespace cuzk::cli
