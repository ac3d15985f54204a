export * from './messages.js';
export * from './subscriptions.js';
