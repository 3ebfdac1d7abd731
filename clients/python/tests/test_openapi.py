"""The client against the OpenAPI document the server serves (GET /v1/openapi.json, else the
checkout's docs/openapi.json): every operation is a method, every documented parameter and
body field can be sent, and every answer type has exactly the documented fields. A change of the
document that the client does not follow fails here."""

from __future__ import annotations

import inspect
import json
import os
import re
import typing
import unittest

from vouch import OPERATIONS, Client, VouchError, types

from support import BASE_URL, admin

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def load_document():
    try:
        return admin().openapi()
    except VouchError as error:
        if error.status != 404:
            raise
    for path in (os.environ.get("VOUCH_OPENAPI"), os.path.join(ROOT, "docs", "openapi.json")):
        if path and os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f)
    return None


DOC = load_document()

# Answer types of the client -> the document's schema of the same record.
ANSWERS = {
    types.Project: "Project", types.ProjectConfig: "ProjectConfig", types.GeneratedTest: "GeneratedTest",
    types.SourceFile: "File", types.Run: "Run", types.RunResults: "Results", types.RunCoverage: "Coverage",
    types.RunError: "RunError", types.Environment: "Environment", types.Webhook: "WebhookWithSecret",
    types.Delivery: "Delivery", types.CoverageReport: "CoverageReport",
    types.ImportedSnapshot: "ImportedSnapshot", types.Redelivery: "RedeliveryQueued", types.ApiKey: "IssuedKey",
}


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def normalise(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


class OpenApiTest(unittest.TestCase):
    def setUp(self):
        self.assertIsNotNone(DOC, "no OpenAPI document: not served, no docs/openapi.json in this checkout")

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            target = DOC
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def documented_operations(self):
        out = {}
        for path, item in DOC["paths"].items():
            for method, operation in item.items():
                if isinstance(operation, dict) and "operationId" in operation:
                    out[operation["operationId"]] = (method.upper(), path, operation, item)
        return out

    def methods(self):
        c = Client(BASE_URL, "vk_x")
        return {
            "createProject": c.projects.create, "listProjects": c.projects.list, "getProject": c.projects.get,
            "updateProject": c.projects.update, "deleteProject": c.projects.delete,
            "importProject": c.projects.import_snapshot,
            "generateTests": c.tests.generate, "listTests": c.tests.list, "getTest": c.tests.get,
            "runTests": c.tests.run, "getRun": c.tests.results,
            "getCoverageReport": c.tests.coverage, "getCoverageLcov": c.tests.coverage_lcov,
            "getJunitReport": c.tests.junit_xml,
            "getCoverageHtml": c.tests.coverage_html,
            "createWebhook": c.webhooks.create, "listWebhooks": c.webhooks.list, "getWebhook": c.webhooks.get,
            "updateWebhook": c.webhooks.update, "deleteWebhook": c.webhooks.delete,
            "rotateWebhookSecret": c.webhooks.rotate_secret, "listDeliveries": c.webhooks.deliveries,
            "redeliver": c.webhooks.redeliver, "listEvents": c.events.list,
            "issueKey": c.keys.create, "revokeKey": c.keys.revoke,
            "health": c.health, "readiness": c.ready, "metrics": c.metrics, "getOpenApi": c.openapi,
        }

    def test_every_operation_is_a_method_and_no_other(self):
        documented = self.documented_operations()
        self.assertEqual(sorted(documented), sorted(OPERATIONS))
        self.assertEqual(sorted(documented), sorted(self.methods()))
        for operation_id, (method, path, _, _) in documented.items():
            self.assertEqual((OPERATIONS[operation_id][0], normalise(OPERATIONS[operation_id][1])),
                             (method, normalise(path)), operation_id)

    def test_every_parameter_and_body_field_can_be_sent(self):
        methods = self.methods()
        for operation_id, (method, path, operation, item) in self.documented_operations().items():
            accepted = {camel(name) for name in inspect.signature(methods[operation_id]).parameters}
            wanted = set()
            for parameter in item.get("parameters", []) + operation.get("parameters", []):
                parameter = self.resolve(parameter)
                if parameter["in"] == "query":
                    wanted.add(parameter["name"])
                elif parameter["in"] == "header" and parameter["name"].lower() == "prefer":
                    wanted.add("wait")
            body = operation.get("requestBody")
            if body:
                schema = self.resolve(self.resolve(body)["content"]["application/json"]["schema"])
                wanted |= set(schema.get("properties", {}))
            # Path parameters are positional: one per {name} in the template.
            self.assertEqual(len(re.findall(r"\{", path)),
                             len([p for p in inspect.signature(methods[operation_id]).parameters.values()
                                  if p.kind == p.POSITIONAL_OR_KEYWORD]) - (1 if operation_id == "listTests" else 0),
                             operation_id)
            self.assertLessEqual(wanted, accepted, f"{operation_id} cannot send {wanted - accepted}")

    def test_answer_types_have_the_documented_fields(self):
        schemas = DOC["components"]["schemas"]
        for typed, name in ANSWERS.items():
            schema = self.resolve(schemas[name])
            fields = set(typing.get_type_hints(typed))
            self.assertEqual(fields, set(schema["properties"]), f"{typed.__name__} vs {name}")
            self.assertLessEqual(set(schema.get("required", [])), fields, name)
        for name in ("ProjectList", "TestList", "WebhookList", "DeliveryList", "EventList"):
            self.assertIn("hasMore", schemas[name]["properties"], name)

    def test_events_are_the_documented_envelope(self):
        for variant in self.resolve(DOC["components"]["schemas"]["Event"])["oneOf"]:
            properties = set(self.resolve(variant)["properties"])
            self.assertLessEqual(set(typing.get_type_hints(types.Event)), properties, variant)

    def test_problems_carry_the_fields_of_vouch_error(self):
        problem = set(DOC["components"]["schemas"]["Problem"]["properties"])
        error = VouchError(400, "x")
        for field in problem:
            attribute = {"requestId": "request_id"}.get(field, field)
            self.assertTrue(hasattr(error, attribute), field)


if __name__ == "__main__":
    unittest.main()
