package dev.vouch.client;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client against the OpenAPI document the server serves (else the checkout's
 * docs/openapi.json): every operation is a method, every documented parameter and body field can
 * be sent, every record has exactly the documented fields. A change of the document that the
 * client does not follow fails here.
 */
class OpenApiTest {
  static JsonNode doc;

  @BeforeAll
  static void load() throws Exception {
    try {
      doc = Support.admin().openapi();
      return;
    } catch (VouchError e) {
      if (e.status() != 404) throw e;
    }
    for (String file : new String[] {System.getenv("VOUCH_OPENAPI"), "../../docs/openapi.json"}) {
      if (file != null && Files.exists(Path.of(file))) {
        doc = Transport.JSON.readTree(Files.readAllBytes(Path.of(file)));
        return;
      }
    }
  }

  static JsonNode resolve(JsonNode node) {
    while (node.has("$ref")) {
      JsonNode target = doc;
      for (String part : node.get("$ref").asText().substring(2).split("/")) target = target.get(part);
      node = target;
    }
    return node;
  }

  static String normalise(String path) { return path.replaceAll("\\{[^}]+\\}", "{}"); }

  /** operationId → {method, path, operation, path item}. */
  static Map<String, JsonNode[]> documented() {
    assertNotNull(doc, "no OpenAPI document served or in docs/");
    Map<String, JsonNode[]> out = new TreeMap<>();
    doc.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
      if (op.getValue().has("operationId")) {
        out.put(op.getValue().get("operationId").asText(), new JsonNode[] {
            Transport.JSON.getNodeFactory().textNode(op.getKey().toUpperCase()),
            Transport.JSON.getNodeFactory().textNode(path.getKey()), op.getValue(), path.getValue()});
      }
    }));
    return out;
  }

  @Test
  void everyOperationIsOneOfTheClientsAndNoOther() {
    Map<String, JsonNode[]> documented = documented();
    assertEquals(documented.keySet(), VouchClient.OPERATIONS.keySet());
    documented.forEach((id, op) -> assertEquals(
        List.of(op[0].asText(), normalise(op[1].asText())),
        List.of(VouchClient.OPERATIONS.get(id).get(0), normalise(VouchClient.OPERATIONS.get(id).get(1))), id));
  }

  static final Map<String, String> METHODS = Map.ofEntries(
      Map.entry("createProject", "Projects.create"), Map.entry("listProjects", "Projects.list"),
      Map.entry("getProject", "Projects.get"), Map.entry("updateProject", "Projects.update"),
      Map.entry("deleteProject", "Projects.delete"), Map.entry("importProject", "Projects.importSnapshot"), Map.entry("generateTests", "Tests.generate"),
      Map.entry("listTests", "Tests.list"), Map.entry("getTest", "Tests.get"), Map.entry("runTests", "Tests.run"),
      Map.entry("getRun", "Tests.results"), Map.entry("getCoverageReport", "Tests.coverage"),
      Map.entry("getCoverageLcov", "Tests.coverageLcov"), Map.entry("getCoverageHtml", "Tests.coverageHtml"),
      Map.entry("getJunitReport", "Tests.junitXml"), Map.entry("createWebhook", "Webhooks.create"),
      Map.entry("listWebhooks", "Webhooks.list"), Map.entry("getWebhook", "Webhooks.get"),
      Map.entry("updateWebhook", "Webhooks.update"), Map.entry("deleteWebhook", "Webhooks.delete"),
      Map.entry("rotateWebhookSecret", "Webhooks.rotateSecret"), Map.entry("listDeliveries", "Webhooks.deliveries"),
      Map.entry("redeliver", "Webhooks.redeliver"), Map.entry("listEvents", "Events.list"),
      Map.entry("issueKey", "Keys.create"), Map.entry("revokeKey", "Keys.revoke"),
      Map.entry("health", "VouchClient.health"), Map.entry("readiness", "VouchClient.ready"),
      Map.entry("metrics", "VouchClient.metrics"), Map.entry("getOpenApi", "VouchClient.openapi"));

  /** The overload with the most parameters (the one that can send everything). */
  static Class<?> owner(String qualified) {
    String name = qualified.split("\\.")[0];
    return name.equals("VouchClient") ? VouchClient.class
        : Arrays.stream(VouchClient.class.getClasses()).filter(c -> c.getSimpleName().equals(name)).findFirst().orElseThrow();
  }

  static Method method(String qualified) {
    String[] parts = qualified.split("\\.");
    Class<?> owner = owner(qualified);
    return Arrays.stream(owner.getMethods()).filter(m -> m.getName().equals(parts[1]))
        .max(Comparator.comparingInt(Method::getParameterCount)).orElseThrow(() -> new AssertionError(qualified));
  }

  /**
   * The class of a method's parameter as `owner` sees it: a type variable of a generic base
   * (VouchClient.Crud's body types) resolves to the owner's type argument.
   */
  static Class<?> parameterClass(Class<?> owner, Method method, int index) {
    Type type = method.getGenericParameterTypes()[index];
    if (type instanceof TypeVariable<?> variable && owner.getGenericSuperclass() instanceof ParameterizedType base) {
      TypeVariable<?>[] variables = ((Class<?>) base.getRawType()).getTypeParameters();
      for (int i = 0; i < variables.length; ++i) {
        if (variables[i].getName().equals(variable.getName())) return (Class<?>) base.getActualTypeArguments()[i];
      }
    }
    return method.getParameterTypes()[index];
  }

  /** What a method can send: its parameter names, record parameters' components, PageParams'. */
  static Set<String> accepted(Class<?> owner, Method method) {
    Set<String> out = new HashSet<>();
    Parameter[] parameters = method.getParameters();
    for (int index = 0; index < parameters.length; ++index) {
      Parameter parameter = parameters[index];
      Class<?> type = parameterClass(owner, method, index);
      if (type.isRecord()) {
        for (RecordComponent component : type.getRecordComponents()) out.add(component.getName());
      } else {
        out.add(parameter.getName());
      }
    }
    if (out.contains("waitSeconds") || out.contains("respondAsync")) out.add("Prefer");
    return out;
  }

  @Test
  void everyParameterAndBodyFieldCanBeSent() {
    assertEquals(VouchClient.OPERATIONS.keySet(), new HashSet<>(METHODS.keySet()));
    documented().forEach((id, op) -> {
      Set<String> wanted = new HashSet<>();
      List<JsonNode> parameters = new ArrayList<>();
      op[3].path("parameters").forEach(parameters::add);
      op[2].path("parameters").forEach(parameters::add);
      for (JsonNode reference : parameters) {
        JsonNode parameter = resolve(reference);
        String in = parameter.path("in").asText();
        if (in.equals("query") || in.equals("path") || parameter.path("name").asText().equals("Prefer")) {
          wanted.add(in.equals("path") ? "path:" + parameter.path("name").asText() : parameter.path("name").asText());
        }
      }
      JsonNode body = op[2].path("requestBody");
      if (!body.isMissingNode()) {
        resolve(resolve(body).path("content").path("application/json").path("schema")).path("properties")
            .fieldNames().forEachRemaining(wanted::add);
      }
      assertNotNull(METHODS.get(id), id + ": no method of the client");
      Method method = method(METHODS.get(id));
      Set<String> accepted = accepted(owner(METHODS.get(id)), method);
      long pathParameters = wanted.stream().filter(w -> w.startsWith("path:")).count();
      wanted.removeIf(w -> w.startsWith("path:"));
      long strings = Arrays.stream(method.getParameters())
          .filter(p -> p.getType() == String.class && !wanted.contains(p.getName()) && !p.getName().equals("idempotencyKey")).count();
      assertEquals(pathParameters, strings, id + ": path parameters");
      Set<String> missing = wanted.stream().filter(w -> !accepted.contains(w)).collect(Collectors.toSet());
      assertTrue(missing.isEmpty(), id + " cannot send " + missing);
    });
  }

  static final Map<Class<?>, String> RECORDS = Map.ofEntries(
      Map.entry(Types.Project.class, "Project"), Map.entry(Types.ProjectConfig.class, "ProjectConfig"),
      Map.entry(Types.GeneratedTest.class, "GeneratedTest"), Map.entry(Types.SourceFile.class, "File"),
      Map.entry(Types.Run.class, "Run"), Map.entry(Types.RunResults.class, "Results"),
      Map.entry(Types.RunCoverage.class, "Coverage"), Map.entry(Types.RunError.class, "RunError"),
      Map.entry(Types.Environment.class, "Environment"), Map.entry(Types.Webhook.class, "WebhookWithSecret"),
      Map.entry(Types.Delivery.class, "Delivery"), Map.entry(Types.ImportedSnapshot.class, "ImportedSnapshot"), Map.entry(Types.CoverageReport.class, "CoverageReport"), Map.entry(Types.Redelivery.class, "RedeliveryQueued"),
      Map.entry(Types.ApiKey.class, "IssuedKey"), Map.entry(Types.CreateProjectRequest.class, "ProjectCreate"),
      Map.entry(Types.UpdateProjectRequest.class, "ProjectUpdate"),
      Map.entry(Types.GenerateTestsRequest.class, "GenerateRequest"), Map.entry(Types.RunTestsRequest.class, "RunRequest"),
      Map.entry(Types.CreateWebhookRequest.class, "WebhookCreate"),
      Map.entry(Types.UpdateWebhookRequest.class, "WebhookUpdate"), Map.entry(Types.CreateKeyRequest.class, "KeyCreate"));

  @Test
  void recordsHaveTheDocumentedFields() {
    assertNotNull(doc, "no OpenAPI document served or in docs/");
    RECORDS.forEach((type, name) -> {
      JsonNode schema = resolve(doc.path("components").path("schemas").path(name));
      Set<String> documented = new HashSet<>();
      schema.path("properties").fieldNames().forEachRemaining(documented::add);
      Set<String> fields = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).collect(Collectors.toSet());
      assertEquals(documented, fields, type.getSimpleName() + " vs " + name);
    });
    Set<String> event = new HashSet<>();
    for (JsonNode variant : resolve(doc.path("components").path("schemas").path("Event")).path("oneOf")) {
      Set<String> properties = new HashSet<>();
      resolve(variant).path("properties").fieldNames().forEachRemaining(properties::add);
      for (RecordComponent component : Types.Event.class.getRecordComponents()) {
        assertTrue(properties.contains(component.getName()), component.getName() + " in " + variant);
      }
      event.addAll(properties);
    }
    assertFalse(event.isEmpty());
  }
}
