'use strict';
// Assertions about what a step did to the values a test tracks: the calls each mock function it
// declared received, the new contents of an object or array the call modified, the events an
// emitter emitted, and the state of the instance the steps work on.

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
    const changed = effectsPerStep.some(
      (effects) => effects[index] && !sameDescription(effects[index].after, effects[index].before),
    );
    if (!changed && !effect.mocks.length) untouched.add(index);
  });
  return untouched;
}

// The steps after which a tracked instance's state is asserted: steps that return nothing
// (`cache.set(…)`: their effect is the state) when they changed it, and the last step unless the
// state asserted last is still the same.
function stateCheckSteps(effectsPerStep, outcomes, index) {
  const steps = new Set();
  let asserted = null;
  let previous = null;
  effectsPerStep.forEach((effects, step) => {
    const effect = effects[index];
    if (!effect) return;
    if (previous === null) previous = JSON.stringify(effect.before);
    const outcome = outcomes[step];
    const voidStep = outcome && outcome.kind === 'return' && outcome.value.t === 'undefined';
    const description = JSON.stringify(effect.after);
    const changed = description !== previous;
    previous = description;
    if ((voidStep && changed) || (step === effectsPerStep.length - 1 && description !== asserted)) {
      steps.add(step);
      asserted = description;
    }
  });
  return steps;
}

// Node's EventEmitter bookkeeping (an instance with its kCapture symbol property), not the
// module's state.
const EMITTER_FIELDS = new Set(['_events', '_eventsCount', '_maxListeners']);

// `expect(instance).toEqual({…})` for the state of an instance, or nothing when it shows none.
function stateAssertion(name, desc) {
  if (desc.t !== 'object') return [];
  const state = desc.symbols ? { ...desc, entries: desc.entries.filter(([key]) => !EMITTER_FIELDS.has(key)) } : desc;
  // An object of closures shows no state: its methods are all there is.
  if (state.entries.every(([, value]) => value.t === 'function')) return [];
  try {
    const line = equalityLine(name, state);
    return line ? [line] : [];
  } catch (error) {
    if (!(error instanceof Unassertable)) throw error;
    return [];
  }
}

// Lines after step `stepIndex`: mock calls made and changes since the previous step to the inputs
// the test declared, events recorded, and the state of instances the steps work on.
// trackedNames: per tracked value (see scenario.js), { kind, name } or null when not declared.
function effectAssertions(effectsPerStep, stepIndex, trackedNames, outcomes) {
  const lines = [];
  const effects = effectsPerStep[stepIndex] || [];
  effects.forEach((effect, index) => {
    const tracked = trackedNames[index];
    if (!tracked) return;
    const { name } = tracked;
    if (tracked.kind === 'state') {
      if (stateCheckSteps(effectsPerStep, outcomes, index).has(stepIndex))
        lines.push(...stateAssertion(name, effect.after));
      return;
    }
    const previous =
      stepIndex > 0 && effectsPerStep[stepIndex - 1][index]
        ? effectsPerStep[stepIndex - 1][index].after
        : effect.before;
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

module.exports = { effectAssertions, untouchedDeclarations, stateAssertion };
