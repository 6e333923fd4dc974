// A circuit repository in a temporary directory, filled with synthetic mulchain circuits, for the engine
// and daemon tests.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "groth16/bellperson.hpp"
#include "groth16/setup.hpp"
#include "io/bellperson.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/wtns.hpp"
#include "io/zkey.hpp"
#include "r1cs/porep_like.hpp"
#include "r1cs/synthetic.hpp"

namespace cuzk::test {

inline std::vector<std::uint8_t> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// An engine's log lines, collected from whichever thread writes them.
class LogLines {
 public:
  std::function<void(const std::string&)> sink() {
    return [this](const std::string& l) {
      std::lock_guard g(mutex_);
      lines_.push_back(l);
    };
  }
  std::size_t count(const std::string& needle) const {
    std::lock_guard g(mutex_);
    return static_cast<std::size_t>(std::count_if(lines_.begin(), lines_.end(), [&](const std::string& l) {
      return l.find(needle) != std::string::npos;
    }));
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

// Overwrites `file` in place (same inode) with pseudo-random bytes of the same size and gives it back its
// modification time: to the key store it is the same file, and a process that read it now could not prove
// (the check that a key was mapped from the store, not read).
inline void scramble_keeping_identity(const std::filesystem::path& file) {
  const auto mtime = std::filesystem::last_write_time(file);
  std::string junk(std::filesystem::file_size(file), '\0');
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (auto& c : junk) c = static_cast<char>((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 56);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  std::filesystem::last_write_time(file, mtime);
}

class TempRepository {
 public:
  TempRepository() {
    root_ = std::filesystem::temp_directory_path() /
            ("cuzk-repo-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::create_directories(root_);
  }
  ~TempRepository() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  const std::filesystem::path& root() const { return root_; }

  // Adds circuit `id` (mulchain of n constraints) and returns `witnesses` distinct .wtns files for it
  // (different seeds give different inputs; the key is the same). `toml` is written as circuit.toml.
  template <class Curve>
  std::vector<std::vector<std::uint8_t>> add(const std::string& id, std::size_t n, std::size_t witnesses = 1,
                                             const std::string& toml = "") {
    const auto dir = root_ / id;
    std::filesystem::create_directories(dir);
    auto circ = r1cs::mulchain<Curve>(n, 1);
    io::write_zkey<Curve>((dir / "circuit.zkey").string(),
                          groth16::setup(circ.cs, groth16::random_toxic_waste<Curve>()));
    if (!toml.empty()) std::ofstream(dir / "circuit.toml") << toml;
    std::vector<std::vector<std::uint8_t>> out;
    for (std::size_t k = 0; k < witnesses; ++k) {
      const auto w = r1cs::mulchain<Curve>(n, 100 + k).witness;
      const auto path = dir / ("witness-" + std::to_string(k) + ".wtns");
      io::write_wtns<Curve>(path.string(), w);
      out.push_back(file_bytes(path));
    }
    return out;
  }

  // Adds a bellperson circuit `id` (PoRep-shaped, domain 2^k, `partitions` per job): circuit.params,
  // circuit.toml and assignment-<i>.bin (binary assignments, one per partition); returns their bytes.
  std::vector<std::vector<std::uint8_t>> add_bellperson(const std::string& id, unsigned k,
                                                        unsigned partitions) {
    namespace bp = groth16::bellperson;
    const auto dir = root_ / id;
    std::filesystem::create_directories(dir);
    const auto g = r1cs::porep_like<bp::Fr>(k, 40 + k, partitions);
    io::bellperson::write_params((dir / "circuit.params").string(),
                                 bp::setup(g.system, groth16::random_toxic_waste<bp::Curve>()));
    std::ofstream(dir / "circuit.toml") << "partitions = " << partitions << "\n";
    std::vector<std::vector<std::uint8_t>> out;
    for (unsigned i = 0; i < partitions; ++i) {
      const auto path = dir / ("assignment-" + std::to_string(i) + ".bin");
      io::bellperson_assignment::write(path.string(), bp::synthesize(g.system, g.witnesses[i]));
      out.push_back(file_bytes(path));
    }
    return out;
  }

 private:
  static int& counter() {
    static int c = 0;
    return c;
  }
  std::filesystem::path root_;
};

}  // namespace cuzk::test
