'use strict';
// A small CommonJS loader for the submitted files. Each load starts from an empty module
// registry, so every scenario sees the module as a freshly required one, the way a Jest test file
// does. The submitted files and Node's built-in modules resolve; a bare package name resolves
// only from the job's installed dependencies (`nodePath`, as Jest's `modulePaths` in a run), never
// from what happens to be installed next to the runner. A dependency's files are read from disk
// and loaded uninstrumented into the same fresh registry, so module state and timers captured at
// load behave as under Jest.

const fs = require('node:fs');
const vm = require('node:vm');
const path = require('node:path');
const { isBuiltin } = require('node:module');
const { imports: resolveImports } = require('resolve.exports');
const { RESOLVE_SUFFIXES } = require('../../package/imports');

const WRAPPER_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname'];

class MissingModuleError extends Error {
  constructor(request, fromFile) {
    super(`Cannot find module '${request}' from '${fromFile}'`);
    this.code = 'MODULE_NOT_FOUND';
    this.request = request;
  }
}

function isRelative(request) {
  return (
    request.startsWith('./') ||
    request.startsWith('../') ||
    request.startsWith('/') ||
    request === '.' ||
    request === '..'
  );
}

class ModuleLoader {
  // files: Map of absolute path -> { code } (instrumented JavaScript) or { json } (raw JSON text).
  // nodePath: absolute node_modules folder of the installed dependencies, or undefined.
  constructor(files, { nodePath } = {}) {
    this.files = files;
    this.nodePath = nodePath ? path.resolve(nodePath) : null;
    this.compiled = new Map();
    this.installed = new Map(); // dependency file -> { code } | { json } | { native: true }
    // The modules the last loadFresh loaded: file -> module, in the order they were required.
    this.lastRegistry = new Map();
  }

  isInstalled(file) {
    return this.nodePath !== null && file.startsWith(this.nodePath + path.sep);
  }

  resolve(request, fromFile) {
    if (isBuiltin(request)) return { builtin: request };
    if (this.isInstalled(fromFile)) return this.resolveInstalled(request, path.dirname(fromFile), fromFile);
    if (isRelative(request)) {
      const base = path.resolve(path.dirname(fromFile), request);
      for (const suffix of RESOLVE_SUFFIXES) {
        if (this.files.has(base + suffix)) return { file: base + suffix };
      }
      throw new MissingModuleError(request, fromFile);
    }
    if (request.startsWith('#')) return this.resolveSubpathImport(request, fromFile);
    if (this.nodePath === null) throw new MissingModuleError(request, fromFile);
    return this.resolveInstalled(request, this.nodePath, fromFile);
  }

  // A subpath import (`import x from '#internal'`) as Node resolves it: by the `imports` of the
  // package.json nearest above the importing file, with Node's conditions for its format (the
  // submitted ES modules are compiled to CommonJS, yet Node would import them).
  resolveSubpathImport(request, fromFile) {
    for (let dir = path.dirname(fromFile); ; dir = path.dirname(dir)) {
      const manifest = this.files.get(path.join(dir, 'package.json'));
      if (manifest !== undefined && manifest.json !== undefined) {
        let found;
        try {
          const data = JSON.parse(manifest.json);
          const esm = fromFile.endsWith('.mjs') || (data.type === 'module' && !fromFile.endsWith('.cjs'));
          [found] = resolveImports(data, request, { require: !esm, conditions: ['node'] }) || [];
        } catch {
          found = null;
        }
        if (typeof found === 'string' && found.startsWith('./')) {
          const file = path.resolve(dir, found);
          if (this.files.has(file)) return { file };
        }
        if (typeof found === 'string' && !found.startsWith('./') && this.nodePath !== null) {
          return this.resolveInstalled(found, this.nodePath, fromFile);
        }
        throw new MissingModuleError(request, fromFile);
      }
      if (dir === path.dirname(dir)) throw new MissingModuleError(request, fromFile);
    }
  }

  // Node's own resolution (package.json `main` and `exports`, nested node_modules) from `dir`.
  resolveInstalled(request, dir, fromFile) {
    let file;
    try {
      file = require.resolve(request, { paths: [dir] });
    } catch {
      throw new MissingModuleError(request, fromFile);
    }
    if (isBuiltin(file)) return { builtin: file };
    if (!this.isInstalled(file)) throw new MissingModuleError(request, fromFile);
    return { file };
  }

  source(file) {
    if (this.files.has(file)) return this.files.get(file);
    if (!this.installed.has(file)) {
      const text = file.endsWith('.node') ? null : fs.readFileSync(file, 'utf8');
      if (text === null) this.installed.set(file, { native: true });
      else if (file.endsWith('.json')) this.installed.set(file, { json: text });
      else this.installed.set(file, { code: text.startsWith('#!') ? `//${text}` : text });
    }
    return this.installed.get(file);
  }

  // null when the file is not a CommonJS script (an ES module dependency): Node loads it then.
  wrapperFor(file) {
    if (!this.compiled.has(file)) {
      let wrapper = null;
      try {
        wrapper = vm.compileFunction(this.source(file).code, WRAPPER_PARAMS, { filename: file });
      } catch (error) {
        if (!this.isInstalled(file)) throw error;
      }
      this.compiled.set(file, wrapper);
    }
    return this.compiled.get(file);
  }

  // Loads `entry` with a new, empty registry and returns its exports. `override` ({ path, code }:
  // a mutant of one submitted file, uninstrumented) replaces that file for this load only.
  // `preload`: files loaded first into the same registry (a file of a require cycle that loads
  // only the way its package loads it, through the cycle's entry; see PackageModel.cycleEntries).
  loadFresh(entry, override = null, preload = []) {
    const registry = new Map();
    this.lastRegistry = registry;
    const load = (file) => {
      if (registry.has(file)) return registry.get(file).exports;
      const overridden = override !== null && override.path === file;
      const source = overridden ? override : this.source(file);
      const module = { id: file, filename: file, exports: {}, loaded: false, children: [], paths: [] };
      registry.set(file, module);
      let wrapper = null;
      if (overridden) wrapper = vm.compileFunction(override.code, WRAPPER_PARAMS, { filename: file });
      else if (source.json === undefined && !source.native) wrapper = this.wrapperFor(file);
      if (source.json !== undefined) {
        module.exports = JSON.parse(source.json);
      } else if (wrapper === null) {
        module.exports = require(file);
      } else {
        const requireFrom = makeRequire(file);
        module.require = requireFrom;
        wrapper.call(module.exports, module.exports, requireFrom, module, file, path.dirname(file));
      }
      module.loaded = true;
      return module.exports;
    };
    const makeRequire = (fromFile) => {
      const requireFrom = (request) => {
        const resolved = this.resolve(String(request), fromFile);
        return resolved.builtin ? require(resolved.builtin) : load(resolved.file);
      };
      requireFrom.resolve = (request) => {
        const resolved = this.resolve(String(request), fromFile);
        return resolved.builtin || resolved.file;
      };
      requireFrom.cache = Object.create(null);
      return requireFrom;
    };
    for (const file of preload) load(file);
    return load(entry);
  }
}

module.exports = { ModuleLoader };
