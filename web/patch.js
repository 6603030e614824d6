// patch.js: RFC 6902 JSON Patch, the three operations akd's pushes use
// (add, remove, replace), applied in place to the public state. A path
// that does not fit the state throws: the caller then fetches the whole
// state again (`show`), as PROTOCOL.md asks of a client that lost track.

function unescape(token) { return token.replace(/~1/g, "/").replace(/~0/g, "~"); }

function parent(doc, path) {
  if (path === "" || path[0] !== "/") throw new Error(`bad patch path '${path}'`);
  const parts = path.slice(1).split("/").map(unescape);
  const last = parts.pop();
  let node = doc;
  for (const p of parts) {
    if (node === null || typeof node !== "object" || !(p in node)) throw new Error(`no '${p}' in the state (${path})`);
    node = node[p];
  }
  if (node === null || typeof node !== "object") throw new Error(`cannot patch ${path}`);
  return [node, last];
}

export function applyPatch(doc, ops) {
  for (const op of ops) {
    const [node, key] = parent(doc, op.path);
    const isArray = Array.isArray(node);
    const index = key === "-" ? node.length : Number(key);
    switch (op.op) {
      case "add":
        if (isArray) node.splice(index, 0, op.value);
        else node[key] = op.value;
        break;
      case "replace":
        if (isArray) node[index] = op.value;
        else {
          if (!(key in node)) throw new Error(`replace of a missing ${op.path}`);
          node[key] = op.value;
        }
        break;
      case "remove":
        if (isArray) node.splice(index, 1);
        else delete node[key];
        break;
      default:
        throw new Error(`unknown patch op '${op.op}'`);
    }
  }
  return doc;
}
