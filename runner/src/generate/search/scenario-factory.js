'use strict';
// Makes scenarios for one target. Seeds come first, in a fixed order: one argument varied at a
// time over its seed inputs while the others keep their first seed (for classes: construct, then
// call each member). After the seeds, the search asks for random scenarios and for mutants of
// scenarios that reached new code, and for extensions of scenarios whose result can itself be
// called: a returned function is invoked, the methods of a returned object are called.

const { Hint } = require('../analysis/hint');
const { mutateCandidate } = require('./mutation');
const { atom, mockOf, toSource, arrayOf, objectOf } = require('./candidate');
const { grownRepeats } = require('../selection/mutant-inputs');

const EMPTY_HINT = new Hint();
const FULL_SWEEP_SEEDS = 8;
const MAX_RANDOM_OPS = 3;
const MAX_PAIR_SEEDS = 24;
const MAX_STEPS = 5;
const MAX_EXTENSIONS = 8;
const UNKNOWN_SLOTS = [0, 1].map((i) => ({
  name: i ? 'second' : 'value',
  hint: EMPTY_HINT,
  rest: false,
  optional: true,
}));
// Chance that a member call reuses an argument of an earlier step: `add('a')` then `remove('a')`.
const REUSE_CHANCE = 0.4;
// Methods that read state: called after a step that changed it (see observers()).
const OBSERVER_NAME =
  /^(get|is|has|to[A-Z]|toString$|value|valueOf$|size|count|length|peek|keys$|values$|entries$|list|all$|current|state|snapshot|dump)/i;
const MAX_OBSERVERS = 3;
// Methods that take state away or end it: called after the methods that put state in, so that
// `pop()` meets a pushed item, `delete(key)` a set key, `close()` an opened file.
const TAKER_NAME =
  /^(pop|shift|dequeue|take|remove|delete|del$|unset|evict|clear|reset|flush|drain|close|end$|destroy|dispose|stop|cancel|abort|off$|unsubscribe|unregister|unbind|unwatch|detach)/i;
// Parameter names that hold a function to call later.
const FUNCTION_NAME =
  /^(cb|callback|fn|func|handler|listener|hook|done|next|subscriber|observer|on[A-Z]\w*)$|(Callback|Handler|Listener|Fn)$/;
// Members in one whole-class sequence seed (construction not counted).
const MAX_SEQUENCE_STEPS = 7;
// Chance that a member call gets another instance of the class: `a.add(new Fraction(1, 3))`.
const INSTANCE_ARGUMENT_CHANCE = 0.15;
// Chance that a random scenario first flips a boolean switch of the module (`kleur.enabled`).
const FLAG_CHANCE = 0.2;
// How many values made by the module's own factories (`string()`) a parameter whose methods the
// code calls may try, and the chance a random scenario passes one.
const MAX_MADE_SEEDS = 3;
const MADE_ARGUMENT_CHANCE = 0.15;
const BOOLEAN_HINT = new Hint();
BOOLEAN_HINT.addType('boolean');
const BOOLEAN_SLOT = [{ name: 'value', hint: BOOLEAN_HINT, rest: false, optional: false }];
const STRING_HINT = new Hint();
STRING_HINT.addType('string');
const STRING_SLOT = [{ name: 'value', hint: STRING_HINT, rest: false, optional: false }];
const LISTENER_HINT = new Hint();
LISTENER_HINT.addType('function');
const LISTENER_SLOT = [{ name: 'listener', hint: LISTENER_HINT, rest: false, optional: false }];
// Steps that flip a switch (flagStep) before a scenario's calls.
const FLAG_OPS = new Set(['assign', 'listen']);
// Switches of a returned function flipped in follow-ups (switchesOf).
const MAX_SWITCHES = 3;

// Arguments for a function a call returned, made from the text that call was given: a factory
// that compiles a pattern or a template (`match('/:id')`, `compile('Hi {name}')`) returns a
// function that reads text of that syntax, or data keyed by the names the pattern holds. So the
// text itself (`match(s)(s)`: its own pattern matches it), an object giving each word of the
// text as its own value, and one giving each two of them (a name that repeats). Random text
// rarely matches a pattern, nor random keys its names.
const MAX_ROUND_TRIP_WORDS = 4;
// Scenarios of a target that reached nothing new whose returned function still gets them.
const MAX_ROUND_TRIP_SCENARIOS = 12;
function roundTripArguments(step) {
  // A text given where the code takes one (its parameter is a string), not a string drawn for a
  // callback or a value nothing is known about.
  const text = (step.args || []).find((arg, index) => {
    const slot = step.params && step.params[Math.min(index, step.params.length - 1)];
    const takesText = slot && slot.hint && slot.hint.types.has('string');
    return takesText && arg.kind === 'atom' && arg.type === 'string' && arg.value;
  });
  if (!text) return [];
  const words = [...new Set(text.value.match(/[A-Za-z_$][\w$]*/g) || [])].slice(0, MAX_ROUND_TRIP_WORDS);
  if (!words.length) return [[text]];
  const keyed = (valueOf) => objectOf(words.map((word) => [word, valueOf(word)]));
  return [[text], [keyed(atom.string)], [keyed((word) => arrayOf([atom.string(word), atom.string(word)]))]];
}

