'use strict';
// The public surface of a package, as its package.json declares it: `exports` with its
// conditions and subpaths (resolved by resolve.exports, the resolver bundlers share, for the
// CommonJS and the ES module conditions of Node), `main` (`index.js` by default), the legacy
// `module`, `browser` and `react-native` fields, `bin`, and `types`.

const { resolve: resolveExports, imports: resolveImports } = require('resolve.exports');
const { resolveRelative, joinPath } = require('./imports');

// Conditions of a platform other than Node: what only they reach is a platform variant.
const PLATFORM_CONDITIONS = new Set([
  'browser',
  'react-native',
  'deno',
  'bun',
  'worker',
  'electron',
  'edge-light',
  'workerd',
  'worklet',
  'netlify',
  'react-server',
]);

// Every target string of an `exports` value with the conditions that lead to it:
// [{ subpath, conditions: [...], target }].
function exportLeaves(exportsField) {
  const leaves = [];
  const walk = (node, subpath, conditions) => {
    if (typeof node === 'string') leaves.push({ subpath, conditions, target: node });
    else if (Array.isArray(node)) node.forEach((item) => walk(item, subpath, conditions));
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('.')) walk(value, key, conditions);
        else walk(value, subpath, [...conditions, key]);
      }
    }
  };
  const topIsSubpaths =
    exportsField &&
    typeof exportsField === 'object' &&
    !Array.isArray(exportsField) &&
    Object.keys(exportsField).some((key) => key.startsWith('.'));
  walk(exportsField, topIsSubpaths ? null : '.', []);
  return leaves;
}

function leafRole(conditions) {
  if (conditions.includes('types') || conditions.includes('typings')) return 'types';
  const platform = conditions.find((condition) => PLATFORM_CONDITIONS.has(condition));
  if (platform && !conditions.includes('node')) return `platform:${platform}`;
  if (conditions.includes('require')) return 'require';
  if (conditions.includes('import') || conditions.includes('module')) return 'import';
  return 'default';
}

// A leaf without a platform or module-system condition is what Node requires, unless an earlier
// condition Node matches shadows it (`{ "node": {...}, "default": "./browser.js" }`): then only
// other runtimes reach it.
function defaultLeafRole(data, leaf) {
  const role = leafRole(leaf.conditions);
  if (role !== 'default') return role;
  const nodeTargets = [resolvedTarget(data, leaf.subpath, true), resolvedTarget(data, leaf.subpath, false)];
  return nodeTargets.includes(leaf.target) ? 'require' : 'platform:not-node';
}

// Paths of the package a target names; a `*` pattern names every file it matches.
function targetPaths(target, packageDir, paths) {
  if (typeof target !== 'string' || !target.startsWith('./')) return [];
  if (target.includes('*')) {
    const base = joinPath(packageDir, target.replace(/\*.*$/, ''));
    if (base === null) return [];
    const suffix = target.slice(target.indexOf('*') + 1);
    return [...paths].filter((path) => path.startsWith(base) && path.endsWith(suffix));
  }
  const path = resolveRelative(target, `${packageDir ? `${packageDir}/` : ''}package.json`, paths);
  return path ? [path] : [];
}

// The target a Node.js `require` (or `import`) of the subpath gets, or null.
function resolvedTarget(data, subpath, require) {
  try {
    const found = resolveExports(data, subpath, { require, conditions: ['node'] });
    return found && found.length ? found[0] : null;
  } catch {
    return null;
  }
}

// What Node resolves a subpath import (`#name`, package.json's `imports`) to, or null.
function resolvedImport(data, request, require) {
  try {
    const [found] = resolveImports(data, request, { require, conditions: ['node'] }) || [];
    return found || null;
  } catch {
    return null;
  }
}

