// Fuzz harness: Filecoin's bellperson files — a .params key (with and without its subgroup checks, and as the
// verifying-only read), a .vk, a binary assignment (bellperson_assignment) and the JSON assignments — from
// the same bytes; and the same bytes as a key image of a .params key (io/key_image.hpp: the worker
// processes' shared keys), header and arrays table.
#include "fuzz/fuzz_input.hpp"
#include "io/bellperson.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/bellperson_json.hpp"
#include "io/key_image.hpp"
#include "io/precompiled_circuit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuzk;
  const fuzz::MemoryFile file(data, size);
  fuzz::refusal_is_fine([&] { io::bellperson::read_params(file.path(), true, false); });
  fuzz::refusal_is_fine([&] { io::bellperson::read_params(file.path(), false, true); });
  fuzz::refusal_is_fine([&] { io::bellperson::read_vk(file.path()); });
  fuzz::refusal_is_fine([&] { io::bellperson_assignment::read_bytes({data, data + size}, "input"); });
  fuzz::refusal_is_fine([&] { io::bellperson_assignment::read(file.path()); });
  fuzz::refusal_is_fine([&] { io::bellperson_json::read_assignments(file.path()); });
  fuzz::refusal_is_fine([&] { io::read_precompiled_circuit_header(file.path()); });
  fuzz::refusal_is_fine([&] { io::read_precompiled_circuit(file.path()); });
  fuzz::refusal_is_fine([&] {  // its own source identity, so that the whole image is read
    io::key_image::map<io::bellperson::Params>(file.path(), io::key_image::peek_header(file.path()).source);
  });
  return 0;
}
