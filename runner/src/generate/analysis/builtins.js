'use strict';
// What calls to JavaScript's built-ins reveal about the values involved: `x.trim()` means x is a
// string, `x.map(f)` an array and f a function, `Array.isArray(x)` an array, `x.getTime()` a Date.

const STRING_METHODS = new Set([
  'toLowerCase',
  'toUpperCase',
  'trim',
  'trimStart',
  'trimEnd',
  'charAt',
  'charCodeAt',
  'codePointAt',
  'startsWith',
  'endsWith',
  'padStart',
  'padEnd',
  'substr',
  'substring',
  'split',
  'replace',
  'replaceAll',
  'match',
  'matchAll',
  'search',
  'normalize',
  'localeCompare',
  'repeat',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
]);
const ARRAY_METHODS = new Set([
  'map',
  'forEach',
  'filter',
  'reduce',
  'reduceRight',
  'push',
  'pop',
  'shift',
  'unshift',
  'join',
  'some',
  'every',
  'find',
  'findIndex',
  'findLast',
  'sort',
  'reverse',
  'splice',
  'flat',
  'flatMap',
  'fill',
  'keys',
  'entries',
]);
const SHARED_METHODS = new Set(['indexOf', 'lastIndexOf', 'includes', 'slice', 'concat', 'at', 'toString', 'valueOf']);
const DATE_METHODS =
  /^(get|set)(UTC)?(FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds|Time|TimezoneOffset)$|^to(ISO|UTC|Date|Time|Locale(Date|Time)?)String$|^toJSON$/;
const OBJECT_METHODS = new Set(['hasOwnProperty', 'propertyIsEnumerable', 'isPrototypeOf', 'toLocaleString']);
const CALLBACK_TAKING_METHODS = new Set([
  'map',
  'forEach',
  'filter',
  'reduce',
  'reduceRight',
  'some',
  'every',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'flatMap',
  'sort',
  'then',
  'catch',
  'finally',
  'replace',
  'replaceAll',
]);
const REGEX_TAKING_METHODS = new Set(['match', 'matchAll', 'replace', 'replaceAll', 'split', 'search']);
const NUMBER_FUNCTIONS = new Set(['isNaN', 'isFinite', 'parseInt', 'parseFloat']);
const GLOBAL_CALLS = {
  'Array.isArray': 'array',
  'Number.isInteger': 'number',
  'Number.isFinite': 'number',
  'Number.isNaN': 'number',
  'Number.isSafeInteger': 'number',
  'Object.keys': 'object',
  'Object.values': 'object',
  'Object.entries': 'object',
  'Buffer.isBuffer': 'buffer',
  'ArrayBuffer.isView': 'typedarray',
};
const INSTANCE_TYPES = {
  Date: 'date',
  RegExp: 'regexp',
  Array: 'array',
  Function: 'function',
  Object: 'object',
  Buffer: 'buffer',
  Map: 'map',
  Set: 'set',
  Uint8Array: 'typedarray',
  Int32Array: 'typedarray',
  Float64Array: 'typedarray',
};

// Methods of `fs` (and of its promise and patched copies) whose first argument is a path; those
// in FS_TWO_PATH_METHODS take a second path (`rename(from, to)`).
const FS_TWO_PATH_METHODS = new Set(['rename', 'copyFile', 'cp', 'link', 'symlink']);
const FS_PATH_METHODS = new Set([
  ...FS_TWO_PATH_METHODS,
  'access',
  'appendFile',
  'chmod',
  'chown',
  'createReadStream',
  'createWriteStream',
  'exists',
  'lchmod',
  'lchown',
  'lstat',
  'lutimes',
  'mkdir',
  'mkdtemp',
  'open',
  'opendir',
  'readFile',
  'readdir',
  'readlink',
  'realpath',
  'rm',
  'rmdir',
  'stat',
  'statfs',
  'truncate',
  'unlink',
  'utimes',
  'watch',
  'watchFile',
  'writeFile',
]);
// Parameter names that mean a file-system path in code that uses the file system.
const PATH_PARAMETER_NAME =
  /^(p|path|file|fileName|filename|filePath|filepath|dir|dirName|dirname|directory|folder|src|dest|target|from|to|root|cwd|\w+(Path|File|Dir))$/;

// String methods whose result is the string itself up to case and surrounding spaces.
const NORMALIZING_STRING_METHODS = [
  'toLowerCase',
  'toUpperCase',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
  'trim',
  'trimStart',
  'trimEnd',
];

module.exports = {
  FS_PATH_METHODS,
  FS_TWO_PATH_METHODS,
  PATH_PARAMETER_NAME,
  NORMALIZING_STRING_METHODS,
  STRING_METHODS,
  ARRAY_METHODS,
  SHARED_METHODS,
  DATE_METHODS,
  OBJECT_METHODS,
  CALLBACK_TAKING_METHODS,
  REGEX_TAKING_METHODS,
  NUMBER_FUNCTIONS,
  GLOBAL_CALLS,
  INSTANCE_TYPES,
};
