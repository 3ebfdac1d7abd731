'use strict';
// `jest.fn()` in the child process: Jest's own (jest-mock, the version the runs use), so a mock
// behaves in the child exactly as in the emitted tests: the same calls record, the same own
// properties when code copies or serializes it (`deepmerge({}, fn)`), the same name, length and
// source text when code prints it.

const { ModuleMocker } = require('jest-mock');
const { fakeTimerApi } = require('./fake-timers');

const mocker = new ModuleMocker(globalThis);

function isMockFunction(value) {
  return typeof value === 'function' && value._isMockFunction === true;
}

// Jest's fake timer calls are the child's own (fake-timers.js).
const jestStandIn = Object.freeze({ fn: (implementation) => mocker.fn(implementation), ...fakeTimerApi });

module.exports = { jestStandIn, isMockFunction };
