'use strict';
// A function's source text as V8 gives it (Function.prototype.toString), read through the original
// method even while the other environment (other-environment.js) has replaced it. Generation reads
// its own facts from it: which functions carry istanbul's counters, which are classes.

const originalToString = Function.prototype.toString;

function functionSource(fn) {
  return originalToString.call(fn);
}

// istanbul's counter expressions, as instrumentation puts them in the code under test:
// `cov_1xqe64bgy0().s[11]++;`, `(cov_….b[2][0]++, value)`, `cov_….f[3]++;`.
const COUNTER_EXPRESSION = /\bcov_\w+\(\)\.[sfb]\[\d+\](?:\[\d+\])?\+\+[;,]?\s*/g;

// The text of an instrumented function with its counters taken out: the length and the text
// differ from the instrumented one, as they do in a plain run without coverage.
function withoutCounters(source) {
  return source.replace(COUNTER_EXPRESSION, '');
}

module.exports = { functionSource, withoutCounters, originalToString };
