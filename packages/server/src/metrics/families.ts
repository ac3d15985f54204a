import { labelPairs, writeHead, writeSample } from './exposition.js';

/**
 * Most label sets one family keeps. Model names come from clients, so without a cap a caller could grow memory and
 * every scrape without bound; later label sets are counted together under the value `_other`.
 */
export const MAX_SERIES_PER_FAMILY = 5_000;
const OVERFLOW_VALUE = '_other';

export interface CounterSeries {
  /** Label pairs rendered once, when the series is made. */
  readonly pairs: string;
  value: number;
}

export interface HistogramSeries {
  readonly pairs: string;
  /** Observations per bucket (not cumulative; the exposition adds them up), the last one above every bound. */
  readonly counts: number[];
  sum: number;
  count: number;
}

/**
 * Series of one metric by label values. Callers on the hot path keep the series they get (per route, per model)
 * and bump its fields, so the label text is built once per series and a request only adds to numbers.
 */
abstract class Family<Series extends { pairs: string }> {
  private readonly series = new Map<string, Series>();
  private overflow: Series | null = null;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  protected abstract create(pairs: string): Series;
  abstract render(out: string[]): void;

  /** The series for these label values (in `labelNames` order), made on first use. */
  labels(...values: string[]): Series {
    const key = values.join('\u0000');
    const found = this.series.get(key);
    if (found) return found;
    if (this.series.size >= MAX_SERIES_PER_FAMILY) {
      this.overflow ??= this.create(
        labelPairs(
          this.labelNames,
          this.labelNames.map(() => OVERFLOW_VALUE),
        ),
      );
      return this.overflow;
    }
    const made = this.create(labelPairs(this.labelNames, values));
    this.series.set(key, made);
    return made;
  }

  protected all(): Series[] {
    const all = [...this.series.values()];
    if (this.overflow) all.push(this.overflow);
    return all;
  }
}

export class CounterFamily extends Family<CounterSeries> {
  protected create(pairs: string): CounterSeries {
    return { pairs, value: 0 };
  }

  render(out: string[]): void {
    writeHead(out, this.name, 'counter', this.help);
    for (const series of this.all()) writeSample(out, this.name, series.pairs, series.value);
  }
}

export class HistogramFamily extends Family<HistogramSeries> {
  private readonly bucketLabels: string[];

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
    if (bounds.some((bound, index) => index > 0 && bound <= bounds[index - 1]!)) {
      throw new Error(`${name}: bucket bounds must increase`);
    }
    this.bucketLabels = [...bounds.map(String), '+Inf'];
  }

  protected create(pairs: string): HistogramSeries {
    return { pairs, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
  }

  /** Every series added together: the node-wide distribution, with its bucket bounds (for the dashboard). */
  merged(): { bounds: readonly number[]; counts: number[]; count: number } {
    const counts = new Array<number>(this.bounds.length + 1).fill(0);
    let count = 0;
    for (const series of this.all()) {
      for (let index = 0; index < counts.length; index++) counts[index]! += series.counts[index]!;
      count += series.count;
    }
    return { bounds: this.bounds, counts, count };
  }

  observe(series: HistogramSeries, value: number): void {
    let index = 0;
    while (index < this.bounds.length && value > this.bounds[index]!) index++;
    series.counts[index]! += 1;
    series.sum += value;
    series.count += 1;
  }

  render(out: string[]): void {
    writeHead(out, this.name, 'histogram', this.help);
    for (const series of this.all()) {
      const prefix = series.pairs ? `${series.pairs},` : '';
      let cumulative = 0;
      for (let index = 0; index < this.bucketLabels.length; index++) {
        cumulative += series.counts[index]!;
        writeSample(out, `${this.name}_bucket`, `${prefix}le="${this.bucketLabels[index]}"`, cumulative);
      }
      writeSample(out, `${this.name}_sum`, series.pairs, series.sum);
      writeSample(out, `${this.name}_count`, series.pairs, series.count);
    }
  }
}
