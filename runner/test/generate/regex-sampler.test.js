'use strict';
// The regex sampler produces strings each alternative of a regex accepts, and strings it rejects.

const test = require('node:test');
const assert = require('node:assert/strict');
const { sampleRegex } = require('../../src/generate/analysis/regex-sampler');

test('produces a matching string for every alternative', () => {
  const { matching } = sampleRegex('^(\\d+) *(ms|s|m|h)$', '');
  for (const unit of ['ms', 's', 'm', 'h']) {
    assert.ok(
      matching.some((text) => new RegExp(`^\\d+ *${unit}$`).test(text)),
      `a sample ends in ${unit}`,
    );
  }
});

test('produces every member of a small character class and non-matching strings', () => {
  const { matching, nonMatching } = sampleRegex('["\'&<>]', '');
  assert.deepEqual(matching.sort(), ['"', '&', "'", '<', '>']);
  assert.ok(nonMatching.length > 0);
  for (const text of nonMatching) assert.ok(!/["'&<>]/.test(text));
});

test('handles classes, negation, quantifiers, groups and backreferences', () => {
  for (const pattern of [
    '^-[^-]+$',
    '^[a-f0-9]{8}$',
    '^(?:x|y){2,3}z?$',
    '^(a+)-\\1$',
    '^\\w+@\\w+\\.com$',
    '^\\u0041\\x42$',
  ]) {
    const { matching } = sampleRegex(pattern, '');
    assert.ok(matching.length > 0, `samples for ${pattern}`);
    for (const text of matching) assert.match(text, new RegExp(pattern));
  }
});

test('returns nothing for a pattern it cannot parse', () => {
  assert.deepEqual(sampleRegex('(', ''), { matching: [], nonMatching: [] });
});
