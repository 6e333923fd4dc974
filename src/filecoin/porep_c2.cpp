#include "filecoin/porep_c2.hpp"

#include <tbb/parallel_for.h>

#include <string_view>

#include "filecoin/c1_output.hpp"
#include "filecoin/porep_vanilla_verify.hpp"

namespace cuzk::filecoin {

namespace {

// Curio's envelope's first key is one of its three (Go writes SectorNum first); a SealCommitPhase1Output's
// is registered_proof. Only the first key is looked at: the reader that follows checks everything.
bool is_curio_envelope(std::string_view text) {
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  };
  skip_space();
  if (i >= text.size() || text[i] != '{') return false;
  ++i;
  skip_space();
  for (std::string_view key : {"\"SectorNum\"", "\"Phase1Out\"", "\"SectorSize\""})
    if (text.substr(i, key.size()) == key) return true;
  return false;
}

}  // namespace

PorepC2Input read_porep_c1(std::span<const std::uint8_t> bytes, const std::string& source,
                           std::uint64_t expected_sector_bytes) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  PorepC2Input in;
  C1Output c1;
  if (is_curio_envelope(text)) {
    CurioC1Request request = parse_curio_c1_request(text, source);
    in.sector_number = request.sector_num;
    c1 = std::move(request.output);
  } else {
    c1 = parse_seal_commit_phase1_output(text, source);
  }
  in.proof = c1.registered_proof;
  if (expected_sector_bytes != 0 && expected_sector_bytes != in.proof->sector_bytes)
    throw C1Error(source, "registered_proof", std::nullopt,
                  std::string(in.proof->name) + " is for sectors of " +
                      std::to_string(in.proof->sector_bytes) + " bytes, but the request's sector_size is " +
                      std::to_string(expected_sector_bytes));
  in.partitions = std::move(c1.partitions);
  const SdrGraph graph = porep_graph(*in.proof);
  in.public_inputs.resize(in.partitions.size());
  tbb::parallel_for(std::size_t(0), in.partitions.size(), [&](std::size_t k) {
    in.public_inputs[k] = porep_public_inputs(graph, in.partitions[k]);
  });
  return in;
}

}  // namespace cuzk::filecoin
