// Webhooks: the account's endpoints, create one (its secret is shown once), and
// links to each one's page (edit, rotate, deliveries).

import {
  html, useState, ErrorBox, Empty, Loading, Time, PageTitle, ReadOnlyNote, useLoad, useAction,
} from '../ui.js';
import * as api from '../api.js';

export const EVENT_PATTERNS = [
  '*', 'test.*', 'project.*', 'test.started', 'test.completed', 'test.failed', 'test.coverage.updated',
  'project.created', 'project.updated', 'project.deleted', 'project.imported',
];

// The secret of a webhook just created or rotated: the only time the API shows it.
export function SecretOnce({ secret, onDone }) {
  if (!secret) return null;
  return html`<div class="secret" role="alert">
    <p><strong>Signing secret</strong> (shown only now: copy it to the receiver):</p>
    <p><code class="secret-value">${secret}</code></p>
    <button type="button" class="secondary" onClick=${onDone}>I have copied it</button>
  </div>`;
}

// The fields of a webhook, for create and edit.
export function WebhookFields({ value, onChange, disabled }) {
  const toggle = (pattern) => {
    const events = value.events.includes(pattern) ? value.events.filter((e) => e !== pattern) : [...value.events, pattern];
    onChange({ ...value, events });
  };
  return html`<div class="row">
      <label>Endpoint URL <input name="url" type="url" required maxlength="2048" value=${value.url} disabled=${disabled}
        placeholder="https://hooks.example.com/vouch" onInput=${(e) => onChange({ ...value, url: e.target.value })} /></label>
      <label>Description <input name="description" maxlength="500" value=${value.description} disabled=${disabled}
        onInput=${(e) => onChange({ ...value, description: e.target.value })} /></label>
    </div>
    <fieldset disabled=${disabled}><legend>Events</legend>
      ${EVENT_PATTERNS.map((pattern) => html`<label class="check"><input type="checkbox" name="events" value=${pattern}
        checked=${value.events.includes(pattern)} onChange=${() => toggle(pattern)} /> <code>${pattern}</code></label>`)}
    </fieldset>`;
}

export function WebhooksPage({ can }) {
  const list = useLoad((signal) => api.get('/v1/webhooks?limit=100', { signal }), []);
  const writable = can('webhooks:write');
  const [draft, setDraft] = useState({ url: '', description: '', events: ['*'] });
  const [secret, setSecret] = useState('');
  const create = useAction();
  const submit = (event) => {
    event.preventDefault();
    create.run(async () => {
      const created = await api.post('/v1/webhooks', draft);
      setSecret(created.secret);
      const { secret: _shown, ...webhook } = created;
      list.setData((data) => ({ ...data, webhooks: [...(data?.webhooks || []), webhook] }));
      setDraft({ url: '', description: '', events: ['*'] });
    });
  };
  return html`<section>
    <${PageTitle}>Webhooks<//>
    <${ReadOnlyNote} can=${can} scope="webhooks:write" />
    <${SecretOnce} secret=${secret} onDone=${() => setSecret('')} />
    <form class="panel" onSubmit=${submit} aria-labelledby="create-webhook">
      <h2 id="create-webhook">Create a webhook</h2>
      <${WebhookFields} value=${draft} onChange=${setDraft} disabled=${!writable} />
      <button type="submit" disabled=${!writable || create.busy || draft.events.length === 0}>Create webhook</button>
      <${ErrorBox} error=${create.error} />
    </form>
    <h2>Endpoints</h2>
    <${ErrorBox} error=${list.error} />
    ${list.loading && !list.data && html`<${Loading} what="webhooks" />`}
    ${list.data && list.data.webhooks.length === 0 && html`<${Empty}>No webhook yet. Create one above to receive events as signed POSTs.<//>`}
    ${list.data && list.data.webhooks.length > 0 && html`<div class="table-wrap" tabindex="0"><table>
      <thead><tr><th scope="col">Endpoint</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Created</th></tr></thead>
      <tbody>${list.data.webhooks.map((w) => html`<tr key=${w.id}>
        <td><a href=${`#/webhooks/${api.enc(w.id)}`}><span class="url">${w.url}</span></a>
          ${w.description && html`<br /><small>${w.description}</small>`}</td>
        <td>${w.events.join(', ')}</td>
        <td>${w.active ? 'active' : `disabled${w.disabledReason ? `: ${w.disabledReason}` : ''}`}</td>
        <td><${Time} value=${w.created} /></td></tr>`)}</tbody></table></div>`}
  </section>`;
}
