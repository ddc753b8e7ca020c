// <curie-search>: the registry's search box for other sites (README, "Embeddable search box"). No
// framework, styles in a shadow root. The registry serves it as ONE classic script: this file with the site's
// own combobox (namespace-suggestions.js, the same keys and announcements as the site's search box) put in
// place of the import (src/registry/embed/embed-script.ts). Choosing a suggestion writes "prefix:" for the
// accession to follow; Enter on "prefix:accession" opens it at the resolver, on other words the registry's
// search page. Attributes: registry (base URL; the script's own by default), resolver (base URL; the
// registry's /resolve redirect by default), label, placeholder, target ("_blank": new tab).
import { attachNamespaceSuggestions } from '../namespace-suggestions.js';

const TAG = 'curie-search';
// A classic script knows its own address while it runs; the registry serves it at {registry}/embed/….
const here = document.currentScript && document.currentScript.src;
const ownRegistry = here ? here.replace(/\/embed\/[^/]*$/, '') : '';
// The host page's rules outrank :host's, so the reset is the form's: nothing the page sets is inherited,
// the root's font-size included (em, and all:initial's medium: the reader's own default size).
const CSS = `:host{display:block;--accent:var(--curie-search-accent,#0b57a4)}
:host([hidden]){display:none}
form{all:initial;display:flex;flex-wrap:wrap;gap:.5em;align-items:flex-end;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1b1f24}
.field{display:flex;flex-direction:column;flex:1 1 16em;position:relative}
label{font-weight:600}
.hint{color:#4f5a65;font-size:.9em}
input,button{font:inherit;margin:0;box-sizing:border-box}
input{padding:.45em .6em;border:1px solid #6e7781;border-radius:4px;background:#fff;color:#1b1f24;width:100%}
button{padding:.45em 1em;border:1px solid var(--accent);border-radius:4px;background:var(--accent);color:#fff;cursor:pointer}
:focus-visible{outline:3px solid #c75000;outline-offset:2px}
ul.suggestions{position:absolute;top:100%;left:0;right:0;z-index:5;margin:2px 0 0;padding:0;list-style:none;background:#fff;border:1px solid #d0d7de;box-shadow:0 4px 12px rgb(0 0 0/.12)}
.suggestions[hidden]{display:none}
.suggestions li{padding:.35em .6em;cursor:pointer}
.suggestions li[aria-selected=true],.suggestions li:hover{background:#f3f5f7;outline:2px solid #c75000;outline-offset:-2px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

// The base URL of an attribute, without a trailing slash.
const base = (value) => (value || '').trim().replace(/\/+$/, '');
// As the site writes a resolver link: the identifier in the path, ? and # escaped.
const inPath = (id) => encodeURI(id).replace(/[?#]/g, encodeURIComponent);

function make(name, attributes, text) {
  const element = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text) element.textContent = text;
  return element;
}

function style(root) {
  // A constructed sheet: no <style> element, so a host page's Content-Security-Policy needs no style-src.
  if (root.adoptedStyleSheets && window.CSSStyleSheet && CSSStyleSheet.prototype.replaceSync) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } else root.append(make('style', {}, CSS));
}

class CurieSearch extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    style(root);
    const form = make('form', { role: 'search', part: 'form' });
    const field = make('div', { class: 'field' });
    const input = make('input', {
      id: 'q',
      type: 'text',
      name: 'q',
      part: 'input',
      required: '',
      'aria-describedby': 'hint',
      autocapitalize: 'off',
      spellcheck: 'false',
      placeholder: this.getAttribute('placeholder') || '',
    });
    field.append(
      make('label', { for: 'q' }, this.getAttribute('label') || 'Compact identifier or namespace'),
      make('span', { class: 'hint', id: 'hint' }, 'prefix:accession (GO:0006915) to resolve, or words to find a namespace'),
      input,
    );
    form.append(field, make('button', { type: 'submit', part: 'button' }, 'Go'));
    root.append(form);
    // The site's combobox, its list and status region in the field; past a colon comes an accession, not a namespace.
    attachNamespaceSuggestions(input, {
      listId: 'list',
      container: field,
      registry: this.registry,
      accepts: (q) => !q.includes(':'),
      onChoose: (hit, announce) => {
        input.value = `${hit.prefix}:`;
        input.focus();
        announce(`${input.value} written, type the accession after the colon`);
      },
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.go(input.value.trim());
    });
  }

  get registry() {
    return base(this.getAttribute('registry')) || ownRegistry;
  }

  /** Where Enter leads: an identifier (a colon after something) to the resolver, other words to the search page. */
  go(text) {
    if (text === '') return;
    const resolver = base(this.getAttribute('resolver'));
    const isId = /^[^:\s]+:\S/.test(text);
    const url = !isId
      ? `${this.registry}/registry?${new URLSearchParams({ q: text })}`
      : resolver
        ? `${resolver}/${inPath(text)}`
        : `${this.registry}/resolve?${new URLSearchParams({ id: text })}`;
    // A host page may take it over (preventDefault), to open the identifier its own way.
    const detail = { id: isId ? text : null, query: isId ? null : text, url };
    if (!this.dispatchEvent(new CustomEvent('curie-search-go', { detail, bubbles: true, composed: true, cancelable: true }))) return;
    if (this.getAttribute('target') === '_blank') window.open(url, '_blank', 'noopener');
    else window.location.assign(url);
  }
}
// A page may load the script twice.
if (!customElements.get(TAG)) customElements.define(TAG, CurieSearch);
