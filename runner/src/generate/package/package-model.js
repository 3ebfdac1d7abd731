'use strict';
// A submitted package as generation sees it: its package.json read as npm reads it, its public
// surface, and every JavaScript file's part:
//   - targets: source modules, those the entry points reach first (in the order they reach
//     them), then the others, at most `cap`;
//   - programs: `bin` entries, tested by running them, never loaded as libraries;
//   - skipped, with a reason (file-roles.js): the package's own tests, benchmarks, examples,
//     fixtures, build configuration, declarations, minified files and bundles, the ES module
//     twins of CommonJS files, variants for other platforms whose dependencies are missing.
// Skipped files are left out of the suite's folder unless a file that stays requires them.

const { isBuiltin } = require('node:module');
const { classifySource } = require('../analysis/source-kind');
const { readPackageJson, declaredDependencies } = require('./package-json');
const { findSurface, resolvedImport } = require('./surface');
const { requestsOf, resolveRelative, isRelative, packageNameOf, isFileSystemRequest } = require('./imports');
const { REASONS, pathReason, looksBundled, looksMinified } = require('./file-roles');

const DEFAULT_TARGET_CAP = 80;
const TOOLING =
  /^(jest|babel|rollup|webpack|vite|vitest|eslint|prettier|karma|tsup|esbuild|gulpfile|gruntfile|jakefile|commitlint|lint-staged|postcss|tailwind)(\.[\w-]+)*\.[cm]?[jt]s$|^\.[\w-]*rc(\.[\w-]+)*\.[cm]?js$/i;