// Parameters as argument slots: a rest parameter stands for up to three arguments shaped like
// its elements; a function reading `arguments` gets three unknown slots.
function argumentSlots(params) {
  const slots = [];
  for (const param of params) {
    if (param.rest) {
      const element = param.hint.element || EMPTY_HINT;
      for (let i = 0; i < 3; i++) slots.push({ ...param, hint: element, optional: true });
    } else {
      slots.push({ ...param, optional: param.hasDefault });
    }
  }
  // Past the ones it names (`var file = args.shift()`), up to three in all.
  if (params.usesArguments && params.every((param) => param.fromArguments)) {
    for (let i = slots.length; i < 3; i++)
      slots.push({ name: `arg${i + 1}`, hint: EMPTY_HINT, rest: false, optional: true });
  }
  return slots;
}

function clone(scenario) {
  return {
    targetId: scenario.targetId,
    steps: scenario.steps.map((step) => ({ ...step, args: step.args ? [...step.args] : undefined })),
  };
}

// `const store = makeStore()`: a name for a returned value from the function that returned it.
function resultName(step, isFunction) {
  if (isFunction) return 'fn';
  const source = step.op === 'call' ? step.callee.split('.').pop() : step.op === 'method' ? step.name : '';
  const stripped = source.replace(/^(create|make|build|new|get|init|to)(?=[A-Z])/, '');
  return stripped ? stripped[0].toLowerCase() + stripped.slice(1) : 'value';
}

// Methods of a returned object (its own and, for a class instance, its prototype's), or of a
// returned function (`debounced.clear`).
function methodsOf(description) {
  if (description.t === 'function')
    return (description.members || []).filter((member) => member.kind === 'method').map((member) => member.name);
  const own = (description.entries || []).filter(([, member]) => member.t === 'function').map(([name]) => name);
  // A class instance's methods live on its prototype (see prototypeMethods in child/snapshot.js).
  return [...own, ...(description.methods || []).filter((name) => !own.includes(name))];
}

// The switches of a returned function, each with the value to set it to: an accessor with a
// setter (whose value reading would run code) to `true`, a boolean data member to the opposite
// of what it holds (`log.enabled = true` before `log('abc')`: a logger made disabled does nothing
// until it is switched on).
function switchesOf(description) {
  if (description.t !== 'function') return [];
  return (description.members || [])
    .filter((member) => (member.kind === 'getter' && member.settable) || member.kind === 'switch')
    .slice(0, MAX_SWITCHES)
    .map((member) => ({ name: member.name, value: member.kind === 'switch' ? !member.value : true }));
}

function gettersOf(description) {
  return description.t === 'function'
    ? (description.members || []).filter((member) => member.kind === 'getter').map((member) => member.name)
    : [];
}

// The items of `generators`, one of each in turn, until all are spent.
function* interleaved(generators) {
  let live = generators;
  while (live.length) {
    const next = [];
    for (const generator of live) {
      const { value, done } = generator.next();
      if (done) continue;
      next.push(generator);
      yield value;
    }
    live = next;
  }
}

// `items` started at a random one when `perItem` follow-ups of each would not all fit in `room`,
// so that across extensions every item comes first in some.
function rotated(items, room, rng, perItem = 1) {
  if (items.length * perItem <= room) return items;
  const start = rng.int(items.length);
  return [...items.slice(start), ...items.slice(0, start)];
}

// Whether two candidates are atoms of one type (a key reused by a later call must fit there).
function sameKind(a, b) {
  return a && b && a.kind === 'atom' && b.kind === 'atom' && a.type === b.type;
}

function receiverName(className) {
  const base = className.replace(/^[^A-Za-z_$]+/, '') || 'instance';
  return base[0].toLowerCase() + base.slice(1);
}

// A parameter whose methods the code calls (`struct.refiner(value)`) is an object with behaviour,
// which a plain object of mocks only imitates: the module's own values fit it better.
function takesMadeValue(hint) {
  return [...hint.props.values()].some((prop) => prop.types.has('function'));
}

// Zero-parameter functions of a module (`string()`, `any()` of a schema library) as the calls
// that make its values, for takesMadeValue parameters of its other functions
// (`size(string(), 1)`), the shallowest first.
function makerCalls(targets) {
  return targets
    .filter((target) => target.kind === 'function' && !target.params.length && !target.params.usesArguments)
    .filter((target) => !target.async && !target.generator)
    .sort((a, b) => a.callee.split('.').length - b.callee.split('.').length)
    .map((target) => target.callee);
}

class ScenarioFactory {
  // makers: makerCalls of the target's module.
  // growing: the constants of a module that keeps state between calls (growingConstants), for
  // grownSeeds; [] otherwise.
  constructor(target, pool, rng, makers = [], growing = []) {
    this.target = target;
    this.growing = growing;
    this.pool = pool;
    this.rng = rng;
    this.slots = argumentSlots(target.params);
    this.made = makers
      .filter((callee) => callee !== target.callee)
      .slice(0, MAX_MADE_SEEDS)
      .map((callee) => atom.expression('made', `${callee}()`));
    this.seedLists = this.slots.map((slot) => this.withMade(slot.hint, pool.seeds(slot.hint)));
    this.receiver = target.kind === 'class' ? receiverName(target.callee.split('.').pop()) : null;
    this.members = (target.members || []).map((member) => ({ ...member, slots: argumentSlots(member.params) }));
    this.roundTripsLeft = MAX_ROUND_TRIP_SCENARIOS;
  }

