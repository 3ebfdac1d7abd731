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

// The text of an instrumented function as the other environment shows it: without the counters,
// between comments. A plain run's text differs from the instrumented one anywhere, from its first
// characters on (Babel prints `function (a)`, the source may say `function(a)`), so the two runs
// share no prefix or suffix either, and a string read from it is asserted by type only (lodash's
// `_.delay.toString()` was asserted by its first and last characters and failed a plain Jest run).
function otherText(source) {
  return `/* another run's text */ ${source.replace(COUNTER_EXPRESSION, '')} /* another run's text */`;
}

module.exports = { functionSource, otherText, originalToString };
