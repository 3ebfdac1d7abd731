package dev.vouch.client;

import static dev.vouch.client.Support.*;
import static dev.vouch.client.Types.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.vouch.client.WebhookVerifier.VerificationException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The Java client against a live vouchd (VOUCH_URL, VOUCH_ADMIN_KEY). */
class VouchClientTest {

  static VouchError expectError(int status, String code, Runnable call) {
    VouchError error = assertThrows(VouchError.class, call::run);
    assertEquals(status, error.status(), error.getMessage());
    assertEquals(code, error.code());
    return error;
  }

  static List<String> iterable(java.util.Iterator<String> names) {
    List<String> out = new ArrayList<>();
    names.forEachRemaining(out::add);
    return out;
  }

  static Map<String, List<String>> only(Map<String, List<String>> headers, String prefix) {
    Map<String, List<String>> out = new TreeMap<>();
    headers.forEach((k, v) -> { if (k.startsWith(prefix)) out.put(k, v); });
    return out;
  }

  @Test
  void anAsynchronousGenerationIsFollowedToItsEnd() {
    VouchClient v = freshAccount();
    Project project = v.projects.create(new CreateProjectRequest("async", null, null));
    GeneratedTest accepted = v.tests.generate(
        new GenerateTestsRequest(project.id(), List.of(new SourceFile("src/math.js", MODULE))), null, true);
    assertTrue(accepted.isGenerating());
    assertNotNull(accepted.progress());
    List<GenerationProgress> seen = new java.util.ArrayList<>();
    GeneratedTest test = v.tests.waitForGeneration(accepted.testId(), java.time.Duration.ofMinutes(5), seen::add);
    assertEquals("pending", test.status());
    assertNull(test.error());
    assertTrue(test.summary().path("testsKept").asInt() > 0);
    assertFalse(seen.isEmpty());
  }

