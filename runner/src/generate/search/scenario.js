'use strict';
// A scenario is what one generated test does: a few steps, each a call, a construction, a method
// call, a property read or a property write, with candidate inputs. Rendering turns it into source
// text once; the child process runs exactly that text and the test writer prints exactly that
// text, so what was observed is what the test does.
//
// Steps:
//   { op: 'call',   callee: 'bytes.format', args, params }
//   { op: 'new',    callee: 'Counter', args, params, bind: 'counter' }
//   { op: 'method', receiver: 'counter', name: 'add', args, params }
//   { op: 'get',    receiver: 'counter', name: 'total' }
//   { op: 'set',    receiver: 'counter', name: 'total', args: [value], params }
//   { op: 'invoke', receiver: 'fn', args, params }       calls a function an earlier step returned
//   { op: 'read',   callee: 'config' }                   the exported value itself
//   { op: 'assign', callee: 'kleur.enabled', args: [value], params }   sets a switch of the module's
//   { op: 'listen', callee: 'process', event: 'deprecation', args: [listener], params }
//                                                        listens for an event the module emits
//   { op: 'advance', ms }                                moves Jest's fake timers (all pending ones without ms)
//   { op: 'settle', receivers: ['pending', 'pending2'] } awaits calls left in flight (settleOrder)
// Any step may `bind` its result to a name that later steps use as their receiver; a bound
// event emitter may also have its events recorded (`recordEvents: true`). A step with `launch`
// (a call whose promise is bound, not awaited) leaves its call in flight: it and the steps after
// it up to a `settle` step run at once, with no wait between them, in the scenario as in the
// test (`const pending = limit(job); expect(limit.pendingCount).toBe(1);`).

const { toSource, isDeclaredInput } = require('./candidate');
const { memberAccess, isUsableBindingName, quoteString } = require('../writing/js-source');
const { TAKEN } = require('../analysis/bindings');

class NameScope {
  constructor(taken) {
    this.used = new Set([...TAKEN, ...taken]);
  }

  // The preferred name, else the first free alternative, else the preferred name numbered.
  claim(preferred, alternatives = []) {
    const base = isUsableBindingName(preferred) ? preferred : 'value';
    const free = alternatives.find((alternative) => isUsableBindingName(alternative) && !this.used.has(alternative));
    if (this.used.has(base) && free) {
      this.used.add(free);
      return free;
    }
    let name = base;
    for (let i = 2; this.used.has(name); i++) name = `${base}${i}`;
    this.used.add(name);
    return name;
  }
}

function argumentName(step, index) {
  const params = step.params || [];
  const param = params[Math.min(index, params.length - 1)];
  if (!param) return 'value';
  return param.rest ? `${param.name}Item` : param.name;
}

function stepExpression(step, receiver, args) {
  switch (step.op) {
    case 'call':
      return `${step.callee}(${args})`;
    case 'new':
      return `new ${step.callee}(${args})`;
    case 'method':
      return `${memberAccess(receiver, step.name)}(${args})`;
    case 'get':
      return memberAccess(receiver, step.name);
    case 'set':
      return `${memberAccess(receiver, step.name)} = ${args}`;
    case 'invoke':
      return `${receiver}(${args})`;
    case 'read':
      return step.callee;
    case 'assign':
      return `${step.callee} = ${args}`;
    case 'listen':
      return `${step.callee}.on(${quoteString(step.event)}, ${args})`;
    case 'advance':
      return step.ms === undefined ? 'jest.runOnlyPendingTimers()' : `jest.advanceTimersByTime(${step.ms})`;
    case 'settle':
      return `settleOrder([${receiver.join(', ')}])`;
    default:
      throw new Error(`unknown step ${step.op}`);
  }
}

