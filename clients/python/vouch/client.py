"""The Vouch API client: one method per endpoint, grouped by resource.

Every method maps to one entry of ``OPERATIONS`` (operationId -> method and path template of the
OpenAPI document); the tests check that table against ``GET /v1/openapi.json``.
"""

from __future__ import annotations

import time
import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional

from ._transport import Transport
from .errors import VouchError
from .types import (
    ApiKey,
    CoverageReport,
    Delivery,
    Event,
    GeneratedTest,
    ImportedSnapshot,
    Project,
    Redelivery,
    Run,
    Webhook,
)

OPERATIONS: Dict[str, tuple] = {
    "createProject": ("POST", "/v1/projects"),
    "listProjects": ("GET", "/v1/projects"),
    "getProject": ("GET", "/v1/projects/{projectId}"),
    "updateProject": ("PUT", "/v1/projects/{projectId}"),
    "deleteProject": ("DELETE", "/v1/projects/{projectId}"),
    "importProject": ("POST", "/v1/projects/{projectId}/import"),
    "generateTests": ("POST", "/v1/tests/generate"),
    "listTests": ("GET", "/v1/tests"),
    "getTest": ("GET", "/v1/tests/{testId}"),
    "runTests": ("POST", "/v1/tests/run"),
    "getRun": ("GET", "/v1/tests/results/{runId}"),
    "getCoverageReport": ("GET", "/v1/tests/results/{runId}/coverage"),
    "getCoverageLcov": ("GET", "/v1/tests/results/{runId}/coverage/lcov.info"),
    "getJunitReport": ("GET", "/v1/tests/results/{runId}/junit.xml"),
    "getCoverageHtml": ("GET", "/v1/tests/results/{runId}/coverage/html/{path}"),
    "createWebhook": ("POST", "/v1/webhooks"),
    "listWebhooks": ("GET", "/v1/webhooks"),
    "getWebhook": ("GET", "/v1/webhooks/{webhookId}"),
    "updateWebhook": ("PUT", "/v1/webhooks/{webhookId}"),
    "deleteWebhook": ("DELETE", "/v1/webhooks/{webhookId}"),
    "rotateWebhookSecret": ("POST", "/v1/webhooks/{webhookId}/rotate-secret"),
    "listDeliveries": ("GET", "/v1/webhooks/{webhookId}/deliveries"),
    "redeliver": ("POST", "/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver"),
    "listEvents": ("GET", "/v1/events"),
    "issueKey": ("POST", "/v1/keys"),
    "revokeKey": ("DELETE", "/v1/keys/{keyId}"),
    "health": ("GET", "/healthz"),
    "readiness": ("GET", "/readyz"),
    "metrics": ("GET", "/metrics"),
    "getOpenApi": ("GET", "/v1/openapi.json"),
}

# Longest a single `Prefer: wait` long poll may ask for (the server grants at most 25 s).
MAX_POLL_WAIT_SECONDS = 25


def _clean(values: Mapping[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


class _Resource:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def _call(self, operation: str, params: Optional[Mapping[str, str]] = None, **kwargs: Any) -> Any:
        method, template = OPERATIONS[operation]
        path = template
        for name, value in (params or {}).items():
            if not value:
                raise ValueError(f"{name} must not be empty")
            # A file path keeps its slashes; every other parameter is one segment.
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe="/" if name == "path" else ""))
        return self._t.request(method, path, **kwargs)

    def _pages(self, operation: str, field: str, params: Optional[Mapping[str, str]], query: Dict[str, Any]) -> Iterator[Any]:
        """Every item of a list endpoint, page after page (``startingAfter`` = last item's id)."""
        query = dict(query)
        while True:
            page = self._call(operation, params, query=query)
            items = page[field]
            yield from items
            if not page.get("hasMore") or not items:
                return
            last = items[-1]
            query["startingAfter"] = last.get("id") or last.get("testId") or last.get("runId")