  scenario(steps) {
    return { targetId: this.target.id, steps };
  }

  // Seeds with the module's made values first, for a parameter that takes one: the other
  // arguments are varied around a real value, and the calls that follow use it.
  withMade(hint, seeds) {
    if (!this.made.length || !takesMadeValue(hint)) return seeds;
    return [...this.made, ...seeds];
  }

  // `kleur.enabled = true`: a switch of the module set to `value` before the calls; for an event
  // the module emits on the process, a listener for it (`process.on('deprecation', listener)`).
  flagStep(flag, value) {
    if (flag.event)
      return { op: 'listen', callee: flag.callee, event: flag.event, args: [mockOf()], params: LISTENER_SLOT };
    if (typeof value === 'string')
      return { op: 'assign', callee: flag.callee, args: [atom.string(value)], params: STRING_SLOT };
    return { op: 'assign', callee: flag.callee, args: [atom.boolean(value)], params: BOOLEAN_SLOT };
  }

  // The steps that flip a switch: a boolean to the opposite of what it holds, an environment
  // variable to each of its values to try (analysis/process-switches.js).
  flagSteps(flag) {
    return (flag.values || [!flag.value]).map((value) => this.flagStep(flag, value));
  }

  // A random scenario, sometimes after one switch of the module was flipped.
  withRandomFlag(scenario) {
    const flags = this.target.flags || [];
    if (!flags.length || !this.rng.chance(FLAG_CHANCE)) return scenario;
    const flag = this.rng.pick(flags);
    return this.scenario([this.rng.pick(this.flagSteps(flag)), ...scenario.steps]);
  }

  // First seeds for every slot up to the last required one.
  firstArgs(slots, seedLists) {
    let count = 0;
    slots.forEach((slot, index) => {
      if (!slot.optional) count = index + 1;
    });
    return seedLists.slice(0, count).map((list) => list[0]);
  }

  // Seed argument lists for a parameter list: the first seeds, then each slot varied alone.
  *argumentSweeps(slots, seedLists) {
    if (!slots.length) {
      yield [];
      return;
    }
    const base = seedLists.map((list) => list[0]);
    yield this.firstArgs(slots, seedLists);
    for (let index = 0; index < slots.length; index++) {
      for (const candidate of seedLists[index]) {
        // Varying slot i passes the arguments up to i: `ms(60000)` reads better than
        // `ms(60000, undefined)` and is what callers write.
        const args = [...base.slice(0, index), candidate];
        yield args;
      }
    }
    for (let index = 0; index < slots.length - 1; index++) {
      for (const candidate of seedLists[index].slice(1, FULL_SWEEP_SEEDS)) {
        const args = [...base];
        args[index] = candidate;
        yield args;
      }
    }
  }

  constructStep(args) {
    const step = { op: 'new', callee: this.target.callee, args, params: this.slots, bind: this.receiver };
    return this.target.emitter ? { ...step, recordEvents: true } : step;
  }

  // Another instance of the class, as an argument of its methods (`a.equals(b)`); `args` are
  // the constructor's, by default each slot's second seed (the receiver gets the first).
  instanceArgument(args = this.slots.map((slot, i) => this.seedLists[i][1] || this.seedLists[i][0])) {
    const required = this.firstArgs(this.slots, this.seedLists).length;
    return atom.expression(
      'instance',
      `new ${this.target.callee}(${args
        .slice(0, Math.max(required, 1))
        .map((arg) => toSource(arg))
        .join(', ')})`,
    );
  }

  memberStep(member, args) {
    const base = { receiver: this.receiver, name: member.name };
    if (member.kind === 'getter') return { op: 'get', ...base };
    if (member.kind === 'setter') return { op: 'set', ...base, args: [args[0]], params: member.slots };
    return { op: 'method', ...base, args, params: member.slots };
  }

  *seeds() {
    if (this.target.kind === 'value') {
      yield this.scenario([{ op: 'read', callee: this.target.callee }]);
      return;
    }
    if (this.target.kind === 'function') {
      for (const args of this.argumentSweeps(this.slots, this.seedLists)) {
        yield this.scenario([{ op: 'call', callee: this.target.callee, args, params: this.slots }]);
      }
      yield* this.grownSeeds();
      for (const flag of this.target.flags || []) {
        const call = {
          op: 'call',
          callee: this.target.callee,
          args: this.firstArgs(this.slots, this.seedLists),
          params: this.slots,
        };
        for (const step of this.flagSteps(flag)) yield this.scenario([step, call]);
      }
      return;
    }
    const construct = this.constructStep(this.firstArgs(this.slots, this.seedLists));
    // The constructor's sweeps, the sequences and each member's sweeps take turns: in a search
    // cut short (semver's SemVer shared 4 s with four other modules), the last member's seeds
    // (`inc('preminor')`, `inc('patch')`…) came after hundreds of others and never ran.
    yield* interleaved([
      (function* sweeps(factory) {
        for (const args of factory.argumentSweeps(factory.slots, factory.seedLists))
          yield factory.scenario([factory.constructStep(args)]);
      })(this),
      this.sequenceSeeds(construct),
      this.pairSeeds(construct),
      ...this.members.map((member) => this.memberSeeds(member, construct)),
    ]);
  }

