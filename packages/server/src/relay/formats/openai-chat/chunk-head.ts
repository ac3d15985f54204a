import { type StreamState, sseLine } from '../../stream/stream-state.js';

/**
 * What every OpenAI chunk of one converted stream shares (its id, creation time and model), for converters that
 * build the chunks themselves from another format's events. The id and time may be replaced by the upstream's own
 * once its first event names them.
 */
export class ChunkHead {
  constructor(
    readonly model: string,
    public id = `chatcmpl-${Date.now().toString(36)}`,
    public created = Math.floor(Date.now() / 1000),
  ) {}

  chunk(delta: Record<string, unknown>, finish: string | null = null) {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
  }

  /** The usage-only chunk, when the client asked for it (`include_usage`) and the upstream reported usage. */
  usage(state: StreamState, forwardUsage: boolean): string {
    return state.usage && forwardUsage ? sseLine({ ...this.chunk({}), choices: [], usage: state.usage }) : '';
  }
}
