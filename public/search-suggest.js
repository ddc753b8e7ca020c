// Suggestions under the registry search boxes (progressive enhancement: without this script the box is a
// plain form that submits to /registry). Choosing a suggestion opens that namespace's page.
import { attachNamespaceSuggestions } from './namespace-suggestions.js';

document.querySelectorAll('input[data-suggest]').forEach((input, index) => {
  attachNamespaceSuggestions(input, {
    listId: `suggestions-${index}`,
    container: input.parentElement,
    onChoose: (hit) => window.location.assign(hit.page),
  });
});
