// The key store the worker processes of an engine with isolation = "process" share (engine/key_store.hpp).
// Two repositories stand for two worker processes (flock conflicts between open files, in one process as
// in two): the first decodes the key file into the store, the second maps it and reads no key file; a
// key file replaced since makes the image stale; a store of a daemon that is gone is removed at start.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "engine/key_store.hpp"
#include "engine/repository.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk::engine {
namespace {

std::shared_ptr<KeyStore> store_in(const test::TempRepository& repo, std::vector<std::string>* lines) {
  return std::make_shared<KeyStore>(repo.root() / "store", [lines](const std::string& l) {
    if (lines) lines->push_back(l);
  });
}

TEST(KeyStore, ASecondRepositoryMapsTheKeyTheFirstDecoded) {
  test::TempRepository repo;
  repo.add_bellperson("bp", 10, 1);
  repo.add<Bn254>("bn", 300);
  std::vector<std::string> lines;
  auto store = store_in(repo, &lines);
  Repository first(repo.root(), 0), second(repo.root(), 0);
  first.set_key_store(store);
  second.set_key_store(store);
  const auto a = first.acquire("bp");
  const auto z = first.acquire("bn");
  EXPECT_EQ(first.key_file_reads(), 2u);
  EXPECT_TRUE(a->shared_image && z->shared_image);
  EXPECT_TRUE(std::filesystem::exists(store->dir() / "bp.key"));
  EXPECT_TRUE(std::filesystem::exists(store->dir() / "bn.key"));
  EXPECT_GT(store->bytes(), 0u);
  // The key files are now garbage that looks unchanged: only a process that maps the images can prove.
  test::scramble_keeping_identity(repo.root() / "bp" / "circuit.params");
  test::scramble_keeping_identity(repo.root() / "bn" / "circuit.zkey");
  const auto b = second.acquire("bp");
  const auto y = second.acquire("bn");
  EXPECT_EQ(second.key_file_reads(), 0u) << "a key file was read although its image was there";
  const auto& pa = std::get<io::bellperson::Params>(a->key);
  const auto& pb = std::get<io::bellperson::Params>(b->key);
  EXPECT_TRUE(pa == pb);
  EXPECT_TRUE(pb.h.is_view());
  const auto& za = std::get<groth16::ProvingKey<Bn254>>(z->key);
  const auto& zb = std::get<groth16::ProvingKey<Bn254>>(y->key);
  EXPECT_TRUE(za.a == zb.a && za.h == zb.h && za.ic == zb.ic && za.coefs.size() == zb.coefs.size());
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.find("mapped the shared image") != l.npos; }),
            2);
  // The daemon's evict removes the image; a process that still maps it keeps using it.
  store->remove("bp");
  EXPECT_FALSE(std::filesystem::exists(store->dir() / "bp.key"));
  EXPECT_TRUE(pb == pa);
}

TEST(KeyStore, AReplacedKeyFileMakesItsImageStale) {
  test::TempRepository repo;
  repo.add<Bn254>("bn", 300);
  std::vector<std::string> lines;
  auto store = store_in(repo, &lines);
  {
    Repository r(repo.root(), 0);
    r.set_key_store(store);
    r.acquire("bn");
  }
  // A new key under the same id (another setup): the next load decodes it, not the old image.
  repo.add<Bn254>("bn", 500);
  Repository r(repo.root(), 0);
  r.set_key_store(store);
  const auto c = r.acquire("bn");
  EXPECT_EQ(r.key_file_reads(), 1u);
  EXPECT_EQ(std::get<groth16::ProvingKey<Bn254>>(c->key).n_vars,
            io::read_zkey<Bn254>((repo.root() / "bn" / "circuit.zkey").string()).n_vars);
  EXPECT_EQ(
      std::count_if(lines.begin(), lines.end(),
                    [](const std::string& l) { return l.find("another version of the key file") != l.npos; }),
      1);
}

// Two repositories load the same key at once: the lock makes one decode it and the other map it.
TEST(KeyStore, ConcurrentLoadsDecodeOnce) {
  test::TempRepository repo;
  repo.add_bellperson("bp", 10, 1);
  auto store = store_in(repo, nullptr);
  Repository first(repo.root(), 0), second(repo.root(), 0);
  first.set_key_store(store);
  second.set_key_store(store);
  std::thread t([&] { first.acquire("bp"); });
  second.acquire("bp");
  t.join();
  EXPECT_EQ(first.key_file_reads() + second.key_file_reads(), 1u);
}

// Worker processes that share the store's keys split the host budget: each counts a shared key at its share.
TEST(KeyStore, ASharedKeyCountsAtItsShareInTheHostBudget) {
  test::TempRepository repo;
  repo.add_bellperson("bp", 10, 1);
  repo.add<Bn254>("bn", 300);
  auto store = store_in(repo, nullptr);
  Repository r(repo.root(), 0);
  r.set_key_store(store, 2);
  r.acquire("bp");
  EXPECT_EQ(r.host_bytes(), r.loaded_bytes() / 2);
  Repository alone(repo.root(), 0);  // no store: its keys are its own
  alone.acquire("bn");
  EXPECT_EQ(alone.host_bytes(), alone.loaded_bytes());
}

TEST(KeyStore, AVerifyingOnlyRepositoryDoesNotUseTheStore) {
  test::TempRepository repo;
  repo.add_bellperson("bp", 10, 1);
  auto store = store_in(repo, nullptr);
  Repository r(repo.root(), 0);
  r.set_key_store(store);
  r.set_verifying_only(true);
  const auto c = r.acquire("bp");
  EXPECT_TRUE(c->verifying_only);
  EXPECT_FALSE(c->shared_image);
  EXPECT_FALSE(std::filesystem::exists(store->dir() / "bp.key"));
}

TEST(KeyStore, StoresOfDaemonsThatAreGoneAreRemovedAtStart) {
  test::TempRepository repo;
  const auto parent = repo.root() / "shm";
  // pid 2^22 + 1 is above Linux's pid limit: never a live daemon. Our own pid and other names stay.
  const auto dead = parent / "cuzk-keys-4194305";
  std::filesystem::create_directories(dead);
  std::ofstream(dead / "porep-32g.key") << "x";
  std::filesystem::create_directories(parent / "cuzk-keys-1x");
  std::filesystem::create_directories(parent / "other");
  const auto mine = KeyStore::create_for_this_process(parent);
  EXPECT_EQ(mine, parent / ("cuzk-keys-" + std::to_string(::getpid())));
  EXPECT_TRUE(std::filesystem::is_directory(mine));
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(parent / "cuzk-keys-1x"));
  EXPECT_TRUE(std::filesystem::exists(parent / "other"));
  KeyStore::remove_store(mine);
  EXPECT_FALSE(std::filesystem::exists(mine));
}

TEST(KeyStore, CapacityCoversEveryKeyKind) {
  // A .zkey's coefficients grow from 44 to 48 bytes decoded (the most of any array); points keep their size.
  EXPECT_GE(KeyStore::capacity_for(44'000'000), 48'000'000u);
  EXPECT_LT(KeyStore::capacity_for(std::size_t(45) << 30), std::size_t(51) << 30);
}

}  // namespace
}  // namespace cuzk::engine
