'use strict';
// Keeps the code under test from changing files it has no business with. The search feeds code
// path strings, and mutates them: rimraf@3.0.2 was called with '..' (the '.' seed, its character
// repeated) from its scenario's folder in os.tmpdir(), and emptied the sandbox's /tmp, the
// generator's own folders with it: the package's files, and the other environment's home and
// temporary folders, so that every later run there failed. A test that kept such a call would do
// the same in a user's checkout. A call that removes, renames, creates or writes a path is refused
// with EACCES and reported (`onRefused`), so that the scenario counts as disturbed and no test is
// written for it, unless the path is in the scenario's folder (fresh-folder.js; the folder itself
// included: '.' is the scenario's own), or inside the temporary folder (os.tmpdir(), the other
// environment's in the runs made there) without being that folder, the scenario's folder or one
// around it, a protected folder (the package's files, the generator's own) or one around one.
// Between scenarios only the temporary folder is open: a callback chain that outlives its
// scenario, whose relative paths now resolve against another folder, changes nothing of the
// generator's. Paths are judged where the call lands, symbolic links followed as the kernel
// follows them (`landing`): a link the scenario made in its folder to a folder outside does not
// open that folder.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

// Functions whose path arguments (at these positions) are changed. `open` only with a flag that
// writes.
const CHANGING = {
  rm: [0],
  rmdir: [0],
  unlink: [0],
  rename: [0, 1],
  writeFile: [0],
  appendFile: [0],
  mkdir: [0],
  mkdtemp: [0],
  copyFile: [1],
  cp: [1],
  symlink: [1],
  link: [1],
  truncate: [0],
  chmod: [0],
  lchmod: [0],
  chown: [0],
  lchown: [0],
  utimes: [0],
  lutimes: [0],
  open: [0],
};

const WRITE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_TRUNC;

function writes(flags) {
  if (typeof flags === 'number') return (flags & WRITE_FLAGS) !== 0;
  return typeof flags === 'string' && /[wa+]/.test(flags);
}

function pathOf(value) {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString();
  if (value instanceof URL && value.protocol === 'file:') return fileURLToPath(value);
  return null;
}

// Captured before the code under test loads, which could replace them.
const realpathOf = fs.realpathSync.native;

// Calls that act on a link itself when the path's last part is one (the others follow it).
const ON_THE_LINK = new Set(['rm', 'rmdir', 'unlink', 'rename', 'symlink', 'link', 'lchmod', 'lchown', 'lutimes']);

// Where a call on `given` lands: each part resolved in turn as the kernel does, so that 'link/..'
// is the folder around the link's target, not the folder holding the link. From the first part
// that does not exist, the rest is joined as written (nothing below it exists to link elsewhere).
function landing(given, followsLast) {
  const absolute = path.isAbsolute(given) ? given : `${process.cwd()}${path.sep}${given}`; // path.join would drop 'link/..'
  const parts = absolute.split(path.sep).filter((part) => part !== '' && part !== '.');
  let current = path.parse(absolute).root;
  let exists = true;
  parts.forEach((part, index) => {
    if (part === '..') {
      current = path.dirname(current);
      return;
    }
    const next = path.join(current, part);
    if (!exists || (index === parts.length - 1 && !followsLast)) {
      current = next;
      return;
    }
    try {
      current = realpathOf(next);
    } catch {
      current = next;
      exists = false;
    }
  });
  return current;
}

function realFolder(folder) {
  try {
    return realpathOf(path.resolve(folder));
  } catch {
    return path.resolve(folder);
  }
}

