// cuzk-bench synth porep --sector-size S [--partitions N] [--mode witness|evaluate|spmv|shape|check|recorded]
//                        [--reps R] [--seed X]
//
// The Filecoin PoRep circuit's synthesis (issue 29), timed:
//   witness  N partitions' assignments from generated vanilla data (filecoin/porep_test_data.hpp, made
//            before the clock starts), all partitions at once as a proof's would be: wall time per proof,
//            per partition, aux values and GB written per second;
//   evaluate what the prover takes, one partition after another as a daemon worker synthesizes them: the
//            assignments and every row's a, b, c computed while the witness is (evaluation mode), then
//            the rows checked (a·b = c); after the first, each partition writes into the first one's
//            memory (bench/reused_buffers.hpp), as a daemon worker writes into its page-locked leases;
//   spmv     the alternative: the circuit recorded once, then per partition the witness and a, b, c as the
//            recorded matrices times it (bellperson's synthesis from a pre-compiled circuit);
//   shape    one partition's counts and densities;
//   check    every row of each partition checked against its values (CheckCS), not timed for speed;
//   recorded the circuit recorded once (record mode), then each partition's witness checked against every
//            row of the recorded matrices, as the prover will use them.
#include <tbb/parallel_for.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>
#include <vector>

#include "filecoin/porep_assignment.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "filecoin/porep_test_data.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/timings.hpp"
#include "reused_buffers.hpp"
#include "synth_post.hpp"
#include "synth_update.hpp"

