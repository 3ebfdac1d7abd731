package dev.vouch.client;

import java.util.List;

/**
 * The one error type of the client: an error answer of the API with its problem+json (RFC 9457)
 * fields, or a call that got no answer ({@code status} 0, {@code code} {@code network_error}), or
 * a {@code waitForResults} that ran out of time ({@code status} 0, {@code code}
 * {@code wait_timeout}).
 */
public class VouchError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** One invalid field of a request. */
  public record FieldError(String field, String message) {}

  private final int status;
  private final String code;
  private final String detail;
  private final List<FieldError> errors;
  private final String requestId;
  private final String title;
  private final String type;
  private final Double retryAfter;

  public VouchError(int status, String code, String detail, List<FieldError> errors, String requestId,
      String title, String type, Double retryAfter, Throwable cause) {
    super((status != 0 ? status + " " : "") + code + ": " + (detail == null ? "" : detail), cause);
    this.status = status;
    this.code = code;
    this.detail = detail == null ? "" : detail;
    this.errors = errors == null ? List.of() : List.copyOf(errors);
    this.requestId = requestId;
    this.title = title;
    this.type = type;
    this.retryAfter = retryAfter;
  }

  public VouchError(int status, String code, String detail, Throwable cause) {
    this(status, code, detail, null, null, null, null, null, cause);
  }

  /** HTTP status; 0 when no answer came. */
  public int status() { return status; }
  /** Stable machine word: {@code invalid_request}, {@code unauthenticated}, {@code not_found}, … */
  public String code() { return code; }
  public String detail() { return detail; }
  /** Invalid fields of a 400. */
  public List<FieldError> errors() { return errors; }
  /** The server's request id ({@code X-Request-Id}); null when no answer came. */
  public String requestId() { return requestId; }
  public String title() { return title; }
  public String type() { return type; }
  /** {@code Retry-After} of a 429 or 503 in seconds, or null. */
  public Double retryAfter() { return retryAfter; }
}
