#include "benchpr/exec/unique_fd.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <utility>

namespace benchpr::exec {
namespace {

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

TEST(UniqueFd, ClosesItsDescriptorWhenItGoesOutOfScope) {
  int fd = -1;
  {
    UniqueFd owner(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    fd = owner.get();
    ASSERT_GE(fd, 0);
    EXPECT_TRUE(is_open(fd));
  }
  EXPECT_FALSE(is_open(fd));
}

TEST(UniqueFd, AMoveLeavesOneOwnerThatClosesItOnce) {
  UniqueFd first(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  const int fd = first.get();
  ASSERT_GE(fd, 0);
  UniqueFd second(std::move(first));
  EXPECT_EQ(first.get(), -1);  // NOLINT(bugprone-use-after-move): the moved-from state is the point
  EXPECT_EQ(second.get(), fd);
  UniqueFd third;
  third = std::move(second);
  EXPECT_EQ(third.get(), fd);
  EXPECT_TRUE(is_open(fd));
  third.reset();
  EXPECT_FALSE(is_open(fd));
}

TEST(UniqueFd, AMoveOntoAnOwnerClosesWhatItHeld) {
  UniqueFd a(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  UniqueFd b(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  const int held = b.get();
  ASSERT_GE(held, 0);
  b = std::move(a);
  EXPECT_FALSE(is_open(held));
  EXPECT_GE(b.get(), 0);
}

}  // namespace
}  // namespace benchpr::exec
