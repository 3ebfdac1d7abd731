#include "actors/domain/account_actor.hpp"

#include "actors/domain/append_request.hpp"
#include "actors/domain/fold_stream.hpp"
#include "actors/errors.hpp"
#include "actors/timeouts.hpp"
#include "base/digest.hpp"
#include "base/ids.hpp"
#include "events/access.hpp"

namespace vouch::actors {
namespace {

struct AccountActorState {
  static inline const char* name = "vouch.accounts";
};

using Self = account_actor::stateful_pointer<AccountActorState>;

caf::result<IssuedKey> issue_key(Self self, const store::EventLog& log,
                                 const event_store_actor& store, IssueKey command) {
  const std::string account_stream = events::account_stream(command.account);
  auto account =
      fold_stream<events::AccountState>(log, account_stream, events::decode_account_event);
  if (!account) return to_caf_error(std::move(account).error());
  auto opened = events::decide(account->first,
                               events::OpenAccount{command.account, command.plan, command.at});
  if (!opened) return to_caf_error(std::move(opened).error());

  const std::string secret = command.secret.value_or(base::new_api_key());
  const events::IssueApiKey issue{
      base::new_id(base::kKeyIdPrefix), command.account, command.name, command.scopes,
      base::sha256_hex(secret),         command.at};
  // Validate the key before the account changes, so a bad request changes nothing.
  auto issued = events::decide(events::ApiKeyState{}, issue);
  if (!issued) return to_caf_error(std::move(issued).error());

  auto promise = self->make_response_promise<IssuedKey>();
  auto record_key = [self, promise, store, issue, secret, plan = command.plan,
                     issued = std::move(issued).value()]() mutable {
    self->request(store, kAppendTimeout, append_atom_v,
                  append_request(events::apikey_stream(issue.key_id), store::kNoStream, issued,
                                 issue.account, issue.at))
        .await(
            [promise, issue, secret, plan](const store::AppendResult&) mutable {
              promise.deliver(IssuedKey{store::KeyRecord{issue.key_id, issue.account, issue.name,
                                                         issue.scopes, issue.at, false},
                                        plan, secret});
            },
            [promise](caf::error& error) mutable { promise.deliver(std::move(error)); });
  };
  if (opened->empty()) {
    record_key();
  } else {
    self->request(
            store, kAppendTimeout, append_atom_v,
            append_request(account_stream, account->second, *opened, command.account, command.at))
        .await([record_key](const store::AppendResult&) mutable { record_key(); },
               [promise](caf::error& error) mutable { promise.deliver(std::move(error)); });
  }
  return promise;
}

caf::result<bool> revoke_key(Self self, const store::EventLog& log, const event_store_actor& store,
                             const RevokeKey& command) {
  const std::string stream = events::apikey_stream(command.key_id);
  auto key = fold_stream<events::ApiKeyState>(log, stream, events::decode_api_key_event);
  if (!key) return to_caf_error(std::move(key).error());
  auto revoked = events::decide(key->first, events::RevokeApiKey{command.key_id, command.at});
  if (!revoked) return to_caf_error(std::move(revoked).error());
  if (revoked->empty()) return true;
  auto promise = self->make_response_promise<bool>();
  self->request(
          store, kAppendTimeout, append_atom_v,
          append_request(stream, key->second, *revoked, key->first.issued->account, command.at))
      .await([promise](const store::AppendResult&) mutable { promise.deliver(true); },
             [promise](caf::error& error) mutable { promise.deliver(std::move(error)); });
  return promise;
}

account_actor::behavior_type accounts(Self self, const store::EventLog* log,
                                      event_store_actor store) {
  return {
      [=](IssueKey& command) { return issue_key(self, *log, store, std::move(command)); },
      [=](const RevokeKey& command) { return revoke_key(self, *log, store, command); },
  };
}

}  // namespace

account_actor spawn_account_actor(caf::actor_system& system, const store::EventLog& log,
                                  event_store_actor store) {
  return system.spawn(accounts, &log, std::move(store));
}

}  // namespace vouch::actors
