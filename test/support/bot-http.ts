// A bot's side of the sandbox for tests, over real HTTP: Bot API calls as JSON or as multipart bodies (with
// files, as client libraries upload them), the raw status and envelope of a refused call, and downloads.
export interface Envelope<T = unknown> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
}

/** A file part of a multipart call. */
export interface FilePart {
  data: Buffer;
  name?: string;
  type?: string;
}

export interface BotHttp {
  /** The call's HTTP status and envelope, whatever they are. */
  raw<T = unknown>(method: string, params?: Record<string, unknown>, files?: Record<string, FilePart>): Promise<{ status: number; body: Envelope<T> }>;
  /** The call's result; throws with the description when refused. */
  call<T = unknown>(method: string, params?: Record<string, unknown>, files?: Record<string, FilePart>): Promise<T>;
  /** The description of a refused call, after checking its status (400 unless told otherwise). */
  refusal(method: string, params?: Record<string, unknown>, files?: Record<string, FilePart>, status?: number): Promise<string>;
  /** GET {base}/file/bot<token>/<path>: the status and bytes. */
  download(path: string): Promise<{ status: number; data: Buffer; type: string | null }>;
}

/** The Bot API of the bot with `token` on the sandbox at `baseUrl`; with `files`, the call is multipart (other values as JSON text). */
export function botHttp(baseUrl: string, token: string): BotHttp {
  const raw = async <T>(method: string, params: Record<string, unknown> = {}, files?: Record<string, FilePart>) => {
    const init: RequestInit = files ? { method: 'POST', body: multipartBody(params, files) } : jsonInit(params);
    const response = await fetch(`${baseUrl}/bot${token}/${method}`, init);
    return { status: response.status, body: (await response.json()) as Envelope<T> };
  };
  return {
    raw,
    async call<T>(method: string, params?: Record<string, unknown>, files?: Record<string, FilePart>) {
      const { body } = await raw<T>(method, params, files);
      if (!body.ok) throw new Error(`${method}: ${body.description}`);
      return body.result as T;
    },
    async refusal(method, params, files, status = 400) {
      const answer = await raw(method, params, files);
      if (answer.status !== status) throw new Error(`${method}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.description ?? '';
    },
    async download(path) {
      const response = await fetch(`${baseUrl}/file/bot${token}/${path}`);
      return { status: response.status, data: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
    },
  };
}

function jsonInit(params: Record<string, unknown>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) };
}

function multipartBody(params: Record<string, unknown>, files: Record<string, FilePart>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(params)) form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  for (const [key, file] of Object.entries(files))
    form.append(key, new Blob([file.data], { type: file.type ?? 'application/octet-stream' }), file.name ?? 'file');
  return form;
}
