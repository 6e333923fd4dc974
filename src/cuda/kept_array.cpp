#include "cuda/kept_array.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>

#include "cuda/device_checksum.hpp"
#include "cuda/error.hpp"
#include "cuda/shared_device_memory.hpp"
#include "io/kept_memory.hpp"

namespace cuzk::cuda {

namespace {

double gib(std::size_t bytes) {
  return static_cast<double>(bytes) / double(std::size_t(1) << 30);
}

// Keeping failed for a reason that will not pass (no support, a broken channel): said once, then arrays
// are uploaded as usual.
std::atomic<bool> given_up{false};

void give_up(const std::string& why) {
  if (!given_up.exchange(true))
    std::fprintf(stderr, "cuzk: key arrays will not be kept across worker processes: %s\n", why.c_str());
}

}  // namespace

bool keeping_arrays() {
  if (given_up.load() || io::kept::client() == nullptr) return false;
  static const bool supported = SharedDeviceMemory::supported();
  if (!supported) give_up("this device or driver cannot export device memory as file descriptors");
  return supported;
}

void* kept_data(const SharedDeviceMemory& m) {
  return m.data();
}

namespace {

// ask(client)'s bytes, or 0 without a keeper or when it cannot be reached (then keeping stops: said once).
template <class Ask>
std::size_t ask_keeper(Ask&& ask) noexcept {
  io::kept::Client* client = io::kept::client();
  if (client == nullptr) return 0;
  try {
    return ask(*client);
  } catch (const std::exception& e) {
    give_up(e.what());
    return 0;
  }
}

}  // namespace

std::size_t kept_bytes(const std::string& prefix) noexcept {
  return ask_keeper([&](io::kept::Client& c) { return c.held(prefix); });
}

std::size_t retain_kept(const std::vector<std::string>& prefixes) noexcept {
  return ask_keeper([&](io::kept::Client& c) { return c.retain(prefixes); });
}

void drop_kept(const std::string& prefix) noexcept {
  (void)ask_keeper([&](io::kept::Client& c) { return c.drop(prefix); });
}

std::shared_ptr<SharedDeviceMemory> kept_memory(const std::string& name, std::size_t bytes,
                                                cudaStream_t stream, const std::function<void(void*)>& fill,
                                                bool* reused) {
  *reused = false;
  io::kept::Client* client = io::kept::client();
  if (client == nullptr) return nullptr;
  using Clock = std::chrono::steady_clock;
  try {
    const std::size_t size = SharedDeviceMemory::rounded(bytes);
    if (auto k = client->get(name)) {
      if (k->bytes == size) {
        const auto t0 = Clock::now();
        std::shared_ptr<SharedDeviceMemory> m = SharedDeviceMemory::import(k->fd.get(), size);
        const auto t1 = Clock::now();
        const std::uint64_t sum = device_checksum(m->data(), size, stream);
        const auto t2 = Clock::now();
        if (sum == k->checksum) {
          std::fprintf(stderr,
                       "cuzk: %s: %.2f GiB on the device kept from an earlier worker process (mapped %.0f "
                       "ms, checksum %.0f ms)\n",
                       name.c_str(), gib(size), std::chrono::duration<double, std::milli>(t1 - t0).count(),
                       std::chrono::duration<double, std::milli>(t2 - t1).count());
          *reused = true;
          return m;
        }
        std::fprintf(stderr,
                     "cuzk: %s: the kept copy's checksum differs (written over?): uploading it again\n",
                     name.c_str());
      }
      (void)client->drop(name);
    }
    std::shared_ptr<SharedDeviceMemory> m = SharedDeviceMemory::create(size);
    fill(m->data());
    // The rounding's tail is part of what the checksum covers: zeros, not whatever the memory held.
    if (size > bytes)
      CUZK_CUDA_CHECK(cudaMemsetAsync(static_cast<char*>(m->data()) + bytes, 0, size - bytes, stream));
    const std::uint64_t sum = device_checksum(m->data(), size, stream);
    const io::kept::UniqueFd fd = m->export_fd();
    client->keep(name, fd.get(), size, sum);
    return m;
  } catch (const io::kept::KeeperError& e) {
    give_up(e.what());
    return nullptr;
  } catch (const CudaError& e) {
    if (e.kind() == CudaError::Kind::out_of_memory || e.kind() == CudaError::Kind::sticky) throw;
    give_up(e.what());
    return nullptr;
  }
}

}  // namespace cuzk::cuda
