// Run: its status live (long polls with Prefer: wait while it runs), passed and
// failed counts, failures, the four coverage figures, and its reports.

import {
  html, useState, useEffect, ErrorBox, Empty, Loading, Time, PageTitle, CoverageFigures, useAction,
} from '../ui.js';
import * as api from '../api.js';

const WAIT_SECONDS = 20;

export function RunPage({ id }) {
  const [run, setRun] = useState(null);
  const [error, setError] = useState(null);
  const [threshold, setThreshold] = useState(undefined);
  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      let current = await api.get(`/v1/tests/results/${api.enc(id)}`, { signal: controller.signal });
      setRun(current);
      api.get(`/v1/tests/${api.enc(current.testId)}`, { signal: controller.signal })
        .then((test) => setThreshold(test.threshold), () => {});
      while (current.status === 'running') {
        current = await api.get(`/v1/tests/results/${api.enc(id)}`,
          { signal: controller.signal, headers: { Prefer: `wait=${WAIT_SECONDS}` } });
        setRun(current);
      }
    })().catch((caught) => caught.name !== 'AbortError' && setError(caught));
    return () => controller.abort();
  }, [id]);
  if (error) return html`<section><${PageTitle}>Run<//><${ErrorBox} error=${error} /></section>`;
  if (!run) return html`<section><${PageTitle}>Run<//><${Loading} what="the run" /></section>`;
  const r = run.results;
  return html`<section>
    <p class="crumbs"><a href=${`#/projects/${api.enc(run.projectId)}`}>project <code>${run.projectId}</code></a>${' › '}
      <a href=${`#/tests/${api.enc(run.testId)}`}>test <code>${run.testId}</code></a> ›</p>
    <${PageTitle}>Run <code>${run.runId}</code><//>
    <p class="run-state" role="status" aria-live="polite">
      ${run.status === 'running' ? html`<span class="status running">running</span> (this page follows it live)`
        : html`<span class=${`status ${run.outcome}`} data-outcome=${run.outcome}>${run.outcome}</span>${` in ${((run.duration || 0) / 1000).toFixed(1)} s, completed `}<${Time} value=${run.completed} />`}</p>
    ${r && html`<dl class="counts">
      <div><dt>Total</dt><dd data-count="total">${r.total}</dd></div>
      <div><dt>Passed</dt><dd data-count="passed">${r.passed}</dd></div>
      <div><dt>Failed</dt><dd data-count="failed">${r.failed}</dd></div></dl>
      <h2>Coverage</h2>
      <${CoverageFigures} coverage=${r.coverage} threshold=${threshold} />`}
    ${run.error && html`<div class="problem"><p><strong>${run.error.code}</strong>: ${run.error.detail}</p></div>`}
    ${run.status === 'completed' && html`<h2>Failures</h2>
      ${run.failures.length === 0 ? html`<${Empty}>No failing test.<//>`
        : html`<ul class="failures">${run.failures.map((failure) => html`<li><pre class="message">${failure}</pre></li>`)}</ul>`}
      <h2>Reports</h2>
      <${Reports} run=${run} />`}
  </section>`;
}

function Reports({ run }) {
  const [paths, setPaths] = useState(null);
  const action = useAction();
  useEffect(() => { api.apiPaths().then(setPaths); }, []);
  if (!run.results) return html`<${Empty}>This run has no reports: its tests did not run.<//>`;
  const base = `/v1/tests/results/${api.enc(run.runId)}`;
  const hasJunit = paths?.has('/v1/tests/results/{id}/junit.xml');
  return html`<ul class="reports">
    <li><a href=${`#/runs/${api.enc(run.runId)}/report/index.html`}>HTML coverage report</a></li>
    <li><button type="button" class="link" disabled=${action.busy}
      onClick=${() => action.run(() => api.download(`${base}/coverage/lcov.info`, `${run.runId}.lcov.info`))}>Download lcov.info</button></li>
    ${hasJunit && html`<li><button type="button" class="link" disabled=${action.busy}
      onClick=${() => action.run(() => api.download(`${base}/junit.xml`, `${run.runId}.junit.xml`))}>Download JUnit XML</button></li>`}
  </ul>
  <${ErrorBox} error=${action.error} />`;
}
