// Key images (io/key_image.hpp) and the arrays they hold (io/host_array.hpp): a key decoded into an image
// and mapped again is the key the reader gives, for every kind of key; an image of another version of the
// key file, of another kind, or damaged is refused with a reason; an unfinished image leaves nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "groth16/bellperson.hpp"
#include "groth16/setup.hpp"
#include "io/bellperson.hpp"
#include "io/key_image.hpp"
#include "io/zkey.hpp"
#include "r1cs/porep_like.hpp"
#include "r1cs/synthetic.hpp"

namespace cuzk::io {
namespace {

namespace ki = key_image;

class TempDir {
 public:
  TempDir() {
    static int n = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("cuzk-key-image-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::size_t files_in(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(HostArray, OwnedArraysBehaveAsVectors) {
  HostArray<std::uint64_t> a;
  EXPECT_TRUE(a.empty());
  for (std::uint64_t i = 0; i < 1000; ++i) a.push_back(i * i);
  ASSERT_EQ(a.size(), 1000u);
  EXPECT_EQ(a[999], 999u * 999u);
  EXPECT_EQ(a.back(), 999u * 999u);
  a.push_back(a[3]);  // an element of the array itself, across a regrowth
  EXPECT_EQ(a.back(), 9u);
  HostArray<std::uint64_t> b = a;  // deep
  b[0] = 7;
  EXPECT_EQ(a[0], 0u);
  EXPECT_FALSE(a == b);
  b[0] = 0;
  EXPECT_TRUE(a == b);
  a.resize(2000);
  EXPECT_EQ(a[1500], 0u) << "grown elements are value-initialized";
  EXPECT_EQ(a[999], 999u * 999u);
  HostArray<std::uint64_t> moved = std::move(a);
  EXPECT_EQ(moved.size(), 2000u);
  const std::vector<std::uint64_t> v = {1, 2, 3};
  HostArray<std::uint64_t> from_vector = v;
  EXPECT_EQ(from_vector.to_vector(), v);
  EXPECT_FALSE(from_vector.is_view());
}

TEST(HostArray, ViewsShareTheirMemoryAndRefuseToResize) {
  auto storage = std::make_shared<std::vector<std::uint32_t>>(std::vector<std::uint32_t>{5, 6, 7});
  auto view = HostArray<std::uint32_t>::view(storage->data(), storage->size(), storage);
  std::weak_ptr<std::vector<std::uint32_t>> alive = storage;
  storage.reset();
  ASSERT_FALSE(alive.expired()) << "a view keeps its memory's owner";
  EXPECT_TRUE(view.is_view());
  EXPECT_EQ(view[1], 6u);
  EXPECT_THROW(view.resize(10), std::logic_error);
  EXPECT_THROW(view.push_back(1), std::logic_error);
  HostArray<std::uint32_t> copy = view;  // copies are owned
  EXPECT_FALSE(copy.is_view());
  copy.push_back(8);
  EXPECT_EQ(copy.size(), 4u);
  view.assign(copy.begin(), copy.end());  // a view given new contents becomes owned
  EXPECT_FALSE(view.is_view());
  EXPECT_TRUE(alive.expired()) << "the old memory's owner was let go";
}

groth16::ProvingKey<Bn254> random_zkey(const std::filesystem::path& path) {
  auto circ = r1cs::mulchain<Bn254>(200, 1);
  write_zkey<Bn254>(path.string(), groth16::setup(circ.cs, groth16::random_toxic_waste<Bn254>()));
  return read_zkey<Bn254>(path.string());
}

bellperson::Params random_params(const std::filesystem::path& path) {
  namespace bp = groth16::bellperson;
  const auto g = r1cs::porep_like<bp::Fr>(10, 50, 1);
  bellperson::write_params(path.string(), bp::setup(g.system, groth16::random_toxic_waste<bp::Curve>()));
  return bellperson::read_params(path.string());
}

// The key decoded straight into a new image (`finish`), and the image mapped again: both equal the key the
// reader gives without an image.
template <class Key, class Read>
void expect_round_trip(const TempDir& dir, const std::filesystem::path& key_file, const Key& expected,
                       Read read) {
  const auto image = dir.path() / "key.img";
  const auto source = ki::identify(key_file);
  {
    ki::Builder builder(image, std::filesystem::file_size(key_file) * 2);
    Key decoded = read(&builder);
    builder.finish(decoded, source);
    EXPECT_TRUE(decoded == expected) << "the key decoded into the image differs";
  }
  ASSERT_TRUE(std::filesystem::exists(image));
  EXPECT_EQ(files_in(dir.path()), 2u) << "the temporary file outlived the image";  // key file + image
  const Key mapped = ki::map<Key>(image, source);
  EXPECT_TRUE(mapped == expected) << "the mapped image differs from the key";
  // The room reserved beyond the arrays went back.
  EXPECT_LT(std::filesystem::file_size(image), std::filesystem::file_size(key_file) * 2);
}

TEST(KeyImage, ABellpersonKeyRoundTrips) {
  TempDir dir;
  const auto file = dir.path() / "k.params";
  const auto expected = random_params(file);
  expect_round_trip(dir, file, expected,
                    [&](ArraySource* a) { return bellperson::read_params(file.string(), false, false, a); });
  const auto mapped = ki::map<bellperson::Params>(dir.path() / "key.img", ki::identify(file));
  EXPECT_TRUE(mapped.h.is_view() && mapped.b_g2.is_view()) << "the arrays were copied, not mapped";
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(mapped.a.data()) % ki::kArrayAlign, 0u);
}

TEST(KeyImage, SnarkjsKeysRoundTrip) {
  TempDir dir;
  const auto file = dir.path() / "k.zkey";
  const auto expected = random_zkey(file);
  auto same = [](const groth16::ProvingKey<Bn254>& x, const groth16::ProvingKey<Bn254>& y) {
    return x.n_vars == y.n_vars && x.n_public == y.n_public && x.domain_size == y.domain_size &&
           x.alpha1 == y.alpha1 && x.beta1 == y.beta1 && x.delta1 == y.delta1 && x.beta2 == y.beta2 &&
           x.gamma2 == y.gamma2 && x.delta2 == y.delta2 && x.ic == y.ic && x.a == y.a && x.b1 == y.b1 &&
           x.b2 == y.b2 && x.c == y.c && x.h == y.h && x.coefs.size() == y.coefs.size() &&
           std::equal(x.coefs.begin(), x.coefs.end(), y.coefs.begin(), [](const auto& p, const auto& q) {
             return p.matrix == q.matrix && p.constraint == q.constraint && p.signal == q.signal &&
                    p.value == q.value;
           });
  };
  const auto image = dir.path() / "key.img";
  const auto source = ki::identify(file);
  {
    ki::Builder builder(image, std::filesystem::file_size(file) * 2);
    auto decoded = read_zkey<Bn254>(file.string(), MappedFile(file.string()), false, &builder);
    builder.finish(decoded, source);
    EXPECT_TRUE(same(decoded, expected));
  }
  EXPECT_TRUE(same(ki::map<groth16::ProvingKey<Bn254>>(image, source), expected));
  // Another kind of key from the same image is refused.
  EXPECT_THROW(ki::map<groth16::ProvingKey<Bls12_381>>(image, source), ki::ImageError);
  EXPECT_THROW(ki::map<bellperson::Params>(image, source), ki::ImageError);
}

// Arrays the reader did not allocate in the image (a key read beforehand) are copied in by finish().
TEST(KeyImage, AKeyReadElsewhereIsCopiedIn) {
  TempDir dir;
  const auto file = dir.path() / "k.params";
  auto key = random_params(file);
  const auto expected = key;
  const auto image = dir.path() / "key.img";
  ki::Builder builder(image, std::filesystem::file_size(file) + (1 << 20));
  builder.finish(key, ki::identify(file));
  EXPECT_TRUE(key.h.is_view()) << "the key did not move into the image";
  EXPECT_TRUE(key == expected);
  EXPECT_TRUE(ki::map<bellperson::Params>(image, ki::identify(file)) == expected);
}

TEST(KeyImage, StaleDamagedOrForeignImagesAreRefused) {
  TempDir dir;
  const auto file = dir.path() / "k.params";
  auto key = random_params(file);
  const auto image = dir.path() / "key.img";
  const auto source = ki::identify(file);
  {
    ki::Builder builder(image, std::filesystem::file_size(file) + (1 << 20));
    builder.finish(key, source);
  }
  auto refused = [&](const ki::SourceIdentity& id, const std::string& reason) {
    try {
      ki::map<bellperson::Params>(image, id);
      ADD_FAILURE() << "accepted; expected: " << reason;
    } catch (const ki::ImageError& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  auto other = source;
  other.mtime_ns += 1;
  refused(other, "another version of the key file");
  other = source;
  other.size += 96;
  refused(other, "another version of the key file");
  // A byte of the header changed: the checksum.
  {
    std::fstream f(image, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    char c = 0;
    f.read(&c, 1);
    f.seekp(40);
    c = static_cast<char>(c ^ 1);
    f.write(&c, 1);
  }
  refused(source, "checksum");
  // A header whose count of fixed fields is 0 (found by the bellperson_files fuzzer: it read those zero bytes
  // into an empty vector's null data(), undefined behaviour UBSan reports): refused by its checksum.
  {
    std::fstream f(image, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(48);  // magic 8, version 4, kind 4, source size, mtime and inode 8 each, file size 8
    const char zero[4] = {};
    f.write(zero, sizeof zero);
  }
  refused(source, "checksum");
  // Not an image at all, and too short to be one.
  std::ofstream(image, std::ios::trunc) << std::string(ki::kHeaderBytes, 'x');
  refused(source, "not a cuzk key image");
  std::ofstream(image, std::ios::trunc) << "short";
  refused(source, "too short");
}

TEST(KeyImage, ATruncatedImageIsRefused) {
  TempDir dir;
  const auto file = dir.path() / "k.params";
  auto key = random_params(file);
  const auto image = dir.path() / "key.img";
  {
    ki::Builder builder(image, std::filesystem::file_size(file) + (1 << 20));
    builder.finish(key, ki::identify(file));
  }
  std::filesystem::resize_file(image, std::filesystem::file_size(image) - 4096);
  try {
    ki::map<bellperson::Params>(image, ki::identify(file));
    ADD_FAILURE() << "a truncated image was accepted";
  } catch (const ki::ImageError& e) {
    EXPECT_NE(std::string(e.what()).find("its header says"), std::string::npos) << e.what();
  }
}

TEST(KeyImage, AnUnfinishedImageLeavesNothing) {
  TempDir dir;
  {
    ki::Builder builder(dir.path() / "key.img", 1 << 20);
    EXPECT_TRUE(std::filesystem::exists(builder.temporary_path()));
    auto [p, keeper] = builder.allocate(1000, 64);
    std::memset(p, 1, 1000);
    EXPECT_THROW(builder.allocate(2 << 20, 64), ki::ImageError) << "more than was reserved";
  }  // a reader failed: never finished
  EXPECT_EQ(files_in(dir.path()), 0u);
}

}  // namespace
}  // namespace cuzk::io
