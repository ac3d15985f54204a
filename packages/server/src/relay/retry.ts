// The family's default AutomaticRetryStatusCodes: never 400 (the request itself is bad), 408, 504 or 524 (the
// upstream was slow: another try would likely be slow too and doubles the wait).
const RETRY_RANGES: Array<[number, number]> = [
  [100, 199],
  [300, 399],
  [401, 407],
  [409, 499],
  [500, 503],
  [505, 523],
  [525, 599],
];

/** Whether an upstream status (0 = no answer: network error, reset, timeout) is worth another channel. */
export function isRetriableStatus(status: number): boolean {
  if (status === 0) return true;
  if (status < 100 || status > 599) return true;
  return RETRY_RANGES.some(([low, high]) => status >= low && status <= high);
}

/** Applies a channel's status_code_mapping (only to errors): retry and auto-disable then see the mapped code. */
export function mapStatus(status: number, mapping: Record<string, string> | null): number {
  if (!mapping || status < 400) return status;
  const mapped = Number(mapping[String(status)]);
  return Number.isInteger(mapped) && mapped >= 100 && mapped <= 599 ? mapped : status;
}
