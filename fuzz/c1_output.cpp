// Fuzz harness: a PoRep C1 output as Curio sends it (its envelope, or the SealCommitPhase1Output JSON), read
// and checked as the daemon does at submit (read_porep_c1: JSON, base64, every field, the challenges).
#include "filecoin/porep_c2.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuzk;
  fuzz::refusal_is_fine([&] { filecoin::read_porep_c1({data, size}, "input"); });
  return 0;
}
