// io::use_huge_pages_for_malloc: the process re-executes itself once, same PID, with glibc.malloc.hugetlb=1
// added to what GLIBC_TUNABLES held, and not at all when told not to or when the tunable is already set.
// Each case forks a child that calls it with argv naming this binary and the ChildReport case below, which
// (in the re-executed child only) writes its PID and GLIBC_TUNABLES to a file.
#include "io/huge_pages.hpp"

#include <gnu/libc-version.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

constexpr const char* kReportTo = "CUZK_HUGE_PAGES_TEST_REPORT";

bool reexecution_possible() {
  int major = 0, minor = 0;
  std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor);
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  const bool thp = std::getline(in, modes) && modes.find("[never]") == std::string::npos;
  return thp && (major > 2 || (major == 2 && minor >= 35));
}

struct Outcome {
  int exit_code = -1;
  pid_t child = 0;
  std::string report;  // "<pid> <GLIBC_TUNABLES>" from the re-executed child, empty when there was none
};

// Forks a child with `tunables` (unset when null) and `off` as CUZK_MALLOC_HUGEPAGES (unset when null),
// which calls use_huge_pages_for_malloc; exit code 97 means it returned without re-executing.
Outcome run_child(const char* tunables, const char* off) {
  const auto report =
      std::filesystem::temp_directory_path() / ("cuzk-huge-pages-" + std::to_string(::getpid()) + ".txt");
  std::filesystem::remove(report);
  Outcome o;
  o.child = ::fork();
  if (o.child == 0) {
    if (tunables)
      ::setenv("GLIBC_TUNABLES", tunables, 1);
    else
      ::unsetenv("GLIBC_TUNABLES");
    if (off)
      ::setenv("CUZK_MALLOC_HUGEPAGES", off, 1);
    else
      ::unsetenv("CUZK_MALLOC_HUGEPAGES");
    ::setenv(kReportTo, report.c_str(), 1);
    std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::string filter = "--gtest_filter=HugePages.ChildReport";
    char* argv[] = {self.data(), filter.data(), nullptr};
    cuzk::io::use_huge_pages_for_malloc(argv);
    ::_exit(97);
  }
  int status = 0;
  ::waitpid(o.child, &status, 0);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(report);
  std::getline(in, o.report);
  std::filesystem::remove(report);
  return o;
}

}  // namespace

// Only does something in a re-executed child (the environment names where to report).
TEST(HugePages, ChildReport) {
  const char* to = std::getenv(kReportTo);
  if (!to) GTEST_SKIP() << "run by the other cases, in their re-executed child";
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::ofstream(to) << ::getpid() << " " << (tunables ? tunables : "");
}

TEST(HugePages, ReexecutesOnceWithTheTunableAdded) {
  if (!reexecution_possible()) GTEST_SKIP() << "glibc < 2.35 or transparent huge pages off";
  const Outcome o = run_child("glibc.malloc.check=0", nullptr);
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.report, std::to_string(o.child) + " glibc.malloc.check=0:glibc.malloc.hugetlb=1");
  const Outcome fresh = run_child(nullptr, nullptr);
  EXPECT_EQ(fresh.report, std::to_string(fresh.child) + " glibc.malloc.hugetlb=1");
}

TEST(HugePages, LeavesTheProcessAloneWhenToldOrAlreadySet) {
  for (const auto& [tunables, off] : {std::pair<const char*, const char*>{nullptr, "0"},
                                      {"glibc.malloc.hugetlb=0", nullptr},
                                      {"glibc.malloc.hugetlb=1", nullptr}}) {
    const Outcome o = run_child(tunables, off);
    EXPECT_EQ(o.exit_code, 97) << (tunables ? tunables : "") << " / " << (off ? off : "");
    EXPECT_EQ(o.report, "");
  }
}
