// A key image: a proving key already decoded, as one file that processes map and use in place
// (docs/formats-key-image.md). The engine's worker processes share their keys through images in memory
// (/dev/shm, engine/key_store.hpp): one copy whatever the number of workers, and a restarted worker maps
// the image in milliseconds instead of reading and decoding the key file again.
//
//   [0, 64 KiB)  header: magic "CUZKIMG1", version, key kind, the source key file's identity (size,
//                modification time, inode), the file's length, the key's fixed fields as bytes, and a
//                table of its arrays (offset, count, element size); an FNV-1a checksum of it all
//   then         the arrays, each at a 4 KiB-aligned offset, elements exactly as this build lays them out
//
// The element layout is this build's (Montgomery form, sizeof of each type, checked per array): an image is
// only for processes of the build that wrote it, which is how the engine uses them (a store per daemon run).
// Images are written under a temporary name and renamed when complete, so a reader never sees a partial one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/types.hpp"
#include "io/bellperson.hpp"
#include "io/host_array.hpp"

namespace cuzk::io::key_image {

// An image that cannot be used (damaged, another layout, another source) or written (no room).
struct ImageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class KeyKind : std::uint32_t { kZkeyBn254 = 1, kZkeyBls12_381 = 2, kBellperson = 3 };

template <class Key>
constexpr KeyKind kind_of();
template <>
constexpr KeyKind kind_of<groth16::ProvingKey<Bn254>>() {
  return KeyKind::kZkeyBn254;
}
template <>
constexpr KeyKind kind_of<groth16::ProvingKey<Bls12_381>>() {
  return KeyKind::kZkeyBls12_381;
}
template <>
constexpr KeyKind kind_of<bellperson::Params>() {
  return KeyKind::kBellperson;
}

// Which key file an image was made from: a key file replaced since makes the image stale.
struct SourceIdentity {
  std::uint64_t size = 0, mtime_ns = 0, inode = 0;
  bool operator==(const SourceIdentity&) const = default;
};
// Throws ImageError when the file cannot be examined.
SourceIdentity identify(const std::filesystem::path& key_file);

constexpr std::size_t kHeaderBytes = std::size_t(64) << 10;
constexpr std::size_t kArrayAlign = std::size_t(4) << 10;

// A shared, writable mapping of a whole image file; unmapped when the last owner goes. `populate`: its page
// tables are filled at once, on all cores (MADV_POPULATE_READ per chunk): faulting a 44 GB key in page by
// page took ~13 µs a page on a VM (3.3 s a GB), populating it 66 ms a GB on one thread. A mapping that is
// page-locked next needs none (locking fills them).
class Mapping {
 public:
  Mapping(const std::filesystem::path& path, std::size_t bytes, bool create, bool populate = true);
  ~Mapping();
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// Every field of a key, in the image's order: f.value(x) for each fixed-size field, f.array(a) for each
// array (a HostArray, which the image holds in place, or a small std::vector, copied out of it).
template <class C, class F>
void describe(groth16::ProvingKey<C>& pk, F& f) {
  f.value(pk.n_vars), f.value(pk.n_public), f.value(pk.domain_size);
  f.value(pk.alpha1), f.value(pk.beta1), f.value(pk.delta1);
  f.value(pk.beta2), f.value(pk.gamma2), f.value(pk.delta2);
  f.array(pk.ic), f.array(pk.coefs), f.array(pk.a), f.array(pk.b1), f.array(pk.b2), f.array(pk.c),
      f.array(pk.h);
}
template <class F>
void describe(bellperson::Params& p, F& f) {
  f.value(p.vk.alpha1), f.value(p.vk.beta1), f.value(p.vk.beta2), f.value(p.vk.gamma2);
  f.value(p.vk.delta1), f.value(p.vk.delta2);
  f.array(p.vk.ic), f.array(p.h), f.array(p.l), f.array(p.a), f.array(p.b_g1), f.array(p.b_g2);
}

// The header's parts, written and read by key_image.cpp.
struct ArrayEntry {
  std::uint64_t offset = 0, count = 0;
  std::uint32_t element_bytes = 0, reserved = 0;
};
struct Header {
  KeyKind kind{};
  SourceIdentity source;
  std::uint64_t file_bytes = 0;
  std::vector<std::uint8_t> fixed;
  std::vector<ArrayEntry> arrays;
};
void write_header(std::uint8_t* at, const Header& h);
// Checks magic, version, checksum and that every array lies inside the file; throws ImageError.
Header read_header(const std::uint8_t* at, std::size_t file_bytes, const std::string& path);

// Writes a new image: its arrays are allocated in it while the key is read (ArraySource), then finish()
// writes the header and renames it into place. The file is reserved whole at construction (fallocate), so
// that filling the mapping can never meet a full file system (a SIGBUS); unused room is given back at the
// end. Destroying an unfinished builder removes its file.
class Builder : public ArraySource {
 public:
  // Throws ImageError when `capacity` bytes (arrays, after the header) cannot be reserved there.
  Builder(std::filesystem::path final_path, std::size_t capacity);
  ~Builder() override;
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  std::pair<void*, std::shared_ptr<void>> allocate(std::size_t bytes, std::size_t align) override;

