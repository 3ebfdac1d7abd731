'use strict';

// Builds the command line that runs COMMAND in the sandbox:
//
//   prlimit LIMITS -- [bwrap NAMESPACES MOUNTS -- | unshare -n --] [setpriv UID --] COMMAND
//
// prlimit sets the resource limits, which every process below inherits.
// bwrap (or `unshare -n`) isolates. setpriv, used when the launcher is root,
// drops to an unprivileged uid of the sandbox's own: root is exempt from the
// process limit (RLIMIT_NPROC counts per uid), and that uid owns nothing
// outside the work folder.

const path = require('node:path');

const MB = 1024 * 1024;

// Where the work folder appears inside bubblewrap, whatever its path outside:
// every run sees the same path, so what Jest derives from it (the keys of its
// transform cache, the paths in the coverage report) is the same for the same
// files, and the server's own paths stay out of sight. Below the private /tmp,
// because the rest of the file system is read-only.
const SANDBOX_WORKDIR = '/tmp/vouch-work';

// What the sandboxed command itself needs to start: the runner (its scripts
// and node_modules) and the node binary. Each is bound read-only again when
// it lies under the private /tmp or a hidden folder, which would cover it (a
// checkout under /tmp, say).
const RUNNER_ROOT = path.resolve(__dirname, '../../..');
const OWN_PATHS = [RUNNER_ROOT, path.dirname(process.execPath)];

function buildSandboxCommand({ isolation, workdir, command, limits, hide, readOnly, uid, isRoot }) {
  const dropPrivileges = isRoot ? setprivArgs(uid) : [];
  const isolated = {
    bubblewrap: () => ['bwrap', ...bwrapArgs({ workdir, hide, readOnly, limits, isRoot }), '--'],
    unshare: () => ['unshare', '--net', '--'],
    none: () => [],
  }[isolation]();
  return {
    file: 'prlimit',
    args: [...prlimitArgs(limits, isRoot), '--', ...isolated, ...dropPrivileges, ...command],
    env: sandboxEnv(isolation === 'bubblewrap' ? SANDBOX_WORKDIR : workdir),
  };
}

// CPU: SIGXCPU at the soft limit, SIGKILL a second later if it is caught.
// Memory: RLIMIT_DATA caps each process's private writable memory (V8's
// heap pages, buffers, malloc) while leaving V8's large virtual reservations
// alone, which RLIMIT_AS would break. Node fails cleanly at it: an endless
// JavaScript allocation aborts with V8's "JavaScript heap out of memory", an
// endless Buffer allocation throws a RangeError. It is deliberately not
// paired with a --max-old-space-size of the same size: below 2 GB, V8 grows
// its heap more timidly and collects more often, which slows even a small
// job.
// The process limit is only set for a uid of the sandbox's own (isRoot):
// otherwise it would count the server's processes too.
function prlimitArgs(limits, isRoot) {
  const both = (value) => `${value}:${value}`;
  return [
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--data=${both(limits.memoryMb * MB)}`,
    `--fsize=${both(limits.maxFileMb * MB)}`,
    `--core=${both(0)}`,
    ...(isRoot ? [`--nproc=${both(limits.maxProcs)}`] : []),
  ];
}

function setprivArgs(uid) {
  return ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--no-new-privs', '--'];
}

// The whole file system read-only; the work folder (at SANDBOX_WORKDIR) the
// only writable place besides a small private /tmp; hidden paths covered by empty read-only
// folders. As root, bwrap mounts with full rights (it can reach a work folder
// inside the server's private data folder) and keeps only the capabilities
// setpriv needs to drop to the sandbox uid. Otherwise it runs in a user
// namespace, and the sandbox may not create further ones.
function bwrapArgs({ workdir, hide, readOnly, limits, isRoot }) {
  const tmpfsRoots = ['/tmp', ...hide];
  const covered = OWN_PATHS.filter((own) => tmpfsRoots.some((root) => isWithin(own, root)));
  const binds = [...covered, ...readOnly].map((folder) => ['--ro-bind', folder]);
  return [
    '--unshare-net', '--unshare-pid', '--unshare-ipc', '--die-with-parent', '--new-session',
    ...(isRoot
      ? ['--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID']
      : ['--unshare-user', '--disable-userns']),
    '--ro-bind', '/', '/',
    '--proc', '/proc',
    '--dev', '/dev',
    '--perms', '1777', '--size', String(limits.maxFileMb * MB), '--tmpfs', '/tmp',
    ...hide.flatMap((folder) => ['--tmpfs', folder]),
    ...binds.flatMap(([, target]) => mountPointParents(target, tmpfsRoots)),
    ...binds.flatMap(([flag, folder]) => [flag, folder, folder]),
    ...hide.flatMap((folder) => ['--remount-ro', folder]),
    '--bind', workdir, SANDBOX_WORKDIR,
    '--chdir', SANDBOX_WORKDIR,
  ];
}

// bwrap creates a mount point's missing parents inside a tmpfs with mode
// 0700, which the sandbox uid could not pass through; create them 0755.
function mountPointParents(target, tmpfsRoots) {
  const root = tmpfsRoots
    .filter((candidate) => target.startsWith(`${candidate}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (!root) return [];
  const parents = [];
  for (let folder = path.dirname(target); folder !== root; folder = path.dirname(folder)) {
    parents.unshift(['--perms', '0755', '--dir', folder]);
  }
  return parents.flat();
}

function isWithin(target, folder) {
  return target === folder || target.startsWith(`${folder}/`);
}

// A clean environment: nothing of the server's (keys, paths) leaks in.
function sandboxEnv(workdir) {
  return { PATH: process.env.PATH, HOME: workdir, TMPDIR: '/tmp', LANG: 'C.UTF-8' };
}

module.exports = { buildSandboxCommand, SANDBOX_WORKDIR };
