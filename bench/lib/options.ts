/** The command line of `npm run bench`: every option, its default and its range (bench/README.md lists them). */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Options {
  rate: number;
  seconds: number;
  connections: number;
  throughputSeconds: number;
  streamRate: number;
  streamSeconds: number;
  warmupSeconds: number;
  soakSeconds: number;
  soakRate: number;
  chunks: number;
  chunkDelayMs: number;
  retries: number;
  quietWaitSeconds: number;
  pin: boolean;
  cpuProf: boolean;
  strict: boolean;
  out: string;
}

export function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '500' },
      seconds: { type: 'string', default: '20' },
      connections: { type: 'string', default: '50' },
      'throughput-seconds': { type: 'string', default: '10' },
      'stream-rate': { type: 'string', default: '100' },
      'stream-seconds': { type: 'string', default: '15' },
      'warmup-seconds': { type: 'string', default: '8' },
      soak: { type: 'string', default: '0' },
      'soak-rate': { type: 'string', default: '100' },
      chunks: { type: 'string', default: '16' },
      'chunk-delay-ms': { type: 'string', default: '10' },
      retries: { type: 'string', default: '2' },
      'quiet-wait': { type: 'string', default: '30' },
      quick: { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      out: { type: 'string', default: 'bench/results/latest.md' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('usage: npm run bench -- [--quick] [--soak SECONDS] [--cpu-prof] [--no-pin] [--strict] ...');
    console.log('all options and their defaults: bench/README.md');
    process.exit(0);
  }
  const number = (name: string, raw: string, min: number, max: number) => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      throw new Error(`--${name} must be a number between ${min} and ${max}, got "${raw}"`);
    }
    return value;
  };
  // --quick: a smoke run (about 30 s) to check the bench itself works; its figures are too short to quote.
  const quick = values.quick;
  return {
    rate: number('rate', values.rate, 1, 20_000),
    seconds: quick ? 3 : number('seconds', values.seconds, 1, 600),
    connections: number('connections', values.connections, 1, 1000),
    throughputSeconds: quick ? 2 : number('throughput-seconds', values['throughput-seconds'], 1, 600),
    streamRate: number('stream-rate', values['stream-rate'], 1, 5000),
    streamSeconds: quick ? 2 : number('stream-seconds', values['stream-seconds'], 1, 600),
    warmupSeconds: quick ? 2 : number('warmup-seconds', values['warmup-seconds'], 0, 120),
    soakSeconds: number('soak', values.soak, 0, 24 * 3600),
    soakRate: number('soak-rate', values['soak-rate'], 1, 5000),
    chunks: number('chunks', values.chunks, 1, 10_000),
    chunkDelayMs: number('chunk-delay-ms', values['chunk-delay-ms'], 0, 10_000),
    retries: number('retries', values.retries, 0, 10),
    quietWaitSeconds: number('quiet-wait', values['quiet-wait'], 0, 600),
    pin: !values['no-pin'],
    cpuProf: values['cpu-prof'],
    strict: values.strict,
    out: resolve(ROOT, values.out),
  };
}
