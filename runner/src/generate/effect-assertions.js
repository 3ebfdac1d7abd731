'use strict';
// Assertions about what a step did to the inputs the test declared: the calls each mock function
// received, and the new contents of an object or array the call modified.

const { valueSource, Unassertable } = require('./value-source');
const { memberAccess } = require('./js-source');

const INDENT = '    ';
const MAX_LITERAL_LINES = 40;

// `expect(subject).toEqual(literal)`, or a length check when the literal would be too long to read.
function equalityLine(subject, desc) {
  const literal = valueSource(desc, INDENT);
  if (literal.split('\n').length <= MAX_LITERAL_LINES) return `expect(${subject}).toEqual(${literal});`;
  if (desc.t === 'array') return `expect(${subject}).toHaveLength(${desc.items.length});`;
  return null;
}

function sameDescription(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function mockAssertions(name, mocks) {
  const lines = [];
  for (const { path, calls } of mocks) {
    const subject = path.reduce((source, key) => memberAccess(source, key), name);
    if (calls.t === 'array' && !calls.items.length) {
      // A callback that was not called says as much about the code as one that was.
      if (!path.length) lines.push(`expect(${subject}).not.toHaveBeenCalled();`);
      continue;
    }
    try {
      const line = equalityLine(`${subject}.mock.calls`, calls);
      if (line) lines.push(line);
    } catch (error) {
      if (!(error instanceof Unassertable)) throw error;
    }
  }
  return lines;
}

// Which declarations a step left unchanged and whose mocks it never called, so the test can
// write them inline instead of as named constants.
function untouchedDeclarations(effectsPerStep) {
  const untouched = new Set();
  const last = effectsPerStep[effectsPerStep.length - 1] || [];
  last.forEach((effect, index) => {
    const changed = effectsPerStep.some((effects) => effects[index] && !sameDescription(effects[index].after, effects[index].before));
    if (!changed && !effect.mocks.length) untouched.add(index);
  });
  return untouched;
}

// Lines after step `stepIndex`: mock calls made and changes since the previous step.
function effectAssertions(effectsPerStep, stepIndex, declaredNames) {
  const lines = [];
  const effects = effectsPerStep[stepIndex] || [];
  effects.forEach((effect, index) => {
    const name = declaredNames[index];
    if (!name) return;
    const previous = stepIndex > 0 && effectsPerStep[stepIndex - 1][index] ? effectsPerStep[stepIndex - 1][index].after : effect.before;
    if (!sameDescription(effect.after, previous) && effect.after.t !== 'function') {
      try {
        const line = equalityLine(name, effect.after);
        if (line) lines.push(line);
      } catch (error) {
        if (!(error instanceof Unassertable)) throw error;
      }
    }
    const isLastMockCheck = stepIndex === effectsPerStep.length - 1;
    if (isLastMockCheck) lines.push(...mockAssertions(name, effect.mocks));
  });
  return lines;
}

module.exports = { effectAssertions, untouchedDeclarations };
