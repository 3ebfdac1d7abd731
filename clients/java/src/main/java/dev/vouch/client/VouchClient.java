package dev.vouch.client;

import static dev.vouch.client.Types.*;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The Vouch API: {@code new VouchClient(baseUrl, apiKey)} or {@code VouchClient.builder()…build()},
 * then its resources {@code projects}, {@code tests}, {@code webhooks}, {@code events},
 * {@code keys}. Every method raises {@link VouchError}; instances are thread-safe.
 */
public final class VouchClient {
  /** operationId → {method, path template}; every method of the client goes through one. */
  public static final Map<String, List<String>> OPERATIONS = operations(
      "createProject", "POST", "/v1/projects",
      "listProjects", "GET", "/v1/projects",
      "getProject", "GET", "/v1/projects/{projectId}",
      "updateProject", "PUT", "/v1/projects/{projectId}",
      "deleteProject", "DELETE", "/v1/projects/{projectId}",
      "importProject", "POST", "/v1/projects/{projectId}/import",
      "generateTests", "POST", "/v1/tests/generate",
      "listTests", "GET", "/v1/tests",
      "getTest", "GET", "/v1/tests/{testId}",
      "runTests", "POST", "/v1/tests/run",
      "getRun", "GET", "/v1/tests/results/{runId}",
      "getCoverageReport", "GET", "/v1/tests/results/{runId}/coverage",
      "getCoverageLcov", "GET", "/v1/tests/results/{runId}/coverage/lcov.info",
      "getCoverageHtml", "GET", "/v1/tests/results/{runId}/coverage/html/{path}",
      "getJunitReport", "GET", "/v1/tests/results/{runId}/junit.xml",
      "createWebhook", "POST", "/v1/webhooks",
      "listWebhooks", "GET", "/v1/webhooks",
      "getWebhook", "GET", "/v1/webhooks/{webhookId}",
      "updateWebhook", "PUT", "/v1/webhooks/{webhookId}",
      "deleteWebhook", "DELETE", "/v1/webhooks/{webhookId}",
      "rotateWebhookSecret", "POST", "/v1/webhooks/{webhookId}/rotate-secret",
      "listDeliveries", "GET", "/v1/webhooks/{webhookId}/deliveries",
      "redeliver", "POST", "/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
      "listEvents", "GET", "/v1/events",
      "issueKey", "POST", "/v1/keys",
      "revokeKey", "DELETE", "/v1/keys/{keyId}",
      "health", "GET", "/healthz",
      "readiness", "GET", "/readyz",
      "metrics", "GET", "/metrics",
      "getOpenApi", "GET", "/v1/openapi.json");

  /** Waits between retries; replaceable so tests can record the waits. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  /** Longest {@code Prefer: wait} the server grants. */
  public static final int MAX_POLL_WAIT_SECONDS = 25;

  public final Projects projects;
  public final Tests tests;
  public final Webhooks webhooks;
  public final Events events;
  public final Keys keys;
  private final Transport transport;

  public VouchClient(String baseUrl, String apiKey) {
    this(builder().baseUrl(baseUrl).apiKey(apiKey));
  }

  private VouchClient(Builder b) {
    transport = new Transport(b.baseUrl, b.apiKey, b.timeout, b.maxRetries, b.backoffBase,
        b.backoffMax, b.maxRetryAfter, b.sleeper);
    projects = new Projects();
    tests = new Tests();
    webhooks = new Webhooks();
    events = new Events();
    keys = new Keys();
  }

  public static Builder builder() { return new Builder(); }

  /** Options; defaults: timeout 60 s, 3 retries, backoff 0.5 s to 8 s, Retry-After up to 120 s. */
  public static final class Builder {
    private String baseUrl;
    private String apiKey;
    private Duration timeout = Duration.ofSeconds(60);
    private int maxRetries = 3;
    private Duration backoffBase = Duration.ofMillis(500);
    private Duration backoffMax = Duration.ofSeconds(8);
    private Duration maxRetryAfter = Duration.ofSeconds(120);
    private Sleeper sleeper = d -> Thread.sleep(d.toMillis());

    public Builder baseUrl(String baseUrl) { this.baseUrl = baseUrl; return this; }
    public Builder apiKey(String apiKey) { this.apiKey = apiKey; return this; }
    /** Per request (a long poll adds its wait). */
    public Builder timeout(Duration timeout) { this.timeout = timeout; return this; }
    /** Retries of one call on 429/503 and on network errors of idempotent calls. */
    public Builder maxRetries(int maxRetries) { this.maxRetries = maxRetries; return this; }
    public Builder backoff(Duration base, Duration max) { backoffBase = base; backoffMax = max; return this; }
    /** A 429/503 asking to wait longer than this is raised at once. */
    public Builder maxRetryAfter(Duration maxRetryAfter) { this.maxRetryAfter = maxRetryAfter; return this; }
    /** Replaces the wait between retries (tests record the waits). */
    public Builder sleeper(Sleeper sleeper) { this.sleeper = sleeper; return this; }
    public VouchClient build() { return new VouchClient(this); }
  }

