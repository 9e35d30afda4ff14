// The sandbox with its web chat page, on 127.0.0.1 and a free port, as the page tests open it.
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { webChatPlugin } from '../../src/sandbox/web/plugin.js';

/** Starts a sandbox serving the web chat page; the caller closes `sandbox`. */
export async function startPageSandbox(): Promise<{ sandbox: Sandbox; baseUrl: string }> {
  const sandbox = await createSandbox();
  await sandbox.app.register(webChatPlugin, { store: sandbox.store, onMessage: sandbox.onMessage });
  return { sandbox, baseUrl: await sandbox.listen({ host: '127.0.0.1', port: 0 }) };
}
