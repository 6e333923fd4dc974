// The C ABI (include/cuzk/cuzk.h) over groth16::bellperson: every exception stops at this boundary and
// becomes a status and a message.
#include <tbb/parallel_invoke.h>

#include <cstring>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>

#include "cuzk/cuzk.h"
#include "ff/random.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"
#include "io/error.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#include "cuda/error.hpp"
#include "cuda/stream.hpp"
#include "groth16/gpu_bellperson.hpp"
#endif

namespace bp = cuzk::groth16::bellperson;
using bp::Fr;

// The ABI's scalar is the engine's scalar byte for byte (4 limbs, Montgomery with R = 2^256).
static_assert(sizeof(cuzk_fr) == sizeof(Fr) && std::is_standard_layout_v<Fr> && Fr::N == 4);

struct cuzk_engine {
  std::string backend;  // "cpu" or "cuda" (what "auto" resolved to)
};

struct cuzk_params {
  cuzk::io::bellperson::Params params;
#ifdef CUZK_HAVE_CUDA
  // Prepared on GPU 0 by the first GPU proof and kept for the next ones (points resident where they fit),
  // so a caller proving partition after partition does not upload the key each time. Read-only once made:
  // threads proving at once share it, each on its own stream.
  mutable std::mutex gpu_key_mutex;
  mutable std::shared_ptr<const bp::gpu::ResidentKey> gpu_key;
#endif
};

namespace {

struct Failure {
  cuzk_status status;
  std::string message;
};

void set_error(char** error, const std::string& message) {
  if (!error) return;
  *error = static_cast<char*>(std::malloc(message.size() + 1));
  if (*error) std::memcpy(*error, message.c_str(), message.size() + 1);
}

// Runs `body`, translating every way it can fail into a status (and a message when asked for).
template <class Body>
cuzk_status guarded(char** error, Body&& body) {
  if (error) *error = nullptr;
  try {
    body();
    return CUZK_OK;
  } catch (const Failure& f) {
    set_error(error, f.message);
    return f.status;
  } catch (const bp::Error& e) {
    set_error(error, e.what());
    return CUZK_ERR_INVALID_ARGUMENT;
  } catch (const cuzk::io::FormatError& e) {
    set_error(error, e.what());
    return CUZK_ERR_FORMAT;
  } catch (const std::bad_alloc&) {
    set_error(error, "out of memory");
    return CUZK_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_error(error, e.what());
    return CUZK_ERR_INTERNAL;
  } catch (...) {
    set_error(error, "unknown error");
    return CUZK_ERR_INTERNAL;
  }
}

void require(bool ok, const std::string& what) {
  if (!ok) throw Failure{CUZK_ERR_INVALID_ARGUMENT, what};
}

const Fr* fr(const cuzk_fr* p) {
  return reinterpret_cast<const Fr*>(p);
}

std::vector<Fr> values(const cuzk_fr* p, std::size_t n, const std::string& what) {
  require(p || n == 0, what + " is NULL");
  return n ? std::vector<Fr>(fr(p), fr(p) + n) : std::vector<Fr>{};
}

bp::Density density(const cuzk_density& d, const std::string& what) {
  require(d.words || d.bit_len == 0, what + ".words is NULL");
  bp::Density out;
  out.bits = d.bit_len;
  out.words.assign(d.words, d.words + (d.bit_len + 63) / 64);
  if (d.bit_len % 64) out.words.back() &= (std::uint64_t{1} << (d.bit_len % 64)) - 1;  // bits past the end
  require(out.popcount() == d.popcount, what + ": popcount " + std::to_string(d.popcount) +
                                            " but the bitmap has " + std::to_string(out.popcount()) +
                                            " bits set");
  return out;
}

bp::Assignment assignment(const cuzk_assignment& a, std::size_t k) {
  const std::string p = "partition " + std::to_string(k) + ": ";
  bp::Assignment w;
  // The big four copied at once (17 GB at 32 GiB PoRep: a copy into a new vector faults its pages in on one
  // core), after their pointers are checked, so a NULL is reported before any copy starts.
  require(a.a || a.abc_size == 0, p + "a is NULL");
  require(a.b || a.abc_size == 0, p + "b is NULL");
  require(a.c || a.abc_size == 0, p + "c is NULL");
  require(a.aux || a.aux_size == 0, p + "aux is NULL");
  w.inputs = values(a.inputs, a.inputs_size, p + "inputs");
  tbb::parallel_invoke(
      [&] { w.a = values(a.a, a.abc_size, p + "a"); }, [&] { w.b = values(a.b, a.abc_size, p + "b"); },
      [&] { w.c = values(a.c, a.abc_size, p + "c"); }, [&] { w.aux = values(a.aux, a.aux_size, p + "aux"); });
  w.a_aux = density(a.a_aux, p + "a_aux");
  w.b_inputs = density(a.b_inputs, p + "b_inputs");
  w.b_aux = density(a.b_aux, p + "b_aux");
  return w;
}

// One partition on the engine's backend. On the GPU, a CUDA failure (out of memory, a lost context) falls
// back to the CPU: the caller gets a proof, checked like every other, rather than an error it cannot act on.
cuzk::groth16::Proof<bp::Curve> prove_one(const cuzk_engine& engine, const cuzk_params& p,
                                          const bp::Assignment& w, const Fr& r, const Fr& s) {
#ifdef CUZK_HAVE_CUDA
  if (engine.backend == "cuda") {
    try {
      cuzk::cuda::select_device(0);
      cuzk::cuda::Stream stream;
      std::shared_ptr<const bp::gpu::ResidentKey> key;
      {
        std::lock_guard lock(p.gpu_key_mutex);
        if (!p.gpu_key) p.gpu_key = std::make_shared<const bp::gpu::ResidentKey>(p.params, stream.get());
        key = p.gpu_key;
      }
      return bp::gpu::prove(p.params, *key, w, r, s, stream.get());
    } catch (const cuzk::cuda::CudaError&) {
      // The next GPU proof prepares the key afresh (this one may have died with a context); proofs still
      // running with it keep their reference.
      std::lock_guard lock(p.gpu_key_mutex);
      p.gpu_key.reset();
    }
  }
#else
  (void)engine;
#endif
  return bp::prove(p.params, w, r, s);
}

}  // namespace

