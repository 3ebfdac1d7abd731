// Project: its snapshots (the project.imported events of the audit trail: the API
// has no snapshot list), generating tests from one, and its generated tests.

import {
  html, useState, useEffect, ErrorBox, Empty, Loading, Time, PageTitle, ReadOnlyNote,
  readOnlyTitle, useLoad, useAction, percent,
} from '../ui.js';
import * as api from '../api.js';
import { GenerationProgress, waitForGeneration } from './generation.js';

export function ProjectPage({ id, can }) {
  const project = useLoad((signal) => api.get(`/v1/projects/${api.enc(id)}`, { signal }), [id]);
  const snapshots = useLoad((signal) => api.get(
    `/v1/events${api.query({ type: 'project.imported', projectId: id, limit: 100 })}`, { signal }), [id]);
  const tests = useLoad((signal) => api.get(`/v1/tests${api.query({ projectId: id, limit: 100 })}`, { signal }), [id]);
  if (project.error) return html`<section><${PageTitle}>Project<//><${ErrorBox} error=${project.error} /></section>`;
  if (!project.data) return html`<section><${PageTitle}>Project<//><${Loading} what="the project" /></section>`;
  const p = project.data;
  return html`<section>
    <p class="crumbs"><a href="#/projects">Projects</a> ›</p>
    <${PageTitle}>${p.name}<//>
    <p class="meta"><code>${p.id}</code> · threshold ${p.config.coverage.threshold} % · created <${Time} value=${p.created} />
      ${p.repository && html` · <span class="url">${p.repository}</span>`}${' · '}<a href=${`#/events?projectId=${api.enc(p.id)}`}>its events</a></p>
    <${ReadOnlyNote} can=${can} scope="tests:write" />
    <h2>Snapshots</h2>
    <${Snapshots} project=${p} snapshots=${snapshots} can=${can} onGenerated=${tests.reload} />
    <h2>Generated tests</h2>
    <${ErrorBox} error=${tests.error} />
    ${tests.loading && !tests.data && html`<${Loading} what="generated tests" />`}
    ${tests.data && tests.data.tests.length === 0 &&
      html`<${Empty}>No generated tests yet. Generate them from a snapshot above.<//>`}
    ${tests.data && tests.data.tests.length > 0 && html`<div class="table-wrap" tabindex="0"><table>
      <caption class="sr-only">Generated tests of ${p.name}</caption>
      <thead><tr><th scope="col">Test</th><th scope="col">Status</th><th scope="col">Tests kept</th><th scope="col">Lines covered</th><th scope="col">Created</th></tr></thead>
      <tbody>${[...tests.data.tests].reverse().map((t) => html`<tr key=${t.testId}>
        <td><a href=${`#/tests/${api.enc(t.testId)}`}><code>${t.testId}</code></a></td>
        <td><span class=${`status ${t.status}`}>${t.status}</span></td>
        <td>${t.summary?.testsKept ?? '—'}</td>
        <td>${percent(t.summary?.coverage?.lines)}</td>
        <td><${Time} value=${t.created} /></td></tr>`)}</tbody>
    </table></div>`}
  </section>`;
}

function Snapshots({ project, snapshots, can, onGenerated }) {
  const writable = can('tests:write');
  if (snapshots.error?.status === 403) {
    // Without events:read the snapshots cannot be listed; the latest can still be used.
    return html`<p class="note">This key cannot read the audit trail (<code>events:read</code>), where imports are listed.${' '}
      Tests can still be generated from the latest imported snapshot.</p>
      <${GenerateButton} project=${project} writable=${writable} can=${can} onGenerated=${onGenerated} />`;
  }
  if (snapshots.error) return html`<${ErrorBox} error=${snapshots.error} />`;
  if (!snapshots.data) return html`<${Loading} what="snapshots" />`;
  const imports = [...snapshots.data.events].reverse();
  if (imports.length === 0) {
    return html`<${Empty}>No snapshot yet. On <a href="#/projects">Projects</a>, drop a package's .tgz on this project to import its sources.<//>`;
  }
  return html`<ul class="cards">${imports.map((event) => html`<li class="card" key=${event.id} data-snapshot=${event.data.snapshotId}>
    <p><code>${event.data.snapshotId}</code> · ${event.data.files} files · ${event.data.bytes} bytes · ${event.data.source}
      ${event.data.ref ? html` · ref <code>${event.data.ref}</code>` : ''} · <${Time} value=${event.data.created} /></p>
    <${GenerateButton} project=${project} snapshotId=${event.data.snapshotId} writable=${writable} can=${can} onGenerated=${onGenerated} />
  </li>`)}</ul>`;
}

function GenerateButton({ project, snapshotId, writable, can, onGenerated }) {
  const action = useAction();
  const [test, setTest] = useState(null);
  const [controller] = useState(() => new AbortController());
  useEffect(() => () => controller.abort(), []);
  const generate = () => action.run(async () => {
    setTest(null);
    const body = { projectId: project.id };
    if (snapshotId) body.snapshotId = snapshotId;
    // An async generation answers 202 at once and the test shows its progress;
    // a server without it answers 201 when the tests exist.
    let current = await api.post('/v1/tests/generate', body, { headers: { Prefer: 'respond-async' }, signal: controller.signal });
    setTest(current);
    if (current.status === 'generating') onGenerated(); // the list shows it while it is generated
    current = await waitForGeneration(current, setTest, controller.signal);
    onGenerated();
  });
  return html`<div class="generate">
    <button type="button" disabled=${!writable || action.busy} title=${readOnlyTitle(can, 'tests:write')} onClick=${generate}>
      ${action.busy ? 'Generating…' : snapshotId ? 'Generate tests from this snapshot' : 'Generate tests from the latest snapshot'}</button>
    ${action.busy && !test && html`<p role="status">Generating tests: the server answers when they exist…</p>`}
    ${test && html`<${GenerationProgress} test=${test} />`}
    ${test && test.status !== 'generating' && !test.error && html`<p role="status" class="ok">Generated <a href=${`#/tests/${api.enc(test.testId)}`}><code>${test.testId}</code></a>${`: ${test.summary?.testsKept ?? 0} tests kept.`}</p>`}
    <${ErrorBox} error=${action.error} />
  </div>`;
}
