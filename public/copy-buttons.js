// A Copy button after each [data-copy] element (web/copyable.tsx), for the compact identifiers and addresses
// a reader pastes elsewhere. Progressive enhancement: without this script the values are plain text.
const status = document.createElement('p');
status.className = 'visually-hidden';
status.setAttribute('role', 'status');
document.body.append(status);

document.querySelectorAll('[data-copy]').forEach((element) => {
  if (!navigator.clipboard) return;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', `Copy ${element.dataset.copyWhat}`);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(element.dataset.copy);
      button.textContent = 'Copied';
      status.textContent = `Copied ${element.dataset.copyWhat}`;
    } catch {
      status.textContent = 'Copying is not allowed here: select the text instead';
    }
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
  element.after(' ', button);
});
