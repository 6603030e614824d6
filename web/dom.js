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