  // A member's seeds on an instance `construct` makes: its first arguments, then each varied.
  *memberSeeds(member, construct) {
    const seedLists = member.slots.map((slot, i) => [
      ...this.pool.seeds(slot.hint),
      ...(i === 0 && this.slots.length ? [this.instanceArgument()] : []),
    ]);
    const sweeps =
      member.kind === 'getter'
        ? [[]]
        : member.kind === 'setter'
          ? seedLists[0].map((value) => [value])
          : this.argumentSweeps(member.slots, seedLists);
    for (const args of sweeps) {
      const steps = [construct, this.memberStep(member, args)];
      const getter =
        member.kind === 'setter' && this.members.find((other) => other.kind === 'getter' && other.name === member.name);
      if (getter) steps.push(this.memberStep(getter, []));
      yield this.scenario(steps);
    }
  }

  // In a module that keeps state, the call made with 1 for a number parameter, then again with
  // the module's largest constant and one more (mutant-inputs.js grownRepeats): `random(1)` then
  // `random(128)` refills a pool that `random(1)` sized to 128 bytes, `random(129)` outgrows it.
  *grownSeeds() {
    if (!this.growing.length) return;
    const base = this.firstArgs(this.slots, this.seedLists);
    for (const [index, seeds] of this.seedLists.entries()) {
      if (!seeds.some((seed) => seed.kind === 'atom' && seed.type === 'number')) continue;
      const args = [...base.slice(0, index), atom.number(1)];
      const call = { op: 'call', callee: this.target.callee, args, params: this.slots };
      for (const steps of grownRepeats({ steps: [call] }, this.growing)) yield this.scenario(steps);
    }
  }

  // Sequences that use the whole class: every method called on one instance, those that put state
  // in first, then those that read it, then those that take it away, getters last
  // (wholeSequence). Then each reader and taker alone after the writers, so each can complete on
  // a state it expects (`pop()` after `push(x)`) even where another member throws. A test that
  // calls a member only on an empty instance would leave its normal path untested; these seeds
  // reach it first.
  *sequenceSeeds(construct) {
    const members = this.members.filter((member) => !member.static && member.kind !== 'class');
    const sequence = this.wholeSequence(members, (member, args) => this.memberStep(member, args));
    if (!sequence) return;
    yield this.scenario([construct, ...sequence.ordered.slice(0, MAX_SEQUENCE_STEPS).map(sequence.step)]);
    const writing = sequence.writers.slice(0, MAX_SEQUENCE_STEPS - 1).map(sequence.step);
    for (const member of sequence.rest) yield this.scenario([construct, ...writing, sequence.step(member)]);
  }

  // The members of one instance (or returned object) in the order that uses it whole, or null
  // when there is nothing to order (fewer than two members, or none that puts state in): writers
  // (methods with a required parameter and no reader or taker name, setters: `push(x)`,
  // `set(k, v)`, `open(path)`, `on(name, fn)`), then reader methods, then takers (`pop`,
  // `delete`, `close`, `off`), then getters. `step(member)` makes a member's step with its first
  // seeds, an argument passed again to every later parameter of the same name (`on(name,
  // callback)` then `off(name, callback)`: the same listener) and the first writer's first one to
  // every later first parameter of the same kind (`set('abc', 3)` then `get('abc')`); `rest`:
  // readers and takers. makeStep(member, args) builds the step.
  wholeSequence(members, makeStep) {
    if (members.length < 2) return null;
    const writers = members.filter(
      (member) =>
        (member.kind === 'method' &&
          member.slots.some((slot) => !slot.optional) &&
          !TAKER_NAME.test(member.name) &&
          !OBSERVER_NAME.test(member.name)) ||
        member.kind === 'setter',
    );
    if (!writers.length) return null;
    const takers = members.filter(
      (member) => member.kind === 'method' && !writers.includes(member) && TAKER_NAME.test(member.name),
    );
    const readers = members.filter(
      (member) => !writers.includes(member) && !takers.includes(member) && member.kind !== 'setter',
    );
    const ordered = [
      ...writers,
      ...readers.filter((member) => member.kind === 'method'),
      ...takers,
      ...readers.filter((member) => member.kind === 'getter'),
    ];
    const byName = new Map();
    let key = null;
    const step = (member) => {
      // A parameter named like a function (`handler`, `callback`) gets a mock first: the
      // sequence then shows it called (`emit` after `on`), where a number would only throw.
      const seedLists = member.slots.map((slot) => {
        const seeds = this.pool.seeds(slot.hint);
        const mock = FUNCTION_NAME.test(slot.name) && seeds.find((seed) => seed.kind === 'mock');
        return mock ? [mock, ...seeds] : seeds;
      });
      const args = member.kind === 'setter' ? [seedLists[0][0]] : this.firstArgs(member.slots, seedLists);
      args.forEach((arg, index) => {
        const name = member.slots[index].name;
        if (byName.has(name)) args[index] = byName.get(name);
        else if (index === 0 && key && member.kind !== 'setter' && sameKind(arg, key)) args[index] = key;
        else if (member.kind !== 'setter') byName.set(name, arg);
      });
      if (!key && member.kind !== 'setter' && args.length) key = args[0];
      return makeStep(member, args);
    };
    return { ordered, writers, rest: [...readers, ...takers], step };
  }

