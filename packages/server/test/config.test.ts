import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { parseDatabaseTarget, redact } from '../src/db/dsn.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'gw-config-')), 'one-api.db');

describe('SQL_DSN parsing', () => {
  it.each([
    ['', 'sqlite'],
    ['local', 'sqlite'],
    ['postgres://u:p@h:5432/db', 'postgres'],
    ['postgresql://u@h/db', 'postgres'],
    ['mysql://root@127.0.0.1:3306/db', 'mysql'],
    ['root:secret@tcp(127.0.0.1:3306)/oneapi?parseTime=true', 'mysql'],
  ])('%s → %s', (dsn, dialect) => {
    expect(parseDatabaseTarget(dsn, '').dialect).toBe(dialect);
  });

  it('turns the Go MySQL form into a URI with the password encoded', () => {
    expect(parseDatabaseTarget('root:p@ss@tcp(db:3306)/oneapi?parseTime=true', '')).toEqual({
      dialect: 'mysql',
      uri: 'mysql://root:p%40ss@db:3306/oneapi',
    });
  });

  it('refuses a DSN it does not understand, without printing the password', () => {
    expect(() => parseDatabaseTarget('oracle://scott:tiger@h/db', '')).toThrow(/not understood.*scott:\*\*\*@/);
  });

  it('strips the Go driver query from SQLITE_PATH', () => {
    const target = parseDatabaseTarget('', '/var/lib/one-api.db?_busy_timeout=30000');
    expect(target).toEqual({ dialect: 'sqlite', path: '/var/lib/one-api.db' });
  });

  it('redacts passwords in both DSN forms', () => {
    expect(redact('postgres://u:secret@h/db')).toBe('postgres://u:***@h/db');
    expect(redact('root:secret@tcp(h:3306)/db')).toBe('root:***@tcp(h:3306)/db');
  });
});

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({ SQLITE_PATH: tmp(), SESSION_SECRET: 'x'.repeat(32) });
    expect(config.port).toBe(3000);
    expect(config.database.dialect).toBe('sqlite');
    expect(config.redisUrl).toBeNull();
    expect(config.cryptoSecret).toBe(config.sessionSecret);
    expect(config.criticalRateLimit).toEqual({ enabled: true, max: 20, windowSeconds: 1200 });
  });

  it('generates a session secret once, persists it, and warns', () => {
    const path = tmp();
    const first = loadConfig({ SQLITE_PATH: path });
    const second = loadConfig({ SQLITE_PATH: path });
    expect(first.sessionSecret).toHaveLength(64);
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(first.warnings[0]).toMatch(/SESSION_SECRET is not set/);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be an integer between 0 and 65535/],
    [{ SESSION_SECRET: 'random_string' }, /placeholder/],
    [{ SESSION_SECRET: 'short' }, /at least 16/],
    [{ REDIS_CONN_STRING: 'localhost:6379' }, /redis:\/\//],
    [{ NODE_TYPE: 'boss' }, /NODE_TYPE/],
    [{ CRITICAL_RATE_LIMIT_ENABLE: 'maybe' }, /true or false/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig({ SQLITE_PATH: tmp(), SESSION_SECRET: 'y'.repeat(32), ...env })).toThrow(message);
  });
});