  @Test
  void fullFlowWithVerifiedWebhooks() throws Exception {
    VouchClient v = freshAccount();
    try (Receiver receiver = new Receiver()) {
      Webhook hook = v.webhooks.create(new CreateWebhookRequest(receiver.url, List.of("test.*", "project.*"), "java"));
      assertTrue(hook.secret().startsWith("whsec_"));
      assertNull(v.webhooks.get(hook.id()).secret());

      Project project = v.projects.create(new CreateProjectRequest("shop", "https://git.example/shop.git",
          new ProjectConfig("jest", null)));
      assertTrue(project.id().startsWith("prj_"));
      assertEquals("shop", v.projects.get(project.id()).name());
      Project updated = v.projects.update(project.id(), new UpdateProjectRequest(null, new ProjectConfig(null, new Coverage(50.0))));
      assertEquals(50.0, updated.config().coverage().threshold());

      GeneratedTest test = v.tests.generate(new GenerateTestsRequest(project.id(), List.of(new SourceFile("src/math.js", MODULE))));
      assertEquals("pending", test.status());
      assertTrue(test.files().stream().anyMatch(f -> f.path().endsWith(".test.js")));
      assertTrue(test.summary().path("testsKept").asInt() > 0);
      assertEquals(test.testId(), v.tests.get(test.testId()).testId());
      assertEquals(List.of(test.testId()), v.tests.iterate(project.id(), null).map(GeneratedTest::testId).toList());

      Run run = v.tests.run(new RunTestsRequest(test.testId()));
      assertEquals("running", run.status());
      assertNull(run.results());
      try {
        assertTrue(v.tests.waitForResults(run.runId(), Duration.ofMillis(100)).isCompleted()); // already ended
      } catch (VouchError e) {
        assertEquals("wait_timeout", e.code());
        assertEquals(0, e.status());
      }
      Run done = v.tests.waitForResults(run.runId(), Duration.ofMinutes(2));
      assertEquals("completed", done.status());
      assertEquals("success", done.outcome(), String.valueOf(done));
      assertTrue(done.results().passed() > 0);
      assertEquals(0, done.results().failed());
      assertTrue(done.results().coverage().lines() > 0);
      assertEquals("passed", v.tests.get(test.testId()).status());

      CoverageReport report = v.tests.coverage(run.runId());
      assertEquals(run.runId(), report.runId());
      assertTrue(report.lcov().contains("SF:") && report.lcov().contains("src/math.js"), report.lcov());
      assertTrue(iterable(report.istanbul().fieldNames()).stream().anyMatch(name -> name.endsWith("math.js")));
      assertEquals(report.lcov(), v.tests.coverageLcov(run.runId()));
      String junit = v.tests.junitXml(run.runId());
      assertTrue(junit.contains("<testsuites"), junit);
      assertEquals("/v1/tests/results/" + run.runId() + "/junit.xml", report.junitUrl());
      assertTrue(new String(v.tests.coverageHtml(run.runId(), "index.html"), StandardCharsets.UTF_8).toLowerCase().contains("<html"));

      Received completed = receiver.waitFor(r -> r.type().equals("test.completed"));
      Event event = WebhookVerifier.verify(hook.secret(), completed.headers(), completed.body());
      assertEquals(test.testId(), event.data().path("testId").asText());
      assertEquals(done.results().passed(), event.data().path("results").path("passed").asInt());
      Received created = receiver.waitFor(r -> r.type().equals("project.created"));
      assertEquals(project.id(), WebhookVerifier.verify(hook.secret(), created.headers(), created.body()).data().path("id").asText());

      // The attempt is logged just after the receiver answered: poll the log for it.
      List<Delivery> deliveries = List.of();
      for (long deadline = System.currentTimeMillis() + 20_000; System.currentTimeMillis() < deadline; Thread.sleep(100)) {
        deliveries = v.webhooks.iterateDeliveries(hook.id(), 1).toList();
        if (deliveries.stream().anyMatch(d -> d.event().equals("test.completed"))) break;
      }
      assertTrue(deliveries.stream().anyMatch(d -> d.event().equals("test.completed")));
      assertTrue(deliveries.size() >= 4);
      assertTrue(deliveries.stream().allMatch(d -> d.status() == 200 && d.success()));
      assertEquals("queued", v.webhooks.redeliver(hook.id(), deliveries.get(0).id()).status());

      List<String> types = v.events.iterate(2).map(Event::type).toList();
      assertTrue(types.contains("project.created") && types.contains("test.completed"), types.toString());
      assertEquals(List.of("test.started"), v.events.iterate(null, "test.started", null).map(Event::type).toList());
    }
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class Verifier {
    VouchClient v;
    Receiver receiver;
    Webhook hook;
    Project project;
    Received delivery;

    @BeforeAll
    void deliver() throws Exception {
      v = freshAccount();
      receiver = new Receiver();
      hook = v.webhooks.create(new CreateWebhookRequest(receiver.url, List.of("project.created", "project.updated"), null));
      project = v.projects.create(new CreateProjectRequest("hooked"));
      delivery = receiver.waitFor(r -> r.type().equals("project.created"));
    }

    @AfterAll
    void stop() { receiver.close(); }

    List<Map<String, List<String>>> schemes() {
      return List.of(only(delivery.headers(), "x-service-"), only(delivery.headers(), "webhook-"));
    }

    @Test
    void eachSchemeVerifiesAlone() throws Exception {
      for (var headers : schemes()) {
        assertEquals("project.created", WebhookVerifier.verify(hook.secret(), headers, delivery.body()).type());
      }
      Map<String, String> single = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      delivery.headers().forEach((k, vs) -> single.put(k.toUpperCase(), vs.get(0)));
      assertEquals("project.created", WebhookVerifier.verify(hook.secret(), single, delivery.body()).type());
    }

    @Test
    void aTamperedBodyIsRejectedByEachScheme() {
      byte[] tampered = new String(delivery.body(), StandardCharsets.UTF_8).replace("hooked", "hacked").getBytes(StandardCharsets.UTF_8);
      assertFalse(java.util.Arrays.equals(tampered, delivery.body()));
      List<Map<String, List<String>>> all = new ArrayList<>(schemes());
      all.add(delivery.headers());
      for (var headers : all) {
        assertThrows(VerificationException.class, () -> WebhookVerifier.verify(hook.secret(), headers, tampered));
      }
    }

    @Test
    void anotherSecretIsRejected() {
      String other = v.webhooks.create(new CreateWebhookRequest(receiver.url, List.of("project.deleted"), null)).secret();
      for (var headers : schemes()) {
        assertThrows(VerificationException.class, () -> WebhookVerifier.verify(other, headers, delivery.body()));
      }
    }

    @Test
    void aTimestampOutsideTheToleranceIsRejected() throws Exception {
      long sent = Long.parseLong(delivery.headers().get("webhook-timestamp").get(0));
      List<String> secret = List.of(hook.secret());
      Duration five = Duration.ofMinutes(5);
      assertEquals("project.created", WebhookVerifier.verify(secret, delivery.headers(), delivery.body(), five, sent + 299).type());
      for (var headers : schemes()) {
        VerificationException late = assertThrows(VerificationException.class,
            () -> WebhookVerifier.verify(secret, headers, delivery.body(), five, sent + 301));
        assertTrue(late.getMessage().contains("tolerance"));
        assertThrows(VerificationException.class, () -> WebhookVerifier.verify(secret, headers, delivery.body(), five, sent - 301));
      }
      WebhookVerifier.verify(secret, delivery.headers(), delivery.body(), Duration.ofHours(1), sent + 3000);
    }

    @Test
    void noSignatureHeaderIsRejected() {
      assertThrows(VerificationException.class,
          () -> WebhookVerifier.verify(hook.secret(), Map.of("content-type", "application/json"), delivery.body()));
    }

    @Test
    void bothSecretsVerifyDuringARotation() throws Exception {
      Webhook rotated = v.webhooks.rotateSecret(hook.id());
      assertNotEquals(hook.secret(), rotated.secret());
      v.projects.update(project.id(), new UpdateProjectRequest("rotated", null));
      Received update = receiver.waitFor(r -> r.type().equals("project.updated"));
      assertEquals(2, update.headers().get("webhook-signature").get(0).split(" ").length);
      for (String secret : List.of(rotated.secret(), hook.secret())) {
        assertEquals("project.updated", WebhookVerifier.verify(secret, update.headers(), update.body()).type());
      }
      Map<String, List<String>> bare = new TreeMap<>(update.headers());
      bare.remove("x-service-signature-previous");
      WebhookVerifier.verify(rotated.secret(), bare, update.body());
      assertThrows(VerificationException.class, () -> WebhookVerifier.verify(hook.secret(), only(bare, "x-service-"), update.body()));
    }
  }

  /** A .tar.gz of the files (ustar headers, as npm pack writes them). */
  static byte[] tarGz(Map<String, String> files) throws java.io.IOException {
    var bytes = new java.io.ByteArrayOutputStream();
    try (var gzip = new java.util.zip.GZIPOutputStream(bytes)) {
      for (var file : files.entrySet()) {
        byte[] data = file.getValue().getBytes(StandardCharsets.UTF_8);
        byte[] header = new byte[512];
        java.util.function.BiConsumer<Integer, String> field = (offset, text) -> {
          byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
          System.arraycopy(ascii, 0, header, offset, ascii.length);
        };
        field.accept(0, file.getKey());
        field.accept(100, "0000644\0");
        field.accept(108, "0000000\0");
        field.accept(116, "0000000\0");
        field.accept(124, String.format("%011o\0", data.length));
        field.accept(136, "00000000000\0");
        field.accept(148, "        ");
        field.accept(156, "0");
        field.accept(257, "ustar\0" + "00");
        int sum = 0;
        for (byte b : header) sum += b & 0xff;
        field.accept(148, String.format("%06o\0 ", sum));
        gzip.write(header);
        gzip.write(data);
        gzip.write(new byte[(512 - data.length % 512) % 512]);
      }
      gzip.write(new byte[1024]);
    }
    return bytes.toByteArray();
  }

  @Test
  void importsFilesAndAnArchive() throws Exception {
    VouchClient v = freshAccount();
    Project project = v.projects.create(new CreateProjectRequest("imported"));
    List<SourceFile> files = List.of(new SourceFile("src/math.js", MODULE), new SourceFile("package.json", "{}"));
    ImportedSnapshot snapshot = v.projects.importSnapshot(project.id(), ImportRequest.files(files));
    assertEquals(List.of(project.id(), "upload", 2), List.of(snapshot.projectId(), snapshot.source(), snapshot.files()));
    Map<String, String> archive = new java.util.LinkedHashMap<>();
    for (SourceFile f : files) archive.put("package/" + f.path(), f.content());
    ImportedSnapshot archived = v.projects.importArchive(project.id(), tarGz(archive));
    assertEquals("archive", archived.source());
    assertEquals(snapshot.snapshotId(), archived.snapshotId());  // the top folder is removed: the same files
    VouchError error = expectError(400, "invalid_request", () -> v.projects.importSnapshot(project.id(), ImportRequest.git("main")));
    assertEquals("git", error.errors().get(0).field());  // the project has no repository
    expectError(404, "not_found", () -> v.projects.importSnapshot("prj_missing", ImportRequest.files(files)));
    assertEquals(2, v.events.iterate(null, null, project.id()).filter(e -> e.type().equals("project.imported")).count());
  }

  @Test
  void iterateWalksEveryPageInOrder() {
    VouchClient v = freshAccount();
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 5; i++) created.add(v.projects.create(new CreateProjectRequest("p" + i)).id());
    Page<Project> first = v.projects.list(PageParams.limit(2));
    assertEquals(created.subList(0, 2), first.items().stream().map(Project::id).toList());
    assertTrue(first.hasMore());
    Page<Project> last = v.projects.list(new PageParams(2, created.get(3)));
    assertEquals(created.subList(4, 5), last.items().stream().map(Project::id).toList());
    assertFalse(last.hasMore());
    assertEquals(created, v.projects.iterate(2).map(Project::id).toList());
    assertEquals(created, v.projects.iterate(100).map(Project::id).toList());
    assertEquals(created.subList(0, 3), v.projects.iterate(2).limit(3).map(Project::id).toList());
    v.projects.delete(created.get(0));
    assertEquals(created.subList(1, 5), v.projects.iterate(3).map(Project::id).toList());
  }