  // Two methods called with the same first argument: state written by one, read by the other.
  *pairSeeds(construct) {
    const methods = this.members.filter((member) => member.kind === 'method' && member.slots.length);
    let count = 0;
    for (const first of methods) {
      const args = this.firstArgs(
        first.slots,
        first.slots.map((slot) => this.pool.seeds(slot.hint)),
      );
      if (!args.length) continue;
      for (const second of methods) {
        if (second === first || count++ >= MAX_PAIR_SEEDS) continue;
        yield this.scenario([construct, this.memberStep(first, args), this.memberStep(second, [args[0]])]);
      }
    }
  }

  // Random arguments; `earlier` holds arguments of previous steps that may be passed again.
  randomArgs(slots, earlier = []) {
    const required = slots.filter((slot) => !slot.optional).length;
    const count = required + this.rng.int(slots.length - required + 1);
    return slots
      .slice(0, count)
      .map((slot) =>
        earlier.length && this.rng.chance(REUSE_CHANCE) ? this.rng.pick(earlier) : this.pool.random(slot.hint),
      );
  }

  randomMemberStep(previousSteps = []) {
    const member = this.rng.pick(this.members);
    const earlier = previousSteps.flatMap((step) => step.args || []).filter((arg) => arg.kind === 'atom');
    const args = this.randomArgs(member.slots, earlier);
    if (args.length && this.rng.chance(INSTANCE_ARGUMENT_CHANCE)) {
      args[this.rng.int(args.length)] = this.instanceArgument(this.randomArgs(this.slots));
    }
    return this.memberStep(member, args);
  }

  random() {
    if (this.target.kind === 'value') return this.scenario([{ op: 'read', callee: this.target.callee }]);
    if (this.target.kind === 'function') {
      const args = this.randomArgs(this.slots);
      const takers = args.map((_, index) => index).filter((index) => takesMadeValue(this.slots[index].hint));
      if (this.made.length && takers.length && this.rng.chance(MADE_ARGUMENT_CHANCE))
        args[this.rng.pick(takers)] = this.rng.pick(this.made);
      return this.withRandomFlag(this.scenario([{ op: 'call', callee: this.target.callee, args, params: this.slots }]));
    }
    const steps = [this.constructStep(this.randomArgs(this.slots))];
    if (this.members.length) {
      const count = 1 + this.rng.int(MAX_RANDOM_OPS);
      for (let i = 0; i < count; i++) steps.push(this.randomMemberStep(steps));
    }
    return this.withRandomFlag(this.scenario(steps));
  }

  // Parameter slots of a method of a returned object (`createStore().set(key, value)`): from the
  // syntax of a function of that name in the module (target.methodParams), else two unknown ones.
  methodSlots(name) {
    return this.knownMethodSlots(name) || UNKNOWN_SLOTS;
  }

  // The slots of a method whose syntax the module shows, else null.
  knownMethodSlots(name) {
    const params = this.target.methodParams ? this.target.methodParams(name) : null;
    return params && params.length ? argumentSlots(params) : null;
  }

  // Calls of a returned function's own method (`deprecate.function(fn, message)`): with its first
  // seeds where the module shows its parameters, and with no arguments (`debounced.flush()`).
  functionMethodSteps(name) {
    const slots = this.knownMethodSlots(name);
    const bare = { op: 'method', name, args: [], params: [] };
    if (!slots) return [bare];
    const args = this.firstArgs(
      slots,
      slots.map((slot) => this.pool.seeds(slot.hint)),
    );
    return [{ op: 'method', name, args, params: slots }, ...(args.length ? [bare] : [])];
  }

  // Follow-up scenarios for a scenario whose last step returned a function (call it) or an
  // object with methods (call each method); and for one that holds an object with methods from
  // an earlier step, further calls of its methods, reusing earlier arguments (`set('a', 1)` then
  // `get('a')`), so factories of closures get call sequences too. `outcomes`: the steps' outcomes.
  extend(scenario, outcomes) {
    if (scenario.steps.length >= MAX_STEPS) return [];
    return [...this.followUps(scenario, outcomes), ...this.inFlight(scenario, outcomes), ...this.switched(scenario)];
  }

  // A kept scenario again after each switch of the target's was flipped: a switch read only by
  // what a returned function does (`process.stderr.isTTY`, read when `deprecate('msg')` logs)
  // changes nothing in the one call the flag seeds make, and random scenarios rarely reach that
  // far.
  switched(scenario) {
    const flags = this.target.flags || [];
    if (scenario.steps.some((step) => FLAG_OPS.has(step.op))) return [];
    return flags.flatMap((flag) => this.flagSteps(flag).map((step) => this.scenario([step, ...scenario.steps])));
  }

