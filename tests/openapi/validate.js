#!/usr/bin/env node
// Checks every exchange the integration tests recorded (VOUCH_EXCHANGE_LOG, one JSON line per
// exchange: tests/integration/http_client.cpp for vouchd's answers, tests/webhooks/receiver.js
// for webhook deliveries) against docs/openapi.json, with Ajv in JSON Schema 2020-12 mode.
//
//   node validate.js [--spec FILE] [--log FILE] [--rate-limited]
//
// An API answer is matched to its operation the way vouchd routes (literal path segments before
// templated ones; a path without the method is a 405; no path at all is a 404), then to the
// response of its status (or "4XX", or "default"); its content type, body and headers must match
// that response: required headers present, every documented header valid, whole numbers written
// as integers ("80", never "8E1" or "80.0"). A webhook body is
// matched by its `type` to `webhooks[type].post`, its headers to that operation's header
// parameters. Exits 1 naming the test, the request and the schema error of each mismatch; also
// when the log is missing or empty, so that a broken recorder cannot pass.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020');
const addFormats = require('ajv-formats');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const specPath = option('--spec', path.join(__dirname, '../../docs/openapi.json'));
const logPath = option('--log', process.env.VOUCH_EXCHANGE_LOG);
// The tests' vouchd runs with rate limits: the X-RateLimit-* headers a response documents (they
// are optional in the document, for servers started with --no-rate-limits) must then be there.
// An exchange recorded with "rateLimits": false was answered by a vouchd started with
// --no-rate-limits: it must carry none of them.
const rateLimited = args.includes('--rate-limited');

const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
const SPEC_ID = 'https://vouch.dev/openapi.json';
// OpenAPI keywords that are not JSON Schema's (discriminator, example) are annotations here.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv);
ajv.addSchema({ $id: SPEC_ID, components: spec.components });
// Every component schema must compile: a broken schema fails here, not silently later.
for (const name of Object.keys(spec.components.schemas)) ajv.getSchema(`${SPEC_ID}#/components/schemas/${name}`);

// A schema of the document, with its local $refs made absolute.
const compiled = new Map();
function validatorFor(schema) {
  const key = JSON.stringify(schema);
  if (!compiled.has(key)) {
    const absolute = JSON.parse(key.replaceAll('"$ref":"#/', `"$ref":"${SPEC_ID}#/`));
    compiled.set(key, ajv.compile(absolute));
  }
  return compiled.get(key);
}

function resolve(object) {
  if (!object || !object.$ref) return object;
  const parts = object.$ref.replace(/^#\//, '').split('/').map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  return resolve(parts.reduce((node, part) => node[part], spec));
}

function schemaErrors(schema, value) {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  return validate.errors.map((e) => `${e.instancePath || '/'} ${e.message} (${e.schemaPath}${e.params && e.params.additionalProperty ? `: ${e.params.additionalProperty}` : ''})`);
}

// Header values are text; integer and number schemas see them as numbers.
function headerValue(schema, text) {
  const type = resolve(schema).type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

function checkHeaders(declared, headers, errors, where, limited = rateLimited) {
  for (const [name, raw] of Object.entries(declared || {})) {
    const header = resolve(raw);
    const value = headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required || (limited && name.startsWith('X-RateLimit-'))) {
        errors.push(`${where}: required header ${name} is missing`);
      }
      continue;
    }
    for (const error of schemaErrors(header.schema, headerValue(header.schema, value))) {
      errors.push(`${where}: header ${name}: "${value}" ${error}`);
    }
  }
}

// Number tokens of a JSON text written in exponent form or with a fractional part of zeros
// ("8E1", "80.0"): the API writes whole numbers as integers, which parsing cannot tell.
function wholeNumbersNotIntegers(text) {
  const found = [];
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const token = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64))[0];
      if (Number.isInteger(Number(token)) && /[.eE]/.test(token)) found.push(token);
      i += token.length - 1;
    }
  }
  return found;
}

function checkBody(content, contentType, body, errors) {
  if (!content) {
    if (body !== '') errors.push(`a body was sent where the document declares none: ${body.slice(0, 200)}`);
    return;
  }
  const media = (contentType || '').split(';')[0].trim().toLowerCase();
  const entry = content[media];
  if (!entry) {
    errors.push(`content type "${contentType}" is not one of ${Object.keys(content).join(', ')}`);
    return;
  }
  let value = body;
  if (media.endsWith('json')) {
    try {
      value = JSON.parse(body);
    } catch (error) {
      errors.push(`the ${media} body is not JSON: ${error.message}`);
      return;
    }
    const notIntegers = wholeNumbersNotIntegers(body);
    if (notIntegers.length) errors.push(`whole numbers must be JSON integers: ${notIntegers.join(', ')}`);
  }
  if (entry.schema) errors.push(...schemaErrors(entry.schema, value));
}

