#include "benchpr/app/suggest.hpp"

#include <gtest/gtest.h>

namespace benchpr::app {
namespace {

TEST(Suggest, EditDistanceCountsSwapsAsOne) {
  EXPECT_EQ(edit_distance("--dry-run", "--dry-run"), 0u);
  EXPECT_EQ(edit_distance("--dryrun", "--dry-run"), 1u);
  EXPECT_EQ(edit_distance("--dyr-run", "--dry-run"), 1u);  // adjacent swap
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Suggest, NearMissesGetTheNearestOption) {
  const std::vector<std::string> options = {"--dry-run", "--rounds", "--threshold", "--html"};
  EXPECT_EQ(did_you_mean("--dryrun", options), "; did you mean `--dry-run`?");
  EXPECT_EQ(nearest("--round", options), "--rounds");
  EXPECT_EQ(nearest("--treshold", options), "--threshold");
  EXPECT_EQ(nearest("regresion", {"never", "regression", "failed"}), "regression");
}

TEST(Suggest, FarWordsGetNothing) {
  const std::vector<std::string> options = {"--dry-run", "--rounds", "--html"};
  EXPECT_EQ(nearest("--verbose", options), "");
  EXPECT_EQ(nearest("--x", options), "");
  EXPECT_EQ(nearest("-", options), "");
  EXPECT_EQ(did_you_mean("--frobnicate", options), "");
  EXPECT_EQ(nearest(std::string(1000, 'a'), options), "");
}

}  // namespace
}  // namespace benchpr::app
