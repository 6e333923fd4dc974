// The JSON assignment files of `cuzk prove-bellperson` (io/bellperson_json.hpp): a round trip keeps every
// value and density bit, and anything malformed is a FormatError naming the file and where, never another
// exception (a number past a double's range once escaped as nlohmann's out_of_range: found by the
// bellperson_files fuzzer).
#include <gtest/gtest.h>

#include <algorithm>
#include <span>

#include "io/bellperson_json.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
namespace bp = groth16::bellperson;
namespace bj = io::bellperson_json;
using test::TempDir;

namespace {

bp::Assignment sample() {
  const bp::Fr x = bp::Fr::from_u64(0xC0FFEE), y = x * x;
  bp::Assignment w;
  w.a = std::vector<bp::Fr>{x, y, bp::Fr::one(), x + y};
  w.b = std::vector<bp::Fr>{y, bp::Fr::one(), x, -x};
  w.c = std::vector<bp::Fr>{x * y, y, x, -(x * x)};
  w.inputs = {bp::Fr::one(), x};
  w.aux = std::vector<bp::Fr>{y, -y};
  w.a_aux = bp::Density::of_size(2), w.b_inputs = bp::Density::of_size(2), w.b_aux = bp::Density::of_size(2);
  w.a_aux.set(1), w.b_inputs.set(0), w.b_aux.set(0), w.b_aux.set(1);
  return w;
}

bool same(std::span<const bp::Fr> a, std::span<const bp::Fr> b) {
  return std::ranges::equal(a, b);
}

bool same_bits(const bp::Density& a, const bp::Density& b) {
  if (a.bits != b.bits) return false;
  for (std::size_t i = 0; i < a.bits; ++i)
    if (a.test(i) != b.test(i)) return false;
  return true;
}

void expect_refused(const std::string& path, const std::string& text, const std::string& says) {
  test::write_text(path, text);
  try {
    bj::read_assignments(path);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const io::FormatError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(BellpersonJson, RoundTripKeepsEveryValueAndDensityBit) {
  TempDir dir;
  const auto w = sample();
  bj::write_assignments(dir.file("a.json"), {w, w});
  const auto back = bj::read_assignments(dir.file("a.json"));
  ASSERT_EQ(back.size(), 2u);
  for (const auto& r : back) {
    EXPECT_TRUE(same(r.a, w.a) && same(r.b, w.b) && same(r.c, w.c) && same(r.aux, w.aux));
    EXPECT_EQ(r.inputs, w.inputs);
    EXPECT_TRUE(same_bits(r.a_aux, w.a_aux) && same_bits(r.b_inputs, w.b_inputs) &&
                same_bits(r.b_aux, w.b_aux));
  }
}

TEST(BellpersonJson, MalformedFilesAreFormatErrors) {
  TempDir dir;
  const std::string f = dir.file("bad.json");
  expect_refused(f, std::string("666666666666666666666666E6666666") + '\0',
                 "not JSON");  // the fuzzer's input
  expect_refused(f, "1e999999", "not JSON");
  expect_refused(f, "{\"a\": [", "not JSON");
  expect_refused(f, "7", "expected an assignment object");
  expect_refused(f, "{\"a\": [], \"b\": [], \"c\": [], \"inputs\": []}", "has no \"aux\"");
  expect_refused(f, "{\"a\": [\"0x01\"], \"b\": [], \"c\": [], \"inputs\": [], \"aux\": [5]}",
                 "aux[0] is not a canonical field element");
  expect_refused(
      f, "{\"a\": [], \"b\": [], \"c\": [], \"inputs\": [], \"aux\": [], \"a_aux_density\": \"0120\"}",
      "character 2 is not 0 or 1");
  EXPECT_THROW(bj::read_assignments(dir.file("missing.json")), io::FormatError);
}
