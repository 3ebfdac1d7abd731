// A page of a run's HTML coverage report. The report needs the key, which a plain
// link cannot send, so the console fetches each page through the API and shows it
// in a sandboxed frame that runs no script (the report's own scripts, written in
// the run's sandbox, never run here). Its stylesheets are fetched the same way and
// adopted by the frame's document; its links to other pages become console links.

import { html, useRef, useEffect, useState, ErrorBox, Loading, PageTitle } from '../ui.js';
import * as api from '../api.js';

// `relative` resolved against the folder of `page` ("a/b.html" + "../c.css" -> "c.css"),
// or null when it leaves the report or is not a relative path.
function resolve(page, relative) {
  if (!relative || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(relative) || relative.startsWith('/')) return null;
  const parts = page.split('/').slice(0, -1);
  for (const part of relative.split('#')[0].split('/')) {
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else if (part && part !== '.') {
      parts.push(part);
    }
  }
  return parts.join('/');
}

// The report page made inert before it is shown: no script, no link or image
// that would be fetched without the key; its stylesheets are listed for the
// frame to adopt, its inline styles kept aside (the console's policy refuses
// inline styles in markup, not those set through the CSSOM), its links to
// other report pages turned into console links.
function prepare(text, id, path) {
  // Inline styles are set aside before parsing: Chromium checks the console's
  // policy while it parses, and would log each one as refused. Tags are the only
  // places a style attribute can be (the page's text has its '<' escaped).
  const inlineStyles = [];
  const markup = text
    .replace(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi, (_, css) => {
      inlineStyles.push(css);
      return '';
    })
    .replace(/<[^>]*>/g, (tag) => tag.replace(/(\s)style\s*=/gi, '$1data-style='));
  const doc = new DOMParser().parseFromString(markup, 'text/html');
  const stylesheets = [];
  for (const link of doc.querySelectorAll('link')) {
    const file = link.rel === 'stylesheet' ? resolve(path, link.getAttribute('href')) : null;
    if (file) stylesheets.push(file);
    link.remove();
  }
  for (const element of doc.querySelectorAll('style, script, img, iframe, object, embed, base, meta[http-equiv]')) {
    element.remove();
  }
  for (const link of doc.querySelectorAll('a[href]')) {
    const href = link.getAttribute('href');
    const target = resolve(path, href);
    if (target && target.endsWith('.html')) {
      link.setAttribute('href', `${location.pathname}#/runs/${api.enc(id)}/report/${target}`);
      link.setAttribute('target', '_top');
    } else if (!href.startsWith('#')) {
      link.removeAttribute('href');
    }
  }
  return { html: `<!doctype html>${doc.documentElement.outerHTML}`, stylesheets, inlineStyles };
}

export function ReportPage({ id, path }) {
  const frame = useRef(null);
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);
  const base = `/v1/tests/results/${api.enc(id)}/coverage/html/`;
  const fileUrl = (file) => base + file.split('/').map(api.enc).join('/');
  useEffect(() => {
    const controller = new AbortController();
    api.get(fileUrl(path), { signal: controller.signal })
      .then((text) => setPage(prepare(String(text), id, path)), (caught) => caught.name !== 'AbortError' && setError(caught));
    return () => controller.abort();
  }, [id, path]);
  const dress = async () => {
    const iframe = frame.current;
    const doc = iframe?.contentDocument;
    if (!doc || !page) return;
    for (const element of doc.querySelectorAll('[data-style]')) element.style.cssText = element.dataset.style;
    const texts = [];
    for (const file of page.stylesheets) {
      try {
        texts.push(String(await api.get(fileUrl(file))));
      } catch {
        // A missing stylesheet leaves the report readable, only plainer.
      }
    }
    const sheets = [...texts, ...page.inlineStyles].map((text) => {
      const sheet = new iframe.contentWindow.CSSStyleSheet();
      sheet.replaceSync(text);
      return sheet;
    });
    doc.adoptedStyleSheets = sheets;
    iframe.style.height = `${Math.max(doc.documentElement.scrollHeight + 24, 300)}px`;
  };
  return html`<section>
    <p class="crumbs"><a href=${`#/runs/${api.enc(id)}`}>run <code>${id}</code></a>${' › '}
      ${path !== 'index.html' && html`<a href=${`#/runs/${api.enc(id)}/report/index.html`}>report index</a> ›`}</p>
    <${PageTitle}>Coverage report: ${path}<//>
    <${ErrorBox} error=${error} />
    ${!page && !error && html`<${Loading} what="the report" />`}
    ${page && html`<iframe ref=${frame} class="report" title=${`Coverage report ${path}`}
      sandbox="allow-same-origin allow-top-navigation-by-user-activation" srcdoc=${page.html} onLoad=${dress}></iframe>`}
  </section>`;
}
