// undici's parts from their own modules in the package, not the package's index: the index loads all of undici
// (fetch, WebSocket, caches, mocks) at start, some MB of a running bot's memory (BENCHMARKS.md, "Issue 38, ninth
// pass"), and bundled it is about half a MB more of the bundle's source, which V8 keeps in memory as long as the
// process runs ("eighteenth pass"). Each declaration is what the index exports under that name.
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}

declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}

/** The function behind every dispatcher's `request()`, called with the dispatcher as `this`. */
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
