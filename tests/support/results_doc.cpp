#include "support/results_doc.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace benchpr::testing {

using nlohmann::json;

const json* find_benchmark(const json& doc, const std::string& name) {
  if (!doc.contains("benchmarks")) return nullptr;
  for (const json& b : doc["benchmarks"])
    if (b["name"] == name) return &b;
  return nullptr;
}

const json* find_benchmark(const json& doc, const std::string& suite, const std::string& name) {
  if (!doc.contains("benchmarks")) return nullptr;
  for (const json& b : doc["benchmarks"])
    if (b["suite"] == suite && b["name"] == name) return &b;
  return nullptr;
}

const json& benchmark_named(const json& doc, const std::string& name) {
  if (const json* b = find_benchmark(doc, name)) return *b;
  throw std::runtime_error("no benchmark " + name + " in the results file");
}

bool is_comparison_verdict(const std::string& verdict) {
  return verdict == "regression" || verdict == "improvement" || verdict == "slower" ||
         verdict == "faster" || verdict == "unchanged" || verdict == "inconclusive";
}

std::map<std::string, std::string> verdicts(const json& doc) {
  std::map<std::string, std::string> out;
  if (!doc.contains("benchmarks")) return out;
  for (const json& b : doc["benchmarks"]) out[b["name"]] = b["verdict"];
  return out;
}

std::string recommendation_for(const json& doc) {
  int compared = 0, inconclusive = 0, estimated = 0, ordered = 0;
  bool regression = false, failed = false;
  for (const json& b : doc.value("benchmarks", json::array())) {
    const std::string v = b["verdict"];
    regression |= v == "regression";
    failed |= v == "failed";
    if (v == "failed" || v == "added" || v == "removed") continue;
    ++compared;
    if (v == "inconclusive") ++inconclusive;
    if (!b.value("change", json()).is_number()) continue;  // too few rounds for an estimate
    ++estimated;
    for (const json& f : b.value("flags", json::array())) ordered += f == "order" ? 1 : 0;
  }
  if (regression) return "do-not-merge";
  if (failed && compared == 0) return "failed";
  if (compared == 0 || (ordered >= 2 && 4 * ordered >= estimated) || 4 * inconclusive >= compared)
    return "inconclusive";
  return failed ? "failed" : "merge";
}

void expect_reading_beside_failures(const json& doc, const std::vector<std::string>& failed) {
  const json& rec = doc.at("recommendation");
  EXPECT_EQ(rec.at("verdict"), recommendation_for(doc)) << doc["benchmarks"].dump(1);
  const std::string reason = rec.at("reason");
  EXPECT_NE(reason.find(failed.size() == 1 ? " 1 benchmark failed and is not in this reading: "
                                           : " benchmarks failed and are not in this reading: "),
            std::string::npos)
      << reason;
  // The first three by name, the rest counted.
  std::size_t named = 0;
  for (const std::string& name : failed)
    named += reason.find("`" + name + "`") != std::string::npos;
  EXPECT_EQ(named, std::min<std::size_t>(failed.size(), 3)) << reason;
  if (failed.size() > 3) {
    EXPECT_NE(reason.find(fmt::format("(and {} more)", failed.size() - 3)), std::string::npos)
        << reason;
  }
}

int rounds_compared(const json& b) {
  const bool dropped = b.contains("dropped_round") && b["dropped_round"].is_number();
  return b["rounds_used"].get<int>() + (dropped ? 1 : 0);
}

void expect_compared_in_every_round(const json& doc, const std::string& name, int rounds) {
  const json* b = find_benchmark(doc, name);
  ASSERT_NE(b, nullptr) << name << " missing from the analysis";
  const std::string verdict = (*b)["verdict"];
  EXPECT_TRUE(is_comparison_verdict(verdict))
      << name << ": " << verdict << ", " << (*b)["reason"] << "\nruns:\n"
      << doc["runs"].dump(1);
  EXPECT_EQ(rounds_compared(*b), rounds) << name << ": " << b->dump();
  // The series hold a value per planned round, the warm-up's included: the analysed ones must
  // all have one on both sides.
  std::vector<std::size_t> analysed;
  for (const json& p : doc["plan"])
    if (!p["warmup"].get<bool>()) analysed.push_back(p["round"].get<std::size_t>());
  ASSERT_EQ(analysed.size(), static_cast<std::size_t>(rounds)) << doc["plan"].dump();
  for (const json& s : doc["series"]) {
    if (s["name"] != name) continue;
    for (const char* side : {"base", "head"}) {
      for (const std::size_t round : analysed) {
        ASSERT_LT(round, s[side].size()) << name << " " << side << s.dump();
        EXPECT_TRUE(s[side][round].is_number())
            << name << " " << side << " round " << round << s.dump();
      }
    }
  }
}

void capture_rounds(const std::string& path, const std::string& name) {
  const char* dir = std::getenv("BENCHPR_CAPTURE_ROUNDS");
  if (!dir || !*dir) return;
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(path, std::filesystem::path(dir) / (name + ".json"),
                             std::filesystem::copy_options::overwrite_existing);
}

}  // namespace benchpr::testing
