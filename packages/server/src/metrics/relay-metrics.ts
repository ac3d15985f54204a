import type { WaitClock } from '../relay/overhead.js';
import { CounterFamily, type CounterSeries, HistogramFamily, type HistogramSeries } from './families.js';
import { ModelHealth } from './model-health.js';

/** Whole requests: from the first byte of a quick JSON answer to the end of a long stream (RELAY_TIMEOUT: 300 s). */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Time until a stream's first token: interactive use cares about the first seconds. */
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60];
/** The gateway's own time per request (relay/overhead.ts): a fraction of a millisecond when all is well. */
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * How a relay request ended: `success` (answered and billed), `error` (the client got an error, or a stream that
 * broke off), `cancelled` (the client left first).
 */
const OUTCOMES = ['success', 'error', 'cancelled'] as const;
export type RelayOutcome = (typeof OUTCOMES)[number];

/** The upstream status label of a call that got no HTTP answer (refused, reset, DNS, timeout before the head). */
const UNREACHABLE = 0;

interface ModelSeries {
  prompt: CounterSeries;
  completion: CounterSeries;
  quota: CounterSeries;
}

/**
 * The relay's series. The conveyor (relay/pipeline.ts) reports each request once when it ends, each retry and each
 * upstream answer; settling (relay/settle.ts) reports tokens and quota. Series are looked up in nested maps keyed by
 * the raw values (numbers, the model name), so a request allocates no label text once its series exist.
 */
export class RelayMetrics {
  /** The last hour per model, for the pricing page (not a Prometheus family). */
  readonly health = new ModelHealth();
  readonly requests = new CounterFamily(
    'gateway_relay_requests_total',
    'Relay requests by route, model (as asked for), last channel tried and outcome (success, error, cancelled)',
    ['route', 'model', 'channel', 'outcome'],
  );
  readonly retries = new CounterFamily('gateway_relay_retries_total', 'Tries on another channel after one failed', [
    'route',
  ]);
  readonly upstream = new CounterFamily(
    'gateway_upstream_responses_total',
    'Upstream answers by channel and HTTP status (status "unreachable": no answer at all)',
    ['channel', 'status'],
  );
  readonly duration = new HistogramFamily(
    'gateway_relay_request_duration_seconds',
    'Relay request duration until the answer (or stream) ended, by route',
    ['route'],
    DURATION_BUCKETS,
  );
  readonly firstToken = new HistogramFamily(
    'gateway_relay_time_to_first_token_seconds',
    'Time from the request to the first streamed token, by route (streaming requests only)',
    ['route'],
    FIRST_TOKEN_BUCKETS,
  );
  readonly overhead = new HistogramFamily(
    'gateway_relay_overhead_seconds',
    'Time the gateway itself spent on a relay request (its duration minus the waits on the upstream), by route',
    ['route'],
    OVERHEAD_BUCKETS,
  );
  readonly promptTokens = new CounterFamily('gateway_relay_prompt_tokens_total', 'Prompt tokens billed, by model', [
    'model',
  ]);
  readonly completionTokens = new CounterFamily(
    'gateway_relay_completion_tokens_total',
    'Completion tokens billed, by model',
    ['model'],
  );
  readonly quota = new CounterFamily('gateway_relay_quota_total', 'Quota charged, by model', ['model']);

  private readonly upstreamByChannel = new Map<number, Map<number, CounterSeries>>();
  private readonly byModel = new Map<string, ModelSeries>();
  /** Node-wide totals for the dashboard (the labelled series above hold the same numbers split up). */
  readonly totals = {
    /** Requests by outcome, in OUTCOMES order. */
    outcomes: [0, 0, 0],
    retries: 0,
    upstreamErrors: 0,
    promptTokens: 0,
    completionTokens: 0,
    quota: 0,
  };

  /** The series of one route, made once per route (the conveyor keeps it). */
  route(path: string): RouteMetrics {
    return new RouteMetrics(this, path);
  }

