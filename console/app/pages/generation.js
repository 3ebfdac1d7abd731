// An asynchronous generation (POST /v1/tests/generate with Prefer: respond-async):
// the test is "generating" with progress {phase, filesDone, filesTotal, testsKept}
// until its tests exist.

import { html } from '../ui.js';
import * as api from '../api.js';

const POLL_MS = 1000;

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('aborted', 'AbortError')); });
});

// Polls the test until it is no longer generating, reporting each state to `update`.
export async function waitForGeneration(test, update, signal) {
  let current = test;
  while (current.status === 'generating') {
    await sleep(POLL_MS, signal);
    current = await api.get(`/v1/tests/${api.enc(current.testId)}`, { signal });
    update(current);
  }
  return current;
}

// The generation's progress while it goes on, or why an asynchronous one failed.
export function GenerationProgress({ test }) {
  if (test.error) {
    return html`<div class="problem" role="alert"><p><strong>The generation failed (${test.error.code}):</strong> ${test.error.detail}</p></div>`;
  }
  if (test.status !== 'generating') return null;
  const progress = test.progress || {};
  const total = progress.filesTotal || 0;
  return html`<div class="progress" role="status" aria-live="polite">
    <label>Generating (${progress.phase || 'queued'}): ${progress.filesDone ?? 0} of ${total || '?'} files, ${progress.testsKept ?? 0} tests kept
      <progress max=${total || 1} value=${total ? progress.filesDone || 0 : undefined}></progress></label>
  </div>`;
}
