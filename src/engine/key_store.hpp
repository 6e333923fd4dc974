// The proving keys an engine's worker processes share (engine.isolation = "process", engine.key_store):
// one key image per circuit (io/key_image.hpp) in a directory in memory, by default
// /dev/shm/cuzk-keys-<daemon pid>/<circuit id>.key.
//
// The first worker process that needs a key decodes the key file straight into a new image; every other
// one, and every worker started again after one died (a sticky CUDA fault, a crash, SIGKILL), maps that
// image instead of reading the key file: the key is in host memory once whatever the number of workers,
// and a restart costs a mapping, not a 30–40 s read of a 45 GB file. Each worker still page-locks the
// mapping for its GPU (the repository's pinner). A lock file per circuit makes two processes that load the
// same key at once decode it once.
//
// The daemon owns the directory: it makes it at start (removing those of daemons that are gone, whose
// images would otherwise hold memory until reboot), removes a circuit's image when the circuit is evicted,
// and the directory when it stops. Where the store has no room for a key (tmpfs is half the host's memory
// by default), the worker reads the key into its own memory as before and says so.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "io/key_image.hpp"

namespace cuzk::engine {

class KeyStore {
 public:
  // `log` gets one line per key built, mapped, refused or read privately.
  KeyStore(std::filesystem::path dir, std::function<void(const std::string&)> log);

  const std::filesystem::path& dir() const { return dir_; }

  enum class Source { kMapped, kBuilt, kPrivate };

  // The key of circuit `id`, whose key file is `key_file`: mapped from the store when an image of this
  // version of the file is there; else decoded by read(arrays) into a new image, or by read(nullptr) into
  // this process's memory when the store cannot hold it. `how` says which. `populate`: fill a mapped
  // image's page tables at once (not needed when the caller page-locks the key next, which fills them).
  template <class Key>
  Key load(const std::string& id, const std::filesystem::path& key_file,
           const std::function<Key(io::ArraySource*)>& read, Source& how, bool populate = true) {
    const io::key_image::SourceIdentity source = io::key_image::identify(key_file);
    const Lock lock(*this, id);
    const auto path = image_path(id);
    if (std::filesystem::exists(path)) {
      try {
        Key key = io::key_image::map<Key>(path, source, populate);
        how = Source::kMapped;
        mapped(id, path);
        return key;
      } catch (const io::key_image::ImageError& e) {
        discard(id, e.what());
      }
    }
    const std::size_t capacity = capacity_for(source.size);
    if (const std::string why = no_room(capacity); !why.empty()) {
      read_privately(id, why);
      how = Source::kPrivate;
      return read(nullptr);
    }
    std::optional<io::key_image::Builder> builder;
    try {
      builder.emplace(path, capacity);
    } catch (const io::key_image::ImageError& e) {
      read_privately(id, e.what());
      how = Source::kPrivate;
      return read(nullptr);
    }
    Key key = read(&*builder);
    builder->finish(key, source);
    how = Source::kBuilt;
    built(id, path);
    return key;
  }

  // The kind of key circuit `id`'s image holds when there is a usable image of this version of
  // `key_file`, else nullopt: which reader a key needs is then known without reading the key file.
  std::optional<io::key_image::KeyKind> image_kind(const std::string& id,
                                                   const std::filesystem::path& key_file) const;

  // Removes circuit `id`'s image (the daemon, once the circuit is evicted): its memory returns when the
  // last process that maps it lets go.
  void remove(const std::string& id);

  // Bytes of the images in the store, and free on its file system.
  std::size_t bytes() const;
  std::size_t free_bytes() const;

  // Makes the store directory of this daemon (`cuzk-keys-<pid>` under `parent`), first removing the stores
  // of daemons that are no longer running. Throws std::runtime_error when it cannot be made.
  static std::filesystem::path create_for_this_process(const std::filesystem::path& parent);
  // Removes the directory and what is in it (the daemon, when it stops).
  static void remove_store(const std::filesystem::path& dir);

  // The room an image of a key file of `file_bytes` bytes may need: the decoded arrays are at most an
  // eighth larger than their encoding (a .zkey's 44-byte coefficients become 48), plus the header and
  // alignment. The unused part is given back when the image is complete.
  static std::size_t capacity_for(std::size_t file_bytes);

 private:
  // flock on <id>.lock, held while an image is looked for or built.
  class Lock {
   public:
    Lock(const KeyStore& store, const std::string& id);
    ~Lock();
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

   private:
    int fd_ = -1;
  };
  std::filesystem::path image_path(const std::string& id) const { return dir_ / (id + ".key"); }
  // Empty when the store's file system has `bytes` free, else why not.
  std::string no_room(std::size_t bytes) const;
  void discard(const std::string& id, const std::string& why);
  void read_privately(const std::string& id, const std::string& why);
  void built(const std::string& id, const std::filesystem::path& path);
  void mapped(const std::string& id, const std::filesystem::path& path);

  std::filesystem::path dir_;
  std::function<void(const std::string&)> log_;
};

}  // namespace cuzk::engine
