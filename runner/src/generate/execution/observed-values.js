'use strict';
// Values seen at run time, shared by every module of a job: data the modules export (status
// codes, unit names, strings matching exported regexes) and what calls returned. One module's
// output is often another's input (`parse(format(x))`), so all of them draw on the same store.

const { fromValue } = require('../search/candidate');
const { sampleRegex } = require('../analysis/regex-sampler');

const MAX_OBSERVED = 300;

class ObservedValues {
  constructor() {
    this.candidates = [];
    this.sources = new Set();
  }

  // Numbers with long fractions (-3960000.0000000005) make unreadable tests and are left out.
  add(value) {
    if (typeof value === 'number' && !Number.isInteger(value * 1000)) return;
    const candidate = fromValue(value);
    if (!candidate || candidate.type === 'undefined' || this.candidates.length >= MAX_OBSERVED) return;
    if (this.sources.has(candidate.source)) return;
    this.sources.add(candidate.source);
    this.candidates.push(candidate);
  }

  // A sample from a module's exports: a plain value, or { regex: { pattern, flags } }.
  addSample(sample) {
    if (sample && typeof sample === 'object' && sample.regex) {
      sampleRegex(sample.regex.pattern, sample.regex.flags)
        .matching.slice(0, 5)
        .forEach((text) => this.add(text));
    } else {
      this.add(sample);
    }
  }

  ofType(type) {
    return this.candidates.filter((candidate) => candidate.type === type);
  }
}

module.exports = { ObservedValues };