class Projects(_Resource):
    def create(self, *, name: str, repository: Optional[str] = None, config: Optional[Mapping[str, Any]] = None,
               idempotency_key: Optional[str] = None) -> Project:
        body = _clean({"name": name, "repository": repository, "config": config})
        return self._call("createProject", body=body, idempotency_key=idempotency_key)

    def get(self, project_id: str) -> Project:
        return self._call("getProject", {"projectId": project_id})

    def update(self, project_id: str, *, name: Optional[str] = None, config: Optional[Mapping[str, Any]] = None) -> Project:
        return self._call("updateProject", {"projectId": project_id}, body=_clean({"name": name, "config": config}))

    def delete(self, project_id: str) -> None:
        self._call("deleteProject", {"projectId": project_id})

    def import_snapshot(self, project_id: str, *, files: Optional[List[Mapping[str, str]]] = None,
                        git: Optional[Mapping[str, str]] = None, archive: Optional[bytes] = None,
                        idempotency_key: Optional[str] = None) -> ImportedSnapshot:
        """Stores a snapshot of the project's sources (``project.imported``) from exactly one of:
        ``files`` (``[{"path", "content"}]``), ``git`` (``{"ref": "main"}``: the project's
        repository at a branch or tag) or ``archive`` (the bytes of a ``.tar.gz``)."""
        if sum(x is not None for x in (files, git, archive)) != 1:
            raise ValueError("give exactly one of files, git, archive")
        if archive is not None:
            return self._call("importProject", {"projectId": project_id}, data=bytes(archive),
                              content_type="application/gzip", idempotency_key=idempotency_key)
        body = {"files": [dict(f) for f in files]} if files is not None else {"git": dict(git)}
        return self._call("importProject", {"projectId": project_id}, body=body, idempotency_key=idempotency_key)

    def list(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None) -> Dict[str, Any]:
        """One page: ``{"projects": [...], "hasMore": bool}``, oldest first."""
        return self._call("listProjects", query={"limit": limit, "startingAfter": starting_after})

    def iterate(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None) -> Iterator[Project]:
        """Every project, fetching pages of ``limit`` as needed."""
        return self._pages("listProjects", "projects", None, {"limit": limit, "startingAfter": starting_after})