  /** An upstream answered with this HTTP status (0: it did not answer at all). */
  upstreamAnswered(channelId: number, status: number): void {
    let byStatus = this.upstreamByChannel.get(channelId);
    if (!byStatus) {
      byStatus = new Map();
      this.upstreamByChannel.set(channelId, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = this.upstream.labels(String(channelId), status === UNREACHABLE ? 'unreachable' : String(status));
      byStatus.set(status, series);
    }
    series.value += 1;
    if (status < 200 || status >= 300) this.totals.upstreamErrors += 1;
  }

  upstreamUnreachable(channelId: number): void {
    this.upstreamAnswered(channelId, UNREACHABLE);
  }

  /** What a settled request cost (called by settle, for model calls and tasks alike). */
  billed(model: string, promptTokens: number, completionTokens: number, quota: number): void {
    let series = this.byModel.get(model);
    if (!series) {
      series = {
        prompt: this.promptTokens.labels(model),
        completion: this.completionTokens.labels(model),
        quota: this.quota.labels(model),
      };
      this.byModel.set(model, series);
    }
    series.prompt.value += promptTokens;
    series.completion.value += completionTokens;
    series.quota.value += quota;
    this.totals.promptTokens += promptTokens;
    this.totals.completionTokens += completionTokens;
    this.totals.quota += quota;
  }

  render(out: string[]): void {
    for (const family of [
      this.requests,
      this.retries,
      this.upstream,
      this.duration,
      this.firstToken,
      this.overhead,
      this.promptTokens,
      this.completionTokens,
      this.quota,
    ]) {
      family.render(out);
    }
  }
}

/** One route's series, and its requests by model → channel → outcome. */
export class RouteMetrics {
  readonly duration: HistogramSeries;
  readonly firstToken: HistogramSeries;
  readonly overhead: HistogramSeries;
  readonly retries: CounterSeries;
  private readonly requests = new Map<string, Map<number, Array<CounterSeries | undefined>>>();

  constructor(
    readonly relay: RelayMetrics,
    readonly path: string,
  ) {
    this.duration = relay.duration.labels(path);
    this.firstToken = relay.firstToken.labels(path);
    this.overhead = relay.overhead.labels(path);
    this.retries = relay.retries.labels(path);
  }

  begin(startedAt: number): RelayTally {
    return new RelayTally(this, startedAt);
  }

  ended(model: string, channelId: number, outcome: RelayOutcome, seconds: number, overheadSeconds: number): void {
    let byChannel = this.requests.get(model);
    if (!byChannel) {
      byChannel = new Map();
      this.requests.set(model, byChannel);
    }
    let byOutcome = byChannel.get(channelId);
    if (!byOutcome) {
      byOutcome = [];
      byChannel.set(channelId, byOutcome);
    }
    const index = OUTCOMES.indexOf(outcome);
    this.relay.totals.outcomes[index]! += 1;
    let series = byOutcome[index];
    if (!series) {
      series = this.relay.requests.labels(this.path, model, channelId ? String(channelId) : '', outcome);
      byOutcome[index] = series;
    }
    series.value += 1;
    this.relay.duration.observe(this.duration, seconds);
    this.relay.overhead.observe(this.overhead, overheadSeconds);
  }
}

/**
 * One request as the conveyor sees it: the model once priced, the channel last tried, how it ended. Counted once,
 * when the conveyor's handler returns or throws.
 */
export class RelayTally implements WaitClock {
  /** Milliseconds spent waiting on upstreams, added by the upstream exchange (relay/overhead.ts). */
  upstreamMs = 0;
  /** Empty until the request is priced: refusals before that (bad key, unknown model) have no model label. */
  model = '';
  /** The last channel tried (0: none). */
  channelId = 0;
  outcome: RelayOutcome = 'error';
  /** For the model health (model-health.ts): completion tokens billed, and the first token's time of a stream. */
  completionTokens = 0;
  private firstTokenMs: number | null = null;

  constructor(
    private readonly route: RouteMetrics,
    readonly startedAt: number,
  ) {}

  /** A channel is about to be tried; any try after the first is a retry. */
  trying(channelId: number, attempt: number): void {
    this.channelId = channelId;
    if (attempt > 0) {
      this.route.retries.value += 1;
      this.route.relay.totals.retries += 1;
    }
  }

  /**
   * The answer was read and billed (`charged` false: a task the upstream refused). A stream that broke off was
   * billed for what came, but the client saw an error, or left.
   */
  settled(charged: boolean, interruption: string | undefined, stream: boolean, firstTokenMs: number | null): void {
    if (!charged) this.outcome = 'error';
    else if (interruption === undefined) this.outcome = 'success';
    else this.outcome = interruption === 'client_disconnected' ? 'cancelled' : 'error';
    if (stream && firstTokenMs !== null) {
      this.firstTokenMs = firstTokenMs;
      this.route.relay.firstToken.observe(this.route.firstToken, firstTokenMs / 1000);
    }
  }

  cancelled(): void {
    this.outcome = 'cancelled';
  }

  finish(): void {
    const elapsedMs = performance.now() - this.startedAt;
    const overheadMs = Math.max(0, elapsedMs - this.upstreamMs);
    this.route.ended(this.model, this.channelId, this.outcome, elapsedMs / 1000, overheadMs / 1000);
    this.route.relay.health.record(this.model, this.outcome, this.firstTokenMs, this.completionTokens, elapsedMs);
  }
}
