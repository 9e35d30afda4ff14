// What /healthz reports: the rules are loaded, the last Bot API call reached a working service, and the
// store can be used (a Redis store may be down: the replica then takes no updates).
import type { IngressMode } from '../config/types.js';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  rules: number | null;
  last_api_call_ok: boolean;
  /** Only during a store outage: why the store cannot be used (e.g. `ECONNREFUSED`, `LOADING`). */
  store_unavailable?: string;
  mode: IngressMode;
}

export class HealthState {
  rulesActive: number | null = null;
  lastApiCallOk = true;
  storeUnavailable: string | null = null;

  constructor(readonly mode: IngressMode) {}

  report(): { statusCode: number; body: HealthReport } {
    const healthy = this.rulesActive !== null && this.lastApiCallOk && this.storeUnavailable === null;
    return {
      statusCode: healthy ? 200 : 503,
      body: {
        status: healthy ? 'ok' : 'unavailable',
        rules: this.rulesActive,
        last_api_call_ok: this.lastApiCallOk,
        ...(this.storeUnavailable !== null ? { store_unavailable: this.storeUnavailable } : {}),
        mode: this.mode,
      },
    };
  }
}