class Tests(_Resource):
    def generate(self, *, project_id: str, files: Optional[List[Mapping[str, str]]] = None,
                 config: Optional[Mapping[str, Any]] = None, environment: Optional[Mapping[str, Any]] = None,
                 snapshot_id: Optional[str] = None, paths: Optional[List[str]] = None,
                 idempotency_key: Optional[str] = None, timeout: Optional[float] = None,
                 respond_async: bool = False, wait: bool = False,
                 on_progress: Optional[Callable[[Dict[str, Any]], None]] = None,
                 poll_interval: float = 1.0, wait_timeout: float = 600.0) -> GeneratedTest:
        """Generates Jest tests for ``files`` (``[{"path", "content"}]``), or without them for the
        project's imported snapshot (``snapshot_id``, default the latest; ``paths`` narrows it to
        folders); ``environment`` as for a run. Answers when the tests exist.

        ``respond_async``: ``Prefer: respond-async``, answered at once with the test
        ``generating``. ``wait``: the same, then ``wait_for_generation`` until the tests exist."""
        body = _clean({"projectId": project_id,
                       "files": [dict(f) for f in files] if files is not None else None,
                       "config": config, "environment": environment,
                       "snapshotId": snapshot_id, "paths": list(paths) if paths is not None else None})
        if not respond_async and not wait:
            return self._call("generateTests", body=body, idempotency_key=idempotency_key, timeout=timeout)
        accepted = self._call("generateTests", body=body, idempotency_key=idempotency_key,
                              headers={"Prefer": "respond-async"})
        if not wait:
            return accepted
        return self.wait_for_generation(accepted["testId"], on_progress=on_progress,
                                        poll_interval=poll_interval, timeout=wait_timeout)

    def wait_for_generation(self, test_id: str, *, on_progress: Optional[Callable[[Dict[str, Any]], None]] = None,
                            poll_interval: float = 1.0, timeout: float = 600.0) -> GeneratedTest:
        """Reads the test until its generation has ended and returns it (``pending``, with its
        files); ``on_progress`` gets each new ``progress``. A generation that failed raises
        VouchError with status 0 and its ``error``'s code and detail; after ``timeout`` seconds,
        code ``wait_timeout``."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            test = self.get(test_id)
            if test["status"] != "generating":
                if test.get("error"):
                    raise VouchError(0, test["error"]["code"], test["error"]["detail"], body=test)
                return test
            if on_progress and test.get("progress") and test["progress"] != last:
                on_progress(test["progress"])
            last = test.get("progress")
            left = deadline - time.monotonic()
            if left <= 0:
                raise VouchError(0, "wait_timeout", f"test {test_id} was still generating after {timeout} s")
            time.sleep(min(poll_interval, left))

    def get(self, test_id: str) -> GeneratedTest:
        return self._call("getTest", {"testId": test_id})

    def list(self, project_id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None) -> Dict[str, Any]:
        """One page: ``{"tests": [...], "hasMore": bool}``, oldest first."""
        return self._call("listTests", query={"projectId": project_id, "limit": limit, "startingAfter": starting_after})

    def iterate(self, project_id: str, *, limit: Optional[int] = None) -> Iterator[GeneratedTest]:
        return self._pages("listTests", "tests", None, {"projectId": project_id, "limit": limit})

    def run(self, *, test_id: str, environment: Optional[Mapping[str, Any]] = None,
            idempotency_key: Optional[str] = None) -> Run:
        """Starts a run; answers at once with ``status: "running"``."""
        body = _clean({"testId": test_id, "environment": environment})
        return self._call("runTests", body=body, idempotency_key=idempotency_key)

    def results(self, run_id: str, *, wait: Optional[int] = None) -> Run:
        """The run now, or (``wait`` seconds, at most 25) when it ends if that comes first."""
        headers = {"Prefer": f"wait={int(wait)}"} if wait else None
        timeout = (self._t.timeout + wait) if wait else None
        return self._call("getRun", {"runId": run_id}, headers=headers, timeout=timeout)

    def coverage(self, run_id: str) -> CoverageReport:
        """The completed run's coverage report: ``{runId, created, lcov, istanbul, lcovUrl, htmlUrl}``."""
        return self._call("getCoverageReport", {"runId": run_id})

    def coverage_lcov(self, run_id: str) -> str:
        """The run's ``lcov.info``."""
        return self._call("getCoverageLcov", {"runId": run_id}, raw=True)

    def junit_xml(self, run_id: str) -> str:
        """The run's JUnit XML report (a testsuite per test file, a testcase per test)."""
        return self._call("getJunitReport", {"runId": run_id}, raw=True)

    def coverage_html(self, run_id: str, path: str = "index.html") -> bytes:
        """One file of the run's HTML coverage report (``index.html``, its pages, CSS, images)."""
        return self._call("getCoverageHtml", {"runId": run_id, "path": path}, binary=True)

    def wait_for_results(self, run_id: str, *, timeout: float = 300.0, poll_wait: int = MAX_POLL_WAIT_SECONDS) -> Run:
        """Polls until the run is ``completed`` and returns it, long-polling with ``Prefer: wait``
        (one request per ``poll_wait`` seconds while it runs). A failed connection or a 5xx is
        retried with backoff, and so is a server that answers "running" without holding the
        request; after ``timeout`` seconds raises VouchError with status 0 and code
        ``wait_timeout``."""
        deadline = time.monotonic() + timeout
        attempt = 0
        while True:
            wait = max(0, min(poll_wait, MAX_POLL_WAIT_SECONDS, int(deadline - time.monotonic())))
            started = time.monotonic()
            try:
                run = self.results(run_id, wait=wait)
            except VouchError as error:
                if error.status != 0 and error.status < 500:
                    raise
                run = None
            if run is not None and run.get("status") == "completed":
                return run
            now = time.monotonic()
            if now >= deadline:
                raise VouchError(0, "wait_timeout", f"run {run_id} did not complete within {timeout} s")
            if run is None or now - started < wait * 0.9:
                # No answer, or the request was not held: back off before asking again.
                time.sleep(min(self._t.backoff(attempt), deadline - now))
                attempt += 1
            else:
                attempt = 0


