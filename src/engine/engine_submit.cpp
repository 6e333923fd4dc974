// What Engine::submit checks and queues: a request's witnesses (inline ones decoded and checked against the
// key now, files by their headers), or its Filecoin vanilla proofs (decoded and checked, synthesized later
// by each partition), against the circuit's key; then the job, its partitions and its place in the queue.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdio>

#include "engine/engine.hpp"
#include "engine/engine_state.hpp"
#include "filecoin/circuit_catalog.hpp"
#include "filecoin/vanilla_job.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/prover.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/error.hpp"
#include "io/json.hpp"
#include "io/wtns.hpp"

namespace cuzk::engine {

// "<what> of partition i (path)", once the witness's size (inline or on disk) is known to be within the
// limit.
std::string Engine::sized_witness(const SubmitRequest& req, std::size_t i, const char* what) const {
  const bool by_path = !req.witness_paths.empty();
  const std::string label = std::string(what) + " of partition " + std::to_string(i) +
                            (by_path ? " (" + req.witness_paths[i] + ")" : "");
  std::error_code ec;
  const std::size_t bytes =
      by_path ? std::filesystem::file_size(req.witness_paths[i], ec) : req.witnesses[i].size();
  if (ec) throw RequestError(label + ": " + ec.message());
  if (bytes > config_.max_witness_bytes)
    throw RequestError(label + " is " + std::to_string(bytes) + " bytes, over the " +
                       std::to_string(config_.max_witness_bytes) + "-byte limit (engine.max_witness_bytes)");
  return label;
}

// A bellperson circuit's partition witnesses are binary assignments (io/bellperson_assignment.hpp): inline
// ones are decoded and checked against the key now, files by their header (and decoded when they run).
std::vector<groth16::bellperson::Assignment> Engine::check_assignments(const io::bellperson::Params& params,
                                                                       SubmitRequest& req) const {
  const bool by_path = !req.witness_paths.empty();
  const std::size_t parts = by_path ? req.witness_paths.size() : req.witnesses.size();
  std::vector<groth16::bellperson::Assignment> out(by_path ? 0 : parts);
  tbb::parallel_for(std::size_t(0), parts, [&](std::size_t i) {
    const std::string label = sized_witness(req, i, "assignment");
    try {
      if (by_path) {
        const auto h = io::bellperson_assignment::peek(req.witness_paths[i]);
        groth16::bellperson::check_sizes(params, h.abc_size, h.inputs_size, h.aux_size);
      } else {
        out[i] = io::bellperson_assignment::read_bytes(std::move(req.witnesses[i]), label);
        groth16::bellperson::check(params, out[i]);
      }
    } catch (const io::FormatError& e) {
      throw RequestError(e.what());
    } catch (const groth16::bellperson::Error& e) {
      throw RequestError(label + ": " + e.what());
    }
  });
  return out;
}

std::shared_ptr<const filecoin::VanillaJob> Engine::read_vanilla_job(SubmitRequest& req) const {
  if (!req.witnesses.empty() || !req.witness_paths.empty())
    throw RequestError("a vanilla-proof job brings its vanilla proofs, not witnesses");
  std::shared_ptr<const filecoin::VanillaJob> in;
  try {
    in = filecoin::read_vanilla_job(*req.vanilla);
  } catch (const std::exception& e) {
    throw RequestError(e.what());
  }
  req.vanilla.reset();
  if (req.circuit_id.empty()) req.circuit_id = in->circuit().id;
  return in;
}

namespace {
// A vanilla-proof job's circuit must be a bellperson key of the size its circuit synthesizes.
void check_vanilla_key(const Circuit& circuit, const filecoin::VanillaJob& in) {
  if (!circuit.bellperson())
    throw RequestError("circuit '" + circuit.id + "' is not a bellperson (Filecoin .params) circuit; " +
                       in.describe() + " needs Filecoin's parameters (" + in.circuit().description + ")");
  const auto size = in.size();
  try {
    groth16::bellperson::check_sizes(std::get<io::bellperson::Params>(circuit.key), size.prover_rows,
                                     size.inputs, size.aux);
  } catch (const groth16::bellperson::Error& e) {
    throw RequestError("circuit '" + circuit.id + "' is not the key of " + in.circuit().description + " (" +
                       e.what() + ")");
  }
}
}  // namespace

Engine::Submitted Engine::submit(SubmitRequest req) {
  if (req.request_id.size() > 256) throw RequestError("request_id is longer than 256 characters");
  // The request as it came, for the worker processes (read_vanilla_job consumes it).
  const std::shared_ptr<const filecoin::VanillaRequest> vanilla_request = req.vanilla;
  if (req.vanilla_job && (req.vanilla || !req.witnesses.empty() || !req.witness_paths.empty()))
    throw RequestError("a vanilla-proof job brings its vanilla proofs once, and no witnesses");
  const auto vanilla = req.vanilla_job ? req.vanilla_job : req.vanilla ? read_vanilla_job(req) : nullptr;
  if (vanilla && req.circuit_id.empty()) req.circuit_id = vanilla->circuit().id;
  if (req.vanilla_partition && !vanilla)
    throw RequestError("vanilla_partition names a partition of vanilla proofs, and the job has none");
  if (req.vanilla_partition && *req.vanilla_partition >= vanilla->partitions())
    throw RequestError("partition " + std::to_string(*req.vanilla_partition) + " of " + vanilla->describe() +
                       ", which has " + std::to_string(vanilla->partitions()));
  std::shared_ptr<const Circuit> circuit;
  try {
    circuit = repository_.acquire(req.circuit_id);
  } catch (const RepositoryError& e) {
    throw RequestError(e.what());
  }
  if (vanilla) check_vanilla_key(*circuit, *vanilla);
  const std::uint32_t parts = vanilla                ? (req.vanilla_partition ? 1 : vanilla->partitions())
                              : req.single_partition ? 1
                                                     : circuit->config.partitions;
  if (!req.witnesses.empty() && !req.witness_paths.empty())
    throw RequestError("a job brings its witnesses either inline or as file paths, not both");
  const std::size_t given = req.witnesses.size() + req.witness_paths.size();
  if (!vanilla && given != parts)
    throw RequestError("circuit '" + circuit->id + "' takes " + std::to_string(parts) + " partition witness" +
                       (parts == 1 ? "" : "es") + " per job; the request has " + std::to_string(given));
  auto job = std::make_shared<Job>();
  job->request_id = req.request_id;
  job->circuit_id = circuit->id;
  job->circuit = circuit;
  job->priority = req.priority.value_or(circuit->config.priority);
  job->parts.resize(parts);
  job->unfinished = parts;
  // A worker process reads witnesses from files: inline ones go to spool files first (removed with the job,
  // or now if the request is refused).
  if (!processes_.empty() && !req.witnesses.empty()) job->spooled = spool(req);
  struct SpoolGuard {
    Job& job;
    bool keep = false;
    ~SpoolGuard() {
      if (!keep) job.release_inputs();
    }
  } spool_guard{*job};
  // Parse and check every witness now, so a malformed one is this client's error, not a failed job. Files
  // are only checked (header, length, first value): decoded when their partition runs, so a queued job
  // does not hold ten PoRep-size witnesses in memory.
  if (vanilla) {
    job->vanilla = vanilla;
    job->vanilla_first = req.vanilla_partition.value_or(0);
    job->kind = filecoin::to_string(vanilla->circuit().kind);
    // Worker processes synthesize the partitions they prove from the request itself (in a spool file).
    if (!processes_.empty()) {
      if (!vanilla_request) throw RequestError("a worker process's engine takes vanilla proofs as a request");
      job->vanilla_file = spool_vanilla(*vanilla_request);
    }
  } else if (circuit->bellperson())
    job->witnesses = check_assignments(std::get<io::bellperson::Params>(circuit->key), req);
  else
    io::with_curve(circuit->curve, [&]<class C>() {
      const auto& pk = std::get<groth16::ProvingKey<C>>(circuit->key);
      Witnesses<C> ws(req.witness_paths.empty() ? parts : 0);
      tbb::parallel_for(std::uint32_t(0), parts, [&](std::uint32_t i) {
        const bool by_path = !req.witness_paths.empty();
        const std::string label = sized_witness(req, i, "witness");
        try {
          if (by_path) {
            const auto s = io::peek_wtns<C>(req.witness_paths[i]);
            groth16::check_witness_shape(pk, s.count, s.first);
          } else {
            ws[i] = io::read_wtns_bytes<C>(std::move(req.witnesses[i]), label);
            if (circuit->verifying_only)  // no point arrays to check them against: the worker process does
              groth16::check_witness_shape(pk, ws[i].size(), ws[i].empty() ? C::Fr::zero() : ws[i][0]);
            else
              groth16::check_prove_inputs(pk, ws[i]);
          }
        } catch (const io::FormatError& e) {
          throw RequestError(e.what());
        } catch (const groth16::ProveError& e) {
          throw RequestError(label + ": " + e.what());
        }
      });
      job->witnesses = std::move(ws);
    });
  job->witness_paths = std::move(req.witness_paths);
  if (!job->spooled.empty()) {
    job->witnesses = {};  // checked; the worker process decodes its own copy
    job->witness_paths = job->spooled;
  }

  std::size_t position = 0;
  {
    std::lock_guard lock(mutex_);
    if (!accepting_) throw RequestError("the daemon is shutting down and accepts no new jobs");
    job->seq = next_seq_++;
    job->id = std::to_string(job->seq) + (req.request_id.empty() ? "" : "-" + req.request_id);
    position = scheduler_.position_for(job->priority);
    jobs_[job->seq] = job;
    forget_old_jobs();
    for (std::uint32_t i = 0; i < parts; ++i) scheduler_.push({job->seq, i, job->priority});
  }
  spool_guard.keep = true;
  return {job->id, position};
}

}  // namespace cuzk::engine
