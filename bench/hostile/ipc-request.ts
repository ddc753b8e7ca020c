import type { ChildProcess } from 'node:child_process';

let lastId = 0;

/**
 * Sends `message` (with a fresh id) to a child over its IPC channel and waits for its answer: the first
 * message of type `answerType` carrying the same id. A blocked child answers late; one that does not answer
 * within `timeoutMs`, or exits, fails the call.
 */
export function askChild<T extends { id: number }>(child: ChildProcess, message: Record<string, unknown>, answerType: string, timeoutMs: number): Promise<T> {
  const id = ++lastId;
  return new Promise<T>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (answer: { type?: string; id?: number }) => {
      if (answer?.type !== answerType || answer.id !== id) return;
      cleanup();
      resolve(answer as T);
    };
    const onExit = () => {
      cleanup();
      reject(new Error(`the child exited before answering ${String(message.type)}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no answer to ${String(message.type)} within ${timeoutMs} ms`));
    }, timeoutMs);
    if (!child.connected) {
      cleanup();
      reject(new Error(`the child's IPC channel is closed: cannot ask ${String(message.type)}`));
      return;
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
    // With a callback, a channel closing meanwhile (the child stopping on Ctrl-C) fails this call instead of
    // emitting an 'error' nobody listens to.
    child.send({ ...message, id }, (error) => {
      if (!error) return;
      cleanup();
      reject(error);
    });
  });
}
