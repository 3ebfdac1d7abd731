"""Shapes of the API's answers, as TypedDicts (the answers are plain dicts with the API's field
names). Hand-written: no generator that PyPI-less Debian ships emits TypedDicts from OpenAPI 3.1;
``tests/test_openapi.py`` checks every field here against the served OpenAPI document."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict


class Coverage(TypedDict):
    threshold: float


class ProjectConfig(TypedDict):
    framework: str
    coverage: Coverage


class Project(TypedDict):
    id: str
    name: str
    repository: str
    config: ProjectConfig
    created: str
    updated: str


class ImportedSnapshot(TypedDict, total=False):
    projectId: str
    snapshotId: str
    files: int
    bytes: int
    source: str  # upload, archive, git
    ref: Optional[str]  # git only
    commit: str  # git only
    skipped: List[str]  # "path: why"
    created: str


class SourceFile(TypedDict):
    path: str
    content: str


class GenerationProgress(TypedDict):
    phase: str
    filesDone: int
    filesTotal: int
    testsKept: int


class GenerationError(TypedDict):
    code: str
    detail: str


class _GeneratedTest(TypedDict):
    testId: str
    projectId: str
    status: str  # generating, pending, running, passed, failed
    framework: str
    threshold: float
    files: List[SourceFile]
    summary: Dict[str, Any]
    environment: Dict[str, Any]  # {nodeVersion, dependencies} its runs use by default
    lastRunId: Optional[str]
    created: str
    updated: str


class GeneratedTest(_GeneratedTest, total=False):
    progress: GenerationProgress  # only while generating
    error: GenerationError  # only when an asynchronous generation failed


class RunCoverage(TypedDict):
    statements: float
    branches: float
    functions: float
    lines: float


class RunResults(TypedDict):
    total: int
    passed: int
    failed: int
    coverage: RunCoverage


class RunError(TypedDict):
    code: str
    detail: str


class Environment(TypedDict, total=False):
    nodeVersion: str
    dependencies: Dict[str, str]


class Run(TypedDict):
    runId: str
    testId: str
    projectId: str
    status: str  # running, completed
    results: Optional[RunResults]
    outcome: Optional[str]  # success, failure, error
    duration: Optional[int]
    error: Optional[RunError]
    failures: List[str]
    environment: Environment
    created: str
    completed: Optional[str]


class CoverageReport(TypedDict):
    runId: str
    created: str
    lcov: str
    istanbul: Dict[str, Any]
    lcovUrl: str
    htmlUrl: str
    junitUrl: str


class Webhook(TypedDict, total=False):
    id: str
    url: str
    events: List[str]
    description: str
    active: bool
    created: str
    updated: str
    disabledReason: str
    secret: str  # only when created and at rotation


class Delivery(TypedDict):
    id: str
    eventId: str
    event: str
    url: str
    status: int
    duration: int
    created: str
    attempt: int
    success: bool
    manual: bool
    error: Optional[str]
    nextAttempt: Optional[str]


class Redelivery(TypedDict):
    webhookId: str
    eventId: str
    event: str
    attempt: int
    status: str


class Event(TypedDict):
    id: str
    type: str
    version: int  # of this type's data schema
    created: str
    data: Dict[str, Any]


class ApiKey(TypedDict):
    id: str
    key: str
    account: str
    plan: str
    scopes: List[str]
    name: str
    created: str
