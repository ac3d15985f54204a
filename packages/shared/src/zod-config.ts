import { z } from 'zod';

/**
 * In the console: zod probes whether `Function('')` works (to compile faster validators) when a schema is created,
 * and the page's Content-Security-Policy, which allows no eval, reports that probe as a violation. Validation
 * without it is as correct. This module is the first the package index loads, so it runs before any schema
 * exists; servers keep the faster validators.
 */
if ('document' in globalThis) z.config({ jitless: true });
