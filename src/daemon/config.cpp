#include "daemon/config.hpp"

#include <toml++/toml.h>

#include <cctype>
#include <cmath>
#include <stdexcept>

namespace cuzk::daemon {

std::size_t parse_bytes(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) throw ConfigError("\"" + text + "\" is not a size (e.g. 16GiB, 512MiB, 1000000)");
  double v = std::stod(text.substr(0, i));
  std::string unit = text.substr(i);
  while (!unit.empty() && unit.front() == ' ') unit.erase(unit.begin());
  double mul = 1;
  if (unit.empty() || unit == "B")
    mul = 1;
  else if (unit == "KiB" || unit == "K" || unit == "k")
    mul = 1024.0;
  else if (unit == "MiB" || unit == "M")
    mul = 1024.0 * 1024;
  else if (unit == "GiB" || unit == "G")
    mul = 1024.0 * 1024 * 1024;
  else if (unit == "TiB" || unit == "T")
    mul = 1024.0 * 1024 * 1024 * 1024;
  else
    throw ConfigError("\"" + text + "\": unknown unit \"" + unit + "\" (B, KiB, MiB, GiB, TiB)");
  return static_cast<std::size_t>(std::llround(v * mul));
}

namespace {

std::size_t bytes_value(const toml::node_view<toml::node>& n, const char* key) {
  if (auto i = n.value<std::int64_t>()) {
    if (*i < 0) throw ConfigError(std::string(key) + " must not be negative");
    return static_cast<std::size_t>(*i);
  }
  if (auto s = n.value<std::string>()) {
    try {
      return parse_bytes(*s);
    } catch (const ConfigError& e) {
      throw ConfigError(std::string(key) + ": " + e.what());
    }
  }
  throw ConfigError(std::string(key) + " must be a size (a number of bytes or a string like \"16GiB\")");
}

}  // namespace