function inside(folder, target) {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function permitted(target) {
  if (allowed !== null && inside(allowed, target)) return true;
  const tmp = realFolder(os.tmpdir());
  if (!inside(tmp, target) || target === tmp) return false;
  if (allowed !== null && inside(target, allowed)) return false;
  return !protectedFolders.some((folder) => inside(folder, target) || inside(target, folder));
}

let allowed = null;
let protectedFolders = [];
let trusted = false;
let onRefused = () => {};

// The first path argument of `name`'s call that lies outside the allowed folder, or null.
function outside(name, args) {
  if (trusted || (name === 'open' && !writes(args[1]))) return null;
  for (const index of CHANGING[name]) {
    const given = pathOf(args[index]);
    if (given === null) continue;
    if (!permitted(landing(given, !ON_THE_LINK.has(name)))) return given;
  }
  return null;
}

function refusal(name, given) {
  onRefused(`${name}('${given}') outside the scenario's folder`);
  return Object.assign(new Error(`EACCES: permission denied, ${name} '${given}'`), {
    errno: -13,
    code: 'EACCES',
    syscall: name,
    path: given,
  });
}

function guardCallback(name, original) {
  return function guarded(...args) {
    const given = outside(name, args);
    if (given === null) return original.apply(this, args);
    const callback = args[args.length - 1];
    const error = refusal(name, given);
    if (typeof callback !== 'function') throw error;
    process.nextTick(callback, error);
    return undefined;
  };
}

function guardSync(name, original) {
  return function guarded(...args) {
    const given = outside(name, args);
    if (given !== null) throw refusal(name, given);
    return original.apply(this, args);
  };
}

function guardPromise(name, original) {
  return function guarded(...args) {
    const given = outside(name, args);
    return given === null ? original.apply(this, args) : Promise.reject(refusal(name, given));
  };
}

// Calls on a descriptor that close it or change the file behind it.
const DESCRIPTOR_CHANGES = ['close', 'fchmod', 'fchown', 'futimes', 'ftruncate'];

// Closing a standard stream (graceful-fs's close(1, cb)), or changing the file behind it
// (`fchmod(1, mode)`: the search draws 1, 2 and 0 for a descriptor), passes unnoticed here, where
// they lead to /dev/null, but a test doing it closes or changes the pipe a run answers on, and
// the whole run fails (graceful-fs@4.2.11 kept no test: `the tested code closed or replaced the
// runner's stdout`): that is refused and reported too.
function guardStandardStream(name, original, sync) {
  return function guarded(...args) {
    if (trusted || ![0, 1, 2].includes(args[0])) return original.apply(this, args);
    onRefused(`${name}(${args[0]}), a standard stream`);
    const error = Object.assign(new Error(`EBADF: bad file descriptor, ${name}`), {
      errno: -9,
      code: 'EBADF',
      syscall: name,
    });
    if (sync || typeof args[args.length - 1] !== 'function') throw error;
    process.nextTick(args[args.length - 1], error);
    return undefined;
  };
}

// Installs the guard on `fs` and `fs.promises` (once, before the code under test loads, so that
// what copies fs's functions, graceful-fs, copies the guarded ones). report(description) is told of
// each refused call.
function installFolderGuard(report) {
  onRefused = report;
  for (const name of Object.keys(CHANGING)) {
    if (typeof fs[name] === 'function') fs[name] = guardCallback(name, fs[name]);
    if (typeof fs[`${name}Sync`] === 'function') fs[`${name}Sync`] = guardSync(name, fs[`${name}Sync`]);
    if (typeof fs.promises[name] === 'function') fs.promises[name] = guardPromise(name, fs.promises[name]);
  }
  for (const name of DESCRIPTOR_CHANGES) {
    if (typeof fs[name] === 'function') fs[name] = guardStandardStream(name, fs[name], false);
    if (typeof fs[`${name}Sync`] === 'function') fs[`${name}Sync`] = guardStandardStream(name, fs[`${name}Sync`], true);
  }
}

// The scenario's folder (an absolute path), or null between scenarios.
function allowChangesIn(folder) {
  allowed = folder === null ? null : realFolder(folder);
}

// Folders nothing may change, nor any folder around them (absolute paths).
function protect(folders) {
  protectedFolders = folders.map(realFolder);
}

// Runs `fn`, synchronous code of the child's own (making and removing a scenario's folder),
// unguarded.
function unguarded(fn) {
  trusted = true;
  try {
    return fn();
  } finally {
    trusted = false;
  }
}

module.exports = { installFolderGuard, allowChangesIn, protect, unguarded };
