#include "io/huge_pages.hpp"

#include <gnu/libc-version.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace cuzk::io {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

bool glibc_has_the_tunable() {
  int major = 0, minor = 0;
  if (std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2) return false;
  return major > 2 || (major == 2 && minor >= 35);
}

// "always [madvise] never": malloc's madvise(MADV_HUGEPAGE) works unless the bracketed mode is never.
bool kernel_gives_huge_pages() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  return std::getline(in, modes) && modes.find("[never]") == std::string::npos;
}

}  // namespace

void use_huge_pages_for_malloc(char** argv) {
  if (const char* off = std::getenv("CUZK_MALLOC_HUGEPAGES"); off && std::strcmp(off, "0") == 0) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, kTunable)) return;  // decided already: never loops
  if (!glibc_has_the_tunable() || !kernel_gives_huge_pages()) return;
  std::string value = std::string(kTunable) + "=1";
  if (tunables && *tunables) value = std::string(tunables) + ":" + value;
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // execv failed (no /proc, say): go on as we are; the tunable stays in the environment, so children
  // started from here get it.
}

}  // namespace cuzk::io
