'use strict';

// Command line of sandbox.js.

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const USAGE = `usage: sandbox.js WORKDIR [options] -- COMMAND [ARG...]
       sandbox.js --probe
options:
  --cpu-seconds N   CPU time of each process (default 30)
  --memory-mb N     private memory of each process (default 1024)
  --max-procs N     processes and threads of the sandbox uid (default 128)
  --max-file-mb N   largest file it may write; also the size of /tmp (default 64)
  --wall-ms N       wall time, counted from the first byte on stdin (default 60000)
  --hide PATH       cover PATH with an empty read-only folder (repeatable)
  --ro PATH         make PATH visible read-only, even inside a hidden one (repeatable)
  --uid N           uid to run as when started as root (default 1879048192 + pid)
  --isolation MODE  auto, bubblewrap, unshare or none (default auto)`;

const LIMIT_DEFAULTS = { cpuSeconds: 30, memoryMb: 1024, maxProcs: 128, maxFileMb: 64, wallMs: 60000 };

// A range that distributions, systemd and container tools leave unused; each
// concurrent launcher has its own pid, so each sandbox gets its own uid (the
// process limit counts per uid).
const UID_BASE = 1879048192;

function defaultUid() {
  return UID_BASE + process.pid;
}

const ISOLATIONS = ['auto', 'bubblewrap', 'unshare', 'none'];

class UsageError extends Error {}

function parseOptions(argv) {
  if (argv.length === 1 && argv[0] === '--probe') return { probe: true };
  const separator = argv.indexOf('--');
  if (separator === -1 || separator === argv.length - 1) throw new UsageError('missing -- COMMAND');
  const { values, positionals } = parseWithUsage(argv.slice(0, separator));
  if (positionals.length !== 1) throw new UsageError('expected exactly one WORKDIR');
  const isolation = values.isolation ?? 'auto';
  if (!ISOLATIONS.includes(isolation)) throw new UsageError(`unknown isolation: ${isolation}`);
  return {
    probe: false,
    workdir: existingFolder(positionals[0]),
    command: argv.slice(separator + 1),
    limits: {
      cpuSeconds: positiveInteger(values, 'cpu-seconds', LIMIT_DEFAULTS.cpuSeconds),
      memoryMb: positiveInteger(values, 'memory-mb', LIMIT_DEFAULTS.memoryMb),
      maxProcs: positiveInteger(values, 'max-procs', LIMIT_DEFAULTS.maxProcs),
      maxFileMb: positiveInteger(values, 'max-file-mb', LIMIT_DEFAULTS.maxFileMb),
      wallMs: positiveInteger(values, 'wall-ms', LIMIT_DEFAULTS.wallMs),
    },
    hide: (values.hide ?? []).map(absolutePath),
    readOnly: (values.ro ?? []).map(absolutePath),
    uid: positiveInteger(values, 'uid', defaultUid()),
    isolation,
  };
}

function parseWithUsage(args) {
  const integer = { type: 'string' };
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        'cpu-seconds': integer,
        'memory-mb': integer,
        'max-procs': integer,
        'max-file-mb': integer,
        'wall-ms': integer,
        uid: integer,
        hide: { type: 'string', multiple: true },
        ro: { type: 'string', multiple: true },
        isolation: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(error.message);
  }
}

function positiveInteger(values, name, fallback) {
  if (values[name] === undefined) return fallback;
  const value = Number(values[name]);
  if (!Number.isSafeInteger(value) || value <= 0) throw new UsageError(`--${name} must be a positive integer`);
  return value;
}

function absolutePath(value) {
  if (!path.isAbsolute(value)) throw new UsageError(`not an absolute path: ${value}`);
  return path.normalize(value).replace(/(.)\/$/, '$1');
}

function existingFolder(value) {
  const folder = path.resolve(value);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`WORKDIR is not a folder: ${value}`);
  }
  return folder;
}

module.exports = { parseOptions, defaultUid, UsageError, USAGE };
