// An ARIA 1.2 combobox over /registry/search: as one types in `input`, a listbox of matching namespaces
// (prefix, name, deprecated) opens under it; arrow keys move, Enter or a click chooses, Escape closes only
// the list. Shared by the search boxes, the provider request's prefix field and the embeddable box
// (public/embed/, on other sites: `registry` is then the registry's address, and `accepts` says which text it
// suggests for); what choosing does is theirs (`onChoose` gets the search hit, and a way to announce).
const DELAY_MS = 150;

export function attachNamespaceSuggestions(input, { listId, onChoose, container, registry = '', accepts = () => true }) {
  const list = document.createElement('ul');
  list.id = listId;
  list.className = 'suggestions';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'Suggested namespaces');
  list.hidden = true;
  const status = document.createElement('p');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  if (container) container.append(list, status);
  else input.after(list, status);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('autocomplete', 'off');

  let timer;
  let pending;
  let active = -1;
  let hits = [];

  const close = () => {
    list.hidden = true;
    active = -1;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };
  const choose = (index) => {
    close();
    onChoose(hits[index], (text) => {
      status.textContent = text;
    });
  };
  const highlight = (next) => {
    const items = [...list.children];
    if (items.length === 0) return;
    active = (next + items.length) % items.length;
    items.forEach((item, i) => item.setAttribute('aria-selected', String(i === active)));
    input.setAttribute('aria-activedescendant', items[active].id);
  };

  async function suggest() {
    const q = input.value.trim();
    if (pending) pending.abort();
    if (q === '' || !accepts(q)) {
      close();
      status.textContent = '';
      return;
    }
    pending = new AbortController();
    let answer;
    try {
      const response = await fetch(`${registry}/registry/search?${new URLSearchParams({ q, size: '8' })}`, {
        headers: { accept: 'application/json' },
        credentials: 'omit',
        signal: pending.signal,
      });
      if (!response.ok) return;
      answer = await response.json();
    } catch {
      return;
    }
    hits = answer.results;
    list.replaceChildren(
      ...hits.map((hit, i) => {
        const item = document.createElement('li');
        item.id = `${list.id}-${i}`;
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', 'false');
        item.textContent = `${hit.prefix} — ${hit.name}${hit.deprecated ? ' (deprecated)' : ''}`;
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          choose(i);
        });
        return item;
      }),
    );
    active = -1;
    input.removeAttribute('aria-activedescendant');
    const count = hits.length;
    list.hidden = count === 0;
    input.setAttribute('aria-expanded', String(count > 0));
    status.textContent = count === 0 ? 'No suggestions' : `${count} suggestion${count === 1 ? '' : 's'}, use the arrow keys`;
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(suggest, DELAY_MS);
  });
  input.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      highlight(active + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Escape') {
      // Only the list closes: a search input would otherwise also clear what was typed.
      event.preventDefault();
      close();
    }
  });
  input.addEventListener('blur', close);
}
