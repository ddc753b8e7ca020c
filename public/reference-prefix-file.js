// The curator desk's prefix-list form: a chosen file is read into the list box, so a curator need not paste
// it. Without this script the file field stays hidden and the list is pasted.
for (const box of document.querySelectorAll('[data-file-for]')) {
  const target = document.getElementById(box.dataset.fileFor);
  const input = box.querySelector('input[type="file"]');
  if (!target || !input) continue;
  box.hidden = false;
  input.addEventListener('change', async () => {
    const file = input.files && input.files[0];
    if (file) target.value = await file.text();
  });
}