  @Test
  void webhooksAndEventsPages() {
    VouchClient v = freshAccount();
    List<String> hooks = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      hooks.add(v.webhooks.create(new CreateWebhookRequest("https://hooks.example.com/" + i, List.of("*"), null)).id());
    }
    assertEquals(hooks, v.webhooks.iterate(1).map(Webhook::id).toList());
    v.webhooks.update(hooks.get(0), new UpdateWebhookRequest(null, null, "off", false));
    assertFalse(v.webhooks.get(hooks.get(0)).active());
    v.webhooks.delete(hooks.get(2));
    assertEquals(hooks.subList(0, 2), v.webhooks.iterate(1).map(Webhook::id).toList());
    for (int i = 0; i < 3; i++) v.projects.create(new CreateProjectRequest("e" + i));
    assertEquals(List.of("project.created", "project.created", "project.created"),
        v.events.iterate(2).map(Event::type).toList());
  }

  @Test
  void unauthenticatedCarriesTheProblemFields() {
    VouchError error = expectError(401, "unauthenticated",
        () -> new VouchClient(BASE_URL, "vk_" + "0".repeat(64)).projects.list(PageParams.none()));
    assertFalse(error.detail().isEmpty());
    assertNotNull(error.requestId());
  }

  @Test
  void forbiddenWithoutTheScope() {
    VouchClient v = new VouchClient(BASE_URL, freshKey("enterprise", List.of("projects:read")));
    expectError(403, "forbidden", () -> v.projects.create(new CreateProjectRequest("nope")));
  }

  @Test
  void notFoundForAnUnknownResource() {
    VouchClient v = freshAccount();
    List<Runnable> calls = List.of(
        () -> v.projects.get("prj_missing"), () -> v.tests.get("tst_missing"),
        () -> v.tests.results("run_missing"), () -> v.tests.waitForResults("run_missing"),
        () -> v.webhooks.deliveries("whk_missing", PageParams.none()));
    for (Runnable call : calls) assertNotNull(expectError(404, "not_found", call).requestId());
  }

  @Test
  void invalidRequestListsTheFields() {
    VouchClient v = freshAccount();
    VouchError error = expectError(400, "invalid_request", () -> v.tests.generate(new GenerateTestsRequest("", List.of())));
    assertTrue(error.errors().stream().anyMatch(e -> e.field().equals("files")), error.errors().toString());
    VouchError events = expectError(400, "invalid_request",
        () -> v.webhooks.create(new CreateWebhookRequest("https://hooks.example.com/x", List.of("nope.*"), null)));
    assertEquals(List.of("events[0]"), events.errors().stream().map(VouchError.FieldError::field).toList());
  }

  static VouchError exhaust(VouchClient v) {
    for (int i = 0; i < 200; i++) {
      try {
        v.projects.list(PageParams.limit(1));
      } catch (VouchError e) {
        return e;
      }
    }
    return fail("no 429 after 200 requests on the free plan");
  }

  @Test
  void rateLimitedHonoursRetryAfter() {
    List<Duration> waits = new ArrayList<>();
    VouchClient v = VouchClient.builder().baseUrl(BASE_URL).apiKey(freshKey("free", ALL_SCOPES))
        .maxRetries(1).sleeper(waits::add).build();
    VouchError error = exhaust(v);
    assertEquals(429, error.status());
    assertEquals("rate_limited", error.code());
    assertTrue(error.retryAfter() >= 1);
    // The client waited what the server asked before its one retry (recorded, not slept).
    assertFalse(waits.isEmpty());
    long last = waits.get(waits.size() - 1).toMillis();
    assertTrue(last >= error.retryAfter() * 1000 && last <= (error.retryAfter() + 1) * 1000, waits + " vs " + error.retryAfter());
  }

  @Test
  void rateLimitedAskingTooLongAWaitIsRaisedAtOnce() {
    List<Duration> waits = new ArrayList<>();
    VouchClient v = VouchClient.builder().baseUrl(BASE_URL).apiKey(freshKey("free", ALL_SCOPES))
        .maxRetries(3).maxRetryAfter(Duration.ofMillis(500)).sleeper(waits::add).build();
    assertEquals(429, exhaust(v).status());
    assertEquals(List.of(), waits);
  }

  @Test
  void networkErrorsRetryAPostWithOneIdempotencyKeyAndAGet() throws Exception {
    try (DroppingServer dropping = new DroppingServer()) {
      List<Duration> waits = new ArrayList<>();
      VouchClient v = VouchClient.builder().baseUrl(dropping.url).apiKey("vk_x").maxRetries(2).sleeper(waits::add).build();
      expectError(0, "network_error", () -> v.projects.create(new CreateProjectRequest("x")));
      List<String> keys = dropping.headerValues("Idempotency-Key");
      assertEquals(3, keys.size());
      assertEquals(1, new HashSet<>(keys).size());
      assertEquals(4, UUID.fromString(keys.get(0)).version());
      assertEquals(2, waits.size());
      assertTrue(waits.get(0).toMillis() < waits.get(1).toMillis() * 2);
      expectError(0, "network_error", () -> v.projects.get("prj_x"));
      // Two more retries of the GET; the JDK's HttpClient may itself resend a GET once on a
      // connection closed before the answer, hence "at least".
      assertEquals(4, waits.size());
      assertTrue(dropping.count() >= 6, "requests: " + dropping.count());
    }
  }

  @Test
  void aGivenIdempotencyKeyIsSent() throws Exception {
    try (DroppingServer dropping = new DroppingServer()) {
      VouchClient v = VouchClient.builder().baseUrl(dropping.url).apiKey("vk_x").maxRetries(0).build();
      expectError(0, "network_error", () -> v.tests.run(new RunTestsRequest("tst_x"), "my-key-1"));
      assertEquals(List.of("my-key-1"), dropping.headerValues("Idempotency-Key"));
    }
  }

  @Test
  void aRefusedConnectionIsANetworkError() throws Exception {
    String url;
    try (DroppingServer probe = new DroppingServer()) {
      url = probe.url;
    }
    VouchClient v = VouchClient.builder().baseUrl(url).maxRetries(1).backoff(Duration.ofMillis(10), Duration.ofMillis(10)).build();
    long started = System.nanoTime();
    expectError(0, "network_error", v::health);
    assertTrue(System.nanoTime() - started < 5_000_000_000L);
  }

  /** Against a vouchd that supports it: a POST repeated with its Idempotency-Key acts once. */
  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class Idempotency {
    VouchClient v;
    Project probe;
    boolean supported;

    @BeforeAll
    void probe() {
      v = VouchClient.builder().baseUrl(BASE_URL).apiKey(freshKey("enterprise", ALL_SCOPES)).maxRetries(10).build();
      String key = "java-probe-" + UUID.randomUUID();
      probe = v.projects.create(new CreateProjectRequest("probe"), key);
      supported = v.projects.create(new CreateProjectRequest("probe"), key).id().equals(probe.id());
    }

    @Test
    void aRepeatedPostActsOnceAndAnotherBodyIsRefused() {
      Assumptions.assumeTrue(supported, "this vouchd does not support Idempotency-Key yet");
      assertEquals(List.of(probe.id()), v.projects.iterate(null).map(Project::id).toList());
      v.projects.create(new CreateProjectRequest("probe"));  // a generated key: a new project
      assertEquals(2, v.projects.iterate(null).count());
      String key = "java-" + UUID.randomUUID();
      v.projects.create(new CreateProjectRequest("a"), key);
      expectError(422, "idempotency_key_reused", () -> v.projects.create(new CreateProjectRequest("b"), key));
    }

    @Test
    void aRetryWhileTheFirstIsInFlightGetsTheFirstAnswer() throws Exception {
      Assumptions.assumeTrue(supported, "this vouchd does not support Idempotency-Key yet");
      String key = "java-" + UUID.randomUUID();
      GenerateTestsRequest body = new GenerateTestsRequest(probe.id(), List.of(new SourceFile("m.js", MODULE)));
      var first = java.util.concurrent.CompletableFuture.supplyAsync(() -> v.tests.generate(body, key));
      var second = java.util.concurrent.CompletableFuture.supplyAsync(() -> v.tests.generate(body, key));
      assertEquals(first.get().testId(), second.get().testId());
      assertEquals(List.of(first.get().testId()), v.tests.iterate(probe.id(), null).map(GeneratedTest::testId).toList());
    }
  }

  @Test
  void meta() {
    VouchClient v = admin();
    assertEquals("ok", v.health().path("status").asText());
    assertEquals("ready", v.ready().path("status").asText());
    assertTrue(v.metrics().contains("vouch_http_responses_total"));
  }
}
