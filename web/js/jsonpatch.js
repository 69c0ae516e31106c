// A small RFC 6902 (JSON Patch) applier with RFC 6901 pointers.
// applyPatch(doc, ops) returns a NEW document (the input is never mutated);
// it throws PatchError when an op cannot apply or a "test" fails, so callers
// can fall back to asking the server for a fresh snapshot.

export class PatchError extends Error {
  constructor(message, op) {
    super(message);
    this.name = "PatchError";
    this.op = op;
  }
}

export function parsePointer(ptr) {
  if (ptr === "") return [];
  if (typeof ptr !== "string" || ptr[0] !== "/") throw new PatchError(`bad JSON pointer '${ptr}'`);
  return ptr
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function clone(v) {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

function isIndex(tok) {
  return /^(0|[1-9][0-9]*)$/.test(tok);
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

/** Walk to the parent of the last token; returns [parent, lastToken]. */
function locate(doc, tokens, op) {
  let cur = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i];
    if (Array.isArray(cur)) {
      if (!isIndex(t) || +t >= cur.length) throw new PatchError(`path not found: ${op.path}`, op);
      cur = cur[+t];
    } else if (cur !== null && typeof cur === "object") {
      if (!Object.prototype.hasOwnProperty.call(cur, t)) throw new PatchError(`path not found: ${op.path}`, op);
      cur = cur[t];
    } else {
      throw new PatchError(`path not found: ${op.path}`, op);
    }
  }
  if (cur === null || typeof cur !== "object") throw new PatchError(`path not found: ${op.path}`, op);
  return [cur, tokens[tokens.length - 1]];
}

function getAt(doc, path, op) {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return doc;
  const [parent, last] = locate(doc, tokens, op);
  if (Array.isArray(parent)) {
    if (!isIndex(last) || +last >= parent.length) throw new PatchError(`path not found: ${path}`, op);
    return parent[+last];
  }
  if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new PatchError(`path not found: ${path}`, op);
  return parent[last];
}

function addAt(doc, path, value, op) {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const [parent, last] = locate(doc, tokens, op);
  if (Array.isArray(parent)) {
    if (last === "-") parent.push(value);
    else {
      if (!isIndex(last) || +last > parent.length) throw new PatchError(`bad array index: ${path}`, op);
      parent.splice(+last, 0, value);
    }
  } else {
    parent[last] = value;
  }
  return doc;
}

function removeAt(doc, path, op) {
  const tokens = parsePointer(path);
  if (tokens.length === 0) throw new PatchError("cannot remove the whole document", op);
  const [parent, last] = locate(doc, tokens, op);
  let old;
  if (Array.isArray(parent)) {
    if (!isIndex(last) || +last >= parent.length) throw new PatchError(`path not found: ${path}`, op);
    old = parent.splice(+last, 1)[0];
  } else {
    if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new PatchError(`path not found: ${path}`, op);
    old = parent[last];
    delete parent[last];
  }
  return [doc, old];
}

function replaceAt(doc, path, value, op) {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const [parent, last] = locate(doc, tokens, op);
  if (Array.isArray(parent)) {
    if (!isIndex(last) || +last >= parent.length) throw new PatchError(`path not found: ${path}`, op);
    parent[+last] = value;
  } else {
    if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new PatchError(`path not found: ${path}`, op);
    parent[last] = value;
  }
  return doc;
}

export function applyOp(doc, op) {
  switch (op.op) {
    case "add":
      return addAt(doc, op.path, clone(op.value), op);
    case "remove":
      return removeAt(doc, op.path, op)[0];
    case "replace":
      return replaceAt(doc, op.path, clone(op.value), op);
    case "move": {
      if (op.path.startsWith(op.from + "/")) throw new PatchError("cannot move a value into itself", op);
      if (op.from === op.path) return doc;
      const [d, v] = removeAt(doc, op.from, op);
      return addAt(d, op.path, v, op);
    }
    case "copy":
      return addAt(doc, op.path, clone(getAt(doc, op.from, op)), op);
    case "test":
      if (!deepEqual(getAt(doc, op.path, op), op.value)) throw new PatchError(`test failed at ${op.path}`, op);
      return doc;
    default:
      throw new PatchError(`unknown op '${op.op}'`, op);
  }
}

export function applyPatch(doc, ops) {
  let out = clone(doc);
  for (const op of ops) out = applyOp(out, op);
  return out;
}

export { deepEqual };