// A path parameter marked `x-rest-of-path` takes the rest of the path, slashes included, as
// vouchd's "{name*}" routes do; any other takes one segment.
const templates = Object.keys(spec.paths).map((template) => {
  const segments = template.split('/');
  const rest = new Set((spec.paths[template].parameters || []).map(resolve).filter((p) => p['x-rest-of-path']).map((p) => `{${p.name}}`));
  const pattern = segments.map((s) => {
    if (rest.has(s)) return '[^/]+(?:/[^/]+)*';
    return /^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  }).join('/');
  return { template, regex: new RegExp(`^${pattern}$`), literals: segments.filter((s) => !/^\{.+\}$/.test(s)).length };
});

function responseFor(operation, status) {
  const responses = operation.responses;
  return resolve(responses[String(status)] || responses[`${String(status)[0]}XX`] || responses.default);
}

function checkApi(record) {
  const errors = [];
  const pathOnly = record.target.split('?')[0];
  const candidates = templates.filter((t) => t.regex.test(pathOnly)).sort((a, b) => b.literals - a.literals);
  const method = record.method.toLowerCase();
  const match = candidates.find((t) => spec.paths[t.template][method]);
  let response;
  let label;
  if (!match) {
    // No operation: vouchd answers 404 (no such path) or 405 (another method) as a problem.
    const expected = candidates.length ? 405 : 404;
    label = `(no operation: ${expected})`;
    if (record.status !== expected) errors.push(`expected ${expected} for a request no operation describes, got ${record.status}`);
    // Routing answers before authentication: a problem with X-Request-Id, no rate-limit headers.
    const problem = resolve({ $ref: expected === 405 ? '#/components/responses/MethodNotAllowed' : '#/components/responses/NotFound' });
    const headers = Object.fromEntries(Object.entries(problem.headers).filter(([name]) => !name.startsWith('X-RateLimit-')));
    response = { content: problem.content, headers };
  } else {
    const operation = spec.paths[match.template][method];
    label = `${operation.operationId} ${match.template}`;
    response = responseFor(operation, record.status);
    if (!response) errors.push(`status ${record.status} is not documented for ${operation.operationId}`);
  }
  if (response) {
    checkBody(response.content, record.headers['content-type'], record.body, errors);
    const limitsOff = record.rateLimits === false;
    checkHeaders(response.headers, record.headers, errors, 'headers', rateLimited && !limitsOff);
    if (limitsOff) {
      for (const name of Object.keys(record.headers).filter((name) => name.startsWith('x-ratelimit-'))) {
        errors.push(`headers: ${name} sent by a server started with --no-rate-limits`);
      }
    }
  }
  return { label, errors };
}

function checkWebhook(record) {
  const errors = [];
  let body;
  try {
    body = JSON.parse(record.body);
  } catch (error) {
    return { label: 'webhook', errors: [`the body is not JSON: ${error.message}`] };
  }
  const entry = spec.webhooks[body.type];
  if (!entry || !entry.post) return { label: 'webhook', errors: [`no webhook in the document for type "${body.type}"`] };
  const operation = entry.post;
  checkBody(operation.requestBody.content, record.headers['content-type'], record.body, errors);
  const declared = {};
  for (const parameter of (operation.parameters || []).map(resolve)) {
    if (parameter.in === 'header') declared[parameter.name] = parameter;
  }
  checkHeaders(declared, record.headers, errors, 'headers');
  return { label: `webhook ${body.type} (${operation.operationId})`, errors };
}

function main() {
  if (!logPath || !fs.existsSync(logPath)) {
    console.error(`validate: no exchange log at ${logPath || '(VOUCH_EXCHANGE_LOG unset)'}; run the integration tests with VOUCH_EXCHANGE_LOG set`);
    return 1;
  }
  const lines = fs.readFileSync(logPath, 'utf8').split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) {
    console.error(`validate: ${logPath} holds no exchange`);
    return 1;
  }
  const failures = [];
  const covered = new Set();
  const counts = { api: 0, webhook: 0 };
  for (const [index, line] of lines.entries()) {
    let record;
    try {
      record = JSON.parse(line);
    } catch (error) {
      failures.push(`line ${index + 1}: not JSON (${error.message})`);
      continue;
    }
    counts[record.source] = (counts[record.source] || 0) + 1;
    const { label, errors } = record.source === 'webhook' ? checkWebhook(record) : checkApi(record);
    covered.add(label);
    if (errors.length === 0) continue;
    const request = record.source === 'webhook' ? `delivery to ${record.path}` : `${record.method} ${record.target} → ${record.status}`;
    failures.push(`${record.test}: ${request} [${label}]\n    ${errors.join('\n    ')}\n    body: ${String(record.body).slice(0, 300)}`);
  }
  const operations = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method !== 'parameters' && !covered.has(`${operation.operationId} ${template}`)) operations.push(`${method.toUpperCase()} ${template}`);
    }
  }
  console.log(`validate: ${counts.api} API answers and ${counts.webhook} webhook deliveries checked against ${path.relative(process.cwd(), specPath)}`);
  if (operations.length) console.log(`validate: operations no test exercised: ${operations.join(', ')}`);
  if (failures.length === 0) return 0;
  console.error(`validate: ${failures.length} exchanges do not match the document:`);
  for (const failure of failures.slice(0, 50)) console.error(`  ${failure}`);
  if (failures.length > 50) console.error(`  … and ${failures.length - 50} more`);
  return 1;
}

process.exitCode = main();
