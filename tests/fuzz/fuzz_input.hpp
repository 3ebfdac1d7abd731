#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

// Splits a fuzzer's input into fields at a separator byte sequence, so that
// one input can carry several strings (a line and a stderr tail, a type and
// its data) and the corpus stays readable text.
namespace vouch::fuzz {

inline std::vector<std::string_view> split_input(const std::uint8_t* data, std::size_t size,
                                                 std::size_t fields) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> out;
  constexpr std::string_view kSeparator = "\n--\n";
  while (out.size() + 1 < fields) {
    const auto at = rest.find(kSeparator);
    if (at == std::string_view::npos) break;
    out.push_back(rest.substr(0, at));
    rest.remove_prefix(at + kSeparator.size());
  }
  out.push_back(rest);
  while (out.size() < fields) out.emplace_back();
  return out;
}

// Stops the fuzzer with a message when a property does not hold.
#define VOUCH_FUZZ_CHECK(condition)                                                          \
  do {                                                                                       \
    if (!(condition)) {                                                                      \
      std::fprintf(stderr, "property failed: %s (%s:%d)\n", #condition, __FILE__, __LINE__); \
      __builtin_trap();                                                                      \
    }                                                                                        \
  } while (false)

}  // namespace vouch::fuzz