extern "C" {

const char* cuzk_version(void) {
  return "cuzk 0.1.0";
}

cuzk_status cuzk_engine_create(const char* backend, cuzk_engine** out, char** error) {
  return guarded(error, [&] {
    require(out != nullptr, "out is NULL");
    std::string b = backend ? backend : "cpu";
    require(b == "cpu" || b == "cuda" || b == "auto",
            "backend must be \"cpu\", \"cuda\" or \"auto\", not \"" + b + "\"");
    int gpus = 0;
#ifdef CUZK_HAVE_CUDA
    try {
      gpus = cuzk::cuda::device_count();
    } catch (const cuzk::cuda::CudaError&) {
    }
#endif
    if (b == "auto") b = gpus > 0 ? "cuda" : "cpu";
    if (b == "cuda" && gpus == 0)
      throw Failure{CUZK_ERR_NO_DEVICE,
                    "backend \"cuda\": no usable CUDA device (or this build has no CUDA backend)"};
    *out = new cuzk_engine{b};
  });
}

void cuzk_engine_destroy(cuzk_engine* engine) {
  delete engine;
}

cuzk_status cuzk_params_load(cuzk_engine* engine, const char* path, int check_subgroup, cuzk_params** out,
                             char** error) {
  return guarded(error, [&] {
    require(engine && path && out, "engine, path and out must not be NULL");
    auto params = std::make_unique<cuzk_params>();
    params->params = cuzk::io::bellperson::read_params(path, check_subgroup != 0);
    *out = params.release();
  });
}

void cuzk_params_free(cuzk_params* params) {
  delete params;
}

cuzk_status cuzk_prove(cuzk_engine* engine, const cuzk_params* params, const cuzk_assignment* partitions,
                       size_t count, const cuzk_fr* r, const cuzk_fr* s, uint8_t* proofs_out, char** error) {
  return guarded(error, [&] {
    require(engine && params && proofs_out, "engine, params and proofs_out must not be NULL");
    require(partitions || count == 0, "partitions is NULL");
    require((r == nullptr) == (s == nullptr), "give both r and s, or neither");
    std::vector<std::uint8_t> all;
    // Partition k + 1's vectors are copied in (17 GB at 32 GiB PoRep: seconds) while partition k proves. Its
    // errors surface when its turn comes, after partition k's; the future waits for the copy on every path.
    auto copy_in = [&](std::size_t k) {
      return std::async(std::launch::async, [&, k] { return assignment(partitions[k], k); });
    };
    std::future<bp::Assignment> next;
    if (count > 0) next = copy_in(0);
    for (std::size_t k = 0; k < count; ++k) {
      const bp::Assignment w = next.get();
      if (k + 1 < count) next = copy_in(k + 1);
      const Fr rk = r ? fr(r)[k] : cuzk::ff::random_nonzero_os<Fr>();
      const Fr sk = s ? fr(s)[k] : cuzk::ff::random_nonzero_os<Fr>();
      require(!rk.is_zero() && !sk.is_zero(),
              "partition " + std::to_string(k) + ": r and s must be non-zero");
      cuzk::groth16::Proof<bp::Curve> proof;
      try {
        proof = prove_one(*engine, *params, w, rk, sk);
      } catch (const bp::Error& e) {
        throw Failure{CUZK_ERR_INVALID_ARGUMENT, "partition " + std::to_string(k) + ": " + e.what()};
      }
      const std::vector<Fr> pub(w.inputs.begin() + 1, w.inputs.end());
      if (const auto v = bp::verify(params->params.vk, pub, proof); !v.valid)
        throw Failure{CUZK_ERR_UNSATISFIED, "partition " + std::to_string(k) +
                                                ": the proof does not verify (" + v.reason +
                                                "): the assignment does not satisfy the circuit"};
      const auto bytes = bp::encode_proof(proof);
      all.insert(all.end(), bytes.begin(), bytes.end());
    }
    std::memcpy(proofs_out, all.data(), all.size());
  });
}

cuzk_status cuzk_verify(const cuzk_params* params, const cuzk_fr* inputs, size_t inputs_size,
                        const uint8_t* proof, char** error) {
  return guarded(error, [&] {
    require(params && proof, "params and proof must not be NULL");
    const auto pub = values(inputs, inputs_size, "inputs");
    require(pub.size() + 1 == params->params.vk.ic.size(),
            std::to_string(pub.size()) + " public inputs; the key expects " +
                std::to_string(params->params.vk.ic.size() - 1));
    const auto p = bp::decode_proof(std::span<const std::uint8_t>(proof, 192), "proof", 0);
    if (const auto v = bp::verify(params->params.vk, pub, p); !v.valid)
      throw Failure{CUZK_ERR_INVALID_PROOF, "the proof does not verify: " + v.reason};
  });
}

void cuzk_string_free(char* s) {
  std::free(s);
}

}  // extern "C"
