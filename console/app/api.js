// The console's only way to the server: the public API under /v1, with the key
// the user pasted, held in this tab's sessionStorage (never a cookie, never the URL).

const KEY_ITEM = 'vouch.apiKey';

export function storedKey() {
  return sessionStorage.getItem(KEY_ITEM) || '';
}

export function storeKey(key) {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_ITEM);
}

// An answer that is not 2xx, with the problem's fields (RFC 9457 problem details:
// detail, code, errors, requestId) or, without a body, what is known.
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || '';
    this.detail = problem.detail || (status ? `the server answered HTTP ${status}` : 'no answer');
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.requestId = problem.requestId || '';
  }
}

const listeners = new Set();
// Called with (scope) when the server refuses a request for a missing scope, so
// the pages disable the controls that need it.
export function onForbidden(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// request(method, path, {json, body, contentType, headers, signal, raw}) -> parsed body (or the
// Response when raw), throwing ApiError for a non-2xx answer or a network failure.
export async function request(method, path, options = {}) {
  const headers = new Headers(options.headers || {});
  const key = storedKey();
  if (key) headers.set('Authorization', `Bearer ${key}`);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set('Content-Type', 'application/json');
  } else if (options.contentType) {
    headers.set('Content-Type', options.contentType);
  }
  if (method === 'POST' && !headers.has('Idempotency-Key')) {
    headers.set('Idempotency-Key', crypto.randomUUID());
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, { detail: `the server could not be reached (${error.message})` });
  }
  if (!response.ok) {
    let problem = {};
    try {
      problem = await response.json();
    } catch {
      problem = {};
    }
    if (!problem.requestId) problem.requestId = response.headers.get('X-Request-Id') || '';
    const error = new ApiError(response.status, problem);
    if (response.status === 403) {
      const scope = /scope "([^"]+)"/.exec(error.detail);
      if (scope) listeners.forEach((listener) => listener(scope[1]));
    }
    throw error;
  }
  if (options.raw) return response;
  if (response.status === 204) return null;
  const type = response.headers.get('Content-Type') || '';
  return type.includes('json') ? response.json() : response.text();
}

export const get = (path, options) => request('GET', path, options);
export const post = (path, json, options = {}) => request('POST', path, { ...options, json });
export const put = (path, json, options = {}) => request('PUT', path, { ...options, json });
export const del = (path, options) => request('DELETE', path, options);

// A query string from the defined entries of `params`.
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const enc = encodeURIComponent;

// The write scopes the console's controls need, and a request for each that
// the server refuses before doing anything: the scope is checked before the
// body's type, so a body of the wrong type answers 403 without the scope and
// 415 with it. No endpoint tells a key its own scopes.
const WRITE_PROBES = {
  'projects:write': '/v1/projects',
  'tests:write': '/v1/tests/run',
  'webhooks:write': '/v1/webhooks',
};

// The scopes among WRITE_PROBES that the key lacks (a Set).
export async function missingWriteScopes() {
  const missing = new Set();
  await Promise.all(
    Object.entries(WRITE_PROBES).map(async ([scope, path]) => {
      try {
        await request('POST', path, { body: 'probe', contentType: 'text/plain' });
      } catch (error) {
        if (error.status === 403) missing.add(scope);
      }
    }),
  );
  return missing;
}

// Paths of the public API document (GET /v1/openapi.json), to show links to
// what this server offers (the JUnit report) and nothing it lacks.
let documentPaths;
export async function apiPaths() {
  if (!documentPaths) {
    documentPaths = fetch('/v1/openapi.json', { credentials: 'omit' })
      .then((response) => (response.ok ? response.json() : { paths: {} }))
      .then((document) => new Set(Object.keys(document.paths || {})))
      .catch(() => new Set());
  }
  return documentPaths;
}

// Fetches `path` with the key and hands it to the browser as a download named `name`.
export async function download(path, name) {
  const response = await request('GET', path, { raw: true });
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