Config load_config(const std::optional<std::string>& path) {
  Config c;
  if (!path) return c;
  toml::table t;
  try {
    t = toml::parse_file(*path);
  } catch (const toml::parse_error& e) {
    throw ConfigError(*path + ": " + std::string(e.description()) + " (line " +
                      std::to_string(e.source().begin.line) + ")");
  }
  auto str = [&](const char* table, const char* key, std::string& out) {
    auto n = t[table][key];
    if (!n) return;
    auto v = n.value<std::string>();
    if (!v) throw ConfigError(std::string(table) + "." + key + " must be a string");
    out = *v;
  };
  auto uint = [&](const char* table, const char* key, unsigned& out) {
    auto n = t[table][key];
    if (!n) return;
    auto v = n.value<std::int64_t>();
    if (!v || *v < 0) throw ConfigError(std::string(table) + "." + key + " must be a non-negative integer");
    out = static_cast<unsigned>(*v);
  };
  str("daemon", "listen", c.listen);
  str("daemon", "http", c.http);
  if (t["daemon"]["healthz_fails_on"]) {
    std::string policy;
    str("daemon", "healthz_fails_on", policy);
    try {
      c.healthz_fails_on = service::parse_health_policy(policy);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(e.what());
    }
  }
  str("daemon", "witness_dir", c.witness_dir);
  str("daemon", "tls_cert", c.tls_cert);
  str("daemon", "tls_key", c.tls_key);
  str("daemon", "tls_client_ca", c.tls_client_ca);
  str("daemon", "token_file", c.token_file);
  if (auto n = t["daemon"]["allow_remote_plaintext"]) {
    auto v = n.value<bool>();
    if (!v) throw ConfigError("daemon.allow_remote_plaintext must be true or false");
    c.allow_remote_plaintext = *v;
  }
  uint("daemon", "max_jobs_per_client", c.max_jobs_per_client);
  if (auto n = t["daemon"]["max_message_bytes"])
    c.max_message_bytes = bytes_value(n, "daemon.max_message_bytes");
  std::string repo = c.engine.repository.string();
  str("repository", "path", repo);
  c.engine.repository = repo;
  std::string cache = c.engine.parameter_cache.string();
  str("filecoin", "parameter_cache", cache);
  c.engine.parameter_cache = cache;
  if (auto n = t["repository"]["memory_budget"])
    c.engine.memory_budget = bytes_value(n, "repository.memory_budget");
  if (auto n = t["repository"]["pin_keys"]) {
    auto v = n.value<bool>();
    if (!v) throw ConfigError("repository.pin_keys must be true or false");
    c.engine.pin_keys = *v;
  }
  if (auto n = t["repository"]["pinned_budget"])
    c.engine.pinned_budget = bytes_value(n, "repository.pinned_budget");
  str("engine", "backend", c.engine.backend);
  uint("engine", "cpu_workers", c.engine.cpu_workers);
  uint("engine", "gpu_workers_per_device", c.engine.gpu_workers_per_device);
  if (auto n = t["engine"]["self_check"]) {
    auto v = n.value<bool>();
    if (!v) throw ConfigError("engine.self_check must be true or false");
    c.engine.self_check = *v;
  }
  uint("engine", "max_attempts", c.engine.max_attempts);
  if (c.engine.max_attempts == 0) throw ConfigError("engine.max_attempts must be at least 1");
  if (auto n = t["engine"]["vram_limit"]) c.engine.vram_limit = bytes_value(n, "engine.vram_limit");
  if (auto n = t["engine"]["vram_margin"]) c.engine.vram_margin = bytes_value(n, "engine.vram_margin");
  if (auto n = t["engine"]["pinned_pool"])
    c.engine.pinned_pool = n.value<std::string>() == "auto"
                               ? engine::EngineConfig::kAutoPinnedPool
                               : bytes_value(n, "engine.pinned_pool (a size, or \"auto\")");
  if (auto n = t["engine"]["host_memory_budget"])
    c.engine.host_memory_budget =
        n.value<std::string>() == "auto"
            ? engine::EngineConfig::kAutoHostMemoryBudget
            : bytes_value(n, "engine.host_memory_budget (a size, 0 for no limit, or \"auto\")");
  if (auto n = t["engine"]["prestage"]) {
    auto v = n.value<bool>();
    if (!v) throw ConfigError("engine.prestage must be true or false");
    c.engine.prestage = *v;
  }
  str("engine", "isolation", c.engine.isolation);
  if (c.engine.isolation != "thread" && c.engine.isolation != "process" && c.engine.isolation != "auto")
    throw ConfigError("engine.isolation must be \"thread\", \"process\" or \"auto\", not \"" +
                      c.engine.isolation + "\"");
  uint("engine", "partition_timeout", c.engine.partition_timeout_s);
  std::string worker_exe = c.engine.worker_exe.string(), spool_dir = c.engine.spool_dir.string();
  str("engine", "worker_exe", worker_exe);
  str("engine", "spool_dir", spool_dir);
  c.engine.worker_exe = worker_exe;
  c.engine.spool_dir = spool_dir;
  str("engine", "key_store", c.engine.key_store);
  if (c.engine.key_store.empty())
    throw ConfigError("engine.key_store must be \"auto\", \"off\" or a directory, not empty");
  std::uint64_t seed = 1;
  if (auto n = t["faults"]["seed"]) {
    auto v = n.value<std::int64_t>();
    if (!v || *v < 0) throw ConfigError("faults.seed must be a non-negative integer");
    seed = static_cast<std::uint64_t>(*v);
  }
  auto fault = [&](const char* kind, cuda::FaultSpec& spec) {
    spec.seed = seed;
    const std::string every = std::string(kind) + "_every", rate = std::string(kind) + "_rate";
    if (auto n = t["faults"][every]) {
      auto v = n.value<std::int64_t>();
      if (!v || *v < 0) throw ConfigError("faults." + every + " must be a non-negative integer");
      spec.every = static_cast<std::uint64_t>(*v);
    }
    if (auto n = t["faults"][rate]) {
      auto v = n.value<double>();
      if (!v || !(*v >= 0 && *v <= 1)) throw ConfigError("faults." + rate + " must be a number in [0, 1]");
      spec.rate = *v;
    }
  };
  fault("alloc", c.engine.fault_alloc);
  fault("sticky", c.engine.fault_sticky);
  fault("corrupt", c.engine.fault_corrupt);
  if (auto n = t["engine"]["max_witness_bytes"])
    c.engine.max_witness_bytes = bytes_value(n, "engine.max_witness_bytes");
  if (auto arr = t["engine"]["devices"].as_array()) {
    for (const auto& d : *arr) {
      auto v = d.value<std::int64_t>();
      if (!v || *v < 0) throw ConfigError("engine.devices must be a list of GPU ordinals");
      c.engine.devices.push_back(static_cast<int>(*v));
    }
  }
  return c;
}

}  // namespace cuzk::daemon
