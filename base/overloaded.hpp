#pragma once

namespace vouch::base {

// Builds a visitor for std::visit from lambdas, one per alternative.
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace vouch::base
