// The memory keeper's channel (io/kept_memory.hpp) without a GPU: memfds stand in for exported device
// memory, which is also just a descriptor to the keeper. What a client keeps outlives the client, a later
// client gets a descriptor of the same memory back by name, drops free it, and nothing a malformed or
// broken client sends takes the keeper down or leaks a descriptor.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "io/kept_memory.hpp"

using namespace cuzk::io::kept;

namespace {

// A memfd of `bytes` holding `text` at its start.
UniqueFd memory_holding(const std::string& text, std::size_t bytes = 4096) {
  UniqueFd fd(::memfd_create("kept-test", MFD_CLOEXEC));
  EXPECT_TRUE(fd);
  EXPECT_EQ(::ftruncate(fd.get(), static_cast<off_t>(bytes)), 0);
  EXPECT_EQ(::pwrite(fd.get(), text.data(), text.size(), 0), static_cast<ssize_t>(text.size()));
  return fd;
}

std::string read_start(int fd, std::size_t n) {
  std::string s(n, '\0');
  EXPECT_EQ(::pread(fd, s.data(), n, 0), static_cast<ssize_t>(n));
  return s;
}

std::size_t open_descriptors() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// A keeper serving one client on its own thread, as WorkerProcess does for each worker process.
struct Served {
  Keeper& keeper;
  UniqueFd keeper_end;
  std::unique_ptr<Client> client;
  std::thread thread;
  explicit Served(Keeper& k) : keeper(k) {
    auto [a, b] = channel();
    keeper_end = std::move(a);
    client = std::make_unique<Client>(std::move(b));
    thread = std::thread([this, fd = keeper_end.get()] { keeper.serve(fd); });
  }
  // The client process "dies": its end closes, and serve() returns.
  void end() {
    client.reset();
    if (thread.joinable()) thread.join();
  }
  ~Served() { end(); }
};

}  // namespace

TEST(KeptMemory, WhatOneClientKeepsTheNextGetsBackByName) {
  Keeper keeper;
  {
    Served first(keeper);
    EXPECT_FALSE(first.client->get("c@1-2-3/gpu0/h"));
    UniqueFd h = memory_holding("points of h");
    first.client->keep("c@1-2-3/gpu0/h", h.get(), 4096, 0xfeedULL);
    first.client->keep("c@1-2-3/gpu0/l", memory_holding("points of l").get(), 4096, 7);
    EXPECT_EQ(first.client->held("c@1-2-3/gpu0/"), 8192u);
    EXPECT_EQ(first.client->held("other@"), 0u);
    // The client's own descriptors close here, and then the client itself: the keeper's stay.
  }
  EXPECT_EQ(keeper.entries(), 2u);
  EXPECT_EQ(keeper.bytes(), 8192u);
  Served second(keeper);
  const auto h = second.client->get("c@1-2-3/gpu0/h");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->bytes, 4096u);
  EXPECT_EQ(h->checksum, 0xfeedULL);
  EXPECT_EQ(read_start(h->fd.get(), 11), "points of h");  // the same memory, not a copy of a name
  EXPECT_EQ(keeper.handed_back(), 1u);
}

