// Projects: the account's projects (paged), create, edit the threshold, delete,
// and import a tarball into one by dropping it on its row (or choosing the file).

import {
  html, useState, ErrorBox, Empty, Loading, Time, ConfirmButton, PageTitle, ReadOnlyNote,
  readOnlyTitle, useLoad, useAction,
} from '../ui.js';
import * as api from '../api.js';

const PAGE = 50;

async function loadPage(startingAfter, signal) {
  return api.get(`/v1/projects${api.query({ limit: PAGE, startingAfter })}`, { signal });
}

export function ProjectsPage({ can }) {
  const list = useLoad((signal) => loadPage(undefined, signal), []);
  const more = useAction();
  const loadMore = () => more.run(async () => {
    const last = list.data.projects[list.data.projects.length - 1];
    const next = await loadPage(last.id);
    list.setData((data) => ({ projects: [...data.projects, ...next.projects], hasMore: next.hasMore }));
  });
  const writable = can('projects:write');
  return html`<section>
    <${PageTitle}>Projects<//>
    <${ReadOnlyNote} can=${can} scope="projects:write" />
    <${CreateProject} disabled=${!writable}
      onCreated=${(project) => list.setData((data) => ({ ...data, projects: [...(data?.projects || []), project] }))} />
    <h2>All projects</h2>
    <${ErrorBox} error=${list.error} />
    ${list.loading && !list.data && html`<${Loading} what="projects" />`}
    ${list.data && list.data.projects.length === 0 &&
      html`<${Empty}>No projects yet. Create one above, then drop a package's .tgz on it to import its sources.<//>`}
    ${list.data && list.data.projects.length > 0 && html`<ul class="cards" aria-label="Projects">
      ${list.data.projects.map((project) => html`<${ProjectRow} key=${project.id} project=${project} can=${can}
        onChanged=${(changed) => list.setData((data) => ({ ...data, projects: data.projects.map((p) => (p.id === changed.id ? changed : p)) }))}
        onDeleted=${() => list.setData((data) => ({ ...data, projects: data.projects.filter((p) => p.id !== project.id) }))} />`)}
    </ul>`}
    <${ErrorBox} error=${more.error} />
    ${list.data?.hasMore && html`<button type="button" class="secondary" disabled=${more.busy} onClick=${loadMore}>Load more projects</button>`}
  </section>`;
}

function CreateProject({ disabled, onCreated }) {
  const [name, setName] = useState('');
  const [repository, setRepository] = useState('');
  const [threshold, setThreshold] = useState('80');
  const action = useAction();
  const submit = (event) => {
    event.preventDefault();
    action.run(async () => {
      const body = { name, config: { coverage: { threshold: Number(threshold) } } };
      if (repository.trim()) body.repository = repository.trim();
      const project = await api.post('/v1/projects', body);
      setName('');
      setRepository('');
      onCreated(project);
    });
  };
  return html`<form class="panel" onSubmit=${submit} aria-labelledby="create-project">
    <h2 id="create-project">Create a project</h2>
    <div class="row">
      <label>Name <input name="name" value=${name} required maxlength="200" disabled=${disabled}
        onInput=${(e) => setName(e.target.value)} /></label>
      <label>Repository (optional) <input name="repository" value=${repository} maxlength="2048" disabled=${disabled}
        placeholder="https://git.example/shop.git" onInput=${(e) => setRepository(e.target.value)} /></label>
      <label>Coverage threshold (%) <input name="threshold" type="number" min="0" max="100" step="any" value=${threshold}
        disabled=${disabled} required onInput=${(e) => setThreshold(e.target.value)} /></label>
    </div>
    <button type="submit" disabled=${disabled || action.busy}>${action.busy ? 'Creating…' : 'Create project'}</button>
    <${ErrorBox} error=${action.error} />
  </form>`;
}

function ProjectRow({ project, can, onChanged, onDeleted }) {
  const writable = can('projects:write');
  const [threshold, setThreshold] = useState(String(project.config.coverage.threshold));
  const [dragging, setDragging] = useState(false);
  const [imported, setImported] = useState(null);
  const save = useAction();
  const remove = useAction();
  const upload = useAction();
  const saveThreshold = (event) => {
    event.preventDefault();
    save.run(async () => onChanged(await api.put(`/v1/projects/${api.enc(project.id)}`,
      { config: { coverage: { threshold: Number(threshold) } } })));
  };
  const importFile = (file) => {
    if (!file || !writable) return;
    setImported(null);
    upload.run(async () => {
      const snapshot = await api.request('POST', `/v1/projects/${api.enc(project.id)}/import`,
        { body: file, contentType: 'application/gzip' });
      setImported(snapshot);
    });
  };
  const dropProps = writable ? {
    onDragOver: (e) => { e.preventDefault(); setDragging(true); },
    onDragLeave: () => setDragging(false),
    onDrop: (e) => { e.preventDefault(); setDragging(false); importFile(e.dataTransfer.files[0]); },
  } : {};
  const inputId = `import-${project.id}`;
  return html`<li class=${`card project ${dragging ? 'dragging' : ''}`} data-project=${project.id} ...${dropProps}>
    <h3><a href=${`#/projects/${api.enc(project.id)}`}>${project.name}</a></h3>
    <p class="meta"><code>${project.id}</code> · created <${Time} value=${project.created} />
      ${project.repository && html` · <span class="url">${project.repository}</span>`}</p>
    <form class="inline" onSubmit=${saveThreshold}>
      <label>Threshold (%) <input type="number" min="0" max="100" step="any" value=${threshold} required
        disabled=${!writable} title=${readOnlyTitle(can, 'projects:write')} onInput=${(e) => setThreshold(e.target.value)} /></label>
      <button type="submit" class="secondary" disabled=${!writable || save.busy}>Save threshold</button>
    </form>
    <div class="dropzone">
      <label for=${inputId}>Import a package (.tgz): drop it on this project, or choose it</label>
      <input id=${inputId} type="file" accept=".tgz,.tar.gz,application/gzip" disabled=${!writable || upload.busy}
        onChange=${(e) => { importFile(e.target.files[0]); e.target.value = ''; }} />
      ${upload.busy && html`<p role="status">Importing…</p>`}
      ${imported && html`<p role="status" class="ok">${`Imported snapshot ${imported.snapshotId}: ${imported.files} files, ${imported.bytes} bytes`}${imported.skipped.length ? `, ${imported.skipped.length} skipped` : ''}. <a href=${`#/projects/${api.enc(project.id)}`}>Generate tests from it</a>.</p>`}
    </div>
    <${ConfirmButton} label="Delete project" confirmLabel=${`Delete ${project.name}`} disabled=${!writable || remove.busy}
      title=${readOnlyTitle(can, 'projects:write')}
      onConfirm=${() => remove.run(async () => { await api.del(`/v1/projects/${api.enc(project.id)}`); onDeleted(); })} />
    <${ErrorBox} error=${save.error || upload.error || remove.error} />
  </li>`;
}
