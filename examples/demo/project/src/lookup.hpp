#pragma once
#include <vector>

// Membership test over a set of ids: a plain linear scan.
class IdSet {
 public:
  explicit IdSet(std::vector<int> ids) : ids_(std::move(ids)) {}
  bool contains(int id) const {
    for (int x : ids_)
      if (x == id) return true;
    return false;
  }

 private:
  std::vector<int> ids_;
};