TEST(KeptMemory, KeepingUnderANameAgainReplacesWhatWasThere) {
  Keeper keeper;
  Served s(keeper);
  s.client->keep("k/a", memory_holding("old").get(), 4096, 1);
  s.client->keep("k/a", memory_holding("new").get(), 8192, 2);
  const auto a = s.client->get("k/a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->bytes, 8192u);
  EXPECT_EQ(a->checksum, 2u);
  EXPECT_EQ(read_start(a->fd.get(), 3), "new");
  EXPECT_EQ(keeper.entries(), 1u);
}

TEST(KeptMemory, DropsByPrefixFreeOnlyThoseNames) {
  Keeper keeper;
  Served s(keeper);
  for (const char* name : {"c@v1/gpu0/h", "c@v1/gpu0/l", "c@v2/gpu0/h", "cc@v1/gpu0/h"})
    s.client->keep(name, memory_holding(name).get(), 4096, 1);
  EXPECT_EQ(s.client->drop("c@v1/gpu0/"), 8192u);
  EXPECT_FALSE(s.client->get("c@v1/gpu0/h"));
  EXPECT_TRUE(s.client->get("c@v2/gpu0/h"));
  EXPECT_EQ(keeper.drop("c@"), 4096u);  // the daemon's evict of circuit "c" while no worker runs
  EXPECT_TRUE(s.client->get("cc@v1/gpu0/h"));
  EXPECT_EQ(keeper.drop(""), 4096u);
  EXPECT_EQ(keeper.entries(), 0u);
}

TEST(KeptMemory, DroppedMemoryIsReleasedByTheKeeper) {
  // The keeper's descriptors are its only references: after the drop, the memfd's pages are freed (seen
  // here as the descriptor count going back to where it was).
  Keeper keeper;
  Served s(keeper);
  const std::size_t before = open_descriptors();
  s.client->keep("x/a", memory_holding("a").get(), 4096, 1);
  s.client->keep("x/b", memory_holding("b").get(), 4096, 1);
  EXPECT_EQ(open_descriptors(), before + 2);
  s.client->drop("x/");
  EXPECT_EQ(open_descriptors(), before);
}

TEST(KeptMemory, MalformedRequestsGetAnErrorAndTheChannelGoesOn) {
  Keeper keeper;
  auto [keeper_end, client_end] = channel();
  std::thread t([&keeper, fd = keeper_end.get()] { keeper.serve(fd); });
  const std::size_t before = open_descriptors();
  auto ask = [&](const std::string& request, int fd = -1) {
    EXPECT_TRUE(send_message(client_end.get(), request, fd));
    std::string reply(kMaxPacket, '\0');
    const ssize_t n = ::recv(client_end.get(), reply.data(), reply.size(), 0);
    EXPECT_GT(n, 0);
    reply.resize(static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    return reply;
  };
  {
    UniqueFd m = memory_holding("m");
    EXPECT_TRUE(ask("keep\nname\n4096\n1").starts_with("error\n"));           // no descriptor
    EXPECT_TRUE(ask("keep\nname\nlots\n1", m.get()).starts_with("error\n"));  // descriptor comes back closed
    EXPECT_TRUE(ask("keep\n\n4096\n1", m.get()).starts_with("error\n"));      // empty name
    EXPECT_TRUE(ask("get\n" + std::string(kMaxName + 1, 'x')).starts_with("error\n"));
    EXPECT_TRUE(ask("frobnicate").starts_with("error\n"));
    EXPECT_TRUE(ask(std::string(kMaxPacket + 100, 'g')).starts_with("error\n"));  // cut: malformed
    EXPECT_EQ(ask("get\nname"), "none");
  }
  EXPECT_EQ(keeper.entries(), 0u);
  EXPECT_EQ(open_descriptors(), before);  // every descriptor sent with a refused request was closed
  client_end.reset();
  t.join();
}

TEST(KeptMemory, AClientWhoseKeeperIsGoneGetsAnError) {
  auto [keeper_end, client_end] = channel();
  Client c(std::move(client_end));
  keeper_end.reset();
  EXPECT_THROW(c.get("a"), KeeperError);
  EXPECT_THROW(c.keep("a", memory_holding("a").get(), 4096, 1), KeeperError);
  EXPECT_THROW(c.keep("", 0, 1, 1), KeeperError);
}

TEST(KeptMemory, RetainKeepsOnlyTheNamesUnderThePrefixesGiven) {
  Keeper keeper;
  Served s(keeper);
  for (const char* name : {"a@1/gpu0/h", "a@1/gpu0/l", "b@2/gpu0/h", "c@3/gpu0/h"})
    s.client->keep(name, memory_holding(name).get(), 4096, 1);
  EXPECT_EQ(s.client->retain({"a@", "c@3/gpu0/"}), 4096u);  // b's copy: no key of this process uses it
  EXPECT_EQ(keeper.entries(), 3u);
  EXPECT_FALSE(s.client->get("b@2/gpu0/h"));
  EXPECT_THROW(s.client->retain({""}), KeeperError);
  EXPECT_EQ(keeper.entries(), 3u);
}