// data: the normalized package.json; packageDir: its folder in the job ('' at the root);
// paths: Set of every job path. Returns { entries: [{ path, via, role }], bins: [{ name, path }],
// declarations: Set, twins: Map(ES module path -> its CommonJS twin's path) }.
// role: 'require' (what Node's require reaches), 'import' (only an ES module import),
// 'platform:NAME' (only another platform), 'types'.
function findSurface(data, packageDir, paths) {
  const entries = [];
  const twins = new Map();
  const add = (target, via, role) =>
    targetPaths(target, packageDir, paths).forEach((path) => entries.push({ path, via, role }));
  const exportsField = data.exports;
  if (exportsField !== undefined && exportsField !== null) {
    for (const leaf of exportExplicitLeaves(exportsField)) {
      // `"./*": "./*"` opens every file to importers; it names no entry point.
      if (leaf.subpath.includes('*') || leaf.subpath.endsWith('/') || leaf.target.includes('*')) continue;
      add(
        leaf.target,
        `exports[${JSON.stringify(leaf.subpath)}]${leaf.conditions.map((c) => `.${c}`).join('')}`,
        defaultLeafRole(data, leaf),
      );
    }
    for (const subpath of new Set(exportLeaves(exportsField).map((leaf) => leaf.subpath))) {
      if (subpath === null || subpath.includes('*')) continue;
      const required = resolvedTarget(data, subpath, true);
      const imported = resolvedTarget(data, subpath, false);
      const [requirePath] = required ? targetPaths(required, packageDir, paths) : [];
      const [importPath] = imported ? targetPaths(imported, packageDir, paths) : [];
      if (requirePath && importPath && requirePath !== importPath) twins.set(importPath, requirePath);
    }
  }
  const main = typeof data.main === 'string' && data.main ? data.main : 'index.js';
  const [mainPath] = targetPaths(main.startsWith('./') ? main : `./${main}`, packageDir, paths);
  if (exportsField === undefined || exportsField === null)
    add(main.startsWith('./') ? main : `./${main}`, 'main', 'require');
  // The legacy `module` field: the ES module build bundlers take, beside `main`'s CommonJS.
  if (typeof data.module === 'string') {
    const [modulePath] = targetPaths(
      data.module.startsWith('./') ? data.module : `./${data.module}`,
      packageDir,
      paths,
    );
    if (modulePath && !entries.some((entry) => entry.path === modulePath))
      entries.push({ path: modulePath, via: 'module', role: 'import' });
    if (modulePath && mainPath && modulePath !== mainPath && !twins.has(modulePath)) twins.set(modulePath, mainPath);
  }
  for (const field of ['browser', 'react-native']) {
    const value = data[field];
    const targets =
      typeof value === 'string'
        ? [value]
        : value && typeof value === 'object'
          ? Object.values(value).filter((v) => typeof v === 'string')
          : [];
    for (const target of targets) add(target.startsWith('./') ? target : `./${target}`, field, `platform:${field}`);
  }
  // A subpath import's target Node never selects (a `default` after a `node` condition) is
  // another platform's.
  for (const [name, value] of Object.entries(data.imports && typeof data.imports === 'object' ? data.imports : {})) {
    if (!name.startsWith('#') || name.includes('*')) continue;
    const nodeTargets = [resolvedImport(data, name, true), resolvedImport(data, name, false)];
    for (const leaf of exportLeaves(value)) {
      const role = leafRole(leaf.conditions);
      if (role === 'types' || nodeTargets.includes(leaf.target)) continue;
      const via = `imports[${JSON.stringify(name)}]${leaf.conditions.map((c) => `.${c}`).join('')}`;
      add(leaf.target, via, role.startsWith('platform:') ? role : 'platform:not-node');
    }
  }
  const bins = [];
  if (data.bin && typeof data.bin === 'object') {
    for (const [name, target] of Object.entries(data.bin)) {
      if (typeof target !== 'string') continue;
      const [path] = targetPaths(target.startsWith('./') ? target : `./${target}`, packageDir, paths);
      if (path) bins.push({ name, path });
    }
  }
  const declarations = new Set();
  for (const field of ['types', 'typings']) {
    if (typeof data[field] === 'string')
      targetPaths(data[field].startsWith('./') ? data[field] : `./${data[field]}`, packageDir, paths).forEach((path) =>
        declarations.add(path),
      );
  }
  return { entries, bins, declarations, twins };
}

// exportLeaves, plus the subpath "." for an `exports` that is a plain string or array.
function exportExplicitLeaves(exportsField) {
  return exportLeaves(exportsField).map((leaf) => ({ ...leaf, subpath: leaf.subpath ?? '.' }));
}

module.exports = { findSurface, exportLeaves, resolvedImport, PLATFORM_CONDITIONS };
