export * from './messages.js';
export * from './views.js';
