export * from './fields.js';
export * from './messages.js';
export * from './period.js';