const ESM_EXTENSIONS = /\.m[jt]s$/i;
// Files reached from a file that fails to load, looked at for the rest of its require cycle.
const MAX_CYCLE_CANDIDATES = 50;
const NODE_SHEBANG = /^#!.*\bnode\b/;
// A module that exports nothing: run for its effects (a program's body reads the command line
// and exits), never a library.
const EXPORTS =
  /\bmodule\.exports\b|\bexports\s*[.[]|\bdefineProperty\(\s*(module\.)?exports\b|^\s*export\b|\bexport\s*(\{|default\b|const\b|function\b|class\b)/m;

function dirOf(path) {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

function depth(path) {
  return path.split('/').length;
}

// The package.json files of the job by folder, normalized; the shallowest is the package's.
function readManifests(files) {
  const manifests = new Map();
  for (const file of files) {
    if (file.path !== 'package.json' && !file.path.endsWith('/package.json')) continue;
    if (file.path.split('/').includes('node_modules')) continue;
    manifests.set(dirOf(file.path), readPackageJson(file.content));
  }
  const root = [...manifests.keys()].sort((a, b) => (a === '' ? 0 : depth(a)) - (b === '' ? 0 : depth(b)))[0];
  return { manifests, root: root === undefined ? null : root };
}

// "module" or "commonjs": the type of the nearest package.json above `path`.
function folderType(path, manifests) {
  for (let dir = dirOf(path); ; dir = dirOf(dir)) {
    const manifest = manifests.get(dir);
    if (manifest && typeof manifest.data.type === 'string')
      return manifest.data.type === 'module' ? 'module' : 'commonjs';
    if (dir === '') return 'commonjs';
  }
}

class PackageModel {
  // files: [{ path, content }]; cap: most files targeted.
  constructor(files, { cap = DEFAULT_TARGET_CAP } = {}) {
    this.cap = cap;
    this.paths = new Set(files.map((file) => file.path));
    this.contents = new Map(files.map((file) => [file.path, file.content]));
    const { manifests, root } = readManifests(files);
    this.manifests = manifests;
    this.root = root;
    this.data = root === null ? {} : manifests.get(root).data;
    this.warnings = root === null ? [] : manifests.get(root).warnings;
    this.surface =
      root === null
        ? { entries: [], bins: [], declarations: new Set(), twins: new Map() }
        : findSurface(this.data, root, this.paths);
    // JavaScript by its extension, and the programs npm runs with Node whatever their name
    // (`bin/cli` with a `#!/usr/bin/env node` line).
    const nodePrograms = new Set(
      this.surface.bins.map((bin) => bin.path).filter((path) => NODE_SHEBANG.test(this.contents.get(path))),
    );
    this.code = files
      .filter((file) => nodePrograms.has(file.path) || classifySource(file.path, file.content).kind === 'javascript')
      .map((file) => file.path);
    this.declarationFiles = files.filter((file) => /\.d\.[cm]?tsx?$/i.test(file.path)).map((file) => file.path);
    this.requests = new Map(this.code.map((path) => [path, requestsOf(this.contents.get(path))]));
    this.classify();
  }

  // The files `path` requires or imports that are in the job.
  edges(path) {
    const found = [];
    for (const request of this.requests.get(path) || []) {
      let target = null;
      if (isRelative(request)) target = resolveRelative(request, path, this.paths);
      else if (request.startsWith('#')) target = this.subpathImport(request, path);
      else if (
        this.root !== null &&
        this.data.name &&
        (request === this.data.name || request.startsWith(`${this.data.name}/`))
      ) {
        // A self-reference (`require('my-package/sub')`) reaches the package's own files.
        target = resolveRelative(
          `.${request.slice(this.data.name.length) || '/'}`,
          `${this.root ? `${this.root}/` : ''}package.json`,
          this.paths,
        );
      }
      if (target && this.requests.has(target)) found.push(target);
    }
    return found;
  }

  // The file a subpath import (`import x from '#internal'`, package.json's `imports`) names for
  // Node, or null.
  subpathImport(request, fromPath) {
    if (this.root === null || !this.data.imports) return null;
    const found = resolvedImport(this.data, request, this.formatOf(fromPath) === 'commonjs');
    if (typeof found !== 'string' || !found.startsWith('./')) return null;
    return resolveRelative(found, `${this.root ? `${this.root}/` : ''}package.json`, this.paths);
  }

  // Files reached from `starts`, in breadth-first order.
  reach(starts) {
    const order = [];
    const seen = new Set();
    const queue = starts.filter((path) => this.requests.has(path));
    while (queue.length) {
      const path = queue.shift();
      if (seen.has(path)) continue;
      seen.add(path);
      order.push(path);
      queue.push(...this.edges(path));
    }
    return order;
  }

  // Files to load before `path` when it fails to load on its own, most likely first: the
  // package's entry points that reach it, then the other files of its require cycle (those it
  // reaches that reach it back), those that reach the most files first. A file in the middle of
  // a cycle (chai's `utils/index.js`, immer's `utils/common.ts` under its `internal.ts` barrel)
  // reads members of a module still half loaded when it is required first; its users never
  // load it first.
  cycleEntries(path) {
    const reachesPath = (start) => start !== path && this.reach([start]).includes(path);
    const entries = this.surface.entries
      .filter((entry) => entry.role === 'require' || entry.role === 'import')
      .map((entry) => entry.path)
      .filter(reachesPath);
    // The nearest files it reaches are enough, and keep this cheap in a package of thousands.
    const cycle = this.reach([path])
      .slice(1, MAX_CYCLE_CANDIDATES + 1)
      .filter(reachesPath);
    const size = new Map(cycle.map((member) => [member, this.reach([member]).length]));
    cycle.sort((a, b) => size.get(b) - size.get(a));
    return [...new Set([...entries, ...cycle])];
  }

  // Whether `path`, or a file of the package it reaches, requires a file system module: its tests
  // then run in a temporary folder of their own (writing/test-writer.js), where relative paths
  // the code writes land, never in the package's folder.
  reachesFileSystem(path) {
    return this.reach([path]).some((reached) => (this.requests.get(reached) || []).some(isFileSystemRequest));
  }

  formatOf(path) {
    if (ESM_EXTENSIONS.test(path)) return 'module';
    if (/\.[cm]?tsx?$/i.test(path) || /\.cjs$/i.test(path)) return 'commonjs';
    return folderType(path, this.manifests);
  }

  // The type of the folder a test file for `path` sits in: its test file needs `.cjs` there.
  testFormat(path) {
    return folderType(path, this.manifests);
  }

  relative(path) {
    return this.root && path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : path;
  }

  // Bare packages a file requires that are neither Node's nor declared by the package.
  undeclared(path) {
    const declared = declaredDependencies(this.data);
    return (this.requests.get(path) || [])
      .filter(
        (request) =>
          !isRelative(request) && !request.startsWith('/') && !request.startsWith('#') && !isBuiltin(request),
      )
      .map(packageNameOf)
      .filter((name) => name !== this.data.name && !declared.has(name));
  }

  classify() {
    const { entries, bins, twins } = this.surface;
    const byRole = (test) => entries.filter((entry) => test(entry.role)).map((entry) => entry.path);
    const requireReach = this.reach(byRole((role) => role === 'require'));
    const requireSet = new Set(requireReach);
    const importReach = this.reach(byRole((role) => role === 'import')).filter((path) => !requireSet.has(path));
    const nodeReach = new Set([...requireReach, ...importReach]);
    // What only another platform's condition or field reaches (path -> how), which Node never loads.
    const platformOnly = new Map();
    for (const entry of entries.filter((e) => e.role.startsWith('platform:'))) {
      for (const path of this.reach([entry.path]))
        if (!nodeReach.has(path) && !platformOnly.has(path)) platformOnly.set(path, entry.via);
    }
    const programPaths = new Set(bins.map((bin) => bin.path));
    const programReach = new Set(this.reach([...programPaths]));
    const reasons = new Map();
    const skip = (path, reason, detail) => {
      if (!reasons.has(path)) reasons.set(path, { reason, detail });
    };

    for (const path of this.declarationFiles) skip(path, 'type_declaration');
    for (const path of this.code) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (programPaths.has(path)) continue;
      if (TOOLING.test(name)) skip(path, 'tooling');
      if (programReach.has(path) && !nodeReach.has(path) && !EXPORTS.test(this.contents.get(path)))
        skip(path, 'program_module');
      const byPath = pathReason(this.relative(path));
      if (byPath && !requireSet.has(path)) skip(path, byPath);
      if (this.formatOf(path) === 'module') {
        const twin = twins.get(path) || this.sameStemTwin(path);
        if (twin) skip(path, 'es_module_twin', `of ${twin}`);
      }
      if (!nodeReach.has(path)) {
        const compiled = this.compiledFrom(path);
        if (compiled) skip(path, 'typescript_source', `of ${compiled}`);
      }
      if (!nodeReach.has(path)) {
        if (looksMinified(path, this.contents.get(path))) skip(path, 'minified');
        else if (looksBundled(this.contents.get(path)) && this.code.length > 1) skip(path, 'bundle');
      }
      // The legacy `module` field's or the `import` condition's copy of what `require` reaches.
      if (importReach.includes(path) && requireReach.length && twins.size)
        skip(path, 'es_module_twin', 'of the CommonJS build');
      // What the entry points do not reach and requires packages the package does not declare
      // (its devDependencies, another platform's modules) is a development file; what only another
      // platform reaches is its variant either way (a browser copy run in Node tests nothing users run).
      if (!nodeReach.has(path) && this.root !== null) {
        const missing = this.undeclared(path);
        const needs = missing.length
          ? `requires ${missing.join(', ')}, which the package does not declare as ${missing.length > 1 ? 'dependencies' : 'a dependency'}`
          : '';
        if (platformOnly.has(path))
          skip(path, 'platform_variant', [`reached by ${platformOnly.get(path)}`, needs].filter(Boolean).join('; '));
        else if (missing.length) skip(path, 'development_file', needs);
      }
    }
    const order = [...requireReach, ...importReach, ...this.code.filter((path) => !nodeReach.has(path)).sort()];
    const candidates = order.filter((path) => !reasons.has(path) && !programPaths.has(path));
    this.targets = candidates.slice(0, this.cap);
    const overCap = candidates.slice(this.cap);
    overCap.forEach((path) =>
      skip(path, 'over_cap', `${this.cap} files are tested at most; ${candidates.length} were found`),
    );
    this.candidateCount = candidates.length;
    this.programs = bins.filter((bin) => this.requests.has(bin.path));
    this.skipped = [...reasons.entries()].map(([path, { reason, detail }]) => ({
      path,
      reason,
      message: REASONS[reason] + (detail ? ` (${detail})` : ''),
    }));
    // What the suite's folder holds: every file but the skipped ones (over the cap included) that
    // no target or program requires, directly or not. Only what is tested counts: every Jest run
    // collects coverage over every file in the folder, so that a file kept because an untested
    // file over the cap needs it cost each run its instrumentation (date-fns: its 313 ES module
    // twins, required by files over the cap only, were in the folder of each verification run).
    const needed = new Set(this.reach([...this.targets, ...programPaths]));
    const left = new Set([...reasons.entries()].filter(([path]) => !needed.has(path)).map(([path]) => path));
    this.runPaths = [...this.paths].filter((path) => !left.has(path));
  }

  // The JavaScript file of the package that the TypeScript source `path` was compiled to, by
  // the same path in another top folder (`lib/compile/index.ts` and `dist/compile/index.js`,
  // `src/x.ts` and `build/x.js`), or null.
  compiledFrom(path) {
    if (!/\.[cm]?tsx?$/i.test(path) || /\.d\.[cm]?tsx?$/i.test(path)) return null;
    const [top, ...rest] = this.relative(path).split('/');
    if (!rest.length) return null;
    const javascript = rest.join('/').replace(/\.([cm]?)tsx?$/i, '.$1js');
    const prefix = this.root ? `${this.root}/` : '';
    const folders = new Set(this.code.map((code) => this.relative(code).split('/')[0]));
    folders.delete(top);
    for (const folder of folders) {
      const candidate = `${prefix}${folder}/${javascript}`;
      if (this.requests.has(candidate)) return candidate;
    }
    return null;
  }

  // `index.js` beside `index.cjs` (or `index.mjs` beside `index.js` in a CommonJS folder).
  sameStemTwin(path) {
    const stem = path.replace(/\.[cm]?[jt]s$/i, '');
    return (
      ['.cjs', '.js', '.cts', '.ts']
        .map((extension) => stem + extension)
        .find(
          (candidate) => candidate !== path && this.requests.has(candidate) && this.formatOf(candidate) === 'commonjs',
        ) || null
    );
  }

  // The entry points for the summary: [{ path, via }].
  entryPoints() {
    return this.surface.entries
      .filter((entry) => entry.role === 'require' || entry.role === 'import')
      .map(({ path, via }) => ({ path, via }));
  }

  summary() {
    return {
      ...(this.root !== null
        ? {
            name: this.data.name || null,
            version: this.data.version || null,
            type: this.data.type === 'module' ? 'module' : 'commonjs',
          }
        : {}),
      entryPoints: this.entryPoints(),
      programs: this.programs.map(({ name, path }) => ({ name, path })),
      targets: { tested: this.targets.length, found: this.candidateCount, cap: this.cap },
    };
  }
}

REASONS.tooling = 'build or tool configuration';

module.exports = { PackageModel, DEFAULT_TARGET_CAP };