namespace cuzk::bench {

namespace {

using groth16::seconds_since;

}  // namespace

int run_synth(int argc, char** argv) {
  CLI::App app{"cuzk-bench synth: Filecoin circuit synthesis"};
  auto* porep = app.add_subcommand("porep", "the StackedDRG PoRep partition circuit");
  std::string size = "32GiB", mode = "witness";
  unsigned partitions = 0, reps = 3;
  std::uint64_t seed = 1;
  porep->add_option("--sector-size", size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  porep->add_option("--partitions", partitions, "partitions at once (default: the sector size's)");
  porep->add_option("--mode", mode, "witness, evaluate, spmv, shape, check or recorded")
      ->check(CLI::IsMember({"witness", "evaluate", "spmv", "shape", "check", "recorded"}));
  porep->add_option("--reps", reps, "timed repetitions (witness, shape)")->check(CLI::PositiveNumber);
  porep->add_option("--seed", seed, "seed of the generated vanilla data");
  SynthUpdateArgs update;
  add_synth_update_command(app, update);
  SynthPostArgs post;
  add_synth_post_command(app, post);
  app.require_subcommand(1);
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (static_cast<CLI::App*>(update.command)->parsed()) return run_synth_update(update);
  if (static_cast<CLI::App*>(post.command)->parsed()) return run_synth_post(post);
  const filecoin::PorepParams& params = filecoin::porep_params_for(size);
  if (partitions == 0) partitions = params.partitions;
  std::printf("PoRep %s: %u layers, %u challenges per partition, %u partitions, %u threads\n",
              params.name.c_str(), params.layers, params.challenges_per_partition, partitions,
              std::thread::hardware_concurrency());

  if (mode == "shape") {
    for (unsigned r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const gadgets::Shape s = filecoin::porep_shape(params);
      std::printf("shape: %.3f s  (%llu constraints + %llu input rows, %llu aux)\n", seconds_since(t0),
                  static_cast<unsigned long long>(s.constraints), static_cast<unsigned long long>(s.inputs),
                  static_cast<unsigned long long>(s.aux));
    }
    return 0;
  }

  const auto g0 = std::chrono::steady_clock::now();
  std::vector<filecoin::PorepTestPartition> data(partitions);
  tbb::parallel_for(0u, partitions, [&](unsigned k) {
    data[k] = filecoin::make_test_porep_partition(params, seed, k % params.partitions);
  });
  const auto l0 = std::chrono::steady_clock::now();
  const filecoin::PorepLayout& layout = filecoin::porep_layout(params);
  std::printf("vanilla data generated in %.2f s; layout (a shape run of one challenge) %.2f s\n",
              std::chrono::duration<double>(l0 - g0).count(), seconds_since(l0));

  if (mode == "recorded") {
    const auto r0 = std::chrono::steady_clock::now();
    const gadgets::PrecompiledCircuit pc = filecoin::porep_record(params);
    std::printf("recorded: %zu rows, nnz A %zu B %zu C %zu in %.1f s\n", pc.system.a.rows(),
                pc.system.a.nnz(), pc.system.b.nnz(), pc.system.c.nnz(), seconds_since(r0));
    for (unsigned k = 0; k < partitions; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      const filecoin::PorepAssignment w = filecoin::porep_witness(params, data[k].proof);
      const double synth = seconds_since(t0);
      const auto c0 = std::chrono::steady_clock::now();
      const auto bad = gadgets::first_unsatisfied_row(pc.system, w.inputs, w.aux);
      std::printf("partition %u: witness %.2f s; %s against the recorded matrices (%.1f s)\n", k, synth,
                  bad ? ("row " + std::to_string(*bad) + " NOT satisfied").c_str() : "every row satisfied",
                  seconds_since(c0));
      if (bad) return 1;
    }
    return 0;
  }

  if (mode == "evaluate") {
    const auto d0 = std::chrono::steady_clock::now();
    filecoin::porep_densities(params);
    std::printf("densities (a shape run, once per process): %.2f s\n", seconds_since(d0));
    ReusedBuffers buffers;  // every partition after the first writes into the first one's memory
    const auto lend = buffers.lend();
    for (unsigned r = 0; r < reps; ++r)
      for (unsigned k = 0; k < partitions; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        auto w = filecoin::checked_porep_prover_assignment(params, data[k].proof,
                                                           "partition " + std::to_string(k), lend);
        const std::size_t rows = w.a.size();
        const double synth = seconds_since(t0);
        const auto c0 = std::chrono::steady_clock::now();
        filecoin::check_porep_rows(w, "partition " + std::to_string(k));
        const double check = seconds_since(c0);
        const auto f0 = std::chrono::steady_clock::now();
        { const auto gone = std::move(w); }  // gives the lent a, b, c and aux back
        std::printf(
            "partition %u: evaluated and checked (assignments + a, b, c of %zu rows) in %.3f s; a separate "
            "row-check pass (what the evaluation's own check replaced) %.3f s; freed in %.3f s\n",
            k, rows, synth, check, seconds_since(f0));
      }
    return 0;
  }

  if (mode == "spmv") {
    const auto r0 = std::chrono::steady_clock::now();
    const r1cs::CsrSystem<filecoin::Fr> system = filecoin::porep_record(params).system;
    std::printf("recorded once: %zu rows, %zu non-zeros in %.1f s\n", system.a.rows(),
                system.a.nnz() + system.b.nnz() + system.c.nnz(), seconds_since(r0));
    for (unsigned r = 0; r < reps; ++r)
      for (unsigned k = 0; k < partitions; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        const filecoin::PorepAssignment w = filecoin::porep_witness(params, data[k].proof);
        const double synth = seconds_since(t0);
        const auto m0 = std::chrono::steady_clock::now();
        std::vector<filecoin::Fr> z(w.inputs.begin(), w.inputs.end());
        z.insert(z.end(), w.aux.begin(), w.aux.end());
        const auto abc = groth16::bellperson::synthesize(system, z);
        std::printf("partition %u: witness %.3f s, then a, b, c by SpMV %.3f s (with the copy into z)\n", k,
                    synth, seconds_since(m0));
      }
    return 0;
  }

  if (mode == "check") {
    for (unsigned k = 0; k < partitions; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto bad = filecoin::porep_first_unsatisfied_row(params, data[k].proof);
      std::printf("partition %u: %s (%.1f s)\n", k,
                  bad ? ("row " + std::to_string(*bad) + " NOT satisfied").c_str() : "every row satisfied",
                  seconds_since(t0));
      if (bad) return 1;
    }
    return 0;
  }

  const double values = double(layout.inputs() + layout.aux()) * partitions;
  const double bytes = values * sizeof(filecoin::Fr);
  for (unsigned r = 0; r < reps; ++r) {
    std::vector<filecoin::PorepAssignment> out(partitions);
    const auto t0 = std::chrono::steady_clock::now();
    tbb::parallel_for(0u, partitions,
                      [&](unsigned k) { out[k] = filecoin::porep_witness(params, data[k].proof); });
    const double s = seconds_since(t0);
    std::printf(
        "witness: %u partitions in %.3f s (%.3f s per partition), %.3g values, %.2f GB written, %.2f GB/s\n",
        partitions, s, s / partitions, values, bytes / 1e9, bytes / 1e9 / s);
    for (unsigned k = 0; k < partitions; ++k)
      for (std::size_t i = 0; i < data[k].public_inputs.size(); ++i)
        if (out[k].inputs[i + 1] != data[k].public_inputs[i]) {
          std::fprintf(stderr, "partition %u: public input %zu differs from generate_public_inputs\n", k, i);
          return 1;
        }
    const auto f0 = std::chrono::steady_clock::now();
    out.clear();
    std::printf("         (freeing them: %.2f s)\n", seconds_since(f0));
  }
  return 0;
}

}  // namespace cuzk::bench
