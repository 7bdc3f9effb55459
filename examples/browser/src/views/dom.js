// Small DOM helpers shared by the views.

/** An element with attributes/properties and children (strings become text). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    // Attributes without a property of their own name (data-*, aria-*, role, for).
    else if (key.includes('-') || key === 'role' || key === 'for') node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

export const $ = (selector) => document.querySelector(selector);

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** `text` safe to place in markup, as text or in a quoted attribute. */
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

export const BADGE_NAMES = { native: 'NATIVE', foreign: 'FOREIGN', pending: 'PENDING', inbound_pending: 'INBOUND-PENDING' };

export const badge = (b) => el('span', { class: `badge ${b}` }, BADGE_NAMES[b] ?? b);

const hex = (n) => `0x${n.toString(16)}`;

/** An anchor in words, with the addresses of the image the memory was written at. */
export function anchorText(a, imageBase) {
  const at = (offset) => hex(offset + imageBase);
  switch (a.kind) {
    case 'function': return `function ${a.name} @ ${at(a.start)}${a.end === null ? '' : `-${at(a.end)}`}`;
    case 'range': return `range ${at(a.start)}-${at(a.end)}`;
    case 'address': return `address ${at(a.offset)}`;
    case 'near': return `near ${at(a.offset)} ± ${a.radius}`;
    default: return `string "${a.value}"`;
  }
}

export const day = (seconds) => new Date(seconds * 1000).toISOString().slice(0, 10);
