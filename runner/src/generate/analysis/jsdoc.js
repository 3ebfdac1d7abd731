'use strict';
// Reads `@param {type} name` tags from the JSDoc comment just before a function, as type hints.

function docCommentFor(node, comments, source) {
  let best = null;
  for (const comment of comments) {
    if (comment.type !== 'Block' || !comment.value.startsWith('*') || comment.end > node.start) continue;
    // Only a comment separated from the function by its own statement prefix
    // (`module.exports.x =`, `export default`, `const f =`) belongs to it.
    const between = source.slice(comment.end, node.start);
    if (/[;{}]/.test(between) || between.length > 200) continue;
    if (!best || comment.end > best.end) best = comment;
  }
  return best ? best.value : null;
}

const TYPE_WORDS = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  bool: 'boolean',
  object: 'object',
  function: 'function',
  array: 'array',
  date: 'date',
  regexp: 'regexp',
  bigint: 'bigint',
  symbol: 'symbol',
  buffer: 'buffer',
  map: 'map',
  set: 'set',
  int: 'number',
  integer: 'number',
  float: 'number',
};

// '{string|number[]}' -> [{ type: 'string' }, { type: 'array', element: 'number' }]
function parseTypeExpression(expression) {
  const types = [];
  for (const part of expression.replace(/^[?!]|[=?!]$/g, '').split('|')) {
    const text = part.trim().replace(/^\(|\)$/g, '');
    const arrayOf = /^(?:Array\.?<(.+)>|(.+)\[\])$/.exec(text);
    if (arrayOf) {
      const element = TYPE_WORDS[(arrayOf[1] || arrayOf[2]).toLowerCase()];
      types.push({ type: 'array', element });
    } else if (text.startsWith('{')) {
      types.push({ type: 'object' });
    } else if (TYPE_WORDS[text.toLowerCase()]) {
      types.push({ type: TYPE_WORDS[text.toLowerCase()] });
    }
  }
  return types;
}

// Map of parameter path ('options' or 'options.long') to a list of types.
function paramTypesFromDoc(node, comments, source) {
  const doc = docCommentFor(node, comments, source);
  const found = new Map();
  if (!doc) return found;
  const tag = /@(?:param|arg|argument)\s+\{([^}]+)\}\s+\[?([\w$.]+)/g;
  for (let match = tag.exec(doc); match; match = tag.exec(doc)) {
    found.set(match[2], parseTypeExpression(match[1]));
  }
  return found;
}

module.exports = { paramTypesFromDoc };
