'use strict';
// Another user on another machine, as the code under test sees it: other uid and gid (also as owner
// of the files it owns), pid and parent pid, host name, user account, home and temporary folders
// (real, empty folders, so code that writes there still works), uptime and memory figures. The
// second run of every scenario runs in it (child/main.js), so a value read from the sandbox's
// environment differs between the two runs and is asserted only by type, as the clock's values are;
// and one verification round runs the suite in it (verification/other-environment-preload.js), so a
// test that still depends on the environment fails there and is dropped. A suite is committed by
// its users and run by their CI, as another user, in another folder, on another machine: the
// sandbox's uid (1879048192 + a pid) asserted as a literal would fail there.
//
// The code under test's own source text differs too: generation runs it instrumented, the run
// path under Jest's instrumentation, a user's plain `jest` not at all. So in the other environment
// an instrumented function's text (Function.prototype.toString) comes without its counters and
// between comments (function-source.js), and what a scenario derives from it (`fn.toString()`,
// its length) is asserted by type only.
//
// The working folder is not moved: Jest runs from the package folder wherever it is, and
// verification runs every round in a folder of its own.

const fs = require('node:fs');
const os = require('node:os');
const { originalToString, otherText } = require('./function-source');

// Offsets far from any real value: no uid, pid or uptime of the sandbox maps onto itself.
const ID_OFFSET = 7919;
const OTHER_USER = 'vouch-other-user';
const OTHER_HOST = 'vouch-other-host';

// Stats of files the process owns show them owned by the other user (as its own files would be).
function shiftStatsOwner(stats, uid, gid) {
  if (!stats || typeof stats !== 'object') return stats;
  const offset = typeof stats.uid === 'bigint' ? BigInt(ID_OFFSET) : ID_OFFSET;
  if (Number(stats.uid) === uid) stats.uid += offset;
  if (Number(stats.gid) === gid) stats.gid += offset;
  return stats;
}

// fs's stat functions, sync, callback and promise forms, with their results' owner shifted.
function replaceStats(replace, uid, gid) {
  for (const name of ['statSync', 'lstatSync', 'fstatSync']) {
    const original = fs[name];
    replace(fs, name, function stat(...args) {
      return shiftStatsOwner(original.apply(this, args), uid, gid);
    });
  }
  for (const name of ['stat', 'lstat', 'fstat']) {
    const original = fs[name];
    replace(fs, name, function stat(...args) {
      const callback = args[args.length - 1];
      if (typeof callback !== 'function') return original.apply(this, args);
      return original.apply(this, [
        ...args.slice(0, -1),
        (error, stats) => callback(error, error ? stats : shiftStatsOwner(stats, uid, gid)),
      ]);
    });
  }
  for (const name of ['stat', 'lstat']) {
    const original = fs.promises[name];
    replace(fs.promises, name, async function stat(...args) {
      return shiftStatsOwner(await original.apply(this, args), uid, gid);
    });
  }
}

const COUNTER = /\bcov_\w+\(\)/;

// Function.prototype.toString, giving instrumented functions' text as another run's (otherText). It reads
// as the built-in it replaces: its own text is the built-in's.
function replaceFunctionSource(replace) {
  const toString = function toString() {
    if (this === toString) return originalToString.call(originalToString);
    const source = originalToString.call(this);
    return COUNTER.test(source) ? otherText(source) : source;
  };
  replace(Function.prototype, 'toString', toString);
}

// Replaces what the process and `os` report; returns a function that restores the originals.
// folders: { home, tmp }, existing folders for os.homedir() and os.tmpdir().
function enterOtherEnvironment({ home, tmp }) {
  const restores = [];
  const replace = (object, key, value) => {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (!descriptor || !descriptor.configurable) return;
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: descriptor.enumerable,
      configurable: true,
    });
    restores.push(() => Object.defineProperty(object, key, descriptor));
  };
  const realUid = process.getuid ? process.getuid() : -1;
  const realGid = process.getgid ? process.getgid() : -1;
  replaceStats(replace, realUid, realGid);
  replaceFunctionSource(replace);
  const shiftId = (fn) => (typeof fn === 'function' ? () => fn.call(process) + ID_OFFSET : fn);
  for (const key of ['getuid', 'geteuid', 'getgid', 'getegid']) replace(process, key, shiftId(process[key]));
  if (typeof process.getgroups === 'function') {
    const getgroups = process.getgroups;
    replace(process, 'getgroups', () => getgroups.call(process).map((id) => id + ID_OFFSET));
  }
  replace(process, 'pid', process.pid + ID_OFFSET);
  replace(process, 'ppid', process.ppid + ID_OFFSET);

  const uid = process.getuid ? process.getuid() : -1;
  const gid = process.getgid ? process.getgid() : -1;
  const { uptime, freemem, totalmem, loadavg } = os;
  replace(os, 'hostname', () => OTHER_HOST);
  replace(os, 'homedir', () => home);
  replace(os, 'tmpdir', () => tmp);
  // The sandbox's uid has no passwd entry (os.userInfo() throws there), a user's has one: the
  // other environment has the other case, so an outcome that hangs on it differs too.
  let hasAccount = true;
  try {
    os.userInfo();
  } catch {
    hasAccount = false;
  }
  replace(os, 'userInfo', (options) => {
    if (hasAccount)
      throw Object.assign(
        new Error('A system error occurred: uv_os_get_passwd returned ENOENT (no such file or directory)'),
        { name: 'SystemError', code: 'ERR_SYSTEM_ERROR' },
      );
    const info = { uid, gid, username: OTHER_USER, homedir: home, shell: '/bin/sh' };
    return options && options.encoding === 'buffer'
      ? { ...info, username: Buffer.from(info.username), homedir: Buffer.from(home), shell: Buffer.from(info.shell) }
      : info;
  });
  replace(os, 'uptime', () => uptime() + ID_OFFSET);
  replace(os, 'freemem', () => Math.max(0, freemem() - ID_OFFSET * 4096));
  replace(os, 'totalmem', () => totalmem() + ID_OFFSET * 4096);
  replace(os, 'loadavg', () => loadavg().map((load) => load + 0.37));

  const env = {
    HOME: home,
    TMPDIR: tmp,
    TMP: tmp,
    TEMP: tmp,
    USER: OTHER_USER,
    LOGNAME: OTHER_USER,
    USERNAME: OTHER_USER,
    HOSTNAME: OTHER_HOST,
  };
  const saved = Object.fromEntries(
    Object.keys(env).map((key) => [
      key,
      Object.prototype.hasOwnProperty.call(process.env, key) ? process.env[key] : undefined,
    ]),
  );
  Object.assign(process.env, env);
  restores.push(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  return () => restores.reverse().forEach((restore) => restore());
}

module.exports = { enterOtherEnvironment, OTHER_HOST, OTHER_USER };