  // Completes the image of `key` (arrays that were not allocated here are copied in, and `key` then uses
  // the image's copy) and renames it to its final path. `key` stays valid, its arrays in the image.
  template <class Key>
  void finish(Key& key, const SourceIdentity& source) {
    Writer w{*this, {}, {}};
    describe(key, w);
    seal(kind_of<Key>(), source, std::move(w.fixed), std::move(w.arrays));
  }

  const std::filesystem::path& temporary_path() const { return temp_; }

 private:
  struct Writer {
    Builder& b;
    std::vector<std::uint8_t> fixed;
    std::vector<ArrayEntry> arrays;
    template <class T>
    void value(const T& v) {
      const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
      fixed.insert(fixed.end(), p, p + sizeof(T));
    }
    template <class T>
    void array(HostArray<T>& a) {
      arrays.push_back(b.place(a.data(), a.size(), sizeof(T), alignof(T)));
      a = HostArray<T>::view(reinterpret_cast<T*>(b.mapping_->data() + arrays.back().offset), a.size(),
                             b.mapping_);
    }
    template <class T>
    void array(std::vector<T>& v) {
      arrays.push_back(b.place(v.data(), v.size(), sizeof(T), alignof(T)));
    }
  };
  // The entry of `count` elements at `data`, copied into the image first unless they are in it already.
  ArrayEntry place(const void* data, std::size_t count, std::size_t element_bytes, std::size_t align);
  void seal(KeyKind kind, const SourceIdentity& source, std::vector<std::uint8_t> fixed,
            std::vector<ArrayEntry> arrays);

  std::filesystem::path final_, temp_;
  std::shared_ptr<Mapping> mapping_;
  std::mutex mutex_;
  std::size_t used_ = kHeaderBytes;
  bool sealed_ = false;
};

std::pair<std::shared_ptr<Mapping>, Header> open_image(const std::filesystem::path& path,
                                                       bool populate = true);
// The header alone (read, not mapped): what an image holds, without mapping it.
Header peek_header(const std::filesystem::path& path);

// Reads fields back in describe()'s order, checking each against the header.
struct Reader {
  std::shared_ptr<Mapping> mapping;
  const Header& header;
  std::string path;
  std::size_t fixed_at = 0, array_at = 0;

  template <class T>
  void value(T& v) {
    if (fixed_at + sizeof(T) > header.fixed.size()) fail("fixed fields shorter than this key's");
    std::memcpy(static_cast<void*>(&v), header.fixed.data() + fixed_at, sizeof(T));
    fixed_at += sizeof(T);
  }
  template <class T>
  void array(HostArray<T>& a) {
    const ArrayEntry& e = next(sizeof(T), alignof(T));
    a = HostArray<T>::view(reinterpret_cast<T*>(mapping->data() + e.offset), e.count, mapping);
  }
  template <class T>
  void array(std::vector<T>& v) {
    const ArrayEntry& e = next(sizeof(T), alignof(T));
    const T* p = reinterpret_cast<const T*>(mapping->data() + e.offset);
    v.assign(p, p + e.count);
  }
  void done() const {
    if (fixed_at != header.fixed.size() || array_at != header.arrays.size())
      fail("holds more fields than this key has");
  }

 private:
  const ArrayEntry& next(std::size_t element_bytes, std::size_t align);
  [[noreturn]] void fail(const std::string& what) const;
};

// Maps an image and gives the key it holds, its arrays views of the mapping (kept mapped while any of them
// lives). Throws ImageError when it is not an image of a key of this kind from `expected` (another
// source, damaged, another layout). `populate`: as Mapping's.
template <class Key>
Key map(const std::filesystem::path& path, const SourceIdentity& expected, bool populate = true) {
  auto [mapping, header] = open_image(path, populate);
  if (header.kind != kind_of<Key>()) throw ImageError(path.string() + ": an image of another kind of key");
  if (!(header.source == expected))
    throw ImageError(path.string() + ": made from another version of the key file");
  Key key{};
  Reader r{mapping, header, path.string()};
  describe(key, r);
  r.done();
  return key;
}

}  // namespace cuzk::io::key_image