  // In-flight scenarios (inFlightScenarios) of the last call that resolved, a call of a returned
  // function or a method, before the reads observers() appended to it.
  inFlight(scenario, outcomes) {
    if (scenario.steps.some((step) => step.launch)) return [];
    let end = scenario.steps.length;
    while (end > 0 && scenario.steps[end - 1].op === 'get') end--;
    const steps = scenario.steps.slice(0, end);
    const last = steps[steps.length - 1];
    const outcome = outcomes[end - 1];
    if (!outcome || outcome.kind !== 'resolve' || !last.receiver || !['invoke', 'method'].includes(last.op)) return [];
    const holder = steps.findIndex((step) => step.bind === last.receiver);
    const held = holder >= 0 && outcomes[holder] && outcomes[holder].value;
    return this.inFlightScenarios(steps.slice(0, -1), last, held);
  }

  // A call (`call`, on the value `held` describes, which `before` binds) made again while each
  // other is in flight (a limiter, a queue, a cache of pending loads): three calls launched
  // at once, the first with callbacks that finish some microtasks after the others (`later`
  // mocks); the receiver's getters read while they are in flight; the order in which they settle
  // (settleOrder); the getters once more. And, per argument-less method of the receiver that
  // takes state away (`clearQueue()`), the same calls, that method and the getters, at once.
  // A bug that runs tasks together, out of turn or never shows only here.
  inFlightScenarios(before, call, held) {
    if (!held || !['object', 'function'].includes(held.t)) return [];
    const slower = (args) => args.map((arg) => (arg.kind === 'mock' && arg.returns ? { ...arg, later: true } : arg));
    const launches = [0, 1, 2].map((i) => ({
      ...call,
      args: i === 0 ? slower(call.args) : [...call.args],
      bind: i ? `pending${i + 1}` : 'pending',
      launch: true,
    }));
    const reads = gettersOf(held)
      .slice(0, MAX_OBSERVERS)
      .map((name) => ({ op: 'get', receiver: call.receiver, name }));
    const settle = { op: 'settle', receivers: launches.map((step) => step.bind) };
    const takers = methodsOf(held)
      .filter((name) => TAKER_NAME.test(name) && !this.methodSlots(name).some((slot) => !slot.optional))
      .slice(0, 2)
      .map((name) =>
        this.scenario([
          ...before,
          ...launches,
          { op: 'method', receiver: call.receiver, name, args: [], params: [] },
          ...reads,
        ]),
      );
    return [this.scenario([...before, ...launches, ...reads, settle, ...reads]), ...takers];
  }

  // Calls of the function a scenario's last call returned with its round-trip arguments
  // (roundTripArguments), also where that call reached nothing new: what a factory's text
  // changes often shows only in the function it returns (`compile('/:a+')` reads an array).
  // At most MAX_ROUND_TRIP_SCENARIOS scenarios of a target get them this way.
  roundTrips(scenario, outcomes) {
    const outcome = outcomes[outcomes.length - 1];
    if (scenario.steps.length >= MAX_STEPS || !outcome || outcome.kind !== 'return') return [];
    if (!outcome.value || outcome.value.t !== 'function' || this.roundTripsLeft <= 0) return [];
    const steps = scenario.steps.map((step) => ({ ...step }));
    const last = steps[steps.length - 1];
    if (last.op === 'set') return [];
    const argumentLists = roundTripArguments(last);
    if (!argumentLists.length) return [];
    last.bind = last.bind || resultName(last, true);
    this.roundTripsLeft--;
    return argumentLists.map((args) =>
      this.scenario([...steps, { op: 'invoke', receiver: last.bind, args, params: UNKNOWN_SLOTS }]),
    );
  }

