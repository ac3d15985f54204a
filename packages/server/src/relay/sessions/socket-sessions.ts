import { randomBytes } from 'node:crypto';

/**
 * The client WebSocket sessions of this process, by an unguessable id that each of their requests carries in an
 * internal header: what a request made on a socket may keep for the socket's lifetime (a native channel's upstream
 * WebSocket) is registered here and closed with it. An id that is not a live session (any client may send the
 * header) is simply not one: the request is served as a plain HTTP request.
 */
export const SOCKET_SESSION_HEADER = 'x-gateway-socket-session';

type Closer = () => void;

class SocketSessions {
  private readonly live = new Map<string, Map<string, unknown>>();
  private readonly closers = new Map<string, Closer[]>();

  open(): string {
    const id = randomBytes(18).toString('base64url');
    this.live.set(id, new Map());
    this.closers.set(id, []);
    return id;
  }

  /** The session's store for `key`, or undefined when `id` is no live session. */
  get<T>(id: string | undefined, key: string): T | undefined {
    return id === undefined ? undefined : (this.live.get(id)?.get(key) as T | undefined);
  }

  /** Keeps `value` under `key` for the session's life; `close` runs when the session ends. False when not live. */
  keep(id: string | undefined, key: string, value: unknown, close: Closer): boolean {
    const store = id === undefined ? undefined : this.live.get(id);
    if (!store || id === undefined) return false;
    store.set(key, value);
    this.closers.get(id)!.push(close);
    return true;
  }

  forget(id: string | undefined, key: string): void {
    if (id !== undefined) this.live.get(id)?.delete(key);
  }

  isLive(id: string | undefined): boolean {
    return id !== undefined && this.live.has(id);
  }

  close(id: string): void {
    const closers = this.closers.get(id) ?? [];
    this.live.delete(id);
    this.closers.delete(id);
    for (const close of closers) close();
  }
}

export const socketSessions = new SocketSessions();
