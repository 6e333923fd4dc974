// TEST-ONLY Groth16 keys of built-in Filecoin circuits (a random setup of the circuit's recorded matrices),
// written under their standard parameter file names into one parameter cache directory, where a daemon finds
// them as it finds Filecoin's published ones. The directory is the build tree's (CUZK_TEST_KEY_DIR), shared
// by every test process: a key is made once per build, not once per test (each 2 KiB PoRep key costs ~80 s
// of a CI core). Beside each key its circuit's shape (counts and non-zeros); a key whose circuit has changed
// since is made again. Processes that want the same key at once take turns (a lock file per key).
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>

#include "filecoin/circuit_catalog.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "filecoin/post_synthesis.hpp"
#include "filecoin/update_synthesis.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"

namespace cuzk::test {

inline const std::filesystem::path& test_parameter_cache() {
  static const std::filesystem::path dir = [] {
#ifdef CUZK_TEST_KEY_DIR
    const std::filesystem::path d = CUZK_TEST_KEY_DIR;
#else
    const auto d = std::filesystem::temp_directory_path() / ("cuzk-params-" + std::to_string(::getpid()));
#endif
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

namespace keys_detail {

inline std::string shape_signature(const filecoin::FilecoinCircuit& c) {
  const gadgets::Shape s = c.porep    ? filecoin::porep_shape(*c.porep)
                           : c.update ? filecoin::update_shape(*c.update)
                                      : filecoin::post_shape(*c.post);
  std::ostringstream out;
  out << c.id << " " << s.constraints << " " << s.inputs << " " << s.aux << " " << s.nnz_a << " " << s.nnz_b
      << " " << s.nnz_c << " " << s.a_aux.popcount() << " " << s.b_aux.popcount() << "\n";
  return out.str();
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace keys_detail

// The circuit's key in test_parameter_cache(); returns the file.
inline std::filesystem::path ensure_test_key(const std::string& circuit_id) {
  static std::mutex mutex;
  static std::set<std::string> made;
  const filecoin::FilecoinCircuit* c = filecoin::find_filecoin_circuit(circuit_id);
  EXPECT_NE(c, nullptr) << circuit_id;
  const auto file = test_parameter_cache() / c->parameter_file;
  const std::lock_guard lock(mutex);
  if (made.insert(circuit_id).second) {
    const int lock_fd = ::open((file.string() + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    ::flock(lock_fd, LOCK_EX);  // another test process may be making it
    const auto signature_file = file.string() + ".shape";
    const std::string signature = keys_detail::shape_signature(*c);
    if (!std::filesystem::exists(file) || keys_detail::read_text(signature_file) != signature) {
      const auto record = c->porep    ? filecoin::porep_record(*c->porep)
                          : c->update ? filecoin::update_record(*c->update)
                                      : filecoin::post_record(*c->post);
      const auto key = groth16::bellperson::setup(record.system,
                                                  groth16::random_toxic_waste<groth16::bellperson::Curve>());
      const auto partial = file.string() + ".partial";
      io::bellperson::write_params(partial, key);
      std::filesystem::rename(partial, file);
      std::ofstream(signature_file) << signature;
    }
    ::flock(lock_fd, LOCK_UN);
    ::close(lock_fd);
  }
  return file;
}

}  // namespace cuzk::test
