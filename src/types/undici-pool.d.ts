// undici's Pool class alone (its module in the package, not the package's index): the Bot API client needs only
// Pool's own dispatch(), and the index loads all of undici (fetch, WebSocket, caches, mocks) at start, some MB of a
// running bot's memory (BENCHMARKS.md, "Issue 38, ninth pass"). The class is the one the index exports.
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
