// Events: the audit trail (oldest first), filtered by type and project, a page
// at a time; the filters and the page are in the link (#/events?type=&projectId=&after=).

import { html, useState, ErrorBox, Empty, Loading, Time, PageTitle, useLoad } from '../ui.js';
import * as api from '../api.js';
import { EVENT_PATTERNS } from './webhooks.js';

const PAGE = 25;

function link(params) {
  return `#/events${api.query(params)}`;
}

export function EventsPage({ params }) {
  const type = params.get('type') || '';
  const projectId = params.get('projectId') || '';
  const after = params.get('after') || '';
  const [draft, setDraft] = useState({ type, projectId });
  const list = useLoad((signal) => api.get(
    `/v1/events${api.query({ limit: PAGE, type, projectId, startingAfter: after })}`, { signal }), [type, projectId, after]);
  const apply = (event) => {
    event.preventDefault();
    location.hash = link({ type: draft.type, projectId: draft.projectId.trim() });
  };
  const events = list.data?.events || [];
  return html`<section>
    <${PageTitle}>Events<//>
    <form class="panel filters" onSubmit=${apply} aria-label="Filter events">
      <div class="row">
        <label>Type <select name="type" value=${draft.type} onChange=${(e) => setDraft({ ...draft, type: e.target.value })}>
          <option value="">all types</option>
          ${EVENT_PATTERNS.filter((p) => p !== '*').map((p) => html`<option value=${p}>${p}</option>`)}
        </select></label>
        <label>Project id <input name="projectId" value=${draft.projectId} placeholder="prj_…"
          onInput=${(e) => setDraft({ ...draft, projectId: e.target.value })} /></label>
      </div>
      <button type="submit">Filter</button>
      ${(type || projectId) && html` <a href="#/events">Clear filters</a>`}
    </form>
    <${ErrorBox} error=${list.error} />
    ${list.loading && !list.data && html`<${Loading} what="events" />`}
    ${list.data && events.length === 0 && html`<${Empty}>${type || projectId || after
      ? 'No event matches on this page. Clear the filters or go back to the first page.'
      : 'No event yet: creating a project, importing sources or running tests records one here.'}<//>`}
    ${events.length > 0 && html`<ol class="events" aria-label="Events, oldest first" aria-busy=${list.loading ? 'true' : 'false'}>
      ${events.map((event) => html`<li key=${event.id} data-event-type=${event.type}>
        <details>
          <summary><code>${event.type}</code> · <${Time} value=${event.created} /> · <code>${event.id}</code></summary>
          ${event.data?.projectId && html`<p>Project: <a href=${`#/projects/${api.enc(event.data.projectId)}`}><code>${event.data.projectId}</code></a></p>`}
          <pre class="json" tabindex="0">${JSON.stringify(event, null, 2)}</pre>
        </details></li>`)}</ol>`}
    <nav class="pager" aria-label="Event pages">
      ${after && html`<a href=${link({ type, projectId })}>First page</a>`}
      ${list.data?.hasMore && html`<a href=${link({ type, projectId, after: events[events.length - 1].id })}>Next page</a>`}
    </nav>
  </section>`;
}
