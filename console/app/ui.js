// Shared pieces of the pages. Everything here renders user data as text nodes
// (htm/Preact escapes it); nothing sets HTML from a string.

import { html, useState, useEffect, useLayoutEffect, useCallback, useRef } from '../vendor/htm-preact.js';

export { html, useState, useEffect, useCallback, useRef };

// The problem of a failed request: its detail, code, field errors and requestId.
export function ErrorBox({ error, onDismiss }) {
  if (!error) return null;
  return html`<div class="problem" role="alert">
    <p><strong>${error.status ? `Error ${error.status}` : 'Error'}${error.code ? ` (${error.code})` : ''}:</strong> ${error.detail || error.message}</p>
    ${error.errors && error.errors.length > 0 &&
    html`<ul>${error.errors.map((e) => html`<li><code>${e.field}</code>: ${e.message}</li>`)}</ul>`}
    ${error.requestId && html`<p class="request-id">Request id: <code>${error.requestId}</code></p>`}
    ${onDismiss && html`<button type="button" class="secondary" onClick=${onDismiss}>Dismiss</button>`}
  </div>`;
}

export function Empty({ children }) {
  return html`<p class="empty">${children}</p>`;
}

export function Loading({ what }) {
  return html`<p class="loading" role="status">Loading ${what}…</p>`;
}

export function Time({ value }) {
  if (!value) return html`<span>—</span>`;
  const date = new Date(value);
  return html`<time datetime=${value} title=${value}>${date.toLocaleString()}</time>`;
}

export const percent = (value) => (typeof value === 'number' ? `${value.toFixed(1)}\u00a0%` : '—');

const FIGURES = ['statements', 'branches', 'functions', 'lines'];

// The four coverage figures, each against the threshold when one is given.
export function CoverageFigures({ coverage, threshold }) {
  if (!coverage) return null;
  return html`<dl class="figures">
    ${FIGURES.map((name) => {
      const value = coverage[name];
      const below = typeof threshold === 'number' && value < threshold;
      return html`<div class=${`figure ${below ? 'below' : ''}`} data-figure=${name}>
        <dt>${name}</dt>
        <dd>${percent(value)}${below ? html`<span class="sr-note"> (under ${threshold} %)</span>` : ''}</dd>
      </div>`;
    })}
  </dl>`;
}

// A button that asks once more, in place, before acting (no window.confirm dialog).
export function ConfirmButton({ label, confirmLabel, onConfirm, disabled, title }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return html`<button type="button" class="danger" disabled=${disabled} title=${title}
      onClick=${() => setAsking(true)}>${label}</button>`;
  }
  return html`<span class="confirm">
    <button type="button" class="danger" onClick=${() => { setAsking(false); onConfirm(); }}>${confirmLabel}</button>
    <button type="button" class="secondary" onClick=${() => setAsking(false)}>Cancel</button>
  </span>`;
}

// Loads with `load(signal)` whenever `deps` (strings) change; {data, error, loading,
// reload, setData}. `loading` is true from the first render with new deps, so a page
// never shows the previous data as if it were the answer for the new deps.
export function useLoad(load, deps) {
  const [state, setState] = useState({ data: null, error: null, loading: true, key: null });
  const [round, setRound] = useState(0);
  const key = JSON.stringify([...deps, round]);
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true, error: null }));
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, error: null, loading: false, key }),
      (error) => {
        if (controller.signal.aborted || error.name === 'AbortError') return;
        setState({ data: null, error, loading: false, key });
      },
    );
    return () => controller.abort();
  }, [key]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const setData = useCallback((update) => setState((previous) => ({
    ...previous,
    data: typeof update === 'function' ? update(previous.data) : update,
  })), []);
  const { key: loadedKey, ...rest } = state;
  return { ...rest, loading: state.loading || loadedKey !== key, reload, setData };
}

// Runs an action, holding its error and whether it is under way.
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = useCallback(async (action) => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}

// Source code highlighted by Prism's tokenizer, each token a <span> holding text:
// Prism never produces HTML here, so the code cannot become markup.
export function Code({ text, path }) {
  const language = /\.(c|m)?(j|t)sx?$/.test(path || '') ? window.Prism?.languages?.javascript : null;
  const tokens = language ? window.Prism.tokenize(text, language) : [text];
  return html`<pre class="code" tabindex="0" role="region" aria-label=${path ? `Contents of ${path}` : 'Code'}><code>${renderTokens(tokens)}</code></pre>`;
}

function renderTokens(tokens) {
  return tokens.map((token) => {
    if (typeof token === 'string') return token;
    const aliases = Array.isArray(token.alias) ? token.alias : token.alias ? [token.alias] : [];
    const content = Array.isArray(token.content) ? renderTokens(token.content)
      : typeof token.content === 'string' ? token.content : renderTokens([token.content]);
    return html`<span class=${['token', token.type, ...aliases].join(' ')}>${content}</span>`;
  });
}

// A page's heading, focused when the page opens so that keyboard and screen
// reader users start at its top. A layout effect, so the focus moves in the
// same task that shows the heading, never a frame after it.
export function PageTitle({ children }) {
  const ref = useRef(null);
  useLayoutEffect(() => ref.current && ref.current.focus(), []);
  return html`<h1 tabindex="-1" ref=${ref}>${children}</h1>`;
}

// The "why is this disabled" note beside writing controls of a read-only key.
export function readOnlyTitle(can, scope) {
  return can(scope) ? undefined : `This key lacks the ${scope} scope`;
}

export function ReadOnlyNote({ can, scope }) {
  if (can(scope)) return null;
  return html`<p class="note">This key is read-only here (it lacks <code>${scope}</code>): the writing controls are disabled.</p>`;
}
