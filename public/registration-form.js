// The request forms, enhanced (without this script they are plain forms that the server checks on submit):
// each field is checked as it is typed by the form's field check (data-check), which runs the JSON API's
// validator of the field (data-validate, with the fields named in data-with sent along) and words its message
// as the page does; the message is shown next to the field. The ROR id fills the institution fields; the
// namespace prefix of a provider request suggests namespaces from /registry/search.
import { attachNamespaceSuggestions } from './namespace-suggestions.js';

const DELAY_MS = 600;

const form = document.querySelector('form.request-form');

function fieldValue(name) {
  const element = form.elements.namedItem(name);
  if (!element) return undefined;
  return element.type === 'checkbox' ? element.checked : element.value;
}

// The JSON API's payload of the named fields (the requester's two go in `requester`).
function payloadOf(names) {
  const payload = {};
  for (const name of names) {
    const value = fieldValue(name);
    if (value === undefined) continue;
    if (name === 'requesterName' || name === 'requesterEmail') {
      payload.requester = { ...payload.requester, [name === 'requesterName' ? 'name' : 'email']: value };
    } else {
      payload[name] = value;
    }
  }
  return payload;
}

async function postJson(path, payload, signal) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ apiVersion: '1.0', payload }),
    signal,
  });
  let body = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's error page: no message to show.
  }
  return { status: response.status, body };
}

function messageOf(input) {
  return document.getElementById(`${input.id}-msg`);
}

function show(input, text, problem) {
  const message = messageOf(input);
  const wrapper = input.closest('.form-field');
  if (message && message.textContent !== text) message.textContent = text;
  message?.classList.toggle('problem', problem);
  if (problem) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  wrapper?.classList.toggle('has-error', problem);
}

const checks = new Map();

function enhanceField(input) {
  const names = [input.name, ...(input.dataset.with || '').split(' ').filter(Boolean)];
  const needs = (input.dataset.needs || '').split(' ').filter(Boolean);
  const state = { timer: undefined, pending: undefined, touched: input.value !== '' || input.getAttribute('aria-invalid') === 'true' };

  async function check() {
    clearTimeout(state.timer);
    if (state.pending) state.pending.abort();
    // Wait for the fields the check is about too: its message would be about them.
    if (needs.some((name) => String(fieldValue(name) ?? '').trim() === '')) {
      show(input, '', false);
      return;
    }
    state.pending = new AbortController();
    let answer;
    try {
      answer = await postJson(`${form.dataset.check}/${input.dataset.validate}`, payloadOf(names), state.pending.signal);
    } catch {
      return;
    }
    const wrapper = input.closest('.form-field');
    if (answer.status === 200) {
      show(input, '', false);
      wrapper?.classList.add('checked-ok');
    } else if (answer.status === 400 && answer.body?.message) {
      wrapper?.classList.remove('checked-ok');
      show(input, answer.body.message, true);
    } else {
      wrapper?.classList.remove('checked-ok');
      show(input, 'This could not be checked just now; it will be checked when you send the request.', false);
    }
  }

  const later = () => {
    clearTimeout(state.timer);
    state.timer = setTimeout(check, DELAY_MS);
  };
  input.addEventListener('input', () => {
    state.touched = true;
    later();
    recheckDependants(input.name);
  });
  input.addEventListener('change', () => {
    state.touched = true;
    check();
  });
  checks.set(input.name, { names, state, later });
}

// A field whose check reads another (the sample id's reads the URL pattern) is checked again when that changes.
function recheckDependants(name) {
  for (const [other, { names, state, later }] of checks) {
    if (other !== name && state.touched && names.includes(name)) later();
  }
}

function enhanceRorLookup(button) {
  const input = form.elements.namedItem('institutionRorId');
  // A plain button: Enter in a field sends the form instead of looking up.
  button.type = 'button';
  button.addEventListener('click', async () => {
    const rorId = input.value.trim();
    if (rorId === '') {
      show(input, 'Type a ROR id first.', true);
      input.focus();
      return;
    }
    button.disabled = true;
    show(input, 'Looking up…', false);
    try {
      const response = await fetch('/rorIdApi/getInstitutionForRorId', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ apiVersion: '1.0', payload: { rorId } }),
      });
      const body = await response.json();
      if (response.status === 404) {
        // The server's words for the same answer without this script (plain-messages.ts, unknownRorId).
        show(input, 'No institution has this ROR id, in the registry or at ROR', true);
        return;
      }
      if (!response.ok) {
        show(input, body.errorMessage || body.message || 'The lookup failed.', true);
        return;
      }
      const filled = {
        institutionName: body.name,
        institutionHomeUrl: body.homeUrl,
        institutionDescription: body.description,
        institutionLocation: body.location?.countryCode,
      };
      for (const [name, value] of Object.entries(filled)) {
        const field = form.elements.namedItem(name);
        if (!field || typeof value !== 'string') continue;
        field.value = value;
        field.dispatchEvent(new window.Event('change'));
      }
      show(input, body.id ? `Filled in from the registry’s institution “${body.name}”.` : `Filled in from ROR: “${body.name}”.`, false);
    } catch {
      show(input, 'The lookup failed; fill in the institution yourself.', true);
    } finally {
      button.disabled = false;
    }
  });
}

// The namespace prefix of a provider request: the chosen namespace's prefix goes into the field, checked.
function enhancePrefixSuggest(input) {
  attachNamespaceSuggestions(input, {
    listId: `${input.id}-suggestions`,
    onChoose: (hit) => {
      input.value = hit.prefix;
      input.dispatchEvent(new window.Event('change'));
      recheckDependants(input.name);
    },
  });
}

if (form) {
  form.querySelectorAll('[data-validate]').forEach(enhanceField);
  const lookup = form.querySelector('[data-ror-lookup]');
  if (lookup) enhanceRorLookup(lookup);
  form.querySelectorAll('[data-suggest-prefix]').forEach(enhancePrefixSuggest);
  // The protected-URL box changes what the login fields need.
  form.elements.namedItem('protectedUrls')?.addEventListener('change', () => recheckDependants('protectedUrls'));
  // One request per click: a second click while the first is being sent would store it twice.
  form.addEventListener('submit', () => {
    setTimeout(() => form.querySelectorAll('button[type="submit"]').forEach((b) => (b.disabled = true)), 0);
  });
}

// After a refused submit, the summary of the problems is where the reader starts.
document.querySelector('[data-error-summary]')?.focus();
