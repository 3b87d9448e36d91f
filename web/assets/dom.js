// A tiny view layer: h() builds elements, and a few helpers around it.

/**
 * @typedef {Record<string, any>} Props
 * @typedef {Node|string|number|null|undefined|false} Child
 */

/**
 * Create an element. Props starting with "on" become listeners; `class`, `text`, `html`,
 * `dataset` and `style` are handled; others become attributes (true → empty, false/null → none).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Child|Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'html') el.innerHTML = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style') el.setAttribute('style', v);
    else if (k === 'value' && 'value' in el) /** @type {any} */ (el).value = v;
    else if (k === 'checked' && 'checked' in el) /** @type {any} */ (el).checked = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/** @param {Element} el @param {(Child|Child[])[]} children */
function append(el, children) {
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

/** Replace an element's children. @param {Element} el @param {...(Child|Child[])} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** Show a short message at the bottom of the screen. */
export function toast(/** @type {string} */ text, /** @type {'info'|'error'|'good'} */ kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(box);
  }
  const t = h('div', { class: `toast ${kind}` }, text);
  box.append(t);
  setTimeout(() => t.classList.add('leaving'), 3800);
  setTimeout(() => t.remove(), 4300);
}

/** Format milliseconds as m:ss (or h:mm:ss), tenths under ten seconds. */
export function clockText(/** @type {number} */ ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  if (s < 10) return `0:0${s}.${Math.floor((ms % 1000) / 100)}`;
  const hours = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = hours ? String(m).padStart(2, '0') : String(m);
  return `${hours ? hours + ':' : ''}${mm}:${String(sec).padStart(2, '0')}`;
}
