#include "http/idempotency.hpp"

#include <utility>

#include "base/clock.hpp"
#include "http/reply.hpp"
#include "log/log.hpp"

namespace vouch::http {
namespace {

Response replay(const events::IdempotentResponse& recorded) {
  Response response;
  response.status = recorded.status;
  response.content_type = recorded.content_type;
  response.body = recorded.body;
  response.headers = recorded.headers;
  response.set_header("Idempotent-Replayed", "true");
  return response;
}

}  // namespace

bool Idempotency::claim(const std::string& stream) {
  std::lock_guard lock(mutex_);
  return in_flight_.insert(stream).second;
}

void Idempotency::release(const std::string& stream) {
  std::lock_guard lock(mutex_);
  in_flight_.erase(stream);
}

void Idempotency::handle(const Request& request, const Context& context, const Handler& handler,
                         Respond respond) {
  const auto& key = request.idempotency_key;
  if (auto usable = events::check_idempotency_key(key); !usable) {
    return respond(error_response(usable.error(), context.request_id));
  }
  const auto& account = context.caller.account;
  auto stream = events::idempotency_stream(account, key);
  auto fingerprint = events::request_fingerprint(request.method, request.target, request.body);
  if (!claim(stream)) {
    return respond(to_response({409,
                                "idempotency_key_in_use",
                                "a request with this Idempotency-Key is still being answered; "
                                "retry once it has been",
                                {},
                                1},
                               context.request_id));
  }
  auto recorded = view_.find(stream);
  if (!recorded) {
    release(stream);
    return respond(error_response(recorded.error(), context.request_id));
  }
  if (*recorded && events::answers_retries((*recorded)->at, base::now_millis())) {
    release(stream);
    if ((*recorded)->fingerprint != fingerprint) {
      return respond(to_response(
          {422,
           "idempotency_key_reused",
           "this Idempotency-Key was used for another request (method, path or body) within "
           "the last 24 hours; send a new key for a new request",
           {{"Idempotency-Key", "already used for another request"}}},
          context.request_id));
    }
    return respond(replay(**recorded));
  }

  Respond record = [this, stream, account, key, fingerprint, request_id = context.request_id,
                    respond = std::move(respond)](Response response) {
    if (response.status < 200 || response.status > 299) {
      release(stream);
      return respond(std::move(response));
    }
    events::IdempotentResponse first{
        key,           fingerprint,       response.status, response.content_type, response.headers,
        response.body, base::now_millis()};
    service_.record_idempotent_response(
        account, std::move(first),
        [this, stream, request_id, respond,
         response = std::move(response)](base::Result<bool> recorded) mutable {
          // The work is done either way: the client gets its answer, and a
          // retry after an unrecorded answer would act again, which the log says.
          if (!recorded) {
            log::error("http",
                       "an idempotent response was not recorded: " + recorded.error().message,
                       {{"requestId", request_id}});
          }
          release(stream);
          respond(std::move(response));
        });
  };
  try {
    handler(request, context, std::move(record));
  } catch (...) {
    release(stream);  // the caller's barrier answers 500; the key must not stay taken
    throw;
  }
}

}  // namespace vouch::http
