#pragma once
#include <algorithm>
#include <vector>

// Membership test over a set of ids: sorted once, then binary search (O(log n) per lookup).
class IdSet {
 public:
  explicit IdSet(std::vector<int> ids) : ids_(std::move(ids)) { std::sort(ids_.begin(), ids_.end()); }
  bool contains(int id) const { return std::binary_search(ids_.begin(), ids_.end(), id); }

 private:
  std::vector<int> ids_;
};
