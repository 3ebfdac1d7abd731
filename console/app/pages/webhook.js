// A webhook: edit it, rotate its secret (shown once), delete it, and its
// deliveries (newest first) with status and response code, each redeliverable.

import {
  html, useState, ErrorBox, Empty, Loading, Time, PageTitle, ReadOnlyNote, ConfirmButton,
  readOnlyTitle, useLoad, useAction,
} from '../ui.js';
import * as api from '../api.js';
import { SecretOnce, WebhookFields } from './webhooks.js';

export function WebhookPage({ id, can }) {
  const webhook = useLoad((signal) => api.get(`/v1/webhooks/${api.enc(id)}`, { signal }), [id]);
  const writable = can('webhooks:write');
  const [secret, setSecret] = useState('');
  const rotate = useAction();
  const remove = useAction();
  if (webhook.error) return html`<section><${PageTitle}>Webhook<//><${ErrorBox} error=${webhook.error} /></section>`;
  if (!webhook.data) return html`<section><${PageTitle}>Webhook<//><${Loading} what="the webhook" /></section>`;
  const w = webhook.data;
  const path = `/v1/webhooks/${api.enc(w.id)}`;
  return html`<section>
    <p class="crumbs"><a href="#/webhooks">Webhooks</a> ›</p>
    <${PageTitle}>Webhook <code>${w.id}</code><//>
    <p class="meta"><span class="url">${w.url}</span>${` · ${w.active ? 'active' : `disabled${w.disabledReason ? `: ${w.disabledReason}` : ''}`} · updated `}<${Time} value=${w.updated} /></p>
    <${ReadOnlyNote} can=${can} scope="webhooks:write" />
    <${SecretOnce} secret=${secret} onDone=${() => setSecret('')} />
    <${EditWebhook} webhook=${w} disabled=${!writable} onSaved=${webhook.setData} />
    <div class="actions">
      <button type="button" class="secondary" disabled=${!writable || rotate.busy} title=${readOnlyTitle(can, 'webhooks:write')}
        onClick=${() => rotate.run(async () => setSecret((await api.post(`${path}/rotate-secret`, {})).secret))}>Rotate secret</button>
      <${ConfirmButton} label="Delete webhook" confirmLabel="Delete it for good" disabled=${!writable || remove.busy}
        title=${readOnlyTitle(can, 'webhooks:write')}
        onConfirm=${() => remove.run(async () => { await api.del(path); location.hash = '#/webhooks'; })} />
    </div>
    <${ErrorBox} error=${rotate.error || remove.error} />
    <${Deliveries} webhookId=${w.id} writable=${writable} can=${can} />
  </section>`;
}

function EditWebhook({ webhook, disabled, onSaved }) {
  const [draft, setDraft] = useState({ url: webhook.url, description: webhook.description, events: webhook.events });
  const [active, setActive] = useState(webhook.active);
  const save = useAction();
  const [saved, setSaved] = useState(false);
  const submit = (event) => {
    event.preventDefault();
    setSaved(false);
    save.run(async () => {
      onSaved(await api.put(`/v1/webhooks/${api.enc(webhook.id)}`, { ...draft, active }));
      setSaved(true);
    });
  };
  return html`<form class="panel" onSubmit=${submit} aria-labelledby="edit-webhook">
    <h2 id="edit-webhook">Settings</h2>
    <${WebhookFields} value=${draft} onChange=${setDraft} disabled=${disabled} />
    <label class="check"><input type="checkbox" name="active" checked=${active} disabled=${disabled}
      onChange=${(e) => setActive(e.target.checked)} /> Active</label>
    <button type="submit" disabled=${disabled || save.busy || draft.events.length === 0}>Save webhook</button>
    ${saved && html`<span role="status" class="ok"> Saved.</span>`}
    <${ErrorBox} error=${save.error} />
  </form>`;
}

function Deliveries({ webhookId, writable, can }) {
  const [after, setAfter] = useState([]);
  const startingAfter = after[after.length - 1];
  const list = useLoad((signal) => api.get(
    `/v1/webhooks/${api.enc(webhookId)}/deliveries${api.query({ limit: 20, startingAfter })}`, { signal }), [webhookId, startingAfter]);
  const redeliver = useAction();
  const [queued, setQueued] = useState(null);
  const again = (delivery) => redeliver.run(async () => {
    setQueued(await api.post(`/v1/webhooks/${api.enc(webhookId)}/deliveries/${api.enc(delivery.id)}/redeliver`, {}));
    setTimeout(list.reload, 1500);
  });
  return html`<h2>Deliveries</h2>
    <button type="button" class="secondary" onClick=${list.reload}>Refresh deliveries</button>
    ${queued && html`<p role="status" class="ok">Redelivery of <code>${queued.eventId}</code> queued (attempt ${queued.attempt}).</p>`}
    <${ErrorBox} error=${list.error || redeliver.error} />
    ${list.loading && !list.data && html`<${Loading} what="deliveries" />`}
    ${list.data && list.data.deliveries.length === 0 && html`<${Empty}>No delivery yet: one is made when an event this webhook listens to happens (create a project, run a test).<//>`}
    ${list.data && list.data.deliveries.length > 0 && html`<div class="table-wrap" tabindex="0"><table class="deliveries">
      <thead><tr><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Result</th><th scope="col">Response code</th>
        <th scope="col">Duration</th><th scope="col">When</th><th scope="col">Next attempt</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${list.data.deliveries.map((d) => html`<tr key=${d.id} data-delivery=${d.id}>
        <td><code>${d.event}</code><br /><small><code>${d.eventId}</code></small></td>
        <td>${d.attempt}${d.manual ? ' (manual)' : ''}</td>
        <td><span class=${`status ${d.success ? 'success' : 'failure'}`}>${d.success ? 'delivered' : 'failed'}</span>
          ${d.error && html`<br /><small class="message">${d.error}</small>`}</td>
        <td data-status=${d.status}>${d.status === 0 ? 'no answer' : d.status}</td>
        <td>${d.duration} ms</td>
        <td><${Time} value=${d.created} /></td>
        <td>${d.nextAttempt ? html`<${Time} value=${d.nextAttempt} />` : '—'}</td>
        <td><button type="button" class="secondary" disabled=${!writable || redeliver.busy} title=${readOnlyTitle(can, 'webhooks:write')}
          onClick=${() => again(d)}>Redeliver</button></td></tr>`)}</tbody></table></div>`}
    <div class="pager">
      ${after.length > 0 && html`<button type="button" class="secondary" onClick=${() => setAfter(after.slice(0, -1))}>Newer deliveries</button>`}
      ${list.data?.hasMore && html`<button type="button" class="secondary"
        onClick=${() => setAfter([...after, list.data.deliveries[list.data.deliveries.length - 1].id])}>Older deliveries</button>`}
    </div>`;
}
