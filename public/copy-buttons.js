// The Copy buttons of web/copyable.tsx, for the compact identifiers and addresses a reader pastes elsewhere:
// rendered in their place but invisible (data-pending) until this script makes them work, so nothing moves.
// Progressive enhancement: without this script the values are plain text to select.
const status = document.createElement('p');
status.className = 'visually-hidden';
status.setAttribute('role', 'status');
document.body.append(status);

document.querySelectorAll('button[data-copy]').forEach((button) => {
  if (!navigator.clipboard) return;
  const what = button.getAttribute('aria-label').replace(/^Copy /, '');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = 'Copied';
      status.textContent = `Copied ${what}`;
    } catch {
      status.textContent = 'Copying is not allowed here: select the text instead';
    }
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
  button.removeAttribute('data-pending');
});
