package dev.vouch.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Sends calls with their retries: on 429 and 503 (the server did not act) and on 409
 * {@code idempotency_key_in_use} (the first attempt of this POST is still being answered) after
 * {@code Retry-After} or a backoff; on a failed connection only for idempotent calls — GET, PUT,
 * DELETE, and POST, which always carries an {@code Idempotency-Key} (the same on every attempt)
 * so that the server answers a repeated POST with its first answer instead of acting twice.
 */
final class Transport {
  static final ObjectMapper JSON = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "PUT", "DELETE", "OPTIONS");

  final String baseUrl;
  final Duration timeout;
  private final String apiKey;
  private final int maxRetries;
  private final Duration backoffBase;
  private final Duration backoffMax;
  private final Duration maxRetryAfter;
  final VouchClient.Sleeper sleeper;
  private final HttpClient http;

  Transport(String baseUrl, String apiKey, Duration timeout, int maxRetries, Duration backoffBase,
      Duration backoffMax, Duration maxRetryAfter, VouchClient.Sleeper sleeper) {
    if (baseUrl == null || baseUrl.isEmpty()) throw new IllegalArgumentException("baseUrl is required");
    this.baseUrl = baseUrl.replaceAll("/+$", "");
    this.apiKey = apiKey;
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    this.backoffBase = backoffBase;
    this.backoffMax = backoffMax;
    this.maxRetryAfter = maxRetryAfter;
    this.sleeper = sleeper;
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** About base·2^attempt, capped, times a jitter in [0.5, 1). */
  Duration backoff(int attempt) {
    long ceiling = Math.min(backoffMax.toMillis(), backoffBase.toMillis() << Math.min(attempt, 20));
    return Duration.ofMillis((long) (ceiling * (0.5 + ThreadLocalRandom.current().nextDouble() / 2)));
  }

  /** Seconds to wait from a {@code Retry-After} value (delta-seconds or an HTTP date), or null. */
  static Double parseRetryAfter(String value) {
    if (value == null || value.isBlank()) return null;
    String text = value.trim();
    if (text.matches("\\d+")) return Double.valueOf(text);
    try {
      ZonedDateTime when = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME);
      return Math.max(0.0, (when.toInstant().toEpochMilli() - System.currentTimeMillis()) / 1000.0);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** One call's options. */
  static final class Call {
    final Map<String, Object> query = new LinkedHashMap<>();
    Object body;
    byte[] rawBody;
    String contentType;
    final Map<String, String> headers = new LinkedHashMap<>();
    String idempotencyKey;
    Duration timeout;

    Call query(String name, Object value) {
      if (value != null) query.put(name, value);
      return this;
    }
  }

  /** Sends one call with its retries; returns the answer's JSON (null for 204). */
  JsonNode send(String method, String path, Call call) {
    String text = sendText(method, path, call);
    if (text == null || text.isEmpty()) return null;
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new VouchError(0, "invalid_answer", method + " " + path + ": the answer is not JSON", e);
    }
  }

  String sendText(String method, String path, Call call) {
    return sendWith(method, path, call, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8),
        body -> body);
  }

  byte[] sendBytes(String method, String path, Call call) {
    return sendWith(method, path, call, HttpResponse.BodyHandlers.ofByteArray(),
        body -> new String(body, StandardCharsets.UTF_8));
  }

  private <B> B sendWith(String method, String path, Call call, HttpResponse.BodyHandler<B> handler,
      java.util.function.Function<B, String> asText) {
    StringBuilder url = new StringBuilder(baseUrl).append(path);
    char separator = '?';
    for (var entry : call.query.entrySet()) {
      url.append(separator).append(encode(entry.getKey())).append('=')
          .append(encode(String.valueOf(entry.getValue())));
      separator = '&';
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", "application/json");
    if (apiKey != null) headers.put("Authorization", "Bearer " + apiKey);
    HttpRequest.BodyPublisher publisher = HttpRequest.BodyPublishers.noBody();
    if (call.body != null) {
      try {
        publisher = HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(call.body));
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("the request body cannot be written as JSON", e);
      }
      headers.put("Content-Type", "application/json");
    } else if (call.rawBody != null) {
      publisher = HttpRequest.BodyPublishers.ofByteArray(call.rawBody);
      headers.put("Content-Type", call.contentType != null ? call.contentType : "application/octet-stream");
    }
    if (method.equals("POST")) {
      headers.put("Idempotency-Key",
          call.idempotencyKey != null ? call.idempotencyKey : UUID.randomUUID().toString());
    }
    headers.putAll(call.headers);
    boolean retryOnNetwork = IDEMPOTENT.contains(method) || headers.containsKey("Idempotency-Key");

    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url.toString()))
        .timeout(call.timeout != null ? call.timeout : timeout)
        .method(method, publisher);
    headers.forEach(builder::header);
    HttpRequest request = builder.build();

    for (int attempt = 0; ; ++attempt) {
      HttpResponse<B> response;
      try {
        response = http.send(request, handler);
      } catch (IOException e) {
        if (retryOnNetwork && attempt < maxRetries) {
          pause(backoff(attempt));
          continue;
        }
        throw new VouchError(0, "network_error", method + " " + path + ": " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new VouchError(0, "interrupted", method + " " + path, e);
      }
      int status = response.statusCode();
      if (status >= 300) {
        String text = asText.apply(response.body());
        if (retryable(status, text) && attempt < maxRetries) {
          Double retryAfter = parseRetryAfter(response.headers().firstValue("Retry-After").orElse(null));
          Duration wait = retryAfter == null ? backoff(attempt) : Duration.ofMillis((long) (retryAfter * 1000));
          if (wait.compareTo(maxRetryAfter) <= 0) {
            pause(wait);
            continue;
          }
        }
        // 3xx too: the API answers none, and following one would resend the key elsewhere.
        throw problemOf(status, text, response.headers());
      }
      return response.body();
    }
  }

  /**
   * 429 and 503: the server did not act. 409 {@code idempotency_key_in_use}: the first attempt
   * of this POST is still being answered; a retry gets its answer once it is recorded.
   */
  private static boolean retryable(int status, String body) {
    if (status == 429 || status == 503) return true;
    if (status != 409 || body == null) return false;
    try {
      return "idempotency_key_in_use".equals(JSON.readTree(body).path("code").asText());
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  void pause(Duration duration) {
    try {
      sleeper.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VouchError(0, "interrupted", "interrupted while waiting to retry", e);
    }
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static VouchError problemOf(int status, String body, java.net.http.HttpHeaders headers) {
    JsonNode problem = null;
    try {
      problem = body == null || body.isEmpty() ? null : JSON.readTree(body);
    } catch (JsonProcessingException e) {
      // not JSON: the text becomes the detail
    }
    String code = "http_" + status;
    String detail = problem == null ? body : null;
    String title = null;
    String type = null;
    String requestId = headers.firstValue("X-Request-Id").orElse(null);
    List<VouchError.FieldError> errors = new ArrayList<>();
    if (problem != null && problem.isObject()) {
      code = text(problem, "code", code);
      detail = text(problem, "detail", "");
      title = text(problem, "title", null);
      type = text(problem, "type", null);
      requestId = text(problem, "requestId", requestId);
      for (JsonNode error : problem.path("errors")) {
        errors.add(new VouchError.FieldError(text(error, "field", ""), text(error, "message", "")));
      }
    }
    Double retryAfter = parseRetryAfter(headers.firstValue("Retry-After").orElse(null));
    return new VouchError(status, code, detail, errors, requestId, title, type, retryAfter, null);
  }

  private static String text(JsonNode node, String field, String fallback) {
    JsonNode value = node.get(field);
    return value != null && value.isTextual() ? value.asText() : fallback;
  }
}
