// Binary bellperson assignments (io/bellperson_assignment.hpp), the daemon's partition witnesses for .params
// circuits: what is written reads back the same, and a cut file, a wrong magic or a value that is not a
// reduced field element is a clear error naming the first bad value, also when it lies deep in a vector
// that is decoded in parallel.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "io/bellperson_assignment.hpp"
#include "unit/io_test_util.hpp"

namespace cuzk::io::bellperson_assignment {
namespace {

using groth16::bellperson::Assignment;
using groth16::bellperson::Density;
using groth16::bellperson::Fr;

Assignment random_assignment(std::size_t abc, std::size_t inputs, std::size_t aux, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Assignment w;
  for (auto* column : {&w.a, &w.b, &w.c}) {
    std::vector<Fr> v(abc);
    for (auto& x : v) x = test::rand_el<Fr>(rng);
    *column = std::move(v);
  }
  w.inputs.resize(inputs);
  for (auto& x : w.inputs) x = test::rand_el<Fr>(rng);
  w.aux.resize(aux);
  for (auto& x : w.aux) x = test::rand_el<Fr>(rng);
  for (auto [d, n] : {std::pair{&w.a_aux, aux}, std::pair{&w.b_inputs, inputs}, std::pair{&w.b_aux, aux}}) {
    *d = Density::of_size(n);
    for (std::size_t i = 0; i < n; ++i)
      if (rng() % 3 == 0) d->set(i);
  }
  return w;
}

std::vector<std::uint8_t> bytes_of(const Assignment& w, const std::filesystem::path& file) {
  write(file.string(), w);
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class AssignmentFile : public ::testing::Test {
 protected:
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("cuzk-assignment-" + std::to_string(::getpid()) + ".bin");
  void TearDown() override { std::filesystem::remove(file); }
};

TEST_F(AssignmentFile, WhatIsWrittenReadsBack) {
  const auto w = random_assignment(70'001, 3, 100'003, 1);
  write(file.string(), w);
  const auto r = read(file.string());
  EXPECT_EQ(r.a, w.a);
  EXPECT_EQ(r.b, w.b);
  EXPECT_EQ(r.c, w.c);
  EXPECT_EQ(r.inputs, w.inputs);
  EXPECT_EQ(r.aux, w.aux);
  EXPECT_EQ(r.a_aux.words, w.a_aux.words);
  EXPECT_EQ(r.b_inputs.words, w.b_inputs.words);
  EXPECT_EQ(r.b_aux.words, w.b_aux.words);
  const auto h = peek(file.string());
  EXPECT_EQ(h.abc_size, 70'001u);
  EXPECT_EQ(h.aux_size, 100'003u);
}

// The engine lends a pinned lease for a, b and c: they are decoded there, in place, and the columns keep the
// lender's owner alive after the read; a refusal or too small a loan gives vectors of their own.
TEST_F(AssignmentFile, ABCAreDecodedIntoLentMemoryWhichTheColumnsKeepAlive) {
  const auto w = random_assignment(70'001, 3, 100'003, 5);
  write(file.string(), w);
  std::weak_ptr<std::vector<Fr>> watch;
  std::uint64_t asked = 0;
  Assignment r;
  {
    auto memory = std::make_shared<std::vector<Fr>>(3 * 70'001 + 7);
    watch = memory;
    r = read(file.string(), [&](std::uint64_t abc_size) -> std::optional<AbcMemory> {
      asked = abc_size;
      return AbcMemory{std::span<Fr>(*memory), memory};
    });
  }
  EXPECT_EQ(asked, 70'001u);
  ASSERT_FALSE(watch.expired()) << "the columns must keep the lent memory alive";
  const auto memory = watch.lock();
  EXPECT_TRUE(r.a.borrowed() && r.b.borrowed() && r.c.borrowed());
  EXPECT_EQ(r.a.data(), memory->data());  // a, b, c one after the other, as the GPU upload takes them
  EXPECT_EQ(r.b.data(), memory->data() + 70'001);
  EXPECT_EQ(r.c.data(), memory->data() + 2 * 70'001);
  EXPECT_EQ(r.a, w.a);
  EXPECT_EQ(r.b, w.b);
  EXPECT_EQ(r.c, w.c);
  EXPECT_EQ(r.aux, w.aux);
  r = Assignment{};
  EXPECT_EQ(memory.use_count(), 1) << "no column holds the memory once the assignment is gone";

  const auto refused = read(file.string(), [](std::uint64_t) { return std::optional<AbcMemory>{}; });
  EXPECT_FALSE(refused.a.borrowed());
  EXPECT_EQ(refused.c, w.c);
  auto small = std::make_shared<std::vector<Fr>>(3 * 70'001 - 1);
  const auto too_small = read(file.string(), [&](std::uint64_t) {
    return std::optional<AbcMemory>(AbcMemory{std::span<Fr>(*small), small});
  });
  EXPECT_FALSE(too_small.b.borrowed());
  EXPECT_EQ(too_small.b, w.b);
}

TEST_F(AssignmentFile, AValueNotReducedIsNamedAtItsIndexTheLowestFirst) {
  const std::size_t abc = 70'001, inputs = 3, aux = 100'003;
  const auto good = bytes_of(random_assignment(abc, inputs, aux, 2), file);
  const std::size_t header = 32, aux_at = header + 32 * (3 * abc + inputs);
  auto spoil = [](std::vector<std::uint8_t>& b, std::size_t at) { std::memset(b.data() + at, 0xff, 32); };
  {
    auto b = good;
    spoil(b, aux_at + 32 * 99'000);  // late in the vector, in another block than the one below
    spoil(b, aux_at + 32 * 40'000);
    EXPECT_FORMAT_ERROR(read_bytes(b, "x.bin"), "aux[40000] is not reduced (≥ r)");
  }
  {
    auto b = good;
    spoil(b, aux_at + 32 * 5);
    spoil(b, header + 32 * (2 * abc + 69'999));  // c comes before aux
    EXPECT_FORMAT_ERROR(read_bytes(b, "x.bin"), "c[69999] is not reduced");
  }
}

TEST_F(AssignmentFile, ACutFileOrAWrongMagicIsAClearError) {
  const auto good = bytes_of(random_assignment(100, 2, 300, 3), file);
  auto cut = good;
  cut.resize(cut.size() - 1);
  EXPECT_FORMAT_ERROR(read_bytes(cut, "x.bin"), "but its header implies");
  auto magic = good;
  magic[0] = 'X';
  EXPECT_FORMAT_ERROR(read_bytes(magic, "x.bin"), "x.bin");
  EXPECT_FORMAT_ERROR(read_bytes({}, "empty.bin"), "empty.bin");
}

}  // namespace
}  // namespace cuzk::io::bellperson_assignment