  private static Map<String, List<String>> operations(String... triples) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (int i = 0; i < triples.length; i += 3) out.put(triples[i], List.of(triples[i + 1], triples[i + 2]));
    return java.util.Collections.unmodifiableMap(out);
  }

  private static final Pattern PARAM = Pattern.compile("\\{(\\w+)\\}");

  private JsonNode call(String operation, Map<String, String> params, Transport.Call options) {
    List<String> op = OPERATIONS.get(operation);
    return transport.send(op.get(0), path(op.get(1), params), options);
  }

  private static String path(String template, Map<String, String> params) {
    Matcher m = PARAM.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = params.get(m.group(1));
      if (value == null || value.isEmpty()) throw new IllegalArgumentException(m.group(1) + " must not be empty");
      // A file path keeps its slashes; every other parameter is one segment.
      String encoded = URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
      if (m.group(1).equals("path")) encoded = encoded.replace("%2F", "/");
      m.appendReplacement(out, Matcher.quoteReplacement(encoded));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static <T> T as(JsonNode node, Class<T> type) {
    return node == null ? null : Transport.JSON.convertValue(node, type);
  }

  private static Transport.Call with(Object body) {
    Transport.Call call = new Transport.Call();
    call.body = body;
    return call;
  }

  private static Transport.Call post(Object body, String idempotencyKey) {
    Transport.Call call = with(body);
    call.idempotencyKey = idempotencyKey;
    return call;
  }

  private static Transport.Call page(PageParams params) {
    Transport.Call call = new Transport.Call();
    if (params != null) call.query("limit", params.limit()).query("startingAfter", params.startingAfter());
    return call;
  }

  private <T> Page<T> pageOf(JsonNode answer, String field, Class<T> type) {
    JavaType listType = Transport.JSON.getTypeFactory().constructCollectionType(List.class, type);
    List<T> items = Transport.JSON.convertValue(answer.path(field), listType);
    return new Page<>(items == null ? List.of() : items, answer.path("hasMore").asBoolean(false));
  }

  /**
   * Every item of a list endpoint as a lazy stream: pages are fetched as the stream is consumed,
   * {@code startingAfter} = the last item's id.
   */
  private <T> Stream<T> stream(Function<String, Page<T>> fetch, Function<T, String> idOf, String startingAfter) {
    Iterator<T> iterator = new Iterator<>() {
      private Iterator<T> current = List.<T>of().iterator();
      private String cursor = startingAfter;
      private boolean more = true;

      @Override public boolean hasNext() {
        while (!current.hasNext() && more) {
          Page<T> page = fetch.apply(cursor);
          current = page.items().iterator();
          more = page.hasMore() && !page.items().isEmpty();
          if (!page.items().isEmpty()) cursor = idOf.apply(page.items().get(page.items().size() - 1));
        }
        return current.hasNext();
      }

      @Override public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return current.next();
      }
    };
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator, Spliterator.ORDERED), false);
  }

  /**
   * A resource created, read, updated, deleted and listed the same way: projects and webhooks.
   * {@code noun} names its operations ({@code createProject}, {@code listProjects}, …),
   * {@code idParam} its path parameter and {@code field} the list answer's array.
   */
  public abstract class Crud<R, C, U> {
    private final String noun;
    private final String idParam;
    private final String field;
    private final Class<R> type;
    private final Function<R, String> idOf;

    Crud(String noun, String idParam, String field, Class<R> type, Function<R, String> idOf) {
      this.noun = noun;
      this.idParam = idParam;
      this.field = field;
      this.type = type;
      this.idOf = idOf;
    }

    public R create(C body) { return create(body, null); }
    public R create(C body, String idempotencyKey) {
      return as(call("create" + noun, Map.of(), post(body, idempotencyKey)), type);
    }
    public R get(String id) { return as(call("get" + noun, Map.of(idParam, id), with(null)), type); }
    public R update(String id, U body) {
      return as(call("update" + noun, Map.of(idParam, id), with(body)), type);
    }
    public void delete(String id) { call("delete" + noun, Map.of(idParam, id), with(null)); }
    /** One page, oldest first. */
    public Page<R> list(PageParams params) {
      return pageOf(call("list" + noun + "s", Map.of(), page(params)), field, type);
    }
    /** Every item, fetching pages of {@code limit} (null: the server's default) as needed. */
    public Stream<R> iterate(Integer limit) {
      return stream(after -> list(new PageParams(limit, after)), idOf, null);
    }
  }

  public final class Projects extends Crud<Project, CreateProjectRequest, UpdateProjectRequest> {
    Projects() { super("Project", "projectId", "projects", Project.class, Project::id); }

    /**
     * Stores a snapshot of the project's sources ({@code project.imported}) from
     * {@link ImportRequest#files} or {@link ImportRequest#git}.
     */
    public ImportedSnapshot importSnapshot(String projectId, ImportRequest body, String idempotencyKey) {
      return as(call("importProject", Map.of("projectId", projectId), post(body, idempotencyKey)), ImportedSnapshot.class);
    }
    public ImportedSnapshot importSnapshot(String projectId, ImportRequest body) {
      return importSnapshot(projectId, body, null);
    }
    /** The same from the bytes of a {@code .tar.gz} (npm pack, git archive, …). */
    public ImportedSnapshot importArchive(String projectId, byte[] tarGz) {
      Transport.Call call = post(null, null);
      call.rawBody = tarGz;
      call.contentType = "application/gzip";
      return as(call("importProject", Map.of("projectId", projectId), call), ImportedSnapshot.class);
    }
  }

  public final class Tests {
    /** Generates Jest tests for the files; answers when they exist. */
    public GeneratedTest generate(GenerateTestsRequest body) { return generate(body, null); }
    public GeneratedTest generate(GenerateTestsRequest body, String idempotencyKey) {
      return as(call("generateTests", Map.of(), post(body, idempotencyKey)), GeneratedTest.class);
    }
    /**
     * With {@code respondAsync}, {@code Prefer: respond-async}: answers at once with the test
     * {@code generating}; follow it with {@link #waitForGeneration}.
     */
    public GeneratedTest generate(GenerateTestsRequest body, String idempotencyKey, boolean respondAsync) {
      Transport.Call options = post(body, idempotencyKey);
      if (respondAsync) options.headers.put("Prefer", "respond-async");
      return as(call("generateTests", Map.of(), options), GeneratedTest.class);
    }
    /**
     * Reads the test (once a second) until its generation has ended and returns it, handing each
     * new progress to {@code onProgress} (may be null). A failed generation raises VouchError
     * (status 0, its error's code and detail); after {@code timeout}, {@code wait_timeout}.
     */
    public GeneratedTest waitForGeneration(String testId, Duration timeout,
        java.util.function.Consumer<GenerationProgress> onProgress) {
      long deadline = System.nanoTime() + timeout.toNanos();
      GenerationProgress last = null;
      while (true) {
        GeneratedTest test = get(testId);
        if (!test.isGenerating()) {
          if (test.error() != null) throw new VouchError(0, test.error().code(), test.error().detail(), null);
          return test;
        }
        if (onProgress != null && test.progress() != null && !test.progress().equals(last)) onProgress.accept(test.progress());
        last = test.progress();
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new VouchError(0, "wait_timeout", "test " + testId + " was still generating after " + timeout, null);
        }
        transport.pause(Duration.ofNanos(Math.min(left, 1_000_000_000L)));
      }
    }
    public GeneratedTest get(String testId) {
      return as(call("getTest", Map.of("testId", testId), with(null)), GeneratedTest.class);
    }
    public Page<GeneratedTest> list(String projectId, PageParams params) {
      return pageOf(call("listTests", Map.of(), page(params).query("projectId", projectId)), "tests", GeneratedTest.class);
    }
    public Stream<GeneratedTest> iterate(String projectId, Integer limit) {
      return stream(after -> list(projectId, new PageParams(limit, after)), GeneratedTest::testId, null);
    }
    /** Starts a run; answers at once with status running. */
    public Run run(RunTestsRequest body) { return run(body, null); }
    public Run run(RunTestsRequest body, String idempotencyKey) {
      return as(call("runTests", Map.of(), post(body, idempotencyKey)), Run.class);
    }
    /** The run now. */
    public Run results(String runId) { return results(runId, 0); }
    /** The run when it ends, or after {@code waitSeconds} (at most 25), whichever is first. */
    public Run results(String runId, int waitSeconds) {
      Transport.Call options = with(null);
      if (waitSeconds > 0) {
        options.headers.put("Prefer", "wait=" + waitSeconds);
        options.timeout = transport.timeout.plusSeconds(waitSeconds);
      }
      return as(call("getRun", Map.of("runId", runId), options), Run.class);
    }
    /** The completed run's coverage report. */
    public CoverageReport coverage(String runId) {
      return as(call("getCoverageReport", Map.of("runId", runId), with(null)), CoverageReport.class);
    }
    /** The run's {@code lcov.info}. */
    public String coverageLcov(String runId) {
      return transport.sendText("GET", path(OPERATIONS.get("getCoverageLcov").get(1), Map.of("runId", runId)), with(null));
    }
    /** The run's JUnit XML report (a testsuite per test file, a testcase per test). */
    public String junitXml(String runId) {
      return transport.sendText("GET", path(OPERATIONS.get("getJunitReport").get(1), Map.of("runId", runId)), with(null));
    }
    /** One file of the run's HTML coverage report ({@code index.html}, its pages, CSS, images). */
    public byte[] coverageHtml(String runId, String path) {
      return transport.sendBytes("GET",
          VouchClient.path(OPERATIONS.get("getCoverageHtml").get(1), Map.of("runId", runId, "path", path)), with(null));
    }
    /** {@link #waitForResults(String, Duration)} with 5 minutes. */
    public Run waitForResults(String runId) { return waitForResults(runId, Duration.ofMinutes(5)); }
    /**
     * The run once completed, long-polling with {@code Prefer: wait} (one request per 25 s while
     * it runs). Failed connections, 5xx and answers that were not held are retried with backoff
     * until {@code timeout}; then raises VouchError {@code wait_timeout} (status 0).
     */
    public Run waitForResults(String runId, Duration timeout) {
      long deadline = System.nanoTime() + timeout.toNanos();
      int attempt = 0;
      while (true) {
        long leftSeconds = (deadline - System.nanoTime()) / 1_000_000_000L;
        int wait = (int) Math.max(0, Math.min(MAX_POLL_WAIT_SECONDS, leftSeconds));
        long started = System.nanoTime();
        Run run = null;
        try {
          run = results(runId, wait);
        } catch (VouchError e) {
          if (e.status() != 0 && e.status() < 500) throw e;
          if (e.code().equals("interrupted")) throw e;
        }
        if (run != null && run.isCompleted()) return run;
        long now = System.nanoTime();
        if (now >= deadline) {
          throw new VouchError(0, "wait_timeout", "run " + runId + " did not complete within " + timeout, null);
        }
        if (run == null || now - started < wait * 900_000_000L) {
          // No answer, or the request was not held: back off before asking again.
          Duration pause = transport.backoff(attempt++);
          transport.pause(pause.toNanos() < deadline - now ? pause : Duration.ofNanos(deadline - now));
        } else {
          attempt = 0;
        }
      }
    }
  }

  /** Creation and rotation answer with the {@code secret} (only there). */
  public final class Webhooks extends Crud<Webhook, CreateWebhookRequest, UpdateWebhookRequest> {
    Webhooks() { super("Webhook", "webhookId", "webhooks", Webhook.class, Webhook::id); }

    public Webhook rotateSecret(String webhookId) {
      return as(call("rotateWebhookSecret", Map.of("webhookId", webhookId), with(null)), Webhook.class);
    }
    /** One page of the delivery log, newest first. */
    public Page<Delivery> deliveries(String webhookId, PageParams params) {
      return pageOf(call("listDeliveries", Map.of("webhookId", webhookId), page(params)), "deliveries", Delivery.class);
    }
    public Stream<Delivery> iterateDeliveries(String webhookId, Integer limit) {
      return stream(after -> deliveries(webhookId, new PageParams(limit, after)), Delivery::id, null);
    }
    public Redelivery redeliver(String webhookId, String deliveryId) {
      return as(call("redeliver", Map.of("webhookId", webhookId, "deliveryId", deliveryId), with(null)),
          Redelivery.class);
    }
  }

  public final class Events {
    /**
     * One page of the account's public events in log order; {@code type} (a type or a pattern
     * such as {@code test.*}) and {@code projectId} filter them when not null.
     */
    public Page<Event> list(PageParams params, String type, String projectId) {
      return pageOf(call("listEvents", Map.of(), page(params).query("type", type).query("projectId", projectId)),
          "events", Event.class);
    }
    public Page<Event> list(PageParams params) { return list(params, null, null); }
    public Stream<Event> iterate(Integer limit, String type, String projectId) {
      return stream(after -> list(new PageParams(limit, after), type, projectId), Event::id, null);
    }
    public Stream<Event> iterate(Integer limit) { return iterate(limit, null, null); }
  }

  /** API keys: needs a key with the admin scope. */
  public final class Keys {
    public ApiKey create(CreateKeyRequest body) {
      return as(call("issueKey", Map.of(), post(body, null)), ApiKey.class);
    }
    public void revoke(String keyId) { call("revokeKey", Map.of("keyId", keyId), with(null)); }
  }

  public JsonNode health() { return call("health", Map.of(), with(null)); }
  public JsonNode ready() { return call("readiness", Map.of(), with(null)); }
  public String metrics() {
    List<String> op = OPERATIONS.get("metrics");
    return transport.sendText(op.get(0), op.get(1), with(null));
  }
  public JsonNode openapi() { return call("getOpenApi", Map.of(), with(null)); }
}
