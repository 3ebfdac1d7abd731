package dev.vouch.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Requests and answers of the API, with its field names. Answers ignore fields they do not know
 * (the server may add some); requests leave out null fields.
 */
public final class Types {
  private Types() {}

  // Projects

  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Coverage(Double threshold) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ProjectConfig(String framework, Coverage coverage) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Project(String id, String name, String repository, ProjectConfig config,
      String created, String updated) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CreateProjectRequest(String name, String repository, ProjectConfig config) {
    public CreateProjectRequest(String name) { this(name, null, null); }
  }

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record UpdateProjectRequest(String name, ProjectConfig config) {}

  /** The branch or tag of the project's repository to import (null: its default branch). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record GitRef(String ref) {}

  /** An import: {@code files}, or {@code git} (the project's repository); exactly one. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ImportRequest(List<SourceFile> files, GitRef git) {
    public static ImportRequest files(List<SourceFile> files) { return new ImportRequest(files, null); }
    public static ImportRequest git(String ref) { return new ImportRequest(null, new GitRef(ref)); }
  }

  /** {@code source}: upload, archive, git; {@code ref} and {@code commit} for git only. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ImportedSnapshot(String projectId, String snapshotId, int files, long bytes,
      String source, String ref, String commit, List<String> skipped, String created) {}

  // Generated tests and runs

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record SourceFile(String path, String content) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Environment(String nodeVersion, Map<String, String> dependencies) {}

  /**
   * Tests for {@code files}; with {@code files} null, for the project's imported snapshot
   * ({@code snapshotId}, default the latest; {@code paths} narrows it to folders).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record GenerateTestsRequest(String projectId, List<SourceFile> files, ProjectConfig config,
      Environment environment, String snapshotId, List<String> paths) {
    public GenerateTestsRequest(String projectId, List<SourceFile> files) {
      this(projectId, files, null, null, null, null);
    }

    public GenerateTestsRequest(String projectId, List<SourceFile> files, ProjectConfig config) {
      this(projectId, files, config, null, null, null);
    }

    /** From the project's latest imported snapshot, narrowed to {@code paths} when not null. */
    public static GenerateTestsRequest fromSnapshot(String projectId, List<String> paths) {
      return new GenerateTestsRequest(projectId, null, null, null, null, paths);
    }
  }

  /** {@code status}: pending, running, passed, failed. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record GeneratedTest(String testId, String projectId, String status, String framework,
      Double threshold, List<SourceFile> files, JsonNode summary, Environment environment,
      String lastRunId, String created, String updated, GenerationProgress progress,
      GenerationError error) {
    /** An asynchronous generation still going on. */
    public boolean isGenerating() { return "generating".equals(status); }
  }

  /** How far an asynchronous generation got (only while {@code generating}). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record GenerationProgress(String phase, int filesDone, int filesTotal, int testsKept) {}

  /** Why an asynchronous generation ended without tests. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record GenerationError(String code, String detail) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record RunTestsRequest(String testId, Environment environment) {
    public RunTestsRequest(String testId) { this(testId, null); }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record RunCoverage(double statements, double branches, double functions, double lines) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record RunResults(int total, int passed, int failed, RunCoverage coverage) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record RunError(String code, String detail) {}

  /** {@code status}: running, completed; {@code outcome}: success, failure, error (null while running). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Run(String runId, String testId, String projectId, String status, RunResults results,
      String outcome, Long duration, RunError error, List<String> failures, Environment environment,
      String created, String completed) {
    public boolean isCompleted() { return "completed".equals(status); }
  }

  /** A completed run's coverage report. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record CoverageReport(String runId, String created, String lcov, JsonNode istanbul,
      String lcovUrl, String htmlUrl, String junitUrl) {}

  // Webhooks

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CreateWebhookRequest(String url, List<String> events, String description) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record UpdateWebhookRequest(String url, List<String> events, String description, Boolean active) {}

  /** {@code secret} only in the answers of create and rotate-secret. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Webhook(String id, String url, List<String> events, String description,
      boolean active, String created, String updated, String disabledReason, String secret) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Delivery(String id, String eventId, String event, String url, int status,
      long duration, String created, int attempt, boolean success, boolean manual, String error,
      String nextAttempt) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Redelivery(String webhookId, String eventId, String event, int attempt, String status) {}

  /** A public event, as GET /v1/events lists it and as a webhook delivers it. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Event(String id, String type, int version, String created, JsonNode data) {}

  // Keys

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CreateKeyRequest(String account, List<String> scopes, String plan, String name) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ApiKey(String id, String key, String account, String plan, List<String> scopes,
      String name, String created) {}

  // Pages

  /** One page of a list: its items and whether more come after the last. */
  public record Page<T>(List<T> items, boolean hasMore) {}

  /** {@code limit} (1–100) and the cursor {@code startingAfter}; both optional (null). */
  public record PageParams(Integer limit, String startingAfter) {
    public static PageParams limit(int limit) { return new PageParams(limit, null); }
    public static PageParams none() { return new PageParams(null, null); }
  }
}
