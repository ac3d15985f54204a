export * from './openrouter.js';
export * from './ratio-config.js';
