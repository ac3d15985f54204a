/**
 * undici's Agent class on its own. `import 'undici'` loads all of undici (fetch, WebSocket, caches, mocks: about
 * 7 MiB of resident memory per process); the relay needs only the Agent, so it imports the class's own module.
 */
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';

  const AgentClass: typeof Agent;
  export default AgentClass;
}
