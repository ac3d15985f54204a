import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatStreamError, streamChat } from './api/stream-chat';
import { buildChatBody, type RequestSettings } from './chat-request';
import type { ChatMessage } from './types';

let sequence = 0;
const nextId = () => `m${++sequence}`;

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The conversation and its one in-flight answer. An answer goes loading → incomplete (chunks arriving) →
 * complete, or error; stopping keeps what arrived. Only one answer streams at a time.
 */
export function useChatSession() {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<ChatMessage[]>(() => [
    { id: nextId(), role: 'assistant', content: '', reasoning: '', state: 'complete', greeting: true },
  ]);
  const [streaming, setStreaming] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const stoppedByUser = useRef(false);

  // Leaving the page cancels the answer (and its billing stops with the upstream call).
  useEffect(() => () => controller.current?.abort(), []);

  const patch = useCallback((id: string, change: (message: ChatMessage) => Partial<ChatMessage>) => {
    setMessages((list) => list.map((message) => (message.id === id ? { ...message, ...change(message) } : message)));
  }, []);

  /** Streams an answer to `conversation` (which ends with the user's turn) into a new assistant message. */
  const answer = useCallback(
    async (conversation: ChatMessage[], settings: RequestSettings) => {
      const id = nextId();
      const body = buildChatBody(settings, conversation);
      setMessages([...conversation, { id, role: 'assistant', content: '', reasoning: '', state: 'loading' }]);
      const abort = new AbortController();
      controller.current = abort;
      stoppedByUser.current = false;
      setStreaming(true);
      try {
        await streamChat(body, {
          signal: abort.signal,
          onDelta: (delta) =>
            patch(id, (message) => ({
              content: message.content + (delta.content ?? ''),
              reasoning: message.reasoning + (delta.reasoning ?? ''),
              state: 'incomplete',
            })),
        });
        patch(id, () => ({ state: 'complete' }));
      } catch (error) {
        if (isAbort(error)) {
          // Unmounting aborts too; then there is nothing left to update.
          if (stoppedByUser.current) patch(id, () => ({ state: 'complete', stopped: true }));
        } else {
          const text =
            error instanceof ChatStreamError || error instanceof Error ? error.message : t('playground.error_unknown');
          patch(id, () => ({ state: 'error', error: text || t('playground.error_unknown') }));
        }
      } finally {
        if (controller.current === abort) {
          controller.current = null;
          setStreaming(false);
        }
      }
    },
    [patch, t],
  );

  const send = useCallback(
    (text: string, settings: RequestSettings) => {
      if (controller.current || text.trim() === '') return;
      const turn: ChatMessage = { id: nextId(), role: 'user', content: text, reasoning: '', state: 'complete' };
      void answer([...messages, turn], settings);
    },
    [answer, messages],
  );

  /** Asks again for a failed answer, with the conversation as it stood before it. */
  const retry = useCallback(
    (failedId: string, settings: RequestSettings) => {
      if (controller.current) return;
      const index = messages.findIndex((message) => message.id === failedId);
      if (index <= 0) return;
      void answer(messages.slice(0, index), settings);
    },
    [answer, messages],
  );

  const stop = useCallback(() => {
    stoppedByUser.current = true;
    controller.current?.abort();
  }, []);

  const clear = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setStreaming(false);
    setMessages([]);
  }, []);

  return { messages, streaming, send, retry, stop, clear };
}
