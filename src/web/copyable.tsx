/**
 * Text a reader will want to paste elsewhere (a compact identifier, an address), and how long addresses
 * wrap. copy-buttons.js puts a Copy button after each `[data-copy]` element; without scripts the text is
 * there to select.
 */
import { Fragment } from 'preact';

/** Scripts of a page with copyable values. */
export const COPY_SCRIPTS = ['copy-buttons.js'] as const;

/** `text` in a code element the copy script gives a button, named for what it copies. */
export function Copyable({ text, what }: { text: string; what?: string }) {
  return (
    <code data-copy={text} data-copy-what={what ?? text}>
      <BreakableUrl text={text} />
    </code>
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
