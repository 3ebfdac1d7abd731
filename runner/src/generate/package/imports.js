'use strict';
// What a source file requires or imports, read from its text without parsing it (a package may
// hold thousands of files; a missed or extra edge only changes the order of targets), and where a
// relative request lands among the package's files, resolved as Node and Jest resolve it.

const REQUEST_PATTERNS = [
  /\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
  /\b(?:import|export)\b[^'";]*?\bfrom\s*(['"])([^'"\n]+)\1/g,
  /\bimport\s*(['"])([^'"\n]+)\1/g,
  /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
];

// Requests of Node's file system, or of a package named for one (graceful-fs, fs-extra).
const FILE_SYSTEM_REQUEST = /^(node:)?fs(\/promises)?$|^(@[\w.-]+\/)?([\w.]+-)*fs(-[\w.]+)*$/;

function isFileSystemRequest(request) {
  return FILE_SYSTEM_REQUEST.test(request);
}

function requestsOf(content) {
  const requests = new Set();
  for (const pattern of REQUEST_PATTERNS) {
    for (const match of content.matchAll(pattern)) requests.add(match[2]);
  }
  return [...requests];
}

// What a relative request may leave out, tried in this order, as Jest resolves with its
// moduleFileExtensions (TypeScript included): by the package model here, and by the generator's
// own module loader (execution/child/module-loader.js), so that both find the same file.
const RESOLVE_SUFFIXES = [
  '',
  '.js',
  '.cjs',
  '.mjs',
  '.ts',
  '.tsx',
  '.cts',
  '.mts',
  '.json',
  '/index.js',
  '/index.cjs',
  '/index.mjs',
  '/index.ts',
  '/index.json',
];

function isRelative(request) {
  return request === '.' || request === '..' || request.startsWith('./') || request.startsWith('../');
}

// The package path `request` names from `fromPath` (both relative to the job folder), or null.
// `.js` requests also find `.ts` files, as TypeScript's own imports name them.
function resolveRelative(request, fromPath, paths) {
  const dir = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
  const base = joinPath(dir, request);
  if (base === null) return null;
  for (const suffix of RESOLVE_SUFFIXES) {
    if (paths.has(base + suffix)) return base + suffix;
  }
  const typescript = base.replace(/\.([cm]?)js$/, '.$1ts');
  return typescript !== base && paths.has(typescript) ? typescript : null;
}

// Joins a folder and a relative path; null when it climbs out of the job folder.
function joinPath(dir, relative) {
  const parts = dir ? dir.split('/') : [];
  for (const part of relative.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts.join('/');
}

// The package name a bare request names (`lodash/fp` -> `lodash`, `@a/b/c` -> `@a/b`).
function packageNameOf(request) {
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

module.exports = {
  requestsOf,
  isFileSystemRequest,
  resolveRelative,
  isRelative,
  joinPath,
  packageNameOf,
  RESOLVE_SUFFIXES,
};