  followUps(scenario, outcomes) {
    const outcome = outcomes[outcomes.length - 1];
    const value = outcome && (outcome.kind === 'return' || outcome.kind === 'resolve') ? outcome.value : null;
    const steps = scenario.steps.map((step) => ({ ...step }));
    const last = steps[steps.length - 1];
    // A Proxy's class methods (snapshot.js) are called as an object's are.
    if (value && last.op !== 'set' && ['function', 'object', 'proxy'].includes(value.t)) {
      last.bind = last.bind || resultName(last, value.t === 'function');
      const follow = (step) => this.scenario([...steps, { ...step, receiver: last.bind }]);
      if (value.t === 'function') {
        // A returned function often takes a function to run (`limit(() => task())`, a wrapper).
        const argumentLists = [
          [],
          ...roundTripArguments(last),
          ...UNKNOWN_SLOTS.map((_, n) => this.randomArgs(UNKNOWN_SLOTS.slice(0, n + 1))),
          [mockOf({ returns: atom.string('done') })],
        ];
        // Switched before it is called, each switch alone and all together: `log.enabled = true;
        // log('abc')`, and `log.enabled = true; log.useColors = true; log('abc')`.
        const switches = switchesOf(value);
        const groups = switches.length > 1 ? [...switches.map((one) => [one]), switches] : switches.map((one) => [one]);
        const switched = groups.flatMap((group) =>
          [this.pool.seeds(EMPTY_HINT).slice(0, 1), this.randomArgs(UNKNOWN_SLOTS)].map((args) =>
            this.scenario([
              ...steps,
              ...group.map(({ name, value: to }) => ({
                op: 'set',
                receiver: last.bind,
                name,
                args: [atom.boolean(to)],
                params: BOOLEAN_SLOT,
              })),
              { op: 'invoke', receiver: last.bind, args, params: UNKNOWN_SLOTS },
            ]),
          ),
        );
        // One with state of its own to read or clear (getters, methods: `limit.activeCount`,
        // `limit.clearQueue()`) may start tasks (`limit(task)`): three such calls in flight at once.
        // Not a plain one (a `cancel()` a timer call returned): its calls are the plain ones above.
        const task = {
          op: 'invoke',
          receiver: last.bind,
          args: argumentLists[argumentLists.length - 1],
          params: UNKNOWN_SLOTS,
        };
        const inFlight =
          gettersOf(value).length || methodsOf(value).length ? this.inFlightScenarios(steps, task, value) : [];
        return [
          ...argumentLists.map((args) => follow({ op: 'invoke', args, params: UNKNOWN_SLOTS })),
          ...switched,
          ...this.wrapperVariants(steps),
          ...methodsOf(value).flatMap((name) => this.functionMethodSteps(name).map(follow)),
          ...gettersOf(value).map((name) => follow({ op: 'get', name })),
          // Last: what plain calls reach is theirs, not the calls in flight's.
          ...inFlight,
        ].slice(0, MAX_EXTENSIONS + argumentLists.length + inFlight.length + switched.length);
      }
      // An emitter (`on` and `emit` of its own: `mitt()`) has its events recorded from here on.
      const methods = methodsOf(value);
      if (methods.includes('on') && methods.includes('emit')) last.recordEvents = true;
      const members = methods.map((name) => ({ name, kind: 'method', slots: this.methodSlots(name) }));
      const sequence = this.wholeSequence(members, (member, args) => ({
        op: 'method',
        receiver: last.bind,
        name: member.name,
        args,
        params: member.slots,
      }));
      const whole = sequence
        ? [this.scenario([...steps, ...sequence.ordered.slice(0, MAX_STEPS - steps.length).map(sequence.step)])]
        : [];
      // More methods than follow-ups (a class instance's prototype): each extension starts at
      // another one, so every method is called across the extensions of the search.
      return [
        ...whole,
        ...rotated(methods, MAX_EXTENSIONS - whole.length, this.rng, 2).flatMap((name) => {
          const slots = this.methodSlots(name);
          return [
            this.firstArgs(
              slots,
              slots.map((slot) => this.pool.seeds(slot.hint)),
            ),
            this.randomArgs(slots),
          ].map((args) => follow({ op: 'method', name, args, params: slots }));
        }),
      ].slice(0, MAX_EXTENSIONS);
    }
    // A returned function called a second time: `once(fn)` and caches answer differently.
    if (last.op === 'invoke' && outcome && outcome.kind !== 'throw')
      return [this.scenario([...steps, { ...last, args: [...last.args] }])];
    // An object with methods bound by an earlier step: call its methods again.
    const holder = steps
      .map((step, index) => ({ step, outcome: outcomes[index] }))
      .reverse()
      .find(
        ({ step, outcome: held }) =>
          step.bind &&
          held &&
          held.kind !== 'throw' &&
          held.value &&
          ['object', 'function', 'proxy'].includes(held.value.t) &&
          methodsOf(held.value).length + gettersOf(held.value).length,
      );
    if (!holder || holder.step.op === 'new') return [];
    const earlier = steps.flatMap((step) => step.args || []).filter((arg) => arg.kind === 'atom');
    const held = holder.outcome.value;
    // A function's own methods take no arguments as often as not (`clear()`, `flush()`), unless
    // the module shows their parameters (`deprecate.property(obj, prop)`). More methods than
    // follow-ups: each extension starts at another one, as above (only the first eight were
    // ever called again, and a class instance's later prototype methods got no second call).
    return [
      ...rotated(methodsOf(held), MAX_EXTENSIONS, this.rng).map((name) => {
        const known = held.t === 'function' ? this.knownMethodSlots(name) : null;
        const slots = held.t === 'function' ? known || [] : this.methodSlots(name);
        const bare = held.t === 'function' && (!known || this.rng.chance(0.3));
        return this.scenario([
          ...steps,
          {
            op: 'method',
            receiver: holder.step.bind,
            name,
            args: bare ? [] : this.randomArgs(slots, earlier),
            params: slots,
          },
        ]);
      }),
      ...gettersOf(held).map((name) => this.scenario([...steps, { op: 'get', receiver: holder.step.bind, name }])),
    ].slice(0, MAX_EXTENSIONS);
  }

  // A call that returned a function may be a wrapper (`once(fn)`, `memoize(fn)`): the same call
  // with a function as its first argument, then its result called.
  // Only once per target, and only when nothing is known of that argument: where it is known
  // to be a function, seeds already pass one.
  wrapperVariants(steps) {
    const last = steps[steps.length - 1];
    if (
      this.wrapperTried ||
      last.op !== 'call' ||
      last.callee !== this.target.callee ||
      (last.args || []).some((arg) => arg.kind === 'mock')
    )
      return [];
    if (!this.slots.length || !this.slots[0].hint.isEmpty()) return [];
    this.wrapperTried = true;
    const wrapped = { ...last, args: [mockOf({ returns: atom.string('done') }), ...(last.args || []).slice(1)] };
    const invoke = (args) =>
      this.scenario([
        ...steps.slice(0, -1),
        wrapped,
        { op: 'invoke', receiver: last.bind, args, params: UNKNOWN_SLOTS },
      ]);
    return [invoke([]), invoke(this.randomArgs(UNKNOWN_SLOTS.slice(0, 1)))];
  }

