// The console's shell: sign-in, navigation and hash routes (every page has a
// deep link: #/projects, #/projects/{id}, #/tests/{id}, #/runs/{id},
// #/runs/{id}/report/{path}, #/webhooks, #/webhooks/{id}, #/events?type=&projectId=).

import { html, render } from '../vendor/htm-preact.js';
import { useState, useEffect, useRef, PageTitle } from './ui.js';
import * as api from './api.js';
import { ProjectsPage } from './pages/projects.js';
import { ProjectPage } from './pages/project.js';
import { TestPage } from './pages/test.js';
import { RunPage } from './pages/run.js';
import { ReportPage } from './pages/report.js';
import { WebhooksPage } from './pages/webhooks.js';
import { WebhookPage } from './pages/webhook.js';
import { EventsPage } from './pages/events.js';

function parseHash() {
  const hash = location.hash.replace(/^#/, '') || '/projects';
  const [path, search = ''] = hash.split('?');
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { segments, params: new URLSearchParams(search), key: hash };
}

function useRoute() {
  const [route, setRoute] = useState(parseHash);
  useEffect(() => {
    const changed = () => setRoute(parseHash());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

function page(route, can) {
  const [section = 'projects', id, sub, ...rest] = route.segments;
  const props = { can, params: route.params };
  switch (section) {
    case 'projects':
      return id ? html`<${ProjectPage} ...${props} id=${id} />` : html`<${ProjectsPage} ...${props} />`;
    case 'tests':
      if (id) return html`<${TestPage} ...${props} id=${id} />`;
      break;
    case 'runs':
      if (id && sub === 'report') {
        return html`<${ReportPage} ...${props} id=${id} path=${rest.join('/') || 'index.html'} />`;
      }
      if (id) return html`<${RunPage} ...${props} id=${id} />`;
      break;
    case 'webhooks':
      return id ? html`<${WebhookPage} ...${props} id=${id} />` : html`<${WebhooksPage} ...${props} />`;
    case 'events':
      return html`<${EventsPage} ...${props} />`;
    default:
      break;
  }
  return html`<section><${PageTitle}>Page not found<//>
    <p>There is no console page at <code>#${route.key}</code>. Go to the <a href="#/projects">projects</a>.</p></section>`;
}

function SignIn({ onSignedIn }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const input = useRef(null);
  useEffect(() => input.current && input.current.focus(), []);
  const submit = async (event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) return;
    setBusy(true);
    setError(null);
    api.storeKey(trimmed);
    try {
      // A key the server does not know answers 401 on any authenticated route.
      await api.get('/v1/events?limit=1').catch((caught) => {
        if (caught.status !== 403) throw caught;
      });
      const missing = await api.missingWriteScopes();
      onSignedIn(missing);
    } catch (caught) {
      api.forgetKey();
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return html`<main id="main" class="signin">
    <h1>Vouch console</h1>
    <form onSubmit=${submit}>
      <label for="api-key">API key</label>
      <input id="api-key" ref=${input} type="password" autocomplete="off" spellcheck="false"
        placeholder="vk_…" value=${key} onInput=${(e) => setKey(e.target.value)} required />
      <p class="hint">Paste a key and press Enter. It stays in this tab only (sessionStorage) and is sent as a Bearer token to this server's API.</p>
      <button type="submit" disabled=${busy}>${busy ? 'Signing in…' : 'Sign in'}</button>
    </form>
    ${error && html`<div class="problem" role="alert"><p><strong>Sign-in failed${error.status ? ` (${error.status})` : ''}:</strong> ${error.detail}</p>
      ${error.requestId && html`<p class="request-id">Request id: <code>${error.requestId}</code></p>`}</div>`}
  </main>`;
}

const NAV = [
  ['projects', 'Projects'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
];

function App() {
  const route = useRoute();
  const [signedIn, setSignedIn] = useState(Boolean(api.storedKey()));
  const [missing, setMissing] = useState(() => new Set(JSON.parse(sessionStorage.getItem('vouch.missingScopes') || '[]')));
  useEffect(() => api.onForbidden((scope) => setMissing((previous) => {
    if (previous.has(scope)) return previous;
    const next = new Set(previous).add(scope);
    sessionStorage.setItem('vouch.missingScopes', JSON.stringify([...next]));
    return next;
  })), []);
  if (!signedIn) {
    return html`<${SignIn} onSignedIn=${(scopes) => {
      sessionStorage.setItem('vouch.missingScopes', JSON.stringify([...scopes]));
      setMissing(scopes);
      setSignedIn(true);
      // A deep link opened before signing in stays where it points.
      if (!location.hash || location.hash === '#/') location.hash = '#/projects';
    }} />`;
  }
  const can = (scope) => !missing.has(scope);
  const section = route.segments[0] || 'projects';
  const signOut = () => {
    api.forgetKey();
    sessionStorage.removeItem('vouch.missingScopes');
    location.hash = '#/';
    setSignedIn(false);
  };
  return html`<a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); document.getElementById('main').focus(); }}>Skip to content</a>
  <header class="bar">
    <a class="brand" href="#/projects">Vouch</a>
    <nav aria-label="Main">
      <ul>${NAV.map(([id, label]) => html`<li><a href=${`#/${id}`}
        aria-current=${section === id || (id === 'projects' && ['tests', 'runs'].includes(section)) ? 'page' : undefined}>${label}</a></li>`)}</ul>
    </nav>
    <button type="button" class="secondary signout" onClick=${signOut}>Sign out</button>
  </header>
  <main id="main" tabindex="-1" key=${route.key}>${page(route, can)}</main>`;
}

const root = document.getElementById('root');
root.textContent = '';
render(html`<${App} />`, root);
