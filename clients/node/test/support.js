'use strict';
// What the tests share: the live server (VOUCH_URL, VOUCH_ADMIN_KEY, set by
// scripts/test_clients.sh), fresh accounts, a webhook receiver, and a server that drops every
// request (network failures).
const http = require('node:http');
const net = require('node:net');
const { randomBytes } = require('node:crypto');
const { Vouch } = require('..');

const BASE_URL = process.env.VOUCH_URL;
const ADMIN_KEY = process.env.VOUCH_ADMIN_KEY;
if (!BASE_URL || !ADMIN_KEY) throw new Error('set VOUCH_URL and VOUCH_ADMIN_KEY (scripts/test_clients.sh does)');

const ALL_SCOPES = [
  'projects:read',
  'projects:write',
  'tests:read',
  'tests:write',
  'webhooks:read',
  'webhooks:write',
  'events:read',
];

const MODULE = `
exports.abs = (n) => (n < 0 ? -n : n);
exports.clamp = function clamp(x, lo, hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
};
`;

const admin = () => new Vouch({ baseUrl: BASE_URL, apiKey: ADMIN_KEY });

/** A client with the key of a new account, so that each test sees only its own records. */
async function freshAccount({ plan = 'enterprise', scopes = ALL_SCOPES, ...options } = {}) {
  const key = await admin().keys.create({ account: `node-${randomBytes(6).toString('hex')}`, plan, scopes });
  return new Vouch({ baseUrl: BASE_URL, apiKey: key.key, ...options });
}

/** Answers 200 and keeps every request's headers and raw body. */
async function startReceiver() {
  const requests = [];
  const waiters = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      res.end();
      for (const waiter of waiters) waiter();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    requests,
    /** The first request whose parsed body satisfies `predicate`. */
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.find((r) => {
            try {
              return predicate(JSON.parse(r.body.toString('utf8')), r);
            } catch {
              return false;
            }
          });
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching delivery within ${timeoutMs} ms; got ${requests.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Accepts connections, reads each request's head, closes without answering. */
async function startDroppingServer() {
  const heads = [];
  const server = net.createServer((socket) => {
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (data.includes('\r\n\r\n')) {
        heads.push(data.slice(0, data.indexOf('\r\n\r\n')));
        socket.destroy();
      }
    });
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    heads,
    headerValues(name) {
      return heads.flatMap((head) =>
        head
          .split('\r\n')
          .slice(1)
          .map((line) => [
            line.slice(0, line.indexOf(':')).trim().toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ])
          .filter(([key]) => key === name.toLowerCase())
          .map(([, value]) => value),
      );
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function collect(iterable) {
  const out = [];
  for await (const item of iterable) out.push(item);
  return out;
}

module.exports = { BASE_URL, ADMIN_KEY, MODULE, admin, freshAccount, startReceiver, startDroppingServer, collect };