class Webhooks(_Resource):
    def create(self, *, url: str, events: List[str], description: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> Webhook:
        """Creates a webhook; the answer holds its ``secret`` (only here and at rotation)."""
        body = _clean({"url": url, "events": list(events), "description": description})
        return self._call("createWebhook", body=body, idempotency_key=idempotency_key)

    def get(self, webhook_id: str) -> Webhook:
        return self._call("getWebhook", {"webhookId": webhook_id})

    def update(self, webhook_id: str, *, url: Optional[str] = None, events: Optional[List[str]] = None,
               description: Optional[str] = None, active: Optional[bool] = None) -> Webhook:
        body = _clean({"url": url, "events": events, "description": description, "active": active})
        return self._call("updateWebhook", {"webhookId": webhook_id}, body=body)

    def delete(self, webhook_id: str) -> None:
        self._call("deleteWebhook", {"webhookId": webhook_id})

    def rotate_secret(self, webhook_id: str) -> Webhook:
        return self._call("rotateWebhookSecret", {"webhookId": webhook_id})

    def list(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None) -> Dict[str, Any]:
        return self._call("listWebhooks", query={"limit": limit, "startingAfter": starting_after})

    def iterate(self, *, limit: Optional[int] = None) -> Iterator[Webhook]:
        return self._pages("listWebhooks", "webhooks", None, {"limit": limit})

    def deliveries(self, webhook_id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None) -> Dict[str, Any]:
        """One page of the delivery log: ``{"deliveries": [...], "hasMore": bool}``, newest first."""
        return self._call("listDeliveries", {"webhookId": webhook_id},
                          query={"limit": limit, "startingAfter": starting_after})

    def iterate_deliveries(self, webhook_id: str, *, limit: Optional[int] = None) -> Iterator[Delivery]:
        return self._pages("listDeliveries", "deliveries", {"webhookId": webhook_id}, {"limit": limit})

    def redeliver(self, webhook_id: str, delivery_id: str) -> Redelivery:
        return self._call("redeliver", {"webhookId": webhook_id, "deliveryId": delivery_id})


class Events(_Resource):
    def list(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None,
             type: Optional[str] = None, project_id: Optional[str] = None) -> Dict[str, Any]:
        """One page of the account's public events in log order: ``{"events": [...], "hasMore": bool}``;
        ``type`` (an event type or pattern) and ``project_id`` filter them."""
        return self._call("listEvents", query={"limit": limit, "startingAfter": starting_after, "type": type,
                                               "projectId": project_id})

    def iterate(self, *, limit: Optional[int] = None, type: Optional[str] = None, project_id: Optional[str] = None,
                starting_after: Optional[str] = None) -> Iterator[Event]:
        return self._pages("listEvents", "events", None,
                           {"limit": limit, "type": type, "projectId": project_id, "startingAfter": starting_after})


class Keys(_Resource):
    """API keys; needs a key with the ``admin`` scope."""

    def create(self, *, account: str, scopes: List[str], plan: Optional[str] = None, name: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> ApiKey:
        body = _clean({"account": account, "scopes": list(scopes), "plan": plan, "name": name})
        return self._call("issueKey", body=body, idempotency_key=idempotency_key)

    def revoke(self, key_id: str) -> None:
        self._call("revokeKey", {"keyId": key_id})


class Client:
    """``Client(base_url, api_key)``; keyword options: ``timeout`` (seconds per request),
    ``max_retries``, ``backoff_base``, ``backoff_max``, ``max_retry_after`` (a 429 asking to wait
    longer than this is raised at once)."""

    def __init__(self, base_url: str, api_key: Optional[str] = None, **options: Any) -> None:
        self._transport = Transport(base_url, api_key, **options)
        self.projects = Projects(self._transport)
        self.tests = Tests(self._transport)
        self.webhooks = Webhooks(self._transport)
        self.events = Events(self._transport)
        self.keys = Keys(self._transport)
        self._meta = _Resource(self._transport)

    def health(self) -> Dict[str, Any]:
        return self._meta._call("health")

    def ready(self) -> Dict[str, Any]:
        return self._meta._call("readiness")

    def metrics(self) -> str:
        return self._meta._call("metrics", raw=True)

    def openapi(self) -> Dict[str, Any]:
        return self._meta._call("getOpenApi")
