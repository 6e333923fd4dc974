// Fuzz harness: snarkjs files as `cuzk prove` and the daemon read them — a .zkey (the curve from its header,
// then the whole key), a .wtns (both curves) and an .r1cs (both curves) — from the same bytes, each reader
// refusing what is not its format.
#include "fuzz/fuzz_input.hpp"
#include "io/curve_id.hpp"
#include "io/r1cs_file.hpp"
#include "io/wtns.hpp"
#include "io/zkey.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuzk;
  const fuzz::MemoryFile file(data, size);
  fuzz::refusal_is_fine([&] {
    const io::CurveId curve = io::peek_curve(file.path());
    io::with_curve(curve, [&]<class C>() { io::read_zkey<C>(file.path()); });
  });
  fuzz::refusal_is_fine([&] { io::read_wtns_bytes<Bls12_381>({data, data + size}, "input"); });
  fuzz::refusal_is_fine([&] { io::read_wtns_bytes<Bn254>({data, data + size}, "input"); });
  fuzz::refusal_is_fine([&] { io::read_r1cs<Bls12_381>(file.path()); });
  fuzz::refusal_is_fine([&] { io::read_r1cs<Bn254>(file.path()); });
  return 0;
}