  // Reads of the state a scenario's last step changed without returning anything, or once the
  // promise it returned resolved: getters and argument-less observer methods (`value()`,
  // `size()`, `toString()`...) of its receiver, so a test of `counter.reset(1)` also shows what
  // `counter.value()` is afterwards, and one of `await limit(task)` what `limit.activeCount` is
  // once the task is done (a count not given back is a bug only that read shows). A rejection
  // ends the scenario: nothing runs after it.
  observers(scenario, outcomes) {
    const last = scenario.steps[scenario.steps.length - 1];
    const outcome = outcomes[outcomes.length - 1];
    const changing = outcome.kind === 'resolve' || (outcome.kind === 'return' && outcome.value.t === 'undefined');
    if (!last.receiver || last.op === 'get' || !changing) return [];
    const bindIndex = scenario.steps.findIndex((step) => step.bind === last.receiver);
    if (bindIndex < 0) return [];
    const held = outcomes[bindIndex].value;
    let reads;
    if (scenario.steps[bindIndex].op === 'new') {
      reads = this.members
        .filter(
          (member) =>
            member.kind === 'getter' ||
            (member.kind === 'method' && !member.slots.length && OBSERVER_NAME.test(member.name)),
        )
        .map((member) => this.memberStep(member, []));
    } else if (held && held.t === 'object') {
      reads = methodsOf(held)
        .filter((name) => OBSERVER_NAME.test(name) && !this.methodSlots(name).some((slot) => !slot.optional))
        .map((name) => ({ op: 'method', name, args: [], params: this.methodSlots(name) }));
    } else if (held && held.t === 'function') {
      // A returned function's getters (`debounced.isPending` after `debounced()`).
      reads = gettersOf(held).map((name) => ({ op: 'get', name }));
    } else {
      return [];
    }
    return reads.slice(0, MAX_OBSERVERS).map((step) => ({ ...step, receiver: last.receiver }));
  }

  // Follow-ups for code that schedules timers (run with Jest's fake timers): the timers moved
  // by each mined number of milliseconds, and all pending timers run.
  timerAdvances(scenario) {
    const last = scenario.steps[scenario.steps.length - 1];
    if (last.op === 'advance' || scenario.steps.length >= MAX_STEPS) return [];
    const amounts = [
      ...new Set(
        this.pool
          .minedFor('number')
          .map((n) => n.value)
          .filter((n) => Number.isInteger(n) && n > 0 && n <= 3600000),
      ),
    ].slice(0, 3);
    return [...amounts.map((ms) => ({ op: 'advance', ms })), { op: 'advance' }].map((step) =>
      this.scenario([...scenario.steps, step]),
    );
  }

  // A scenario that repeats its last call: caches and counters behave differently the second time.
  repeated(scenario) {
    const last = scenario.steps[scenario.steps.length - 1];
    if (last.op !== 'call' || scenario.steps.length >= MAX_STEPS) return this.mutate(scenario);
    const args = this.rng.chance(0.5)
      ? last.args
      : this.randomArgs(
          this.slots,
          last.args.filter((arg) => arg.kind === 'atom'),
        );
    return this.scenario([...scenario.steps, { ...last, args }]);
  }

  // A mutant of a scenario: one argument changed, an argument added or dropped, the last call
  // repeated, or (for classes) a member step added or removed.
  mutate(original) {
    const scenario = clone(original);
    const steps = scenario.steps;
    if (this.target.kind === 'function' && steps.every((step) => step.op === 'call') && this.rng.chance(0.1))
      return this.repeated(scenario);
    if (FLAG_OPS.has(steps[0].op) && this.rng.chance(0.1)) return this.scenario(steps.slice(1));
    const constructed = steps.findIndex((step) => step.op === 'new');
    if (constructed >= 0 && this.members.length && this.rng.chance(0.3)) {
      // Member steps go after the construction they use.
      const later = steps.length - constructed - 1;
      if (later > 0 && this.rng.chance(0.4)) steps.splice(constructed + 1 + this.rng.int(later), 1);
      else {
        const at = constructed + 1 + this.rng.int(later + 1);
        steps.splice(at, 0, this.randomMemberStep(steps.slice(0, at)));
      }
      return scenario;
    }
    const withArgs = steps.filter((step) => step.args && step.params && step.params.length);
    if (!withArgs.length) return this.random();
    const step = this.rng.pick(withArgs);
    const slots = step.params;
    const roll = this.rng.next();
    const fixedArity = step.op === 'set' || FLAG_OPS.has(step.op);
    if (roll < 0.15 && step.args.length < slots.length && !fixedArity) {
      step.args.push(this.pool.random(slots[step.args.length].hint));
    } else if (roll < 0.25 && step.args.length > 0 && !fixedArity) {
      step.args.pop();
    } else if (step.args.length) {
      const index = this.rng.int(step.args.length);
      step.args[index] = mutateCandidate(
        step.args[index],
        slots[Math.min(index, slots.length - 1)].hint,
        this.pool,
        this.rng,
      );
    } else {
      step.args.push(this.pool.random(slots[0].hint));
    }
    return scenario;
  }
}

module.exports = { makerCalls, ScenarioFactory };
