#include "app/memory_budget.hpp"

#include <string>

namespace vouch::app {

MemoryBudget divide_memory(std::size_t megabytes) {
  MemoryBudget budget;
  budget.total_bytes = megabytes << 20;
  const std::size_t total = budget.total_bytes;
  budget.rocksdb.cache_bytes = total / 4;
  budget.rocksdb.write_buffer_bytes = total / 8;
  budget.read_memos.records = total / 128;  // four read models of records
  budget.read_memos.grants = total / 64;
  budget.project_actors = total / 16 / kProjectActorBytes;
  return budget;
}

base::Result<MemoryBudget> memory_budget(std::size_t megabytes) {
  if (megabytes < kMinimumMemoryMb) {
    return base::Error::invalid("--memory-mb must be at least " + std::to_string(kMinimumMemoryMb));
  }
  return divide_memory(megabytes);
}

}  // namespace vouch::app
