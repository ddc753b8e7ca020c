/**
 * Text a reader will want to paste elsewhere (a compact identifier, an address), and how long addresses
 * wrap. Each value comes with its Copy button, kept invisible (but in its place, so that nothing moves when
 * it shows) until copy-buttons.js makes it work; without scripts the text is there to select.
 */
import { Fragment } from 'preact';

/** Scripts of a page with copyable values. */
export const COPY_SCRIPTS = ['copy-buttons.js'] as const;

/** `text` in a code element the copy script gives a button, named for what it copies. */
export function Copyable({ text, what }: { text: string; what?: string }) {
  return (
    <>
      <code>
        <BreakableUrl text={text} />
      </code>{' '}
      <CopyButton text={text} what={what} />
    </>
  );
}

/** The Copy button of `text` alone (beside a link showing it, say), named for what it copies. */
export function CopyButton({ text, what }: { text: string; what?: string }) {
  return (
    <button type="button" class="copy" data-copy={text} aria-label={`Copy ${what ?? text}`} data-pending="">
      Copy
    </button>
  );
}

/**
 * An address that may wrap after its slashes, question mark, ampersands and equals signs (a break opportunity
 * after each), so a long URL pattern on a phone breaks where a reader expects rather than anywhere.
 */
export function BreakableUrl({ text }: { text: string }) {
  const parts = text.split(/(?<=[/?&=])/);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
