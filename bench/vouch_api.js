'use strict';
// The benches' HTTP client for vouchd: JSON calls with the key, and runs
// long-polled to their end.

function client(base, key) {
  async function api(method, target, body, headers = {}) {
    const response = await fetch(base + target, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${target}: ${response.status} ${text}`);
    return JSON.parse(text);
  }

  // Long-polls the run (`Prefer: wait`): the answer comes as soon as it ends.
  async function runToEnd(testId) {
    const started = await api('POST', '/v1/tests/run', { testId, environment: {} });
    for (;;) {
      const run = await api('GET', `/v1/tests/results/${started.runId}`, undefined, { Prefer: 'wait=20' });
      if (run.status === 'completed') return run;
    }
  }

  return { api, runToEnd };
}

module.exports = { client };
