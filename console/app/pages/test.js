// Generated test: the summary (coverage, mutation score, problems, files without
// kept tests), its files highlighted, and a Run button.

import {
  html, useState, useEffect, ErrorBox, Empty, Loading, Time, PageTitle, ReadOnlyNote, Code,
  CoverageFigures, readOnlyTitle, useLoad, useAction, percent,
} from '../ui.js';
import * as api from '../api.js';
import { GenerationProgress, waitForGeneration } from './generation.js';

export function TestPage({ id, can }) {
  const test = useLoad((signal) => api.get(`/v1/tests/${api.enc(id)}`, { signal }), [id]);
  const run = useAction();
  useEffect(() => {
    if (test.data?.status !== 'generating') return undefined;
    const controller = new AbortController();
    waitForGeneration(test.data, test.setData, controller.signal).catch(() => {});
    return () => controller.abort();
  }, [test.data?.status]);
  if (test.error) return html`<section><${PageTitle}>Generated test<//><${ErrorBox} error=${test.error} /></section>`;
  if (!test.data) return html`<section><${PageTitle}>Generated test<//><${Loading} what="the generated test" /></section>`;
  const t = test.data;
  const s = t.summary || {};
  const writable = can('tests:write');
  const start = () => run.run(async () => {
    const started = await api.post('/v1/tests/run', { testId: t.testId });
    location.hash = `#/runs/${api.enc(started.runId)}`;
  });
  const withoutTests = (s.perFile || []).filter((file) => file.testsKept === 0);
  return html`<section>
    <p class="crumbs"><a href="#/projects">Projects</a> › <a href=${`#/projects/${api.enc(t.projectId)}`}>project <code>${t.projectId}</code></a> ›</p>
    <${PageTitle}>Generated test <code>${t.testId}</code><//>
    <p class="meta">Status <span class=${`status ${t.status}`}>${t.status}</span> · threshold ${t.threshold} % · created <${Time} value=${t.created} />
      ${t.lastRunId && html` · last run <a href=${`#/runs/${api.enc(t.lastRunId)}`}><code>${t.lastRunId}</code></a>`}</p>
    <${GenerationProgress} test=${t} />
    <${ReadOnlyNote} can=${can} scope="tests:write" />
    <button type="button" disabled=${!writable || run.busy || t.status === 'generating' || Boolean(t.error)} title=${readOnlyTitle(can, 'tests:write')}
      onClick=${start}>${run.busy ? 'Starting…' : 'Run these tests'}</button>
    <${ErrorBox} error=${run.error} />
    <h2>Summary</h2>
    <p>${s.functionsFound ?? 0} functions found, ${s.testsGenerated ?? 0} tests generated, ${s.testsKept ?? 0} kept.${' '}
      Mutation score: ${s.mutation ? html`<strong data-mutation>${percent(s.mutation.score)}</strong> (${s.mutation.killed} of ${s.mutation.sampled} sampled mutants killed)` : 'not measured (only when every generated test was kept)'}.</p>
    <${CoverageFigures} coverage=${s.coverage} threshold=${t.threshold} />
    <h3>Problems</h3>
    ${(s.problems || []).length === 0 ? html`<${Empty}>No problem: every source loaded and got tests.<//>` : html`<div class="table-wrap" tabindex="0"><table>
      <thead><tr><th scope="col">File</th><th scope="col">Problem</th><th scope="col">Message</th></tr></thead>
      <tbody>${s.problems.map((p) => html`<tr><td><code>${p.path}</code>${p.line ? `:${p.line}${p.column ? `:${p.column}` : ''}` : ''}</td>
        <td>${p.code}${p.module ? html` (<code>${p.module}</code>)` : ''}</td><td class="message">${p.message}</td></tr>`)}</tbody></table></div>`}
    <h3>Skipped files</h3>
    ${withoutTests.length === 0 && !(s.skipped || []).length ? html`<${Empty}>None: every source file kept at least one test.<//>`
      : html`<ul>${withoutTests.map((f) => html`<li><code>${f.path}</code>: no test kept</li>`)}
        ${(s.skipped || []).map((f) => html`<li>${typeof f === 'string' ? f : JSON.stringify(f)}</li>`)}</ul>`}
    <h3>Per file</h3>
    ${(s.perFile || []).length > 0 && html`<div class="table-wrap" tabindex="0"><table>
      <thead><tr><th scope="col">Source</th><th scope="col">Exports</th><th scope="col">Tests kept</th><th scope="col">Lines</th><th scope="col">Branches</th></tr></thead>
      <tbody>${s.perFile.map((f) => html`<tr><td><code>${f.path}</code></td><td>${f.exports.join(', ')}</td><td>${f.testsKept}</td>
        <td>${percent(f.coverage?.lines)}</td><td>${percent(f.coverage?.branches)}</td></tr>`)}</tbody></table></div>`}
    <h2>Files</h2>
    <${Files} files=${t.files} />
  </section>`;
}

function Files({ files }) {
  const [open, setOpen] = useState(0);
  if (!files || files.length === 0) return html`<${Empty}>This test has no files yet.<//>`;
  return html`<div class="files">
    <ul class="file-list" aria-label="Test files">${files.map((file, index) => html`<li>
      <button type="button" class="link" aria-pressed=${index === open} onClick=${() => setOpen(index)}>${file.path}</button></li>`)}</ul>
    <div class="file">
      <h3 class="path">${files[open].path}</h3>
      <${Code} text=${files[open].content} path=${files[open].path} />
    </div>
  </div>`;
}
