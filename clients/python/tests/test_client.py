"""The Python client against a live vouchd (VOUCH_URL, VOUCH_ADMIN_KEY)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import threading
import time
import unittest
import uuid

from vouch import Client, VouchError, WebhookVerificationError, verify_webhook

from support import BASE_URL, MODULE, DroppingServer, Receiver, admin, fresh_account


def _event_type(headers, body) -> str:
    try:
        return json.loads(body)["type"]
    except ValueError:
        return ""


class FlowTest(unittest.TestCase):
    """project -> generate -> run -> results, with a webhook receiving the events."""

    def test_generate_with_wait_follows_the_asynchronous_generation(self):
        c = fresh_account()
        project = c.projects.create(name="async")
        accepted = c.tests.generate(project_id=project["id"], files=[{"path": "src/math.js", "content": MODULE}],
                                    respond_async=True)
        self.assertEqual(accepted["status"], "generating")
        self.assertIn("phase", accepted["progress"])
        seen = []
        test = c.tests.wait_for_generation(accepted["testId"], on_progress=seen.append, poll_interval=0.2)
        self.assertEqual(test["status"], "pending")
        self.assertGreater(test["summary"]["testsKept"], 0)
        self.assertTrue(seen)
        self.assertTrue(all(p["filesDone"] <= max(p["filesTotal"], 0) for p in seen))

    def test_full_flow_with_verified_webhooks(self):
        c = fresh_account()
        receiver = Receiver()
        self.addCleanup(receiver.close)
        hook = c.webhooks.create(url=receiver.url, events=["test.*", "project.*"], description="py")
        self.assertTrue(hook["secret"].startswith("whsec_"))
        self.assertEqual(c.webhooks.get(hook["id"])["url"], receiver.url)
        self.assertNotIn("secret", c.webhooks.get(hook["id"]))

        project = c.projects.create(name="shop", repository="https://git.example/shop.git",
                                    config={"framework": "jest"})
        self.assertTrue(project["id"].startswith("prj_"))
        self.assertEqual(c.projects.get(project["id"])["name"], "shop")
        updated = c.projects.update(project["id"], config={"coverage": {"threshold": 50}})
        self.assertEqual(updated["config"]["coverage"]["threshold"], 50)

        test = c.tests.generate(project_id=project["id"], files=[{"path": "src/math.js", "content": MODULE}])
        self.assertEqual(test["status"], "pending")
        self.assertTrue(any(f["path"].endswith(".test.js") for f in test["files"]))
        self.assertGreater(test["summary"]["testsKept"], 0)
        self.assertEqual(c.tests.get(test["testId"])["testId"], test["testId"])
        self.assertEqual([t["testId"] for t in c.tests.iterate(project["id"])], [test["testId"]])

        run = c.tests.run(test_id=test["testId"])
        self.assertEqual(run["status"], "running")
        self.assertIsNone(run["results"])
        try:
            early = c.tests.wait_for_results(run["runId"], timeout=0.1)
        except VouchError as error:
            self.assertEqual((error.status, error.code), (0, "wait_timeout"))
        else:  # only when the run had already ended
            self.assertEqual(early["status"], "completed")
        # One long poll (Prefer: wait=25) instead of a polling loop.
        sent = []
        request = c._transport.request

        def spy(method, path, **kwargs):
            sent.append((method, path, (kwargs.get("headers") or {}).get("Prefer")))
            return request(method, path, **kwargs)

        c._transport.request = spy
        done = c.tests.wait_for_results(run["runId"], timeout=120)
        c._transport.request = request
        self.assertEqual(sent[0], ("GET", f"/v1/tests/results/{run['runId']}", "wait=25"))
        self.assertLessEqual(len(sent), 2, sent)
        self.assertEqual(done["status"], "completed")
        self.assertEqual(done["outcome"], "success", done)
        self.assertGreater(done["results"]["passed"], 0)
        self.assertEqual(done["results"]["failed"], 0)
        self.assertGreater(done["results"]["coverage"]["lines"], 0)
        self.assertEqual(c.tests.get(test["testId"])["status"], "passed")

        report = c.tests.coverage(run["runId"])
        self.assertEqual(report["runId"], run["runId"])
        self.assertIn("SF:", report["lcov"])
        self.assertIn("src/math.js", report["lcov"])
        self.assertTrue(any(name.endswith("math.js") for name in report["istanbul"]))
        self.assertEqual(c.tests.coverage_lcov(run["runId"]), report["lcov"])
        junit = c.tests.junit_xml(run["runId"])
        self.assertIn("<testsuites", junit)
        self.assertEqual(junit.count("<testcase "), done["results"]["total"])
        self.assertIn(b"<html", c.tests.coverage_html(run["runId"]).lower())

        # Deliveries: project.created and test.completed reach the receiver, both schemes verify.
        headers, body = receiver.wait_for(lambda h, b: _event_type(h, b) == "test.completed")
        event = verify_webhook(hook["secret"], headers, body)
        self.assertEqual(event["data"]["testId"], test["testId"])
        self.assertEqual(event["data"]["results"]["passed"], done["results"]["passed"])
        headers, body = receiver.wait_for(lambda h, b: _event_type(h, b) == "project.created")
        self.assertEqual(verify_webhook(hook["secret"], headers, body)["data"]["id"], project["id"])

        # The attempt is logged just after the receiver answered: poll the log for it.
        deadline = time.monotonic() + 20
        while True:
            deliveries = list(c.webhooks.iterate_deliveries(hook["id"], limit=1))
            if "test.completed" in [d["event"] for d in deliveries] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        self.assertIn("test.completed", [d["event"] for d in deliveries])
        self.assertGreaterEqual(len(deliveries), 4)  # project.created, .updated, test.started, .completed
        self.assertTrue(all(d["status"] == 200 and d["success"] for d in deliveries))
        redelivery = c.webhooks.redeliver(hook["id"], deliveries[0]["id"])
        self.assertEqual(redelivery["status"], "queued")

        events = list(c.events.iterate(limit=2))
        types = [e["type"] for e in events]
        self.assertIn("project.created", types)
        self.assertIn("test.completed", types)
        self.assertEqual([e["type"] for e in c.events.iterate(type="test.started")], ["test.started"])


class WebhookVerifierTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = fresh_account()
        cls.receiver = Receiver()
        cls.hook = cls.c.webhooks.create(url=cls.receiver.url, events=["project.created", "project.updated"])
        cls.project = cls.c.projects.create(name="hooked")
        cls.headers, cls.body = cls.receiver.wait_for(lambda h, b: _event_type(h, b) == "project.created")

    @classmethod
    def tearDownClass(cls):
        cls.receiver.close()

    def only(self, *prefixes):
        return [(k, v) for k, v in self.headers if k.lower().startswith(prefixes)]

    def test_each_scheme_verifies_alone(self):
        for headers in (self.only("x-service-"), self.only("webhook-")):
            self.assertEqual(verify_webhook(self.hook["secret"], headers, self.body)["type"], "project.created")

    def test_a_tampered_body_is_rejected_by_each_scheme(self):
        tampered = self.body.replace(b"hooked", b"hacked")
        self.assertNotEqual(tampered, self.body)
        for headers in (self.headers, self.only("x-service-"), self.only("webhook-")):
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(self.hook["secret"], headers, tampered)

    def test_another_secret_is_rejected(self):
        other = self.c.webhooks.create(url=self.receiver.url, events=["project.deleted"])["secret"]
        for headers in (self.only("x-service-"), self.only("webhook-")):
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(other, headers, self.body)

    def test_a_stale_timestamp_is_rejected(self):
        sent = int(dict((k.lower(), v) for k, v in self.headers)["webhook-timestamp"])
        verify_webhook(self.hook["secret"], self.headers, self.body, now=sent + 299)
        for headers in (self.only("x-service-"), self.only("webhook-")):
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(self.hook["secret"], headers, self.body, now=sent + 301)
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(self.hook["secret"], headers, self.body, now=sent - 301)
        self.assertEqual(verify_webhook(self.hook["secret"], self.headers, self.body, tolerance=3600,
                                        now=sent + 3000)["type"], "project.created")

    def test_no_signature_header_is_rejected(self):
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.hook["secret"], [("content-type", "application/json")], self.body)

    def test_both_secrets_verify_during_a_rotation(self):
        rotated = self.c.webhooks.rotate_secret(self.hook["id"])
        self.assertNotEqual(rotated["secret"], self.hook["secret"])
        self.c.projects.update(self.project["id"], name="rotated")
        headers, body = self.receiver.wait_for(lambda h, b: _event_type(h, b) == "project.updated")
        signatures = dict((k.lower(), v) for k, v in headers)["webhook-signature"].split()
        self.assertEqual(len(signatures), 2)
        for secret in (rotated["secret"], self.hook["secret"]):
            self.assertEqual(verify_webhook(secret, headers, body)["type"], "project.updated")
        # The new secret alone verifies the contract's header too (the old one by -previous).
        bare = [(k, v) for k, v in headers if k.lower() != "x-service-signature-previous"]
        verify_webhook(rotated["secret"], bare, body)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.hook["secret"], [(k, v) for k, v in bare if k.lower().startswith("x-service-")], body)


class ImportTest(unittest.TestCase):
    def test_files_and_an_archive(self):
        c = fresh_account()
        project = c.projects.create(name="imported")
        files = [{"path": "src/math.js", "content": MODULE}, {"path": "package.json", "content": "{}"}]
        snapshot = c.projects.import_snapshot(project["id"], files=files)
        self.assertEqual((snapshot["projectId"], snapshot["source"], snapshot["files"]), (project["id"], "upload", 2))
        self.assertEqual(c.projects.import_snapshot(project["id"], files=files)["snapshotId"], snapshot["snapshotId"])

        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
            for f in files:
                content = f["content"].encode()
                info = tarfile.TarInfo("package/" + f["path"])
                info.size = len(content)
                archive.addfile(info, io.BytesIO(content))
        from_archive = c.projects.import_snapshot(project["id"], archive=buffer.getvalue())
        self.assertEqual(from_archive["source"], "archive")
        # The single top folder is removed: the same files, the same snapshot.
        self.assertEqual(from_archive["snapshotId"], snapshot["snapshotId"])

        with self.assertRaises(VouchError) as caught:
            c.projects.import_snapshot(project["id"], git={"ref": "main"})  # no repository
        self.assertEqual((caught.exception.status, caught.exception.errors[0]["field"]), (400, "git"))
        with self.assertRaises(VouchError) as caught:
            c.projects.import_snapshot("prj_missing", files=files)
        self.assertEqual(caught.exception.status, 404)
        with self.assertRaises(ValueError):
            c.projects.import_snapshot(project["id"], files=files, git={"ref": "main"})
        types = [e["type"] for e in c.events.iterate(project_id=project["id"])]
        self.assertEqual(types.count("project.imported"), 3)

    def test_a_git_repository(self):
        if not shutil.which("git"):
            self.skipTest("git is not installed")
        c = fresh_account()
        with tempfile.TemporaryDirectory() as folder:
            run = lambda *args: subprocess.run(["git", "-C", folder, *args], check=True, capture_output=True)
            run("init", "-q", "-b", "main")
            os.makedirs(os.path.join(folder, "src"))
            with open(os.path.join(folder, "src", "math.js"), "w") as f:
                f.write(MODULE)
            run("add", ".")
            run("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "m")
            commit = subprocess.run(["git", "-C", folder, "rev-parse", "HEAD"], check=True, capture_output=True,
                                    text=True).stdout.strip()
            project = c.projects.create(name="git", repository="file://" + folder)
            snapshot = c.projects.import_snapshot(project["id"], git={"ref": "main"})
        self.assertEqual((snapshot["source"], snapshot["ref"], snapshot["commit"], snapshot["files"]),
                         ("git", "main", commit, 1))


class PaginationTest(unittest.TestCase):
    def test_iterate_walks_every_page_in_order(self):
        c = fresh_account()
        created = [c.projects.create(name=f"p{i}")["id"] for i in range(5)]
        first = c.projects.list(limit=2)
        self.assertEqual([p["id"] for p in first["projects"]], created[:2])
        self.assertTrue(first["hasMore"])
        last = c.projects.list(limit=2, starting_after=created[3])
        self.assertEqual([p["id"] for p in last["projects"]], created[4:])
        self.assertFalse(last["hasMore"])
        self.assertEqual([p["id"] for p in c.projects.iterate(limit=2)], created)
        self.assertEqual([p["id"] for p in c.projects.iterate(limit=100)], created)
        c.projects.delete(created[0])
        self.assertEqual([p["id"] for p in c.projects.iterate(limit=3)], created[1:])

    def test_webhooks_and_events_pages(self):
        c = fresh_account()
        hooks = [c.webhooks.create(url=f"https://hooks.example.com/{i}", events=["*"])["id"] for i in range(3)]
        self.assertEqual([h["id"] for h in c.webhooks.iterate(limit=1)], hooks)
        c.webhooks.update(hooks[0], active=False, description="off")
        self.assertFalse(c.webhooks.get(hooks[0])["active"])
        c.webhooks.delete(hooks[2])
        self.assertEqual([h["id"] for h in c.webhooks.iterate(limit=1)], hooks[:2])
        for i in range(3):
            c.projects.create(name=f"e{i}")
        self.assertEqual([e["type"] for e in c.events.iterate(limit=2)], ["project.created"] * 3)


class ErrorTest(unittest.TestCase):
    def test_401_carries_the_problem_fields(self):
        with self.assertRaises(VouchError) as caught:
            Client(BASE_URL, "vk_" + "0" * 64).projects.list()
        error = caught.exception
        self.assertEqual((error.status, error.code), (401, "unauthenticated"))
        self.assertTrue(error.detail)
        self.assertTrue(error.request_id)

    def test_403_without_the_scope(self):
        c = fresh_account(scopes=["projects:read"])
        with self.assertRaises(VouchError) as caught:
            c.projects.create(name="nope")
        self.assertEqual((caught.exception.status, caught.exception.code), (403, "forbidden"))

    def test_404_for_an_unknown_resource(self):
        c = fresh_account()
        for call in (lambda: c.projects.get("prj_missing"), lambda: c.tests.get("tst_missing"),
                     lambda: c.tests.results("run_missing"), lambda: c.tests.wait_for_results("run_missing"),
                     lambda: c.webhooks.deliveries("whk_missing")):
            with self.assertRaises(VouchError) as caught:
                call()
            self.assertEqual((caught.exception.status, caught.exception.code), (404, "not_found"))
            self.assertTrue(caught.exception.request_id)

    def test_400_lists_the_fields(self):
        c = fresh_account()
        with self.assertRaises(VouchError) as caught:
            c.tests.generate(project_id="", files=[])
        error = caught.exception
        self.assertEqual((error.status, error.code), (400, "invalid_request"))
        fields = {e["field"] for e in error.errors}
        self.assertIn("files", fields)
        with self.assertRaises(VouchError) as caught:
            c.webhooks.create(url="https://hooks.example.com/x", events=["nope.*"])
        self.assertEqual([e["field"] for e in caught.exception.errors], ["events[0]"])

    def test_429_honours_retry_after(self):
        waits = []
        c = fresh_account(plan="free", max_retries=1, sleep=waits.append)
        with self.assertRaises(VouchError) as caught:
            for _ in range(200):
                c.projects.list(limit=1)
        error = caught.exception
        self.assertEqual((error.status, error.code), (429, "rate_limited"))
        self.assertGreaterEqual(error.retry_after, 1)
        # The client waited what the server asked before its one retry (sleep recorded, not slept).
        self.assertTrue(waits)
        self.assertTrue(error.retry_after <= waits[-1] <= error.retry_after + 1, (waits, error.retry_after))

    def test_429_asking_too_long_a_wait_is_raised_at_once(self):
        waits = []
        c = fresh_account(plan="free", max_retries=3, max_retry_after=0.5, sleep=waits.append)
        with self.assertRaises(VouchError) as caught:
            for _ in range(200):
                c.projects.list(limit=1)
        self.assertEqual(caught.exception.status, 429)
        self.assertEqual(waits, [])


class RetryTest(unittest.TestCase):
    def test_network_errors_retry_idempotent_calls_with_one_idempotency_key(self):
        dropping = DroppingServer()
        self.addCleanup(dropping.close)
        waits = []
        c = Client(dropping.url, "vk_x", max_retries=2, sleep=waits.append)
        with self.assertRaises(VouchError) as caught:
            c.projects.create(name="x")
        self.assertEqual((caught.exception.status, caught.exception.code), (0, "network_error"))
        keys = dropping.header_values("Idempotency-Key")
        self.assertEqual(len(keys), 3)
        self.assertEqual(len(set(keys)), 1)
        uuid.UUID(keys[0])
        self.assertEqual(len(waits), 2)
        self.assertLess(waits[0], waits[1] * 2)

        with self.assertRaises(VouchError):
            c.projects.get("prj_x")
        self.assertEqual(len(dropping.heads), 6)

    def test_a_given_idempotency_key_is_sent(self):
        dropping = DroppingServer()
        self.addCleanup(dropping.close)
        c = Client(dropping.url, "vk_x", max_retries=0)
        with self.assertRaises(VouchError):
            c.tests.run(test_id="tst_x", idempotency_key="my-key-1")
        self.assertEqual(dropping.header_values("Idempotency-Key"), ["my-key-1"])

    def test_a_refused_connection_is_a_network_error(self):
        probe = DroppingServer()
        url = probe.url
        probe.close()
        started = time.monotonic()
        with self.assertRaises(VouchError) as caught:
            Client(url, "vk_x", max_retries=1, backoff_base=0.01).health()
        self.assertEqual(caught.exception.code, "network_error")
        self.assertLess(time.monotonic() - started, 5)


class IdempotencyTest(unittest.TestCase):
    """A POST repeated with its Idempotency-Key acts once (against a vouchd that supports it)."""

    def setUp(self):
        self.c = fresh_account(max_retries=10)
        key = "py-probe-" + uuid.uuid4().hex
        first = self.c.projects.create(name="probe", idempotency_key=key)
        second = self.c.projects.create(name="probe", idempotency_key=key)
        if first["id"] != second["id"]:
            self.skipTest("this vouchd does not support Idempotency-Key yet")
        self.probe = first

    def test_a_repeated_post_acts_once_and_another_body_is_refused(self):
        self.assertEqual([p["id"] for p in self.c.projects.iterate()], [self.probe["id"]])
        self.c.projects.create(name="probe")  # a generated key: a new project
        self.assertEqual(len(list(self.c.projects.iterate())), 2)
        key = "py-" + uuid.uuid4().hex
        self.c.projects.create(name="a", idempotency_key=key)
        with self.assertRaises(VouchError) as caught:
            self.c.projects.create(name="b", idempotency_key=key)
        self.assertEqual((caught.exception.status, caught.exception.code), (422, "idempotency_key_reused"))

    def test_a_retry_while_the_first_is_in_flight_gets_the_first_answer(self):
        key = "py-" + uuid.uuid4().hex
        answers, errors = [], []

        def generate():
            try:
                answers.append(self.c.tests.generate(project_id=self.probe["id"],
                                                     files=[{"path": "m.js", "content": MODULE}],
                                                     idempotency_key=key))
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=generate) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(errors, [])
        self.assertEqual(answers[0]["testId"], answers[1]["testId"])
        self.assertEqual([t["testId"] for t in self.c.tests.iterate(self.probe["id"])], [answers[0]["testId"]])


class MetaTest(unittest.TestCase):
    def test_health(self):
        c = admin()
        self.assertEqual(c.health()["status"], "ok")
        self.assertEqual(c.ready()["status"], "ready")
        self.assertIn("vouch_http_responses_total", c.metrics())


if __name__ == "__main__":
    unittest.main()
