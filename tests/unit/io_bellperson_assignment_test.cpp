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
  std::vector<Fr> aux_values(aux);
  for (auto& x : aux_values) x = test::rand_el<Fr>(rng);
  w.aux = std::move(aux_values);
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

// The engine lends pinned leases for a, b, c and for aux: they are decoded there, in place, and the columns
// keep the lender's owners alive after the read; a refusal or too small a loan gives vectors of their own.
TEST_F(AssignmentFile, LargeVectorsAreDecodedIntoLentMemoryWhichTheColumnsKeepAlive) {
  const std::size_t abc = 70'001, aux = 100'003;
  const auto w = random_assignment(abc, 3, aux, 5);
  write(file.string(), w);
  std::weak_ptr<std::vector<Fr>> abc_watch, aux_watch;
  std::vector<std::pair<Part, std::uint64_t>> asked;
  Assignment r;
  {
    auto abc_memory = std::make_shared<std::vector<Fr>>(3 * abc + 7);
    auto aux_memory = std::make_shared<std::vector<Fr>>(aux);
    abc_watch = abc_memory, aux_watch = aux_memory;
    r = read(file.string(), [&](Part part, std::uint64_t count) -> std::optional<LentMemory> {
      asked.emplace_back(part, count);
      auto& m = part == Part::kAbc ? abc_memory : aux_memory;
      return LentMemory{std::span<Fr>(*m), m};
    });
  }
  EXPECT_EQ(asked, (std::vector<std::pair<Part, std::uint64_t>>{{Part::kAbc, 3 * abc}, {Part::kAux, aux}}));
  ASSERT_FALSE(abc_watch.expired() || aux_watch.expired()) << "the columns must keep the lent memory alive";
  const auto abc_memory = abc_watch.lock(), aux_memory = aux_watch.lock();
  EXPECT_TRUE(r.a.borrowed() && r.b.borrowed() && r.c.borrowed() && r.aux.borrowed());
  EXPECT_EQ(r.a.data(), abc_memory->data());  // a, b, c one after the other, as the GPU upload takes them
  EXPECT_EQ(r.b.data(), abc_memory->data() + abc);
  EXPECT_EQ(r.c.data(), abc_memory->data() + 2 * abc);
  EXPECT_EQ(r.aux.data(), aux_memory->data());
  EXPECT_EQ(r.a, w.a);
  EXPECT_EQ(r.b, w.b);
  EXPECT_EQ(r.c, w.c);
  EXPECT_EQ(r.inputs, w.inputs);
  EXPECT_EQ(r.aux, w.aux);
  r = Assignment{};
  EXPECT_EQ(abc_memory.use_count(), 1) << "no column holds the memory once the assignment is gone";
  EXPECT_EQ(aux_memory.use_count(), 1);

  // a, b, c refused, aux lent too little: all in vectors of their own, the same values.
  auto small = std::make_shared<std::vector<Fr>>(aux - 1);
  const auto own = read(file.string(), [&](Part part, std::uint64_t) -> std::optional<LentMemory> {
    if (part == Part::kAbc) return std::nullopt;
    return LentMemory{std::span<Fr>(*small), small};
  });
  EXPECT_FALSE(own.a.borrowed() || own.c.borrowed() || own.aux.borrowed());
  EXPECT_EQ(own.c, w.c);
  EXPECT_EQ(own.aux, w.aux);
  EXPECT_EQ(small.use_count(), 1);
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
