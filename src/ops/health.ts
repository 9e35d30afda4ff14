// What /healthz reports: the rules are loaded and the last Bot API call reached a working service.
import type { IngressMode } from '../config/types.js';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  rules: number | null;
  last_api_call_ok: boolean;
  mode: IngressMode;
}

export class HealthState {
  rulesActive: number | null = null;
  lastApiCallOk = true;

  constructor(readonly mode: IngressMode) {}

  report(): { statusCode: number; body: HealthReport } {
    const healthy = this.rulesActive !== null && this.lastApiCallOk;
    return {
      statusCode: healthy ? 200 : 503,
      body: { status: healthy ? 'ok' : 'unavailable', rules: this.rulesActive, last_api_call_ok: this.lastApiCallOk, mode: this.mode },
    };
  }
}
