#pragma once

#include <vector>

namespace vouch::store {

// One page of a collection, oldest first; has_more when more follow.
template <class T>
struct Page {
  std::vector<T> items;
  bool has_more = false;
};

}  // namespace vouch::store
