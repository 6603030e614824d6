// dom.js: the few element builders the page's views share. Text goes in
// as text (textContent), never as HTML: what the server sends (names,
// chat, events) cannot become markup.

export const $ = (id) => document.getElementById(id);

export function item(parent, text, cls) {
  const li = document.createElement("li");
  li.textContent = text;
  if (cls) li.className = cls;
  parent.appendChild(li);
  return li;
}

export function button(parent, text, onClick, attrs = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  b.addEventListener("click", onClick);
  parent.appendChild(b);
  return b;
}

// A table with a caption and headings (and rows of plain text, if given);
// its body is t.tBodies[0].
export function table(caption, heads, { id, rows = [] } = {}) {
  const t = document.createElement("table");
  if (id) t.id = id;
  t.createCaption().textContent = caption;
  const hr = t.createTHead().insertRow();
  for (const h of heads) {
    const th = document.createElement("th");
    th.textContent = h;
    hr.appendChild(th);
  }
  const body = t.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    for (const v of r) tr.insertCell().textContent = v;
  }
  return t;
}

// An element in a box that scrolls sideways on a narrow screen.
export function wrapped(e) {
  const div = document.createElement("div");
  div.className = "table-wrap";
  div.appendChild(e);
  return div;
}