// Returns { declarations, steps, tracked }:
//   declarations: [{ name, candidate, step, arg }] inputs declared as constants before their step
//     (once: a candidate passed again, the same object, is passed by the same name);
//   steps: [{ op, expression, bind, statement, records }];
//   tracked: [{ kind, name, step, arg? }] in the order the program tracks them: 'input' (a
//     declared input, before its step), 'state' (a step's bound result, after it: an instance
//     whose state later steps change) and 'events' (what a bound emitter emits from then on).
// `taken` lists names already in use in the test file (the module bindings). Arguments listed in
// `inline` (as 'step:arg') are written in place even when they would normally be declared; they
// are left out of `tracked`.
function renderScenario(scenario, taken, inline = new Set()) {
  const names = new NameScope(taken);
  const declarations = [];
  const tracked = [];
  const receivers = new Map(); // receiver name in the scenario -> name claimed in the test
  const shared = new Map(); // declared input (by identity) -> its name
  let inFlight = false; // a launched call not settled yet
  const steps = scenario.steps.map((step, stepIndex) => {
    const argSource = (candidate, index) => {
      if (!isDeclaredInput(candidate) || inline.has(`${stepIndex}:${index}`)) return toSource(candidate);
      // The same input passed again (`emitter.on('a', listener)` then `off('a', listener)`).
      if (shared.has(candidate)) return shared.get(candidate);
      const name = names.claim(argumentName(step, index));
      shared.set(candidate, name);
      declarations.push({ name, candidate, step: stepIndex, arg: index });
      tracked.push({ kind: 'input', name, step: stepIndex, arg: index });
      return name;
    };
    const args = (step.args || []).map(argSource).join(', ');
    const receiver =
      step.op === 'settle' ? step.receivers.map((name) => receivers.get(name)) : receivers.get(step.receiver);
    const rendered = { op: step.op, expression: stepExpression(step, receiver, args) };
    if (['set', 'advance', 'assign', 'listen'].includes(step.op)) rendered.statement = true;
    if (step.launch) inFlight = true;
    if (step.op === 'settle') inFlight = false;
    // Run at once, not awaited: a launch, and what follows it until the calls are settled.
    if (inFlight) rendered.now = true;
    if (step.launch) {
      // The promise is held for the settle step, not tracked: it is no state of the code's.
      rendered.launch = true;
      rendered.bind = names.claim(step.bind);
      receivers.set(step.bind, rendered.bind);
    } else if (step.bind) {
      // `const cart = new Cart()` in a file that names the module `cart` becomes `cartInstance`.
      rendered.bind = names.claim(step.bind, [`${step.bind}Instance`]);
      receivers.set(step.bind, rendered.bind);
      tracked.push({ kind: 'state', name: rendered.bind, step: stepIndex });
      if (step.recordEvents) {
        rendered.records = names.claim('events', [`${rendered.bind}Events`]);
        tracked.push({ kind: 'events', name: rendered.records, step: stepIndex });
      }
    }
    return rendered;
  });
  return { declarations, steps, tracked };
}

// The async function the child runs: `(async function (__vouch, ...bindings) { ... })`.
function programSource(rendered, bindingNames) {
  const lines = [];
  rendered.steps.forEach((step, index) => {
    for (const declaration of rendered.declarations.filter((d) => d.step === index)) {
      lines.push(`const ${declaration.name} = ${toSource(declaration.candidate)};`);
      lines.push(`__vouch.track(${JSON.stringify(declaration.name)}, ${declaration.name});`);
    }
    const thunk = step.statement ? `() => { ${step.expression}; }` : `() => ${step.expression}`;
    const call = step.launch
      ? `__vouch.launch(${index}, ${thunk});`
      : step.now
        ? `__vouch.stepNow(${index}, ${thunk});`
        : `await __vouch.step(${index}, ${thunk});`;
    // A step's value comes in a box (child/scenario-runner.js).
    const bound = step.launch || step.now ? call : `(${call.slice(0, -1)}).value;`;
    lines.push(step.bind ? `const ${step.bind} = ${bound}` : call);
    if (step.bind && !step.launch) lines.push(`__vouch.track(${JSON.stringify(step.bind)}, ${step.bind});`);
    if (step.records) {
      lines.push(`const ${step.records} = recordEvents(${step.bind});`);
      lines.push(`__vouch.track(${JSON.stringify(step.records)}, ${step.records});`);
    }
  });
  return `(async function (__vouch, ${bindingNames.join(', ')}) {\n${lines.join('\n')}\n})`;
}

module.exports = { renderScenario, programSource, NameScope };
