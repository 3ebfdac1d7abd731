'use strict';
// A stand-in for `jest.fn()` in the child process. Scenarios are written in the same source text
// the emitted tests use, so `jest.fn(impl)` must behave like Jest's: call through to `impl` and
// record each call's arguments in `.mock.calls`.

const { fakeTimerApi } = require('./fake-timers');

const MOCK = Symbol.for('vouch.mock');

function mockFunction(implementation) {
  const mock = function (...args) {
    mock.mock.calls.push(args);
    return implementation ? implementation.apply(this, args) : undefined;
  };
  mock.mock = { calls: [] };
  mock[MOCK] = true;
  // As Jest's: named mockConstructor, as long as its implementation (`fn.name` shows in messages).
  Object.defineProperty(mock, 'name', { value: 'mockConstructor' });
  Object.defineProperty(mock, 'length', { value: implementation ? implementation.length : 0 });
  return mock;
}

function isMockFunction(value) {
  return typeof value === 'function' && value[MOCK] === true;
}

// Jest's fake timer calls are the child's own (fake-timers.js).
const jestStandIn = Object.freeze({ fn: mockFunction, ...fakeTimerApi });

module.exports = { jestStandIn, isMockFunction };
