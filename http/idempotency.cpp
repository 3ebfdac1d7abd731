#include "http/idempotency.hpp"

#include <utility>

#include "base/clock.hpp"
#include "http/reply.hpp"
#include "log/log.hpp"

namespace vouch::http {
namespace {

// The recorded response again; a secret cut out of it is opened and put
// back. 409 webhook_secret_destroyed (a webhook's) or api_key_withheld (an
// API key's) once its data key is gone.
Response replay(const actors::Service& service, const events::IdempotentResponse& recorded,
                const std::string& request_id) {
  Response response;
  response.status = recorded.status;
  response.content_type = recorded.content_type;
  response.body = recorded.body;
  response.headers = recorded.headers;
  if (recorded.secret_at) {
    auto plain = recorded.secret.empty()
                     ? base::Result<std::string>(base::Error::not_found("no sealed secret"))
                     : service.open_secret(recorded.secret_of, recorded.secret);
    if (!plain && plain.error().code != base::ErrorCode::kNotFound) {
      return error_response(
          base::Error::internal("cannot open the recorded response's webhook secret: " +
                                plain.error().message),
          request_id);
    }
    if (!plain && events::is_idempotency_stream(recorded.secret_of)) {
      return to_response({409,
                          "api_key_withheld",
                          "the first response to this Idempotency-Key showed a new API key, which "
                          "could not be kept sealed for a retry; list the account's keys, revoke "
                          "the one made by that request and create another",
                          {}},
                         request_id);
    }
    if (!plain) {
      return to_response({409,
                          "webhook_secret_destroyed",
                          "the first response to this Idempotency-Key showed a webhook secret "
                          "that has since been destroyed (the webhook was deleted or its secret "
                          "rotated again), so it cannot be answered again",
                          {}},
                         request_id);
    }
    response.body.insert(*recorded.secret_at, *plain);
  }
  response.set_header("Idempotent-Replayed", "true");
  return response;
}

// What is recorded of `response`, the answer to the idempotency stream
// `stream`: never a secret in plain text. A webhook's secret keeps the sealed
// form its event has; an API key is sealed here under a data key owned by
// `stream` (or, when that fails, not kept: a retry then answers 409).
events::IdempotentResponse to_record(actors::Service& service, const std::string& stream,
                                     const Response& response) {
  events::IdempotentResponse out;
  out.status = response.status;
  out.content_type = response.content_type;
  out.headers = response.headers;
  out.body = response.body;
  if (!response.secret) return out;
  const auto& secret = *response.secret;
  const auto at = out.body.find(secret.plain);
  if (at == std::string::npos) return out;
  out.body.erase(at, secret.plain.size());
  out.secret_at = at;
  if (!secret.webhook_id.empty()) {
    out.secret_of = secret.webhook_id;
    out.secret = secret.sealed;
    return out;
  }
  out.secret_of = stream;
  if (auto sealed = service.seal_response_secret(stream, secret.plain)) {
    out.secret = std::move(sealed).value();
  } else {
    log::error("http", "an idempotent response's API key was not kept: " + sealed.error().message);
  }
  return out;
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
    return respond(replay(service_, **recorded, context.request_id));
  }

  Respond record = [this, stream, account, key, fingerprint, request_id = context.request_id,
                    respond = std::move(respond)](Response response) {
    if (response.status < 200 || response.status > 299) {
      release(stream);
      return respond(std::move(response));
    }
    auto first = to_record(service_, stream, response);
    first.key = key;
    first.fingerprint = fingerprint;
    first.at = base::now_millis();
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
