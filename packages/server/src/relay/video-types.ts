/**
 * Video generation in the gateway's own terms: what every video route (OpenAI's `/v1/videos`, the family's
 * `/v1/video/generations`, Kling's and Jimeng's native routes) is read into, and what every video vendor's task is
 * read back as. A vendor folder converts between these and its wire format (provider.ts, `VideoFunction`); the
 * routes, the task table, the poller and billing never see a vendor's shape.
 */

/** An image the video starts from, ends on, or follows. A URL goes upstream as a URL; bytes as the vendor wants them. */
export interface VideoImage {
  role: 'first_frame' | 'last_frame' | 'reference';
  /** An http(s) URL or a `data:` URI, as the client gave it. */
  url?: string;
  /** An uploaded file (multipart `input_reference`). */
  bytes?: Buffer;
  mimeType?: string;
}

export interface VideoRequest {
  /** The model as the client named it (the channel's mapping is applied to `upstreamModel` by the conveyor). */
  model: string;
  prompt: string;
  /** Requested length in seconds; null: the vendor's default (`defaultSeconds`). */
  seconds: number | null;
  /** `WIDTHxHEIGHT` (OpenAI's `size`), when the client gave one. */
  size: string | null;
  /** `480p`, `720p`, `1080p`… when the client gave one. */
  resolution: string | null;
  /** `16:9`, `9:16`, `1:1`… when the client gave one. */
  aspectRatio: string | null;
  images: VideoImage[];
  seed: number | null;
  negativePrompt: string | null;
  /**
   * Vendor parameters with no common name (Kling's `mode` and `cfg_scale`, Vidu's `movement_amplitude`…), passed to
   * the vendor as they came: the family's `metadata` object.
   */
  metadata: Record<string, unknown>;
}

/** Our task states; every vendor's states map onto these (the family's NOT_START…FAILURE are derived from them). */
export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

/** What a vendor said about one task when asked. */
export interface VideoProgress {
  /** The vendor's task id (a batch answer names which task each entry is). */
  upstreamId: string;
  status: VideoStatus;
  /** 0–100; vendors that report none get 0 while running and 100 at the end. */
  progress: number;
  /** Where the finished video can be downloaded (kept server-side; clients download through the gateway). */
  url?: string;
  /** Why it failed, in the vendor's words. */
  reason?: string;
  /** The length the vendor actually made, when it says (settlement charges or refunds the difference). */
  seconds?: number;
  /**
   * The tokens the vendor counted for the finished task (Seedance's `usage.total_tokens`): a model priced per token
   * (a ModelRatio instead of a ModelPrice) is settled by them.
   */
  tokens?: number;
}

/** The vendor's answer to a submit: its task id, or its refusal in its own words. */
export type VideoSubmitted = { upstreamId: string } | { refused: string };
