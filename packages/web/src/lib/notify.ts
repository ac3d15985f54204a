import { message } from 'antd';

/**
 * Toasts from code that runs outside React (the API client, the query cache). The app mounts a bridge inside
 * antd's <App> that swaps in the context-aware instance, so toasts follow the theme and locale.
 */
export interface NotifySink {
  success(text: string): void;
  error(text: string): void;
  info(text: string): void;
  warning(text: string): void;
}

let sink: NotifySink = {
  success: (text) => void message.success(text),
  error: (text) => void message.error(text),
  info: (text) => void message.info(text),
  warning: (text) => void message.warning(text),
};

export function setNotifySink(next: NotifySink): void {
  sink = next;
}

export const notify: NotifySink = {
  success: (text) => sink.success(text),
  error: (text) => sink.error(text),
  info: (text) => sink.info(text),
  warning: (text) => sink.warning(text),
};
