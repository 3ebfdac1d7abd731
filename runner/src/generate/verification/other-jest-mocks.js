'use strict';
// Users run the suites with the Jest they have, 29 or 30, and each gives its mock functions
// (`jest.fn()`, `jest.spyOn`) other members: Jest 30's also have `whenCalledWith` (from 30.5)
// and `[Symbol.dispose]` (Node's Symbol.for('nodejs.dispose')). Code under test that reads a
// mock's own keys or symbols (chai's getOwnEnumerablePropertySymbols) gets another answer, and a
// test asserting Jest 30's passes in the sandbox and fails in a user's Jest 29. In the rounds that
// run as another user on another machine (other-environment-preload.js), mocks have only the
// members every supported version gives them, so such a test fails there and is dropped. Their
// members' source text differs between versions too (yargs-parser camel-cases the members of a
// mock handed in as its `alias` whose text holds a '-': it throws under Jest 30.5's mocks, not
// under 29's or 30.2's): there each member is a bound copy, whose text is another.

// Members of a mock function that not every supported Jest version has; `environmentGlobal` is the
// test file's global (its Symbol.dispose, where there is one).
function versionMembers(environmentGlobal) {
  const members = ['whenCalledWith'];
  const dispose = environmentGlobal && environmentGlobal.Symbol && environmentGlobal.Symbol.dispose;
  if (dispose) members.push(dispose);
  return members;
}

// Makes every mock function that `ModuleMocker` (jest-mock's, the one Jest's runtime uses) makes
// from now on lack those members.
function useCommonMocks(ModuleMocker) {
  const makeComponent = ModuleMocker.prototype._makeComponent;
  if (typeof makeComponent !== 'function' || makeComponent.commonMembersOnly) return;
  const commonOnly = function (...args) {
    const made = makeComponent.apply(this, args);
    if (typeof made === 'function' && made._isMockFunction) {
      for (const member of versionMembers(this._environmentGlobal)) delete made[member];
      for (const key of Object.keys(made)) {
        const descriptor = Object.getOwnPropertyDescriptor(made, key);
        if (typeof descriptor.value === 'function' && descriptor.writable)
          made[key] = Object.defineProperty(descriptor.value.bind(made), 'name', { value: descriptor.value.name });
      }
    }
    return made;
  };
  commonOnly.commonMembersOnly = true;
  ModuleMocker.prototype._makeComponent = commonOnly;
}

// Jest 30 gives a test file's global Node's Symbol.dispose and Symbol.asyncDispose; Jest 29 gives
// neither (tslib's __addDisposableResource then throws another error). Test files run by
// `NodeEnvironment` (jest-environment-node's) from now on have neither.
function useCommonGlobals(NodeEnvironment) {
  const setup = NodeEnvironment.prototype.setup;
  if (typeof setup !== 'function' || setup.commonGlobalsOnly) return;
  const commonOnly = function (...args) {
    const symbol = this.global && this.global.Symbol;
    for (const key of ['dispose', 'asyncDispose']) {
      const descriptor = symbol && Object.getOwnPropertyDescriptor(symbol, key);
      if (descriptor && descriptor.configurable) delete symbol[key];
    }
    return setup.apply(this, args);
  };
  commonOnly.commonGlobalsOnly = true;
  NodeEnvironment.prototype.setup = commonOnly;
}

module.exports = { useCommonMocks, useCommonGlobals, versionMembers };
