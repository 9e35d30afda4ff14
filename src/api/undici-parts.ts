// The parts of undici that hearsay uses, each from its own module in the package rather than the package's index,
// which would load and bundle all of undici (src/types/undici-parts.d.ts). Pool and Agent are undici's own classes.
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import dispatcherRequest from 'undici/lib/api/api-request.js';
import Pool from 'undici/lib/dispatcher/pool.js';

export { Agent, Pool };

/** `dispatcher.request(options)`: what undici's index adds to every dispatcher, without loading the index. */
export function requestThrough(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return dispatcherRequest.call(dispatcher, options);
}
