#!/usr/bin/env node
// A webhook receiver for the integration tests and the benchmark. It records
// every delivery and verifies signatures independently of vouchd's code: the
// x-service HMAC with node:crypto, the Standard Webhooks signature with the
// `standardwebhooks` package.
//
//   node receiver.js [--cert FILE --key FILE] [--port PORT] [--quiet] [--test NAME]
// prints "listening on PORT control PORT" once ready. Behaviour per request, from the query:
//   status=N            answer N (default 200); with 3xx a Location is sent
//   failFirst=K         answer failStatus (default 503) to the first K attempts of each event
//   retryAfter=S        add Retry-After: S to failures
//   flaky=1             fail about half of the attempts (503), at most 3 times per event
//   delay=MS            wait before answering (delayFirst=1: only the first attempt of each event)
// Control: GET /_requests?name=NAME lists what /h/NAME received (not with --quiet);
//          GET /_stats?name=NAME gives {count, first, last, latencies} (ms from event creation);
//          POST /_reset?name=NAME forgets NAME's stats (between benchmark rounds);
//          POST /_verify {name, secrets: [...]} checks each request against each secret;
//          GET /_count gives the number of deliveries received.
// With VOUCH_EXCHANGE_LOG set, each delivery is appended to that file as one JSON line
// {source: "webhook", test: NAME, path, headers, body}: tests/openapi/validate.js checks
// every body and its headers against docs/openapi.json's webhooks.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const https = require('node:https');
const { Webhook } = require(path.join(__dirname, '../../runner/node_modules/standardwebhooks'));

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const quiet = args.includes('--quiet');
const exchangeLog = process.env.VOUCH_EXCHANGE_LOG;
const testName = option('--test') || '(unknown test)';

function logExchange(path, headers, body) {
  if (!exchangeLog) return;
  // One appendFileSync (O_APPEND) per line: lines of concurrent writers never interleave.
  fs.appendFileSync(exchangeLog, `${JSON.stringify({ source: 'webhook', test: testName, path, headers, body })}\n`);
}

const received = new Map();  // name → [{...}]
const attemptsByEvent = new Map();  // name + event id → count
let count = 0;

const stats = new Map();  // name → {count, first, last, latencies}: kept in --quiet mode too

function count_stats(name, receivedAt, body) {
  if (!stats.has(name)) stats.set(name, { count: 0, first: receivedAt, last: receivedAt, latencies: [] });
  const entry = stats.get(name);
  entry.count += 1;
  entry.last = receivedAt;
  try {
    // From the event's creation (stamped just before its append) to its arrival here.
    entry.latencies.push(receivedAt - Date.parse(JSON.parse(body).created));
  } catch (_) { /* not a delivery body: the wrk baseline */ }
}

function record(name, entry) {
  count_stats(name, entry.receivedAt, entry.body);
  if (quiet) return;
  if (!received.has(name)) received.set(name, []);
  received.get(name).push(entry);
}

function serviceSignature(secret, timestamp, body) {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

function verify(entry, secret) {
  const headers = entry.headers;
  const expected = serviceSignature(secret, headers['x-service-timestamp'], entry.body);
  let standard = false;
  try {
    new Webhook(secret).verify(entry.body, {
      'webhook-id': headers['webhook-id'],
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
    });
    standard = true;
  } catch (_) {
    standard = false;
  }
  return {
    service: headers['x-service-signature'] === expected,
    servicePrevious: headers['x-service-signature-previous'] === expected,
    standard,
  };
}

function reply(res, status, headers, body) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function handleDelivery(req, res, url, body) {
  const name = url.pathname.slice('/h/'.length);
  const q = url.searchParams;
  const eventId = req.headers['webhook-id'] || '';
  const key = `${name}\u0000${eventId}`;
  const attempt = (attemptsByEvent.get(key) || 0) + 1;
  attemptsByEvent.set(key, attempt);
  count += 1;

  let status = Number(q.get('status') || 200);
  const failStatus = Number(q.get('failStatus') || 503);
  if (q.has('failFirst') && attempt <= Number(q.get('failFirst'))) status = failStatus;
  if (q.get('flaky') === '1' && attempt <= 3 && Math.random() < 0.5) status = 503;
  const headers = {};
  if (status >= 300 && status < 400) headers.location = `/h/${name}-redirected`;
  if (status >= 400 && q.has('retryAfter')) headers['retry-after'] = q.get('retryAfter');

  let delay = Number(q.get('delay') || 0);
  if (q.get('delayFirst') === '1' && attempt > 1) delay = 0;
  const entry = {
    receivedAt: Date.now(),
    headers: req.headers,
    body,
    eventId,
    attempt,
    status,
  };
  record(name, entry);
  logExchange(url.pathname, req.headers, body);
  const answer = () => {
    entry.answeredAt = Date.now();
    reply(res, status, headers, status < 300 ? undefined : { error: 'test receiver' });
  };
  if (delay > 0) setTimeout(answer, delay);
  else answer();
}

function handle(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url, 'http://receiver');
    if (url.pathname.startsWith('/h/')) return handleDelivery(req, res, url, body);
    if (url.pathname === '/_requests') {
      return reply(res, 200, {}, received.get(url.searchParams.get('name')) || []);
    }
    if (url.pathname === '/_count') return reply(res, 200, {}, { count });
    if (url.pathname === '/_stats') {
      return reply(res, 200, {}, stats.get(url.searchParams.get('name')) || { count: 0, latencies: [] });
    }
    if (url.pathname === '/_reset' && req.method === 'POST') {
      stats.delete(url.searchParams.get('name'));
      return reply(res, 200, {}, {});
    }
    if (url.pathname === '/_verify') {
      const { name, secrets } = JSON.parse(body);
      const entries = received.get(name) || [];
      return reply(res, 200, {}, entries.map((entry) => ({
        eventId: entry.eventId,
        attempt: entry.attempt,
        checks: secrets.map((secret) => verify(entry, secret)),
      })));
    }
    reply(res, 404, {}, { error: 'no such path' });
  });
}

// With TLS, deliveries arrive over HTTPS and the control paths are also
// served over plain HTTP on a second port, for the tests' plain client.
const cert = option('--cert');
const server = cert
  ? https.createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(option('--key')) }, handle)
  : http.createServer(handle);
server.keepAliveTimeout = 30_000;
server.listen(Number(option('--port') || 0), '127.0.0.1', () => {
  if (!cert) {
    process.stdout.write(`listening on ${server.address().port} control ${server.address().port}\n`);
    return;
  }
  const control = http.createServer(handle);
  control.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening on ${server.address().port} control ${control.address().port}\n`);
  });
});
