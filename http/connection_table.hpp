#pragma once

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <mutex>

namespace vouch::http {

// The open connections, counted overall and by client address, and the idle
// ones (waiting for the first byte of a request) from the longest idle on.
// The listener asks it to admit each new connection; when a limit is reached
// it names an idle connection to close instead of refusing the new one.
template <class Session>
class ConnectionTable {
 public:
  struct Admission {
    bool admitted = false;
    std::weak_ptr<Session> evict;  // close this one to make room (may be empty)
  };

  void set_limits(std::size_t total, std::size_t per_address) {
    max_total_ = total;
    max_per_address_ = per_address;
  }
  std::size_t max_total() const { return max_total_; }
  std::size_t max_per_address() const { return max_per_address_; }

  Admission admit(const boost::asio::ip::address& address) {
    const std::lock_guard lock(mutex_);
    Admission admission;
    const bool total_full = total_ >= max_total_;
    const bool address_full = by_address_[address] >= max_per_address_;
    if (total_full || address_full) {
      // The longest-idle connection that frees the limit that is reached.
      const auto victim = std::find_if(idle_.begin(), idle_.end(), [&](const IdleEntry& entry) {
        return !address_full || entry.address == address;
      });
      if (victim == idle_.end()) {
        if (by_address_[address] == 0) by_address_.erase(address);
        return admission;
      }
      admission.evict = victim->session;
      *victim->listed = false;
      idle_.erase(victim);
    }
    ++total_;
    ++by_address_[address];
    admission.admitted = true;
    return admission;
  }

  void release(const boost::asio::ip::address& address) {
    const std::lock_guard lock(mutex_);
    --total_;
    if (--by_address_[address] == 0) by_address_.erase(address);
  }

  // `listed` and `entry` belong to the session and are guarded by the table.
  struct IdleEntry {
    std::weak_ptr<Session> session;
    boost::asio::ip::address address;
    bool* listed;
  };
  using IdleList = std::list<IdleEntry>;

  // `own` is the session's own one-entry list, its entry made by `make()` on
  // first use: the entry moves into the idle list and back, so marking a
  // connection idle for each request allocates nothing.
  template <class Make>
  void mark_idle(IdleList& own, const Make& make, typename IdleList::iterator& at) {
    const std::lock_guard lock(mutex_);
    if (own.empty()) own.push_back(make());  // new, or taken by admit()
    at = own.begin();
    *at->listed = true;
    idle_.splice(idle_.end(), own, at);
  }

  void mark_busy(IdleList& own, bool& listed, typename IdleList::iterator at) {
    const std::lock_guard lock(mutex_);
    if (!listed) return;  // already taken off by admit()
    listed = false;
    own.splice(own.end(), idle_, at);
  }

  std::size_t total() const {
    const std::lock_guard lock(mutex_);
    return total_;
  }

 private:
  mutable std::mutex mutex_;
  std::size_t max_total_ = 0;
  std::size_t max_per_address_ = 0;
  std::size_t total_ = 0;
  std::map<boost::asio::ip::address, std::size_t> by_address_;
  IdleList idle_;
};

}  // namespace vouch::http
